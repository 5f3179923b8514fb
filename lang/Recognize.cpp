#include "lang/Recognize.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "lang/Analysis.hpp"
#include "lang/BuiltinTable.hpp"
#include "lang/Interpreter.hpp"

namespace grundy::lang {

namespace {

// Ranges of removals (1..m, all but ...) are spelled out digit by digit up to this; longer
// ones are a tail. Removals taken from a set may go up to kMaxSpecDigit.
constexpr std::int64_t kMaxDigit = std::int64_t{1} << 16;
constexpr std::size_t kMaxBindings = std::size_t{1} << 16;

// The state's slot, what stays fixed while a rule's options are listed (parameters, and the
// clause variables enumerated when the spec is built), and the rule's range variable.
struct Ctx {
  int n_slot = -1;
  Fixed fixed;
  int inner = -1;
  std::set<int> vars() const { return {n_slot, inner}; }
};

bool invariant(const Expr& e, const Ctx& ctx) { return lang::invariant(e, ctx.fixed); }
std::optional<Lin> lin(const Expr& e, const Ctx& ctx) { return lang::lin(e, ctx.fixed, ctx.vars()); }
std::optional<Lin> as_ge0(const Expr& e, const Ctx& ctx) { return lang::as_ge0(e, ctx.fixed, ctx.vars()); }

// `k != E`, `k not in E`, `not (k in E)`: the excluded value or set, or null.
const Expr* exclusion_of(const Expr& e, int k, const Ctx& ctx, bool& is_set) {
  auto is_k = [&](const Expr& x) {
    return x.kind == ExprKind::Name && x.binding.to == Binding::To::Local && x.binding.index == k;
  };
  if (e.kind == ExprKind::Unary && e.prefix == PrefixOp::Not) {
    const Expr& in = *e.args[0];
    if (in.kind == ExprKind::Binary && in.op == BinOp::In && is_k(*in.args[0]) &&
        invariant(*in.args[1], ctx)) {
      is_set = true;
      return in.args[1].get();
    }
    return nullptr;
  }
  if (e.kind != ExprKind::Binary) return nullptr;
  if (e.op == BinOp::NotIn && is_k(*e.args[0]) && invariant(*e.args[1], ctx)) {
    is_set = true;
    return e.args[1].get();
  }
  if (e.op == BinOp::Ne) {
    for (int i = 0; i < 2; ++i) {
      if (is_k(*e.args[i]) && invariant(*e.args[1 - i], ctx)) {
        is_set = false;
        return e.args[1 - i].get();
      }
    }
  }
  return nullptr;
}

// ---- the plan of one rule ----

struct KPred {
  const Expr* expr;
  const Expr* excluded = nullptr;  // set when the predicate only excludes values
  bool excluded_set = false;
};

struct RulePlan {
  enum class Kind : std::uint8_t {
    Take,       // one heap n - j, j from the enumerated bindings
    TakeRange,  // one heap n - j, j = k + c0 for k in lo..hi
    HeapRange,  // one heap k for k in lo..n-d: removals d, d+1, ... (a tail)
    Split,      // two heaps a, n - c - a for a in lo..hi
  };
  Kind kind = Kind::Take;
  std::vector<const Clause*> outer;  // enumerated when building, in order
  std::vector<const Expr*> filters;  // conditions over parameters and outer variables
  Lin j;                             // Take: the removal; Split: c
  std::int64_t e = 0;                // Take(Range): the heap left has at least e tokens
  int k_slot = -1;                   // TakeRange / HeapRange / Split: the range variable
  const Expr* lo = nullptr;
  const Expr* hi = nullptr;  // TakeRange: invariant upper bound or null
  std::vector<KPred> preds;  // TakeRange: predicates over k alone
  Lin d;                     // HeapRange: k <= n - d
  bool halved = false;       // Split: a <= (m + delta) / 2 rather than m + delta
  std::int64_t delta = 0;
  bool no_equal = false;    // Split: not a == n - c - a (`!=` or `<`)
  bool lower_half = false;  // Split: not a > n - c - a (`<` or `<=`)
};

std::optional<RulePlan> analyze(const GameItem& it, const Ctx& base) {
  if (it.exprs.empty() || it.exprs.size() > 2) return std::nullopt;
  RulePlan plan;
  Ctx ctx = base;
  const Clause* range = nullptr;
  for (const Clause& c : it.clauses) {
    if (c.kind != Clause::Kind::For) continue;
    if (c.slots.size() != 1 || range) return std::nullopt;  // the range variable comes last
    if (invariant(*c.expr, ctx)) {
      ctx.fixed.fixed.insert(c.slots[0]);
      plan.outer.push_back(&c);
    } else if (c.expr->kind == ExprKind::Range) {
      range = &c;
      ctx.inner = c.slots[0];
    } else {
      return std::nullopt;
    }
  }
  std::vector<const Expr*> rest;  // conditions that depend on n or on the range variable
  for (const Clause& c : it.clauses) {
    if (c.kind != Clause::Kind::If) continue;
    if (invariant(*c.expr, ctx)) plan.filters.push_back(c.expr.get());
    else rest.push_back(c.expr.get());
  }
  const int n = ctx.n_slot;

  // The heap left must have at least e tokens, by conditions F >= 0 with F = P + const.
  auto lower_bound = [&](const Lin& part, const Lin& f, std::optional<std::int64_t>& e) {
    std::int64_t d = 0;
    if (!differ_by_constant(f, part, d)) return false;
    if (d == INT64_MIN) return false;
    const std::int64_t need = -d;  // F = P + d >= 0  <=>  P >= -d
    e = e ? std::max(*e, need) : need;
    return true;
  };

  if (it.exprs.size() == 1) {
    auto part = lin(*it.exprs[0], ctx);
    if (!part) return std::nullopt;
    if (!range) {
      // move n - j: j over the enumerated bindings.
      if (part->coef(n) != 1) return std::nullopt;
      Lin rest_of = part->without(n);
      plan.kind = RulePlan::Kind::Take;
      if (!plan.j.add(rest_of, -1)) return std::nullopt;
      std::optional<std::int64_t> e;
      for (const Expr* c : rest) {
        auto f = as_ge0(*c, ctx);
        if (!f || !lower_bound(*part, *f, e)) return std::nullopt;
      }
      if (!e || *e < 0 || *e > 1) return std::nullopt;
      plan.e = *e;
      return plan;
    }
    if (!plan.outer.empty()) return std::nullopt;
    const int k = ctx.inner;
    plan.k_slot = k;
    plan.lo = range->expr->args[0].get();
    if (!invariant(*plan.lo, ctx)) return std::nullopt;
    const Expr& hi = *range->expr->args[1];
    if (part->coef(k) == 1 && part->coef(n) == 0) {
      // move k for k in lo..n-d: the heap k, removals n - k >= d.
      if (!part->without(k).constant() || part->c != 0 || !rest.empty()) return std::nullopt;
      auto h = lin(hi, ctx);
      if (!h || h->coef(n) != 1 || h->coef(k) != 0) return std::nullopt;
      plan.kind = RulePlan::Kind::HeapRange;
      if (!plan.d.add(h->without(n), -1)) return std::nullopt;
      return plan;
    }
    if (part->coef(n) != 1 || part->coef(k) != -1) return std::nullopt;
    // move n - k - c0 for k in lo..hi: the removal is k + c0.
    plan.kind = RulePlan::Kind::TakeRange;
    if (!plan.j.add(part->without(n).without(k), -1)) return std::nullopt;  // c0
    Lin k_lin;
    k_lin.slots[k] = 1;
    std::optional<std::int64_t> e;
    std::vector<const Expr*> bounds;
    if (hi.kind == ExprKind::Call && hi.args[0]->kind == ExprKind::Name &&
        hi.args[0]->binding.to == Binding::To::Builtin &&
        static_cast<Builtin>(hi.args[0]->binding.index) == Builtin::Min && hi.args.size() == 3 &&
        hi.clauses.empty()) {
      bounds = {hi.args[1].get(), hi.args[2].get()};
    } else {
      bounds = {&hi};
    }
    for (const Expr* b : bounds) {
      if (invariant(*b, ctx)) {
        if (plan.hi) return std::nullopt;
        plan.hi = b;
        continue;
      }
      auto bl = lin(*b, ctx);  // k <= b  <=>  b - k >= 0
      if (!bl) return std::nullopt;
      auto f = minus(*bl, k_lin);
      if (!f || !lower_bound(*part, *f, e)) return std::nullopt;
    }
    for (const Expr* c : rest) {
      if (!mentions(*c, n)) {
        KPred p{c};
        p.excluded = exclusion_of(*c, k, ctx, p.excluded_set);
        plan.preds.push_back(p);
        continue;
      }
      auto f = as_ge0(*c, ctx);
      if (!f || !lower_bound(*part, *f, e)) return std::nullopt;
    }
    if (!e || *e < 0 || *e > 1) return std::nullopt;
    plan.e = *e;
    return plan;
  }

  // split [a, n - c - a] for ... for a in lo..hi
  if (!range || it.kind != GameItem::Kind::Split) return std::nullopt;
  const int a = ctx.inner;
  auto p0 = lin(*it.exprs[0], ctx);
  auto p1 = lin(*it.exprs[1], ctx);
  if (!p0 || !p1) return std::nullopt;
  auto is_a = [&](const Lin& l) {
    return l.c == 0 && l.opaque.empty() && l.slots.size() == 1 && l.coef(a) == 1;
  };
  const Lin* other = is_a(*p0) ? &*p1 : is_a(*p1) ? &*p0 : nullptr;
  if (!other || other->coef(n) != 1 || other->coef(a) != -1) return std::nullopt;
  Lin m = other->without(a);  // n - c
  plan.kind = RulePlan::Kind::Split;
  plan.k_slot = a;
  if (!plan.j.add(m.without(n), -1)) return std::nullopt;  // c
  plan.lo = range->expr->args[0].get();
  if (!invariant(*plan.lo, ctx)) return std::nullopt;
  const Expr* hi = range->expr->args[1].get();
  if (hi->kind == ExprKind::Binary && hi->op == BinOp::Div && hi->args[1]->kind == ExprKind::Int &&
      hi->args[1]->ival == 2) {
    plan.halved = true;
    hi = hi->args[0].get();
  }
  auto hl = lin(*hi, ctx);
  if (!hl || !differ_by_constant(*hl, m, plan.delta) || plan.delta < -1 || plan.delta > 0) {
    return std::nullopt;
  }
  // Conditions between the two parts: `a != m - a` drops the split into equal parts;
  // `a < m - a` (or `2 * a < m`, `m - a > a`, ...) keeps the lower half without it and
  // `a <= m - a` the lower half with it. The lower half holds every pair of parts once.
  Lin two_a_minus_m;  // 2a - m
  two_a_minus_m.slots[a] = 2;
  if (!two_a_minus_m.add(m, -1)) return std::nullopt;
  Lin m_minus_two_a;
  if (!m_minus_two_a.add(two_a_minus_m, -1)) return std::nullopt;
  for (const Expr* c : rest) {
    if (c->kind != ExprKind::Binary) return std::nullopt;
    const BinOp op = c->op;
    auto l = lin(*c->args[0], ctx);
    auto r = lin(*c->args[1], ctx);
    if (!l || !r) return std::nullopt;
    std::int64_t k = 0;
    if (op == BinOp::Ne) {
      auto diff = minus(*l, *r);
      if (!diff || !((differ_by_constant(*diff, two_a_minus_m, k) && k == 0) ||
                     (differ_by_constant(*diff, m_minus_two_a, k) && k == 0))) {
        return std::nullopt;
      }
      plan.no_equal = true;
      continue;
    }
    // D <= u with D = 2a - m + k: 2a - m <= u - k, which must be -1 (a < m - a) or 0.
    const bool less = op == BinOp::Lt || op == BinOp::Le;
    if (!less && op != BinOp::Gt && op != BinOp::Ge) return std::nullopt;
    auto diff = less ? minus(*l, *r) : minus(*r, *l);
    const std::int64_t u = op == BinOp::Lt || op == BinOp::Gt ? -1 : 0;
    if (!diff || !differ_by_constant(*diff, two_a_minus_m, k) || k < -1 || k > 1) return std::nullopt;
    const std::int64_t t = u - k;
    if (t < -1 || t > 0) return std::nullopt;
    plan.lower_half = true;
    if (t == -1) plan.no_equal = true;
  }
  return plan;
}

// ---- building a spec ----

class Builder {
 public:
  Builder(Interpreter& m, Frame& frame) : m_(m), frame_(frame) {}

