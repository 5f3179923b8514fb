#include "lang/Compile.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "lang/Builtins.hpp"
#include "lang/Machine.hpp"
#include "runtime/Tuples.hpp"

namespace grundy::lang {

namespace {

enum class Op : std::uint8_t {
  Const,
  Reg,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Pow,
  Xor,
  Neg,
  Min,
  Max,
  Abs,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  And,
  Or,
  Not,
  If,
  InSet,
};
enum class Ty : std::uint8_t { Int, Bool };

struct Node {
  Op op = Op::Const;
  std::int32_t a = -1, b = -1, c = -1;
  std::int64_t v = 0;  // Const: the value; Reg: the slot; InSet: the set
};

constexpr int kMaxParts = 8;
constexpr std::int64_t kStepBudget = std::int64_t{1} << 24;  // loop steps per state

struct Code {
  std::vector<Node> nodes;
  std::vector<std::vector<std::int64_t>> sets;  // sorted

  // A leaf read in place: most operands are a register or a constant (`w - i`, `2 * k`),
  // and a call per leaf was a third of the cost of listing a state's runs.
  std::int64_t operand(std::int32_t i, std::int64_t* r, bool& bail) const {
    const Node& n = nodes[static_cast<std::size_t>(i)];
    if (n.op == Op::Reg) return r[n.v];
    if (n.op == Op::Const) return n.v;
    return eval(i, r, bail);
  }

  std::int64_t eval(std::int32_t i, std::int64_t* r, bool& bail) const {
    const Node& n = nodes[static_cast<std::size_t>(i)];
    auto fail = [&] {
      bail = true;
      return std::int64_t{0};
    };
    switch (n.op) {
      case Op::Const: return n.v;
      case Op::Reg: return r[n.v];
      case Op::Neg: {
        const std::int64_t x = eval(n.a, r, bail);
        return x == INT64_MIN ? fail() : -x;
      }
      case Op::Abs: {
        const std::int64_t x = eval(n.a, r, bail);
        return x == INT64_MIN ? fail() : x < 0 ? -x : x;
      }
      case Op::Not: return eval(n.a, r, bail) ? 0 : 1;
      case Op::And: return eval(n.a, r, bail) ? (eval(n.b, r, bail) ? 1 : 0) : 0;
      case Op::Or: return eval(n.a, r, bail) ? 1 : (eval(n.b, r, bail) ? 1 : 0);
      case Op::If: return eval(n.a, r, bail) ? eval(n.b, r, bail) : eval(n.c, r, bail);
      case Op::InSet: {
        const auto& s = sets[static_cast<std::size_t>(n.v)];
        return std::binary_search(s.begin(), s.end(), eval(n.a, r, bail)) ? 1 : 0;
      }
      default: break;
    }
    const std::int64_t x = operand(n.a, r, bail);
    const std::int64_t y = operand(n.b, r, bail);
    std::int64_t z = 0;
    switch (n.op) {
      case Op::Add: return __builtin_add_overflow(x, y, &z) ? fail() : z;
      case Op::Sub: return __builtin_sub_overflow(x, y, &z) ? fail() : z;
      case Op::Mul: return __builtin_mul_overflow(x, y, &z) ? fail() : z;
      case Op::Div: return y == 0 || (x == INT64_MIN && y == -1) ? fail() : x / y;
      case Op::Mod: return y == 0 ? fail() : y == -1 ? 0 : x % y;  // INT64_MIN % -1 is 0, but traps in C++
      case Op::Pow: {
        if (y < 0) return fail();
        std::int64_t result = 1, base = x, e = y;
        while (e > 0) {
          if ((e & 1) && __builtin_mul_overflow(result, base, &result)) return fail();
          e >>= 1;
          if (e > 0 && __builtin_mul_overflow(base, base, &base)) return fail();
        }
        return result;
      }
      case Op::Xor: return x ^ y;
      case Op::Min: return std::min(x, y);
      case Op::Max: return std::max(x, y);
      case Op::Lt: return x < y;
      case Op::Le: return x <= y;
      case Op::Gt: return x > y;
      case Op::Ge: return x >= y;
      case Op::Eq: return x == y;
      case Op::Ne: return x != y;
      default: return fail();
    }
  }

  // ---- flat programs ----
  // The value array of a state's options: the frame's registers first (so that the tree
  // walk above reads the same slots), then the constants, then one slot per instruction.
  // A root expression becomes a straight list of instructions, one per operator, over
  // that array; what must not be evaluated eagerly (and, or, if: a branch not taken may
  // divide by zero) is one instruction that walks its tree.
  struct Instr {
    Op op;
    bool tree = false;  // evaluate node `a` by the tree walk
    std::int32_t dst = 0, a = 0, b = 0;
    std::int32_t node = -1;  // the node computed
  };
  struct Prog {
    std::vector<Instr> code;
  };
  std::int32_t frame = 0;
  std::vector<std::int64_t> consts;  // at frame + i
  std::int32_t temps = 0;            // after the constants

  std::int32_t values() const { return frame + static_cast<std::int32_t>(consts.size()) + temps; }

  // Where node i's value is once `p` has run: appends the instructions that compute it.
  // Temporaries are numbered from 0 here and moved past the constants by `seal`.
  std::int32_t place(std::int32_t i, Prog& p) {
    const Node& n = nodes[static_cast<std::size_t>(i)];
    if (n.op == Op::Reg) return static_cast<std::int32_t>(n.v);
    if (n.op == Op::Const) {
      for (std::size_t k = 0; k < consts.size(); ++k) {
        if (consts[k] == n.v) return frame + static_cast<std::int32_t>(k);
      }
      consts.push_back(n.v);
      return frame + static_cast<std::int32_t>(consts.size() - 1);
    }
    Instr in;
    in.op = n.op;
    in.node = i;
    switch (n.op) {
      case Op::And:
      case Op::Or:
      case Op::If:
      case Op::InSet:
      case Op::Pow:
        in.tree = true;
        in.a = i;
        break;
      case Op::Neg:
      case Op::Abs:
      case Op::Not: in.a = place(n.a, p); break;
      default:
        in.a = place(n.a, p);
        in.b = place(n.b, p);
        break;
    }
    in.dst = -1 - temps++;  // a temporary, placed by seal
    p.code.push_back(in);
    return in.dst;
  }
  // Once every program is built: temporaries (negative places) go after the constants.
  std::int32_t sealed(std::int32_t at) const {
    return at >= 0 ? at : frame + static_cast<std::int32_t>(consts.size()) + (-1 - at);
  }
  void seal(Prog& p) const {
    for (Instr& in : p.code) {
      in.dst = sealed(in.dst);
      if (!in.tree) {
        in.a = sealed(in.a);
        in.b = sealed(in.b);
      }
    }
  }

  // Runs p over the value array v; false on an overflow, a division by zero, ...
  [[gnu::always_inline]] bool exec(const Prog& p, std::int64_t* v) const {
    for (const Instr& in : p.code) {
      std::int64_t z = 0;
      if (in.tree) {
        bool bail = false;
        z = eval(in.a, v, bail);
        if (bail) return false;
        v[in.dst] = z;
        continue;
      }
      const std::int64_t x = v[in.a];
      const std::int64_t y = v[in.b];
      switch (in.op) {
        case Op::Add:
          if (__builtin_add_overflow(x, y, &z)) return false;
          break;
        case Op::Sub:
          if (__builtin_sub_overflow(x, y, &z)) return false;
          break;
        case Op::Mul:
          if (__builtin_mul_overflow(x, y, &z)) return false;
          break;
        case Op::Div:
          if (y == 0 || (x == INT64_MIN && y == -1)) return false;
          z = x / y;
          break;
        case Op::Mod:
          if (y == 0) return false;
          z = y == -1 ? 0 : x % y;
          break;
        case Op::Xor: z = x ^ y; break;
        case Op::Min: z = std::min(x, y); break;
        case Op::Max: z = std::max(x, y); break;
        case Op::Lt: z = x < y; break;
        case Op::Le: z = x <= y; break;
        case Op::Gt: z = x > y; break;
        case Op::Ge: z = x >= y; break;
        case Op::Eq: z = x == y; break;
        case Op::Ne: z = x != y; break;
        case Op::Neg:
          if (x == INT64_MIN) return false;
          z = -x;
          break;
        case Op::Abs:
          if (x == INT64_MIN) return false;
          z = x < 0 ? -x : x;
          break;
        case Op::Not: z = x ? 0 : 1; break;
        default: return false;
      }
      v[in.dst] = z;
    }
    return true;
  }