  std::optional<std::int64_t> int_of(const Expr& e) {
    Value v = m_.eval(e, frame_);
    if (!v.is(Kind::Int)) return std::nullopt;
    return v.as_int();
  }
  std::optional<std::int64_t> eval(const Lin& l) {
    std::int64_t r = l.c;
    for (const auto& [s, k] : l.slots) {
      const Value& v = frame_[static_cast<std::size_t>(s)];
      if (!v.is(Kind::Int)) return std::nullopt;
      std::int64_t t = 0;
      if (__builtin_mul_overflow(v.as_int(), k, &t) || __builtin_add_overflow(r, t, &r)) return std::nullopt;
    }
    for (const auto& [e, k] : l.opaque) {
      auto v = int_of(*e);
      std::int64_t t = 0;
      if (!v || __builtin_mul_overflow(*v, k, &t) || __builtin_add_overflow(r, t, &r)) return std::nullopt;
    }
    return r;
  }
  // Every binding of the plan's outer variables that passes its filters; false to give up.
  bool each_binding(const RulePlan& plan, const std::function<bool()>& body) { return bind(plan, 0, body); }
  bool add_digit(std::int64_t j, std::uint8_t bits) {
    if (j < 0 || j > kMaxSpecDigit) return false;
    digits_[j] |= bits;
    return true;
  }
  void add_tail(std::int64_t from, std::uint8_t bits, std::int64_t end) {
    tails_.push_back({from, bits, end});
  }
  std::optional<HeapSpec> finish() {
    HeapSpec spec;
    std::int64_t K = digits_.empty() ? 0 : digits_.rbegin()->first + 1;
    std::int64_t end = INT64_MAX;
    std::uint8_t tail = 0;
    for (const Tail& t : tails_) {
      K = std::max(K, t.from);
      if (tail && t.end != end) return std::nullopt;
      end = t.end;
      tail |= t.bits;
    }
    if (K > kMaxSpecDigit + 1) return std::nullopt;
    spec.digits.assign(static_cast<std::size_t>(K), 0);
    for (const auto& [j, bits] : digits_) spec.digits[static_cast<std::size_t>(j)] |= bits;
    for (const Tail& t : tails_) {
      for (std::int64_t j = t.from; j < K && j <= t.end; ++j)
        spec.digits[static_cast<std::size_t>(j)] |= t.bits;
    }
    if (!spec.digits.empty() && (spec.digits[0] & (HeapSpec::kNone | HeapSpec::kOne))) return std::nullopt;
    spec.tail = tail;
    spec.tail_end = tail ? end : INT64_MAX;
    if (tail && end < K) {
      spec.tail = 0;
      spec.tail_end = INT64_MAX;
    }
    spec.normalize();
    return spec;
  }