  bool mentions(std::int32_t i, std::int64_t slot) const {
    if (i < 0) return false;
    const Node& n = nodes[static_cast<std::size_t>(i)];
    if (n.op == Op::Reg) return n.v == slot;
    return mentions(n.a, slot) || mentions(n.b, slot) || mentions(n.c, slot);
  }

  // d(node)/d(slot) when the node is affine in the slot with a constant slope.
  std::optional<std::int64_t> slope(std::int32_t i, std::int64_t slot) const {
    if (!mentions(i, slot)) return 0;
    const Node& n = nodes[static_cast<std::size_t>(i)];
    std::int64_t z = 0;
    switch (n.op) {
      case Op::Reg: return 1;
      case Op::Neg: {
        auto s = slope(n.a, slot);
        if (!s || *s == INT64_MIN) return std::nullopt;
        return -*s;
      }
      case Op::Add:
      case Op::Sub: {
        auto s = slope(n.a, slot), t = slope(n.b, slot);
        if (!s || !t) return std::nullopt;
        if (n.op == Op::Add ? __builtin_add_overflow(*s, *t, &z) : __builtin_sub_overflow(*s, *t, &z)) {
          return std::nullopt;
        }
        return z;
      }
      case Op::Mul: {
        const Node& a = nodes[static_cast<std::size_t>(n.a)];
        const Node& b = nodes[static_cast<std::size_t>(n.b)];
        std::optional<std::int64_t> s;
        std::int64_t k = 0;
        if (a.op == Op::Const) {
          k = a.v;
          s = slope(n.b, slot);
        } else if (b.op == Op::Const) {
          k = b.v;
          s = slope(n.a, slot);
        }
        if (!s || __builtin_mul_overflow(*s, k, &z)) return std::nullopt;
        return z;
      }
      default: return std::nullopt;
    }
  }
};

struct CClause {
  enum class Kind : std::uint8_t { Range, List, If } kind = Kind::If;
  std::int64_t slot = -1;
  std::int32_t lo = -1, hi = -1;  // Range; If: lo is the condition
  std::vector<std::int64_t> list;
  Code::Prog prog;  // computes lo and hi into their places
  std::int32_t lo_at = 0, hi_at = 0;
};

struct CItem {
  bool let = false;
  std::int64_t slot = -1;  // Let
  std::int32_t expr = -1;  // Let
  Code::Prog prog;         // Let: computes expr; a rule: computes the coordinates
  std::int32_t expr_at = 0;
  std::vector<CClause> clauses;
  std::vector<std::int32_t> coords;  // parts * arity nodes
  std::vector<std::int32_t> coords_at;
  int parts = 0;
  bool affine = false;               // the last clause is a range and every coordinate is affine in it
  std::vector<std::int64_t> slopes;  // per coordinate
  bool still = false;                // affine with every slope 0: the same option throughout
  // Affine: the places of the values in `prog` that move with the range's variable, and
  // their slopes. Their values at the range's end follow from those at its start.
  std::vector<std::pair<std::int32_t, std::int64_t>> moving;
};

class Compiled : public IntRules {
 public:
  Compiled(int arity, std::vector<std::int64_t> state_slots, std::vector<CItem> items, Code code)
      : arity_(arity),
        state_slots_(std::move(state_slots)),
        items_(std::move(items)),
        code_(std::move(code)) {}

  int arity() const override { return arity_; }
  int max_parts() const override {
    int most = 0;
    for (const CItem& it : items_) most = std::max(most, it.parts);
    return most;
  }

  bool options(const std::int64_t* state, OptionSink& sink) const override {
    std::int64_t small[256];
    std::vector<std::int64_t> big;
    std::int64_t* r = small;
    const std::int32_t n = code_.values();
    if (n > 256) {
      big.assign(static_cast<std::size_t>(n), 0);
      r = big.data();
    }
    for (std::size_t i = 0; i < state_slots_.size(); ++i) r[state_slots_[i]] = state[i];
    std::copy(code_.consts.begin(), code_.consts.end(), r + code_.frame);
    std::int64_t budget = kStepBudget;
    for (const CItem& it : items_) {
      if (it.let) {
        if (!code_.exec(it.prog, r)) return false;
        r[it.slot] = r[it.expr_at];
        continue;
      }
      if (!clauses(it, 0, r, sink, budget)) return false;
    }
    return true;
  }

 private:
  bool coords_of(const CItem& it, std::int64_t* r, std::int64_t* out) const {
    if (!code_.exec(it.prog, r)) return false;
    for (std::size_t q = 0; q < it.coords_at.size(); ++q) out[q] = r[it.coords_at[q]];
    return true;
  }

  // Takes n steps from a state's budget: false when they are not there. The sink is pulsed
  // whenever the budget comes down to or past a multiple of 2^16, however it is spent (steps
  // of 1 in one loop and of 1 in a nested run alternate, and a test of `budget % 2^16 == 0`
  // in either alone may never be true); not at a state's first step, although the budget
  // starts at a multiple (a pulse per state was a tenth of the outcome search).
  static bool spend(std::int64_t& budget, std::int64_t n, OptionSink& sink) {
    if (n > budget) return false;
    const std::int64_t before = budget;
    budget -= n;
    if (((before - 1) >> 16) != ((budget - 1) >> 16)) sink.pulse();
    return true;
  }

  // The options of an affine item's last clause (a range lo..hi) as one run. The compiled
  // code runs once, at lo: every value in it that moves with the range's variable is affine
  // in it, so it takes its largest and smallest values at the two ends, and its value at hi
  // (the one at lo plus its slope times the span) fits in 64 bits exactly when evaluating
  // at hi would not overflow; the options between cannot overflow then either.
  bool affine_run(const CItem& it, const CClause& c, std::int64_t lo, std::int64_t hi, std::int64_t* r,
                  OptionSink& sink, std::int64_t& budget) const {
    std::int64_t span = 0;
    if (__builtin_sub_overflow(hi, lo, &span) || span == INT64_MAX) return false;
    r[c.slot] = lo;
    std::int64_t first[kMaxParts * kMaxBoxArity];
    if (!coords_of(it, r, first)) return false;
    for (const auto& [at, slope] : it.moving) {
      std::int64_t d = 0, end = 0;
      if (__builtin_mul_overflow(slope, span, &d) || __builtin_add_overflow(r[at], d, &end)) return false;
    }
    // A run counts against the state's budget like the loop it replaces, so that a state
    // with millions of options in runs still gives up (the rules as written then meet
    // their step limit), and still lets Ctrl-C in.
    if (!spend(budget, span + 1, sink)) return false;
    // Slope 0 in every coordinate: the same option span + 1 times, which is one option.
    if (it.still) return sink.option(first, it.parts);
    return sink.run(first, it.slopes.data(), it.parts, span + 1);
  }

  bool clauses(const CItem& it, std::size_t ci, std::int64_t* r, OptionSink& sink,
               std::int64_t& budget) const {
    std::int64_t coords[kMaxParts * kMaxBoxArity];
    if (ci == it.clauses.size()) {
      if (!coords_of(it, r, coords)) return false;
      return sink.option(coords, it.parts);
    }
    const CClause& c = it.clauses[ci];
    switch (c.kind) {
      case CClause::Kind::If: {
        if (!code_.exec(c.prog, r)) return false;
        return r[c.lo_at] != 0 ? clauses(it, ci + 1, r, sink, budget) : true;
      }
      case CClause::Kind::List:
        for (std::int64_t x : c.list) {
          if (!spend(budget, 1, sink)) return false;
          r[c.slot] = x;
          if (!clauses(it, ci + 1, r, sink, budget)) return false;
        }
        return true;
      case CClause::Kind::Range: {
        if (!code_.exec(c.prog, r)) return false;
        const std::int64_t lo = r[c.lo_at];
        const std::int64_t hi = r[c.hi_at];
        if (hi < lo) return true;
        if (it.affine && ci + 1 == it.clauses.size()) return affine_run(it, c, lo, hi, r, sink, budget);
        for (std::int64_t x = lo;; ++x) {
          if (!spend(budget, 1, sink)) return false;
          r[c.slot] = x;
          if (!clauses(it, ci + 1, r, sink, budget)) return false;
          if (x == hi) break;
        }
        return true;
      }
    }
    return false;
  }