 private:
  struct Tail {
    std::int64_t from;
    std::uint8_t bits;
    std::int64_t end;
  };

  bool bind(const RulePlan& plan, std::size_t i, const std::function<bool()>& body) {
    if (i == plan.outer.size()) {
      for (const Expr* f : plan.filters) {
        if (!m_.condition(*f, frame_, "the condition of `if`")) return true;
      }
      if (++bindings_ > kMaxBindings) return false;
      return body();
    }
    const Clause& c = *plan.outer[i];
    Iteration iter;
    iter.start(m_.eval(*c.expr, frame_), c.expr->where);
    Value v;
    while (iter.next(v)) {
      if (++bindings_ > kMaxBindings) return false;
      frame_[static_cast<std::size_t>(c.slots[0])] = v;
      if (!bind(plan, i + 1, body)) return false;
    }
    return true;
  }

  Interpreter& m_;
  Frame& frame_;
  std::size_t bindings_ = 0;
  std::map<std::int64_t, std::uint8_t> digits_;
  std::vector<Tail> tails_;
};

constexpr std::uint8_t kLeave = HeapSpec::kNone | HeapSpec::kOne;

bool build_rule(const RulePlan& plan, Builder& b, Frame& frame, Interpreter& m) {
  switch (plan.kind) {
    case RulePlan::Kind::Take:
      return b.each_binding(plan, [&] {
        auto j = b.eval(plan.j);
        if (!j || *j < 1) return false;  // j = 0 loops; j < 0 grows
        return b.add_digit(*j, plan.e == 0 ? kLeave : HeapSpec::kOne);
      });
    case RulePlan::Kind::HeapRange: {
      auto lo = b.int_of(*plan.lo);
      auto d = b.eval(plan.d);
      if (!lo || !d || *lo < 0 || *lo > 1 || *d < 1) return false;
      b.add_tail(*d, *lo == 0 ? kLeave : HeapSpec::kOne, INT64_MAX);
      return true;
    }
    case RulePlan::Kind::TakeRange: {
      auto lo = b.int_of(*plan.lo);
      auto c0 = b.eval(plan.j);
      if (!lo || !c0) return false;
      std::int64_t first = 0;  // the smallest removal; 0 would loop, below 0 grow
      if (__builtin_add_overflow(*lo, *c0, &first) || first < 1) return false;
      std::optional<std::int64_t> hi;
      if (plan.hi) {
        hi = b.int_of(*plan.hi);
        if (!hi) return false;
      }
      std::int64_t last = INT64_MAX;  // the largest removal
      if (hi && __builtin_add_overflow(*hi, *c0, &last)) return false;
      if (hi && last < first) return true;  // no removal at all
      const std::uint8_t bits = plan.e == 0 ? kLeave : HeapSpec::kOne;
      auto passes = [&](std::int64_t k) {
        frame[static_cast<std::size_t>(plan.k_slot)] = Value::integer(k);
        for (const KPred& p : plan.preds) {
          if (!m.condition(*p.expr, frame, "the condition of `if`")) return false;
        }
        return true;
      };
      if (hi && last - first < kMaxDigit) {
        for (std::int64_t j = first; j <= last; ++j) {
          if (passes(j - *c0) && !b.add_digit(j, bits)) return false;
        }
        return true;
      }
      // A tail: only exclusions are understood, listed up to the largest excluded value.
      std::int64_t explicit_to = first;  // digits below this are explicit
      for (const KPred& p : plan.preds) {
        if (!p.excluded) return false;
        Value x = m.eval(*p.excluded, frame);
        std::vector<Value> xs;
        if (p.excluded_set) {
          if (x.is(Kind::Range)) {
            const std::int64_t from = x.range_lo(), to = x.range_hi();
            // In uint64: to - from may not fit an int64, and the range may end at INT64_MAX.
            if (to >= from && static_cast<std::uint64_t>(to) - static_cast<std::uint64_t>(from) > kMaxDigit) {
              return false;
            }
            for (std::int64_t v = from; to >= from; ++v) {
              xs.push_back(Value::integer(v));
              if (v == to) break;
            }
          } else if (x.is(Kind::List) || x.is(Kind::Set) || x.is(Kind::Tuple)) {
            xs = x.items();
          } else {
            return false;
          }
        } else {
          xs.push_back(x);
        }
        for (const Value& v : xs) {
          if (!v.is(Kind::Int)) continue;  // never equal to an int k
          std::int64_t j = 0;
          if (__builtin_add_overflow(v.as_int(), *c0, &j)) continue;
          if (j >= first && j < kMaxDigit) explicit_to = std::max(explicit_to, j + 1);
          else if (j >= kMaxDigit && j <= last) return false;
        }
      }
      for (std::int64_t j = first; j < explicit_to && j <= last; ++j) {
        if (passes(j - *c0) && !b.add_digit(j, bits)) return false;
      }
      if (explicit_to <= last) b.add_tail(explicit_to, bits, last);
      return true;
    }
    case RulePlan::Kind::Split:
      return b.each_binding(plan, [&] {
        auto lo = b.int_of(*plan.lo);
        auto c = b.eval(plan.j);
        if (!lo || !c || *lo < 0 || *lo > 1 || *c < 0) return false;
        if (*c == 0 && *lo == 0) return false;  // [0, n]: the heap itself, a loop
        // a in [0, (m + 0) / 2] reaches a = 0, m - a = m < 0 when m == -1 (`/` truncates).
        if (plan.halved && plan.delta == 0 && *lo == 0 && *c >= 1 && !plan.lower_half) return false;
        // Which splits [a, m - a] the range and the conditions let through, for each m:
        // the equal parts (m even), one heap m (a = 0, or a = m at the top of a full range),
        // and nothing at all (a = 0 when m = 0: the split [0, 0]).
        const bool equal_parts = (!plan.halved || plan.delta == 0) && !plan.no_equal;
        const bool one_heap = *lo == 0 || (!plan.halved && plan.delta == 0 && !plan.lower_half);
        const bool nothing = *lo == 0 && (plan.halved || plan.delta == 0) && !plan.no_equal;
        std::uint8_t bits = HeapSpec::kTwo;
        if (!equal_parts) bits |= HeapSpec::kUnequal;
        if (one_heap) bits |= HeapSpec::kOne;
        if (nothing) bits |= HeapSpec::kNone;
        return b.add_digit(*c, bits);
      });
  }
  return false;
}

class Shape : public HeapShape {
 public:
  Shape(const GameDecl& decl, std::vector<RulePlan> plans) : decl_(decl), plans_(std::move(plans)) {}