  int arity_;
  std::vector<std::int64_t> state_slots_;
  std::vector<CItem> items_;
  Code code_;
};

class Compiler {
 public:
  Compiler(const GameDecl& d, const GameInstance& g, Machine& m) : d_(d), g_(g), m_(m) {}

  std::shared_ptr<const IntRules> build() {
    const auto& params = g_.params().items();
    params_ = static_cast<int>(d_.params.size());
    if (static_cast<int>(params.size()) != params_) return nullptr;
    ty_.assign(static_cast<std::size_t>(std::max(d_.frame_size, 1)), std::nullopt);
    int arity = 0;
    std::vector<std::int64_t> state_slots;
    std::vector<CItem> items;
    for (const GameItem& it : d_.items) {
      switch (it.kind) {
        case GameItem::Kind::State:
          arity = static_cast<int>(it.slots.size());
          if (arity < 1 || arity > kMaxBoxArity || (!it.tuple_pattern && arity != 1)) return nullptr;
          for (int s : it.slots) {
            state_slots.push_back(s);
            ty_[static_cast<std::size_t>(s)] = Ty::Int;
          }
          break;
        case GameItem::Kind::Let: {
          auto e = expr(*it.exprs[0]);
          if (!e) return nullptr;
          CItem c;
          c.let = true;
          c.slot = it.slots[0];
          c.expr = e->first;
          ty_[static_cast<std::size_t>(c.slot)] = e->second;
          items.push_back(std::move(c));
          break;
        }
        case GameItem::Kind::Formula: return nullptr;  // valued by its formula, not by a table
        case GameItem::Kind::Move:
        case GameItem::Kind::Split: {
          if (arity == 0) return nullptr;
          auto c = rule(it, arity);
          if (!c) return nullptr;
          items.push_back(std::move(*c));
          break;
        }
      }
    }
    if (arity == 0 || d_.frame_size > 4096) return nullptr;
    link(items);
    return std::make_shared<Compiled>(arity, std::move(state_slots), std::move(items), std::move(code_));
  }

 private:
  using Typed = std::pair<std::int32_t, Ty>;

  // The flat programs of every expression the items evaluate (Code::place).
  void link(std::vector<CItem>& items) {
    code_.frame = std::max(d_.frame_size, 1);
    for (CItem& it : items) {
      if (it.let) it.expr_at = code_.place(it.expr, it.prog);
      for (CClause& c : it.clauses) {
        if (c.kind == CClause::Kind::List) continue;
        c.lo_at = code_.place(c.lo, c.prog);
        if (c.kind == CClause::Kind::Range) c.hi_at = code_.place(c.hi, c.prog);
      }
      for (std::int32_t q : it.coords) it.coords_at.push_back(code_.place(q, it.prog));
    }
    for (CItem& it : items) {
      code_.seal(it.prog);
      it.expr_at = code_.sealed(it.expr_at);
      for (auto& q : it.coords_at) q = code_.sealed(q);
      for (CClause& c : it.clauses) {
        code_.seal(c.prog);
        c.lo_at = code_.sealed(c.lo_at);
        c.hi_at = code_.sealed(c.hi_at);
      }
      if (it.affine) moving_values(it);
    }
  }

  // CItem::moving, from the instructions of the item's program.
  void moving_values(CItem& it) const {
    const std::int64_t k = it.clauses.back().slot;
    it.still = std::all_of(it.slopes.begin(), it.slopes.end(), [](std::int64_t d) { return d == 0; });
    for (const auto& in : it.prog.code) {
      if (!code_.mentions(in.node, k)) continue;
      const auto s = in.tree ? std::nullopt : code_.slope(in.node, k);
      if (!s) {  // cannot be, in an affine item; if it were, the plain loop is right
        it.affine = false;
        it.moving.clear();
        return;
      }
      it.moving.emplace_back(in.dst, *s);
    }
  }

  std::int32_t add(Node n) {
    code_.nodes.push_back(n);
    return static_cast<std::int32_t>(code_.nodes.size() - 1);
  }
  std::int32_t constant(std::int64_t v) {
    Node n;
    n.op = Op::Const;
    n.v = v;
    return add(n);
  }
  std::int32_t op(Op o, std::int32_t a, std::int32_t b = -1, std::int32_t c = -1) {
    Node n;
    n.op = o;
    n.a = a;
    n.b = b;
    n.c = c;
    return add(n);
  }

  // No registers (state, lets, clause variables) and nothing that queries positions.
  bool invariant(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::Name:
        if (e.binding.to == Binding::To::Local) return e.binding.index < params_;
        return e.binding.to == Binding::To::Global || e.binding.to == Binding::To::Constant;
      case ExprKind::Modifier: return false;
      case ExprKind::Call: {
        const Expr& callee = *e.args[0];
        if (callee.kind != ExprKind::Name) return false;
        if (callee.binding.to == Binding::To::Builtin) {
          if (is_query(callee.binding.index)) return false;
        } else if (callee.binding.to != Binding::To::Def) {
          return false;
        }
        if (!e.clauses.empty()) return false;
        for (std::size_t i = 1; i < e.args.size(); ++i) {
          if (!invariant(*e.args[i])) return false;
        }
        return true;
      }
      default:
        if (!e.clauses.empty()) return false;
        for (const auto& a : e.args) {
          if (!invariant(*a)) return false;
        }
        return true;
    }
  }

  std::optional<Value> value_of(const Expr& e) {
    Frame frame(static_cast<std::size_t>(std::max(d_.frame_size, 1)));
    const auto& params = g_.params().items();
    std::copy(params.begin(), params.end(), frame.begin());
    try {
      return m_.eval(e, frame);
    } catch (const Error& err) {
      if (err.kind == ErrorKind::Interrupted) throw;
      return std::nullopt;
    }
  }

  std::optional<Typed> expr(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Int: return Typed{constant(e.ival), Ty::Int};
      case ExprKind::Bool: return Typed{constant(e.ival ? 1 : 0), Ty::Bool};
      case ExprKind::Name: {
        if (e.binding.to != Binding::To::Local) return std::nullopt;
        const int slot = e.binding.index;
        if (slot < params_) {
          const Value& v = g_.params().items()[static_cast<std::size_t>(slot)];
          if (v.is(Kind::Int)) return Typed{constant(v.as_int()), Ty::Int};
          if (v.is(Kind::Bool)) return Typed{constant(v.as_bool() ? 1 : 0), Ty::Bool};
          return std::nullopt;
        }
        const auto& t = ty_[static_cast<std::size_t>(slot)];
        if (!t) return std::nullopt;
        Node n;
        n.op = Op::Reg;
        n.v = slot;
        return Typed{add(n), *t};
      }
      case ExprKind::Unary: {
        auto a = expr(*e.args[0]);
        if (!a) return std::nullopt;
        if (e.text == "not") {
          if (a->second != Ty::Bool) return std::nullopt;
          return Typed{op(Op::Not, a->first), Ty::Bool};
        }
        if (a->second != Ty::Int) return std::nullopt;
        return Typed{op(Op::Neg, a->first), Ty::Int};
      }
      case ExprKind::Binary: return binary(e);
      case ExprKind::If: {
        auto c = expr(*e.args[0]);
        auto a = expr(*e.args[1]);
        auto b = expr(*e.args[2]);
        if (!c || !a || !b || c->second != Ty::Bool || a->second != b->second) return std::nullopt;
        return Typed{op(Op::If, c->first, a->first, b->first), a->second};
      }
      case ExprKind::Call: {
        const Expr& callee = *e.args[0];
        if (callee.kind != ExprKind::Name || callee.binding.to != Binding::To::Builtin ||
            !e.clauses.empty()) {
          return std::nullopt;
        }
        const auto b = static_cast<Builtin>(callee.binding.index);
        std::vector<std::int32_t> args;
        for (std::size_t i = 1; i < e.args.size(); ++i) {
          auto a = expr(*e.args[i]);
          if (!a || a->second != Ty::Int) return std::nullopt;
          args.push_back(a->first);
        }
        if (b == Builtin::Abs && args.size() == 1) return Typed{op(Op::Abs, args[0]), Ty::Int};
        if ((b == Builtin::Min || b == Builtin::Max) && args.size() >= 2) {
          std::int32_t acc = args[0];
          for (std::size_t i = 1; i < args.size(); ++i)
            acc = op(b == Builtin::Min ? Op::Min : Op::Max, acc, args[i]);
          return Typed{acc, Ty::Int};
        }
        return std::nullopt;
      }
      default: return std::nullopt;
    }
  }