  std::optional<HeapSpec> spec(const GameInstance& game, Interpreter& m) const override {
    Frame frame(static_cast<std::size_t>(decl_.frame_size));
    const auto& params = game.params().items();
    std::copy(params.begin(), params.end(), frame.begin());
    Builder b(m, frame);
    try {
      for (const RulePlan& p : plans_) {
        if (!build_rule(p, b, frame, m)) return std::nullopt;
      }
    } catch (const Error& e) {
      if (e.kind == ErrorKind::Interrupted) throw;
      return std::nullopt;  // the general evaluation meets the error where it applies
    }
    return b.finish();
  }

 private:
  const GameDecl& decl_;
  std::vector<RulePlan> plans_;
};

}  // namespace

std::unique_ptr<HeapShape> recognize_heap(const GameDecl& decl) {
  if (decl.form != GameDecl::Form::Rules) return nullptr;
  Ctx ctx;
  ctx.fixed.params = static_cast<int>(decl.params.size());
  std::vector<RulePlan> plans;
  for (const GameItem& it : decl.items) {
    switch (it.kind) {
      case GameItem::Kind::State:
        if (it.tuple_pattern || it.slots.size() != 1 || ctx.n_slot >= 0) return nullptr;
        ctx.n_slot = it.slots[0];
        break;
      case GameItem::Kind::Let:
      case GameItem::Kind::Formula: return nullptr;
      case GameItem::Kind::Move:
      case GameItem::Kind::Split: {
        if (ctx.n_slot < 0) return nullptr;
        auto plan = analyze(it, ctx);
        if (!plan) return nullptr;
        plans.push_back(std::move(*plan));
        break;
      }
    }
  }
  if (ctx.n_slot < 0 || plans.empty()) return nullptr;
  return std::make_unique<Shape>(decl, std::move(plans));
}

}  // namespace grundy::lang