  std::optional<Typed> binary(const Expr& e) {
    const BinOp o = e.op;
    if (o == BinOp::In || o == BinOp::NotIn) {
      auto x = expr(*e.args[0]);
      if (!x || x->second != Ty::Int) return std::nullopt;
      std::int32_t test = -1;
      const Expr& coll = *e.args[1];
      if (coll.kind == ExprKind::Range) {
        auto lo = expr(*coll.args[0]);
        auto hi = expr(*coll.args[1]);
        if (!lo || !hi || lo->second != Ty::Int || hi->second != Ty::Int) return std::nullopt;
        test = op(Op::And, op(Op::Ge, x->first, lo->first), op(Op::Le, x->first, hi->first));
      } else {
        if (!invariant(coll)) return std::nullopt;
        auto v = value_of(coll);
        if (!v) return std::nullopt;
        if (v->is(Kind::Range)) {
          test = op(Op::And, op(Op::Ge, x->first, constant(v->range_lo())),
                    op(Op::Le, x->first, constant(v->range_hi())));
        } else if (v->is(Kind::List) || v->is(Kind::Set) || v->is(Kind::Tuple)) {
          std::vector<std::int64_t> s;
          for (const Value& item : v->items()) {
            if (item.is(Kind::Int)) s.push_back(item.as_int());  // an int equals only ints
          }
          std::sort(s.begin(), s.end());
          code_.sets.push_back(std::move(s));
          Node n;
          n.op = Op::InSet;
          n.a = x->first;
          n.v = static_cast<std::int64_t>(code_.sets.size() - 1);
          test = add(n);
        } else {
          return std::nullopt;
        }
      }
      return Typed{o == BinOp::In ? test : op(Op::Not, test), Ty::Bool};
    }
    auto a = expr(*e.args[0]);
    auto b = expr(*e.args[1]);
    if (!a || !b) return std::nullopt;
    if (o == BinOp::And || o == BinOp::Or) {
      if (a->second != Ty::Bool || b->second != Ty::Bool) return std::nullopt;
      return Typed{op(o == BinOp::And ? Op::And : Op::Or, a->first, b->first), Ty::Bool};
    }
    if (o == BinOp::Eq || o == BinOp::Ne) {
      if (a->second != b->second) return std::nullopt;
      return Typed{op(o == BinOp::Eq ? Op::Eq : Op::Ne, a->first, b->first), Ty::Bool};
    }
    if (a->second != Ty::Int || b->second != Ty::Int) return std::nullopt;
    switch (o) {
      case BinOp::Lt: return Typed{op(Op::Lt, a->first, b->first), Ty::Bool};
      case BinOp::Le: return Typed{op(Op::Le, a->first, b->first), Ty::Bool};
      case BinOp::Gt: return Typed{op(Op::Gt, a->first, b->first), Ty::Bool};
      case BinOp::Ge: return Typed{op(Op::Ge, a->first, b->first), Ty::Bool};
      case BinOp::Add: return Typed{op(Op::Add, a->first, b->first), Ty::Int};
      case BinOp::Sub: return Typed{op(Op::Sub, a->first, b->first), Ty::Int};
      case BinOp::Mul: return Typed{op(Op::Mul, a->first, b->first), Ty::Int};
      case BinOp::Div: return Typed{op(Op::Div, a->first, b->first), Ty::Int};
      case BinOp::Mod: return Typed{op(Op::Mod, a->first, b->first), Ty::Int};
      case BinOp::Pow: return Typed{op(Op::Pow, a->first, b->first), Ty::Int};
      case BinOp::Xor: return Typed{op(Op::Xor, a->first, b->first), Ty::Int};
      default: return std::nullopt;
    }
  }

  std::optional<CItem> rule(const GameItem& it, int arity) {
    CItem c;
    for (const Clause& cl : it.clauses) {
      CClause cc;
      if (cl.kind == Clause::Kind::If) {
        auto cond = expr(*cl.expr);
        if (!cond || cond->second != Ty::Bool) return std::nullopt;
        cc.kind = CClause::Kind::If;
        cc.lo = cond->first;
        c.clauses.push_back(std::move(cc));
        continue;
      }
      if (cl.slots.size() != 1) return std::nullopt;
      cc.slot = cl.slots[0];
      if (cl.expr->kind == ExprKind::Range) {
        auto lo = expr(*cl.expr->args[0]);
        auto hi = expr(*cl.expr->args[1]);
        if (!lo || !hi || lo->second != Ty::Int || hi->second != Ty::Int) return std::nullopt;
        cc.kind = CClause::Kind::Range;
        cc.lo = lo->first;
        cc.hi = hi->first;
      } else {
        if (!invariant(*cl.expr)) return std::nullopt;
        auto v = value_of(*cl.expr);
        if (!v) return std::nullopt;
        if (v->is(Kind::Range)) {
          cc.kind = CClause::Kind::Range;
          cc.lo = constant(v->range_lo());
          cc.hi = constant(v->range_hi());
        } else if (v->is(Kind::List) || v->is(Kind::Set) || v->is(Kind::Tuple)) {
          cc.kind = CClause::Kind::List;
          for (const Value& item : v->items()) {
            if (!item.is(Kind::Int)) return std::nullopt;
            cc.list.push_back(item.as_int());
          }
        } else {
          return std::nullopt;
        }
      }
      ty_[static_cast<std::size_t>(cc.slot)] = Ty::Int;
      c.clauses.push_back(std::move(cc));
    }
    if (it.exprs.size() > static_cast<std::size_t>(kMaxParts)) return std::nullopt;
    c.parts = static_cast<int>(it.exprs.size());
    for (const auto& part : it.exprs) {
      if (arity == 1) {
        auto p = expr(*part);
        if (!p || p->second != Ty::Int) return std::nullopt;
        c.coords.push_back(p->first);
        continue;
      }
      if (part->kind != ExprKind::Tuple || static_cast<int>(part->args.size()) != arity) return std::nullopt;
      for (const auto& x : part->args) {
        auto p = expr(*x);
        if (!p || p->second != Ty::Int) return std::nullopt;
        c.coords.push_back(p->first);
      }
    }
    if (!c.clauses.empty() && c.clauses.back().kind == CClause::Kind::Range && c.parts > 0) {
      const std::int64_t k = c.clauses.back().slot;
      c.affine = true;
      for (std::int32_t q : c.coords) {
        auto s = code_.slope(q, k);
        if (!s) {
          c.affine = false;
          c.slopes.clear();
          break;
        }
        c.slopes.push_back(*s);
      }
    }
    return c;
  }

  const GameDecl& d_;
  const GameInstance& g_;
  Machine& m_;
  int params_ = 0;
  std::vector<std::optional<Ty>> ty_;
  Code code_;
};

}  // namespace

std::shared_ptr<const IntRules> compile_rules(const GameDecl& decl, const GameInstance& game, Machine& m) {
  if (decl.form != GameDecl::Form::Rules) return nullptr;
  return Compiler(decl, game, m).build();
}

}  // namespace grundy::lang
