#include "lang/Compile.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "lang/Analysis.hpp"
#include "lang/BuiltinTable.hpp"
#include "lang/Interpreter.hpp"
#include "runtime/BoxTable.hpp"

namespace grundy::lang {

namespace {

using Op = IntProgram::Op;
using Node = IntProgram::Node;
using CClause = IntProgram::Clause;
using CItem = IntProgram::Item;
// Set: a set of small integers, as a bitmask (IntProgram::Op::Bit); List: a list of small
// integers packed into one word (IntProgram::Op::ListAt).
enum class Ty : std::uint8_t { Int, Bool, Set, List };

class Compiler {
 public:
  // `packing`: the coordinates of the state taken to be sets and lists.
  Compiler(const GameDecl& d, const GameInstance& g, Interpreter& m, IntProgram::Packing packing)
      : d_(&d), g_(&g), m_(m), packing_(packing), frame_size_(d.frame_size) {}
  // A function on its own (build_function), its parameters integers.
  Compiler(const DefDecl& f, Interpreter& m) : m_(m), frame_size_(f.frame_size), function_(&f) {}

  std::shared_ptr<const IntProgram> build() {
    const auto& params = g_->params().items();
    params_ = static_cast<int>(d_->params.size());
    if (static_cast<int>(params.size()) != params_) return nullptr;
    registers_ = std::max(d_->frame_size, 1);
    ty_.assign(static_cast<std::size_t>(registers_), std::nullopt);
    int arity = 0;
    std::vector<std::int64_t> state_slots;
    std::vector<CItem> items;
    for (const GameItem& it : d_->items) {
      switch (it.kind) {
        case GameItem::Kind::State:
          arity = static_cast<int>(it.slots.size());
          if (arity < 1 || arity > IntProgram::kMaxArity || (!it.tuple_pattern && arity != 1)) return nullptr;
          if ((packing_.sets | packing_.lists) >> arity) return nullptr;  // no such coordinate
          for (int s : it.slots) {
            ty_[static_cast<std::size_t>(s)] = coord_ty(static_cast<int>(state_slots.size()));
            state_slots.push_back(s);
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
          // A rule that starts `for (dx, dy) in` a few constant tuples is one rule per tuple,
          // each with its numbers in place (x + dx is x - 2): a knight's four moves cost what
          // four rules written out cost, not a loop's set-up per state.
          const std::size_t pins = pinned_count(it);
          for (std::size_t t = 0; t < std::max<std::size_t>(pins, 1); ++t) {
            pin_ = pins > 0 ? static_cast<int>(t) : -1;
            auto c = rule(it, arity);
            pin_ = -1;
            if (!c) return nullptr;
            for (CItem& one : disjunctions(std::move(*c))) items.push_back(finish(std::move(one)));
          }
          break;
        }
      }
    }
    if (arity == 0 || registers_ > 4096) return nullptr;
    code_.arity = arity;
    code_.packing = packing_;
    code_.state_slots = std::move(state_slots);
    code_.frame = registers_;
    code_.items = std::move(items);
    code_.link();
    return std::make_shared<const IntProgram>(std::move(code_));
  }

  // The function's body as one node over its parameters (registers 0, 1, ...), where its value
  // is an integer or a truth value.
  std::optional<CompiledFunction> build_function() {
    registers_ = std::max(frame_size_, 1);
    ty_.assign(static_cast<std::size_t>(registers_), std::nullopt);
    for (std::size_t i = 0; i < function_->params.size(); ++i) ty_[i] = Ty::Int;
    const auto e = expr(*function_->body);
    if (!e || (e->second != Ty::Int && e->second != Ty::Bool) || registers_ > 4096) return std::nullopt;
    code_.frame = registers_;
    code_.link();
    CompiledFunction f;
    f.root = e->first;
    f.truth = e->second == Ty::Bool;
    f.code = std::make_shared<const IntProgram>(std::move(code_));
    return f;
  }

 private:
  using Typed = std::pair<std::int32_t, Ty>;

  Ty coord_ty(int i) const {
    return packing_.sets >> i & 1 ? Ty::Set : packing_.lists >> i & 1 ? Ty::List : Ty::Int;
  }

  std::int32_t add(Node n) { return code_.add(n); }
  std::int32_t constant(std::int64_t v) {
    Node n;
    n.op = Op::Const;
    n.v = v;
    return add(n);
  }
  std::int32_t op(Op o, std::int32_t a, std::int32_t b = -1, std::int32_t c = -1, std::int64_t v = 0) {
    Node n;
    n.op = o;
    n.a = a;
    n.b = b;
    n.c = c;
    n.v = v;
    return add(n);
  }

  // Collections that do not depend on the state are listed once, with the parameters.
  // In a function's body (scope_), only what names no local at all.
  bool invariant(const Expr& e) const { return lang::invariant(e, Fixed{scope_ ? 0 : params_, {}}); }

  // The register of a local slot: a function inlined into the rule has its own registers
  // after the game's (scope_).
  int reg(int slot) const { return scope_ ? scope_->base + slot : slot; }

  std::optional<Value> value_of(const Expr& e) {
    Frame frame(static_cast<std::size_t>(std::max(frame_size_, 1)));
    if (g_) {
      const auto& params = g_->params().items();
      std::copy(params.begin(), params.end(), frame.begin());
    }
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
        int slot = e.binding.index;
        if (scope_ && slot < static_cast<int>(scope_->args.size()))
          return scope_->args[static_cast<std::size_t>(slot)];
        if (!scope_) {
          if (auto b = bound_.find(slot); b != bound_.end()) return b->second;
        }
        if (!scope_ && slot < params_) {
          const Value& v = g_->params().items()[static_cast<std::size_t>(slot)];
          if (v.is(Kind::Int)) return Typed{constant(v.as_int()), Ty::Int};
          if (v.is(Kind::Bool)) return Typed{constant(v.as_bool() ? 1 : 0), Ty::Bool};
          if (std::int64_t mask = 0; mask_of(v, mask)) return Typed{constant(mask), Ty::Set};
          if (std::int64_t word = 0; packed_of(v, word)) return Typed{constant(word), Ty::List};
          return std::nullopt;
        }
        slot = reg(slot);
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
        if (e.prefix == PrefixOp::Not) {
          if (a->second != Ty::Bool) return std::nullopt;
          return Typed{op(Op::Not, a->first), Ty::Bool};
        }
        if (a->second != Ty::Int) return std::nullopt;
        return Typed{op(Op::Neg, a->first), Ty::Int};
      }
      case ExprKind::Binary: return binary(e);
      case ExprKind::List: return list(e);
      case ExprKind::Index: {  // xs[i]
        if (e.args.size() != 2) return std::nullopt;
        if (auto rw = row(*e.args[0])) {  // t[i][j]
          auto j = expr(*e.args[1]);
          if (!j || j->second != Ty::Int) return std::nullopt;
          return Typed{op(Op::RowAt, rw->first, j->first, -1, rw->second), Ty::Int};
        }
        if (invariant(*e.args[0])) {  // t[i], t a constant list of integers, of sets or of lists
          auto i = expr(*e.args[1]);
          if (!i || i->second != Ty::Int) return std::nullopt;
          if (const auto t = table(*e.args[0], false))
            return Typed{op(Op::TableAt, i->first, -1, -1, *t), Ty::Int};
          for (const Ty ty : {Ty::Set, Ty::List}) {
            if (const auto t = words(*e.args[0], ty, false))
              return Typed{op(Op::WordAt, i->first, -1, -1, *t), ty};
          }
          return std::nullopt;
        }
        auto xs = expr(*e.args[0]);
        auto i = expr(*e.args[1]);
        if (!xs || !i || xs->second != Ty::List || i->second != Ty::Int) return std::nullopt;
        return Typed{op(Op::ListAt, xs->first, i->first), Ty::Int};
      }
      case ExprKind::Set: {  // {a, b, ...}: the union of their bits
        if (!e.clauses.empty()) return set_comprehension(e);
        std::int32_t acc = constant(0);
        for (const auto& x : e.args) {
          auto a = expr(*x);
          if (!a || a->second != Ty::Int) return std::nullopt;
          acc = e.args.size() == 1 ? op(Op::Bit, a->first) : op(Op::Union, acc, op(Op::Bit, a->first));
        }
        return Typed{acc, Ty::Set};
      }
      case ExprKind::If: {
        auto c = expr(*e.args[0]);
        auto a = expr(*e.args[1]);
        auto b = expr(*e.args[2]);
        if (!c || !a || !b || c->second != Ty::Bool || a->second != b->second) return std::nullopt;
        return Typed{op(Op::If, c->first, a->first, b->first), a->second};
      }
      case ExprKind::Call: {
        const Expr& callee = *e.args[0];
        if (callee.kind == ExprKind::Name && callee.binding.to == Binding::To::Def && e.clauses.empty()) {
          if (auto x = inlined(e)) return x;
          return looped(e);
        }
        if (callee.kind != ExprKind::Name || callee.binding.to != Binding::To::Builtin ||
            !e.clauses.empty()) {
          return std::nullopt;
        }
        const auto b = static_cast<Builtin>(callee.binding.index);
        if (b == Builtin::Len && e.args.size() == 2) {
          if (auto rw = row(*e.args[1])) return Typed{op(Op::RowLen, rw->first, -1, -1, rw->second), Ty::Int};
        }
        if (b == Builtin::Set && e.args.size() == 2) return to_set(*e.args[1]);
        if ((b == Builtin::Sum || b == Builtin::Min || b == Builtin::Max) && e.args.size() == 2) {
          // Of one set or list the state holds or makes: of its elements.
          auto a = expr(*e.args[1]);
          if (!a || (a->second != Ty::Set && a->second != Ty::List)) return std::nullopt;
          const bool set = a->second == Ty::Set;
          const Op o = b == Builtin::Sum   ? (set ? Op::SetSum : Op::ListSum)
                       : b == Builtin::Min ? (set ? Op::SetMin : Op::ListMin)
                                           : (set ? Op::SetMax : Op::ListMax);
          return Typed{op(o, a->first), Ty::Int};
        }
        std::vector<std::int32_t> args;
        for (std::size_t i = 1; i < e.args.size(); ++i) {
          auto a = expr(*e.args[i]);
          if (a && a->second == Ty::Set && b == Builtin::Remove && e.args.size() == 3) {  // remove(s, k)
            auto k = expr(*e.args[2]);
            if (!k || k->second != Ty::Int) return std::nullopt;
            return Typed{op(Op::Minus, a->first, op(Op::Bit, k->first)), Ty::Set};
          }
          if (a && a->second == Ty::Set && b == Builtin::Len && e.args.size() == 2) {
            return Typed{op(Op::Popcount, a->first), Ty::Int};
          }
          if (a && a->second == Ty::List && i == 1) {
            if (b == Builtin::Len && e.args.size() == 2) return Typed{op(Op::ListLen, a->first), Ty::Int};
            if (b == Builtin::Sorted && e.args.size() == 2)
              return Typed{op(Op::ListSort, a->first), Ty::List};
            if (b == Builtin::Remove && e.args.size() == 3) {
              auto at = expr(*e.args[2]);
              if (!at || at->second != Ty::Int) return std::nullopt;
              return Typed{op(Op::ListRemove, a->first, at->first), Ty::List};
            }
            if (b == Builtin::Update && e.args.size() == 4) {
              auto at = expr(*e.args[2]);
              auto v = expr(*e.args[3]);
              if (!at || !v || at->second != Ty::Int || v->second != Ty::Int) return std::nullopt;
              return Typed{op(Op::ListUpdate, a->first, at->first, v->first), Ty::List};
            }
          }
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

  // set(x) as a mask: of a row of a constant table (`set(E[v])`, from a table of the rows'
  // masks), a range, or a set or a list the rules hold or make.
  std::optional<Typed> to_set(const Expr& x) {
    if (x.kind == ExprKind::Index && x.args.size() == 2 && invariant(*x.args[0])) {
      if (const auto t = words(*x.args[0], Ty::Set, true)) {
        auto i = expr(*x.args[1]);
        if (!i || i->second != Ty::Int) return std::nullopt;
        return Typed{op(Op::WordAt, i->first, -1, -1, *t), Ty::Set};
      }
    }
    if (x.kind == ExprKind::Range) {
      auto lo = expr(*x.args[0]);
      auto hi = expr(*x.args[1]);
      if (!lo || !hi || lo->second != Ty::Int || hi->second != Ty::Int) return std::nullopt;
      return Typed{op(Op::RangeSet, lo->first, hi->first), Ty::Set};
    }
    auto a = expr(x);
    if (!a) return std::nullopt;
    if (a->second == Ty::Set) return a;
    if (a->second == Ty::List) return Typed{op(Op::ListSet, a->first), Ty::Set};
    return std::nullopt;
  }

  // {e for x in xs if c ...}, one loop over a range, a constant table's row, or a set or list
  // the rules hold or make, then conditions: the union of e's bits where the conditions hold.
  // `{u for u in E[v]}` is set(E[v]), a mask from a table; `{k for k in a..b}` is set(a..b).
  std::optional<Typed> set_comprehension(const Expr& e) {
    if (e.args.size() != 1 || e.clauses.empty()) return std::nullopt;
    const Clause& cl = e.clauses[0];
    if (cl.kind != Clause::Kind::For || cl.slots.size() != 1) return std::nullopt;
    for (std::size_t i = 1; i < e.clauses.size(); ++i) {
      if (e.clauses[i].kind != Clause::Kind::If) return std::nullopt;
    }
    const int var = reg(cl.slots[0]);
    const Expr& body = *e.args[0];
    if (e.clauses.size() == 1 && body.kind == ExprKind::Name && body.binding.to == Binding::To::Local &&
        body.binding.index == cl.slots[0]) {
      if (auto s = to_set(*cl.expr)) return s;
    }
    Node n;
    n.op = Op::SetComp;
    IntProgram::Comp q;
    q.slot = var;
    if (cl.expr->kind == ExprKind::Range) {
      auto lo = expr(*cl.expr->args[0]);
      auto hi = expr(*cl.expr->args[1]);
      if (!lo || !hi || lo->second != Ty::Int || hi->second != Ty::Int) return std::nullopt;
      q.kind = IntProgram::Comp::Kind::Range;
      n.a = lo->first;
      n.b = hi->first;
    } else if (auto rw = row(*cl.expr)) {
      q.kind = IntProgram::Comp::Kind::Row;
      q.table = rw->second;
      n.a = rw->first;
    } else {
      auto xs = expr(*cl.expr);
      if (!xs || (xs->second != Ty::Set && xs->second != Ty::List)) return std::nullopt;
      q.kind = xs->second == Ty::Set ? IntProgram::Comp::Kind::Bits : IntProgram::Comp::Kind::Items;
      n.a = xs->first;
    }
    ty_[static_cast<std::size_t>(var)] = Ty::Int;
    auto item = expr(body);
    if (!item || item->second != Ty::Int) return std::nullopt;
    std::int32_t each = op(Op::Bit, item->first);
    // Conditions tested in turn, as written: a later one only where the earlier ones hold.
    for (std::size_t i = e.clauses.size(); i-- > 1;) {
      auto c = expr(*e.clauses[i].expr);
      if (!c || c->second != Ty::Bool) return std::nullopt;
      each = op(Op::If, c->first, each, constant(0));
    }
    n.c = each;
    code_.comps.push_back(q);
    n.v = static_cast<std::int64_t>(code_.comps.size() - 1);
    return Typed{add(n), Ty::Set};
  }

  // A constant list of sets or of lists as a table of masks (ty Set) or packed words (ty List):
  // a row with none (an element past kMaxElement, a list that does not pack) is -1, where the
  // program bails and the rules as written take over. `any_rows`: masks of any collections of
  // integers (set(E[v]) of lists); else the rows must be of the kind ty says, sets or lists.
  std::optional<std::int64_t> words(const Expr& e, Ty ty, bool any_rows) {
    const auto key = std::pair{&e, static_cast<int>(ty) * 2 + (any_rows ? 1 : 0)};
    if (const auto known = words_.find(key); known != words_.end()) return known->second;
    auto v = value_of(e);
    if (!v || !(v->is(Kind::List) || v->is(Kind::Tuple))) return std::nullopt;
    IntProgram::Table t;
    for (const Value& x : v->items()) {
      std::int64_t w = -1;
      if (ty == Ty::List) {
        if (!x.is(Kind::List)) return std::nullopt;
        if (!packed_of(x, w)) w = -1;
      } else {
        if (!(x.is(Kind::Set) || (any_rows && (x.is(Kind::List) || x.is(Kind::Tuple))))) return std::nullopt;
        w = 0;
        for (const Value& y : x.items()) {
          if (!y.is(Kind::Int) || y.as_int() < 0 || y.as_int() > IntProgram::kMaxElement) {
            w = -1;
            break;
          }
          w |= std::int64_t{1} << y.as_int();
        }
      }
      t.items.push_back(w);
    }
    code_.tables.push_back(std::move(t));
    const auto id = static_cast<std::int64_t>(code_.tables.size() - 1);
    words_[key] = id;
    return id;
  }

  // [a, b, ...], or [e for i in lo..hi], as a packed list.
  std::optional<Typed> list(const Expr& e) {
    if (e.clauses.empty()) {
      std::vector<std::int32_t> items;
      for (const auto& x : e.args) {
        auto a = expr(*x);
        if (!a || a->second != Ty::Int) return std::nullopt;
        items.push_back(a->first);
      }
      const auto n = static_cast<std::int64_t>(items.size());
      if (n > IntProgram::kMaxListLength) {  // bails when run, as the rules' list would not fit
        std::int32_t acc = constant(0);
        for (const std::int32_t a : items) acc = op(Op::Append, acc, a);
        return Typed{acc, Ty::List};
      }
      // n zeros at their final width, then the items from the last: each put once.
      std::int32_t acc = constant(n << IntProgram::kLengthShift);
      for (auto a = items.rbegin(); a != items.rend(); ++a) acc = op(Op::Cons, acc, *a);
      return Typed{acc, Ty::List};
    }
    const Clause& cl = e.clauses[0];
    if (e.clauses.size() != 1 || cl.kind != Clause::Kind::For || cl.slots.size() != 1 ||
        cl.expr->kind != ExprKind::Range || e.args.size() != 1) {
      return std::nullopt;
    }
    auto lo = expr(*cl.expr->args[0]);
    auto hi = expr(*cl.expr->args[1]);
    if (!lo || !hi || lo->second != Ty::Int || hi->second != Ty::Int) return std::nullopt;
    ty_[static_cast<std::size_t>(reg(cl.slots[0]))] = Ty::Int;
    auto item = expr(*e.args[0]);
    if (!item || item->second != Ty::Int) return std::nullopt;
    Node n;
    n.op = Op::ListComp;
    n.a = lo->first;
    n.b = hi->first;
    n.c = item->first;
    n.v = reg(cl.slots[0]);
    return Typed{add(n), Ty::List};
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
      } else if (auto rw = row(coll)) {
        test = op(Op::InRow, x->first, rw->first, -1, rw->second);
      } else if (!invariant(coll)) {  // a set or list that the state holds or makes
        auto s = expr(coll);
        if (!s || (s->second != Ty::Set && s->second != Ty::List)) return std::nullopt;
        test = op(s->second == Ty::Set ? Op::Test : Op::ListHas, x->first, s->first);
      } else {
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
    if (a->second == Ty::List && b->second == Ty::List && o == BinOp::Add) {  // xs + [x], xs + ys
      const Expr& tail = *e.args[1];
      if (tail.kind == ExprKind::List && tail.clauses.empty() && tail.args.size() == 1) {
        auto x = expr(*tail.args[0]);
        if (!x || x->second != Ty::Int) return std::nullopt;
        return Typed{op(Op::Append, a->first, x->first), Ty::List};
      }
      return Typed{op(Op::Concat, a->first, b->first), Ty::List};
    }
    if (a->second == Ty::Set && b->second == Ty::Set) {
      if (o == BinOp::Add) return Typed{op(Op::Union, a->first, b->first), Ty::Set};
      if (o == BinOp::Sub) return Typed{op(Op::Minus, a->first, b->first), Ty::Set};
      return std::nullopt;
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

  // `if a and b` as `if a if b`: each condition a straight list of instructions, where the
  // conjunction is one instruction that walks its tree (as it must, so that b is not
  // evaluated when a is false); the same options, in the same order.
  bool conditions(const Expr& e, std::vector<CClause>& out) {
    if (e.kind == ExprKind::Binary && e.op == BinOp::And) {
      return conditions(*e.args[0], out) && conditions(*e.args[1], out);
    }
    auto cond = expr(e);
    if (!cond || cond->second != Ty::Bool) return false;
    CClause cc;
    cc.kind = CClause::Kind::If;
    cc.lo = cond->first;
    out.push_back(std::move(cc));
    return true;
  }

  // The conditions right after a `for k in lo..hi`: one that compares an expression affine
  // in k with one free of k becomes a bound of the range (IntProgram::Bound), and one free
  // of k is tested once, when the range's ends are known. The same options in the same
  // order, without a test per k: `for k in 1..M if total + k < T` runs over
  // 1..min(M, T - total - 1). The rules as written meet an error in a condition only where
  // they evaluate it, so a condition is taken only when none before it can fail for a k
  // it would leave out (`if n / (k - 5) > 0 if k <= 3` divides by zero at k = 5).
  // A constant list in increasing order (a set, `let S = {k * k for k in 1..316}`) is cut
  // the same way, to the items between the bounds: `for s in S if s <= n` looks at the
  // squares up to n, not at all 316.
  void bound_ranges(std::vector<CClause>& clauses) {
    for (std::size_t i = 0; i < clauses.size(); ++i) {
      const auto& l = clauses[i].list;
      const bool increasing = clauses[i].kind == CClause::Kind::List && !l.empty() &&
                              std::adjacent_find(l.begin(), l.end(), std::greater_equal<>()) == l.end();
      if (clauses[i].kind != CClause::Kind::Range && !increasing) continue;
      const std::int64_t k = clauses[i].slot;
      for (std::size_t j = i + 1; j < clauses.size() && clauses[j].kind == CClause::Kind::If;) {
        const std::int32_t cond = clauses[j].lo;
        std::optional<IntProgram::Bound> b;
        if (!code_.mentions(cond, k)) {
          b.emplace();
          b->guard = true;
          b->rhs = cond;
        } else {
          b = bound(cond, k);
        }
        if (b) {
          clauses[i].bounds.push_back(*b);
          clauses.erase(clauses.begin() + static_cast<std::ptrdiff_t>(j));
          continue;
        }
        if (can_fail(cond)) break;
        ++j;
      }
    }
  }

  // Whether evaluating the node may meet an error (an overflow, a division by zero, an
  // element that is not a small integer).
  bool can_fail(std::int32_t i) const {
    if (i < 0) return false;
    const Node& n = code_.nodes[static_cast<std::size_t>(i)];
    switch (n.op) {
      case Op::Div:
      case Op::Mod: {  // by a constant other than 0 and -1, only its dividend can fail
        const Node& d = code_.nodes[static_cast<std::size_t>(n.b)];
        if (d.op == Op::Const && d.v != 0 && d.v != -1) return can_fail(n.a);
        return true;
      }
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Pow:
      case Op::Neg:
      case Op::Abs:
      case Op::Bit:
      case Op::ListAt:
      case Op::Append:
      case Op::Cons:
      case Op::ListUpdate:
      case Op::ListComp:
      case Op::ListRemove:
      case Op::Concat:
      case Op::ListSet:
      case Op::ListMin:
      case Op::ListMax:
      case Op::SetMin:
      case Op::SetMax:
      case Op::RangeSet:
      case Op::SetComp:
      case Op::WordAt:
      case Op::TableAt:
      case Op::RowOf:
      case Op::RowAt:
      case Op::Loop: return true;
      default: return can_fail(n.a) || can_fail(n.b) || can_fail(n.c);
    }
  }

  std::optional<IntProgram::Bound> bound(std::int32_t cond, std::int64_t k) const {
    const Node& n = code_.nodes[static_cast<std::size_t>(cond)];
    Op o = n.op;
    if (o != Op::Lt && o != Op::Le && o != Op::Gt && o != Op::Ge && o != Op::Eq) return std::nullopt;
    std::int32_t lhs = n.a, rhs = n.b;
    if (code_.mentions(rhs, k)) {  // k on the right: the mirror image
      std::swap(lhs, rhs);
      o = o == Op::Lt ? Op::Gt : o == Op::Gt ? Op::Lt : o == Op::Le ? Op::Ge : o == Op::Ge ? Op::Le : o;
    }
    if (code_.mentions(rhs, k)) return std::nullopt;
    const auto s = code_.slope(lhs, k);
    if (!s && o != Op::Eq && rising(lhs, k).first) {
      IntProgram::Bound b;
      b.monotone = true;
      b.op = o;
      b.lhs = lhs;
      b.rhs = rhs;
      return b;
    }
    if (!s || *s == 0) return std::nullopt;
    IntProgram::Bound b;
    b.op = o;
    b.slope = *s;
    b.lhs = lhs;
    b.rhs = rhs;
    return b;
  }

  // Whether node i never decreases as k grows from 0 (the other registers fixed), and
  // whether it is never negative there: k, numbers, sums of such, products and powers of
  // ones never negative. An expression free of k is a constant of either sign.
  std::pair<bool, bool> rising(std::int32_t i, std::int64_t k) const {
    const Node& n = code_.nodes[static_cast<std::size_t>(i)];
    if (!code_.mentions(i, k)) return {true, n.op == Op::Const && n.v >= 0};
    switch (n.op) {
      case Op::Reg: return {true, true};  // k itself
      case Op::Add:
      case Op::Min:
      case Op::Max: {
        const auto a = rising(n.a, k), b = rising(n.b, k);
        return {a.first && b.first, a.second && b.second};
      }
      case Op::Mul: {
        const auto a = rising(n.a, k), b = rising(n.b, k);
        const bool both = a.second && b.second;
        return {a.first && b.first && both, both};
      }
      case Op::Pow: {  // a ^ e, e a number >= 1, or c ^ k with c >= 1
        const Node& e = code_.nodes[static_cast<std::size_t>(n.b)];
        const Node& base = code_.nodes[static_cast<std::size_t>(n.a)];
        if (e.op == Op::Const && e.v >= 1) {
          const auto a = rising(n.a, k);
          return {a.first && a.second, a.second};
        }
        if (base.op == Op::Const && base.v >= 1) {
          const auto x = rising(n.b, k);
          return {x.first && x.second, true};
        }
        return {false, false};
      }
      case Op::Div: {  // by a number >= 1
        const Node& d = code_.nodes[static_cast<std::size_t>(n.b)];
        if (d.op != Op::Const || d.v < 1) return {false, false};
        const auto a = rising(n.a, k);
        return {a.first && a.second, a.second};
      }
      default: return {false, false};
    }
  }

  std::optional<CItem> rule(const GameItem& it, int arity) {
    CItem c;
    for (const Clause& cl : it.clauses) {
      CClause cc;
      if (cl.kind == Clause::Kind::If) {
        if (!conditions(*cl.expr, c.clauses)) return std::nullopt;
        continue;
      }
      if (cl.slots.size() != 1) {
        if (pin_ >= 0 && &cl == &it.clauses.front()) {
          pinned(cl);
          continue;
        }
        if (!destructured(cl, cc)) return std::nullopt;
        c.clauses.push_back(std::move(cc));
        continue;
      }
      cc.slot = cl.slots[0];
      if (cl.expr->kind == ExprKind::Range) {
        auto lo = expr(*cl.expr->args[0]);
        auto hi = expr(*cl.expr->args[1]);
        if (!lo || !hi || lo->second != Ty::Int || hi->second != Ty::Int) return std::nullopt;
        cc.kind = CClause::Kind::Range;
        cc.lo = lo->first;
        cc.hi = hi->first;
      } else if (auto rw = row(*cl.expr)) {  // for x in t[i]
        cc.kind = CClause::Kind::Row;
        cc.lo = rw->first;
        cc.table = static_cast<std::int32_t>(rw->second);
      } else if (!invariant(*cl.expr)) {  // for k in a set or list the state holds or makes
        auto s = expr(*cl.expr);
        if (!s || (s->second != Ty::Set && s->second != Ty::List)) return std::nullopt;
        cc.kind = s->second == Ty::Set ? CClause::Kind::Bits : CClause::Kind::Items;
        cc.lo = s->first;
      } else {
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
    if (it.exprs.size() > static_cast<std::size_t>(IntProgram::kMaxParts) ||
        c.clauses.size() > static_cast<std::size_t>(IntProgram::kMaxClauses)) {
      return std::nullopt;
    }
    c.parts = static_cast<int>(it.exprs.size());
    for (const auto& part : it.exprs) {
      if (arity == 1) {
        auto p = expr(*part);
        if (!p || p->second != coord_ty(0)) return std::nullopt;
        c.coords.push_back(p->first);
        continue;
      }
      if (part->kind != ExprKind::Tuple || static_cast<int>(part->args.size()) != arity) return std::nullopt;
      for (int i = 0; i < arity; ++i) {
        auto p = expr(*part->args[static_cast<std::size_t>(i)]);
        if (!p || p->second != coord_ty(i)) return std::nullopt;
        c.coords.push_back(p->first);
      }
    }
    return c;
  }

  // `for k in lo..hi if A or B` where each of A, B (and so on, up to four) is a bound of the
  // range or free of k: the rule as one rule per part, `if A`, then `if not A if B`, ..., each
  // part's range cut by its bounds (`for k in 1..n if 3 * k <= n or k == n` lists 1..n / 3 and
  // then n, not n values tested). Each k meets the parts' conditions in the order the rules as
  // written would, and comes from one rule at most: the same options, in another order.
  static constexpr std::size_t kMaxDisjuncts = 4;
  std::vector<CItem> disjunctions(CItem c) {
    for (std::size_t i = 0; i + 1 < c.clauses.size(); ++i) {
      if (c.clauses[i].kind != CClause::Kind::Range || c.clauses[i + 1].kind != CClause::Kind::If) continue;
      const std::int64_t k = c.clauses[i].slot;
      std::vector<std::int32_t> parts;
      const auto flatten = [&](const auto& self, std::int32_t q) -> void {
        const Node& n = code_.nodes[static_cast<std::size_t>(q)];
        if (n.op == Op::Or) {
          self(self, n.a);
          self(self, n.b);
        } else {
          parts.push_back(q);
        }
      };
      flatten(flatten, c.clauses[i + 1].lo);
      if (parts.size() < 2 || parts.size() > kMaxDisjuncts ||
          c.clauses.size() + parts.size() > static_cast<std::size_t>(IntProgram::kMaxClauses))
        continue;
      const bool cut = std::all_of(parts.begin(), parts.end(),
                                   [&](std::int32_t q) { return !code_.mentions(q, k) || bound(q, k); });
      if (!cut) continue;
      std::vector<CItem> out;
      for (std::size_t j = 0; j < parts.size(); ++j) {
        CItem one = c;
        auto at = one.clauses.begin() + static_cast<std::ptrdiff_t>(i + 1);
        at->lo = parts[j];
        for (std::size_t q = j; q-- > 0;) {
          CClause no;
          no.kind = CClause::Kind::If;
          no.lo = negation(parts[q]);
          at = one.clauses.insert(at, std::move(no));
        }
        out.push_back(std::move(one));
      }
      return out;
    }
    return {std::move(c)};
  }
  // not q: a comparison turned round (a bound stays a bound), or `not`.
  std::int32_t negation(std::int32_t q) {
    const Node n = code_.nodes[static_cast<std::size_t>(q)];
    switch (n.op) {
      case Op::Lt: return op(Op::Ge, n.a, n.b);
      case Op::Le: return op(Op::Gt, n.a, n.b);
      case Op::Gt: return op(Op::Le, n.a, n.b);
      case Op::Ge: return op(Op::Lt, n.a, n.b);
      case Op::Eq: return op(Op::Ne, n.a, n.b);
      case Op::Ne: return op(Op::Eq, n.a, n.b);
      default: return op(Op::Not, q);
    }
  }

  // The analyses of a rule's clauses (bounds, strides, divisors, a run of options).
  CItem finish(CItem c) {
    bound_ranges(c.clauses);
    stride_ranges(c.clauses);
    divisor_ranges(c.clauses);
    excluded_ranges(c.clauses);
    const std::size_t n = c.clauses.size();
    if (n > 0 && c.clauses.back().kind == CClause::Kind::Range) c.run_at = static_cast<std::int32_t>(n - 1);
    if (n > 1 && c.clauses[n - 2].mod > 0) c.run_at = static_cast<std::int32_t>(n - 2);
    if (c.run_at >= 0 && c.parts > 0) {
      const std::int64_t k = c.clauses[static_cast<std::size_t>(c.run_at)].slot;
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
    if (!c.affine) c.run_at = -1;
    if (!c.affine && n > 0 && c.parts > 0 && c.clauses.back().kind == CClause::Kind::Range && c.clauses.back().mod == 0)
      kinks_of(c);
    return c;
  }

  // CItem::kinks where every coordinate is affine in the last range's variable but for min
  // and max of affine operands; none otherwise.
  void kinks_of(CItem& c) {
    const std::int64_t k = c.clauses.back().slot;
    std::vector<CItem::Kink> kinks;
    const auto piecewise = [&](const auto& self, std::int32_t q) -> bool {
      if (code_.slope(q, k)) return true;
      const Node& n = code_.nodes[static_cast<std::size_t>(q)];
      switch (n.op) {
        case Op::Min:
        case Op::Max: {
          const auto sa = code_.slope(n.a, k), sb = code_.slope(n.b, k);
          std::int64_t d = 0;
          if (!sa || !sb || __builtin_sub_overflow(*sa, *sb, &d) || kinks.size() == CItem::kMaxKinks) return false;
          kinks.push_back(CItem::Kink{n.a, n.b, d});
          return true;
        }
        case Op::Add:
        case Op::Sub: return self(self, n.a) && self(self, n.b);
        case Op::Neg: return self(self, n.a);
        case Op::Mul: {
          const bool a_const = code_.nodes[static_cast<std::size_t>(n.a)].op == Op::Const;
          const bool b_const = code_.nodes[static_cast<std::size_t>(n.b)].op == Op::Const;
          return (a_const && self(self, n.b)) || (b_const && self(self, n.a));
        }
        default: return false;
      }
    };
    for (std::int32_t q : c.coords) {
      if (!piecewise(piecewise, q)) return;
    }
    c.kinks = std::move(kinks);
  }

  // A range followed at once by a condition that reads k only as `k % M` (M a number > 0)
  // and no other register: `if k % 5 != 0`, `if k % 3 == 0 or k % 7 == 2` (written in a
  // function or not). Over k >= 0 it repeats with period L, the least common multiple of
  // the M (at most 64); the range learns the residues mod L it lets through (Clause::mod),
  // found by evaluating it at 0 .. L - 1, and lists each as a strided run where it starts
  // at 0 or above (`for k in 1..n if k % 5 != 0` is four runs, not n options tested one by
  // one). Options come residue by residue rather than in the order of k: a set of options
  // for values and outcomes, in any order. A condition that fails at some residue (a
  // division by k % 3) is left as written.
  static constexpr std::int64_t kMaxPeriod = 64;
  void stride_ranges(std::vector<CClause>& clauses) {
    for (std::size_t i = 0; i + 1 < clauses.size(); ++i) {
      CClause& range = clauses[i];
      if (range.kind != CClause::Kind::Range || clauses[i + 1].kind != CClause::Kind::If) continue;
      const std::int32_t cond = clauses[i + 1].lo;
      std::int64_t period = 1;
      if (!periodic(cond, range.slot, period) || period > kMaxPeriod || period == 1) {
        // k read as (x % M) with x affine in k, other registers anywhere: periodic in k all
        // the same, its residues found per state (Clause::per_state).
        std::vector<std::int32_t> moduli;
        period = 1;
        if (periodic_per_state(cond, range.slot, period, moduli) && period > 1 && period <= kMaxPeriod &&
            !moduli.empty()) {
          range.mod = period;
          range.per_state = true;
          range.moduli = std::move(moduli);
        }
        continue;
      }
      std::vector<std::int64_t> residues;
      bool ok = true;
      for (std::int64_t r = 0; r < period && ok; ++r) {
        const auto v = code_.value_at(cond, range.slot, r);
        ok = v.has_value();
        if (ok && *v != 0) residues.push_back(r);
      }
      if (!ok) continue;
      range.mod = period;
      range.residues = std::move(residues);
    }
  }
  // A range followed at once by `if A % k == 0` (or `0 == A % k`), A free of k: the k are the
  // divisors of A in the range (Clause::divides), found in increasing order by trial division
  // up to the square root of A, where that is shorter than the range (`for k in 1..n if n % k ==
  // 0` tries 2 sqrt(n) numbers rather than n).
  void divisor_ranges(std::vector<CClause>& clauses) {
    for (std::size_t i = 0; i + 1 < clauses.size(); ++i) {
      CClause& range = clauses[i];
      if (range.kind != CClause::Kind::Range || range.mod > 0 || clauses[i + 1].kind != CClause::Kind::If)
        continue;
      const Node& eq = code_.nodes[static_cast<std::size_t>(clauses[i + 1].lo)];
      if (eq.op != Op::Eq) continue;
      const auto zero = [&](std::int32_t q) {
        const Node& z = code_.nodes[static_cast<std::size_t>(q)];
        return z.op == Op::Const && z.v == 0;
      };
      const std::int32_t mod = zero(eq.b) ? eq.a : zero(eq.a) ? eq.b : -1;
      if (mod < 0) continue;
      const Node& m = code_.nodes[static_cast<std::size_t>(mod)];
      if (m.op != Op::Mod) continue;
      const Node& k = code_.nodes[static_cast<std::size_t>(m.b)];
      if (k.op != Op::Reg || k.v != range.slot || code_.mentions(m.a, range.slot)) continue;
      range.divides = m.a;
    }
  }
  // A range followed at once by `if not (k in S)` (or `k not in S`), S a set free of k: its k
  // are the range's numbers less S (Clause::excluded), taken from a mask where the range lies
  // within a set's elements (Can I Win: `for k in 1..M if not (k in used)`).
  void excluded_ranges(std::vector<CClause>& clauses) {
    for (std::size_t i = 0; i + 1 < clauses.size(); ++i) {
      CClause& range = clauses[i];
      if (range.kind != CClause::Kind::Range || range.mod > 0 || range.divides >= 0 ||
          clauses[i + 1].kind != CClause::Kind::If)
        continue;
      const Node& no = code_.nodes[static_cast<std::size_t>(clauses[i + 1].lo)];
      if (no.op != Op::Not) continue;
      const Node& in = code_.nodes[static_cast<std::size_t>(no.a)];
      if (in.op != Op::Test) continue;
      const Node& k = code_.nodes[static_cast<std::size_t>(in.a)];
      if (k.op != Op::Reg || k.v != range.slot || code_.mentions(in.b, range.slot)) continue;
      range.excluded = in.b;
    }
  }
  // Whether node i reads k only as k % M (M a number > 0) and no other register; `period`
  // becomes the least common multiple of the M.
  bool periodic(std::int32_t i, std::int64_t k, std::int64_t& period) const {
    if (i < 0) return true;
    const Node& n = code_.nodes[static_cast<std::size_t>(i)];
    if (n.op == Op::Reg) return false;
    if (n.op == Op::Mod) {
      const Node& x = code_.nodes[static_cast<std::size_t>(n.a)];
      const Node& m = code_.nodes[static_cast<std::size_t>(n.b)];
      if (x.op == Op::Reg && x.v == k && m.op == Op::Const && m.v > 0 && m.v <= kMaxPeriod) {
        period = std::lcm(period, m.v);
        return true;
      }
    }
    if (n.op == Op::ListComp || n.op == Op::SetComp || n.op == Op::Loop) return false;  // a register of its own
    return periodic(n.a, k, period) && periodic(n.b, k, period) && periodic(n.c, k, period);
  }

  // Whether node i reads k only as x % M, M a number > 0 and x affine in k (`(n - k) % 3`),
  // other registers anywhere; the x go into `moduli`, `period` becomes the lcm of the M.
  bool periodic_per_state(std::int32_t i, std::int64_t k, std::int64_t& period,
                          std::vector<std::int32_t>& moduli) const {
    if (i < 0 || !code_.mentions(i, k)) return true;
    const Node& n = code_.nodes[static_cast<std::size_t>(i)];
    if (n.op == Op::Reg || n.op == Op::ListComp || n.op == Op::SetComp || n.op == Op::Loop) return false;
    if (n.op == Op::Mod) {
      const Node& m = code_.nodes[static_cast<std::size_t>(n.b)];
      if (m.op == Op::Const && m.v > 0 && m.v <= kMaxPeriod && code_.slope(n.a, k)) {
        period = std::lcm(period, m.v);
        moduli.push_back(n.a);
        return true;
      }
    }
    return periodic_per_state(n.a, k, period, moduli) && periodic_per_state(n.b, k, period, moduli) &&
           periodic_per_state(n.c, k, period, moduli);
  }

  // `for (dx, dy) in [(-2, 1), (1, -2), ...]`, a constant collection of tuples of integers:
  // a range over their positions in a register of its own, and each name the item of a
  // table (one per component) at that position.
  bool destructured(const Clause& cl, CClause& cc) {
    if (!invariant(*cl.expr)) return false;
    auto v = value_of(*cl.expr);
    if (!v || !(v->is(Kind::List) || v->is(Kind::Set) || v->is(Kind::Tuple))) return false;
    const std::size_t width = cl.slots.size();
    std::vector<IntProgram::Table> parts(width);
    for (const Value& item : v->items()) {
      if (!item.is(Kind::Tuple) || item.items().size() != width) return false;
      for (std::size_t i = 0; i < width; ++i) {
        const Value& x = item.items()[i];
        if (!x.is(Kind::Int)) return false;
        parts[i].items.push_back(x.as_int());
      }
    }
    const int at = registers_++;
    ty_.resize(static_cast<std::size_t>(registers_), std::nullopt);
    ty_[static_cast<std::size_t>(at)] = Ty::Int;
    cc.kind = CClause::Kind::Range;
    cc.slot = at;
    cc.lo = constant(0);
    cc.hi = constant(static_cast<std::int64_t>(v->items().size()) - 1);
    Node index;
    index.op = Op::Reg;
    index.v = at;
    const std::int32_t position = add(index);
    for (std::size_t i = 0; i < width; ++i) {
      code_.tables.push_back(std::move(parts[i]));
      const auto t = static_cast<std::int64_t>(code_.tables.size() - 1);
      bound_[cl.slots[i]] = Typed{op(Op::TableAt, position, -1, -1, t), Ty::Int};
    }
    return true;
  }

  // The tuples a rule's first clause destructures, when they are a few constant tuples of
  // integers (kMaxPinned at most): the rules it is written out into; 0 otherwise.
  static constexpr std::size_t kMaxPinned = 8;
  std::size_t pinned_count(const GameItem& it) {
    if (it.clauses.empty()) return 0;
    const Clause& cl = it.clauses.front();
    if (cl.kind == Clause::Kind::If || cl.slots.size() < 2 || !invariant(*cl.expr)) return 0;
    auto v = value_of(*cl.expr);
    if (!v || !(v->is(Kind::List) || v->is(Kind::Set) || v->is(Kind::Tuple))) return 0;
    if (v->items().empty() || v->items().size() > kMaxPinned) return 0;
    for (const Value& item : v->items()) {
      if (!item.is(Kind::Tuple) || item.items().size() != cl.slots.size()) return 0;
      for (const Value& x : item.items()) {
        if (!x.is(Kind::Int)) return 0;
      }
    }
    return v->items().size();
  }
  // Binds the names of the clause to the numbers of its tuple number pin_ (pinned_count).
  void pinned(const Clause& cl) {
    const auto v = value_of(*cl.expr);
    const Value& item = v->items()[static_cast<std::size_t>(pin_)];
    for (std::size_t i = 0; i < cl.slots.size(); ++i)
      bound_[cl.slots[i]] = Typed{constant(item.items()[i].as_int()), Ty::Int};
  }

  // A constant list (a parameter, a top-level let) as a table: of integers, or (rows) of
  // lists, tuples or sets of integers. Each expression's table is made once.
  std::optional<std::int64_t> table(const Expr& e, bool rows) {
    const auto known = tables_.find(&e);
    if (known != tables_.end()) {
      const auto& t = code_.tables[static_cast<std::size_t>(known->second)];
      return t.starts.empty() == !rows ? std::optional<std::int64_t>(known->second) : std::nullopt;
    }
    auto v = value_of(e);
    if (!v || !(v->is(Kind::List) || v->is(Kind::Tuple))) return std::nullopt;
    IntProgram::Table t;
    if (rows) t.starts.push_back(0);
    for (const Value& x : v->items()) {
      if (!rows) {
        if (!x.is(Kind::Int)) return std::nullopt;
        t.items.push_back(x.as_int());
        continue;
      }
      if (!(x.is(Kind::List) || x.is(Kind::Tuple) || x.is(Kind::Set))) return std::nullopt;
      for (const Value& y : x.items()) {
        if (!y.is(Kind::Int)) return std::nullopt;
        t.items.push_back(y.as_int());
      }
      if (t.items.size() > UINT32_MAX) return std::nullopt;
      t.starts.push_back(static_cast<std::uint32_t>(t.items.size()));
    }
    code_.tables.push_back(std::move(t));
    const auto id = static_cast<std::int64_t>(code_.tables.size() - 1);
    tables_[&e] = id;
    return id;
  }

  // t[i] for a constant table of rows t: the node of the row number (checked) and the table.
  std::optional<std::pair<std::int32_t, std::int64_t>> row(const Expr& e) {
    if (e.kind != ExprKind::Index || e.args.size() != 2 || !invariant(*e.args[0])) return std::nullopt;
    const auto t = table(*e.args[0], true);
    if (!t) return std::nullopt;
    auto i = expr(*e.args[1]);
    if (!i || i->second != Ty::Int) return std::nullopt;
    return std::pair{op(Op::RowOf, i->first, -1, -1, *t), *t};
  }

  // A call of a function that does not call itself, as its body with the arguments in place
  // of the parameters: `def bite(hs, c, j) = ...` in a rule costs what the body written
  // inline costs. Its other locals (a comprehension's variable) get registers of their own.
  // Only arguments that cannot fail: the rules as written evaluate every argument, used or
  // not, and meet its error there.
  std::optional<Typed> inlined(const Expr& e) {
    const int k = e.args[0]->binding.index;
    auto& defs = m_.world().defs;
    if (k < 0 || static_cast<std::size_t>(k) >= defs.size()) return std::nullopt;
    const DefDecl* d = defs[static_cast<std::size_t>(k)].decl;
    if (!d || !d->body || d->params.size() + 1 != e.args.size() || m_.recursive(k)) return std::nullopt;
    if (depth_ + 1 >= m_.world().max_depth || depth_ >= 16) return std::nullopt;
    Scope inner;
    std::vector<std::int32_t> forced;
    for (std::size_t i = 1; i < e.args.size(); ++i) {
      auto a = expr(*e.args[i]);
      if (!a) return std::nullopt;
      // An argument that may fail (x - 1 overflows at the lowest integer) must fail where the
      // rules as written would, before the body, even where the body does not use it: unless
      // the body evaluates it on every path, it is evaluated first (a test that is always
      // true, unless it fails).
      if (can_fail(a->first) && !strict_in(*d->body, static_cast<int>(i) - 1)) forced.push_back(a->first);
      inner.args.push_back(*a);
    }
    inner.base = registers_;
    registers_ += std::max(d->frame_size, 1);
    ty_.resize(static_cast<std::size_t>(registers_), std::nullopt);
    Scope* outer = scope_;
    scope_ = &inner;
    ++depth_;
    auto body = expr(*d->body);
    --depth_;
    scope_ = outer;
    if (!body) return std::nullopt;
    for (auto f = forced.rbegin(); f != forced.rend(); ++f) {
      body->first = op(Op::If, op(Op::Eq, *f, *f), body->first, body->first);
    }
    return body;
  }

  // A call of a function that calls itself once, in tail position (a chain: trial division,
  // the next empty square), as a loop over registers of its own (IntProgram::Op::Loop): the
  // parameters of the first call are the arguments, and each call after it sets them anew.
  std::optional<Typed> looped(const Expr& e) {
    const int k = e.args[0]->binding.index;
    auto& defs = m_.world().defs;
    if (k < 0 || static_cast<std::size_t>(k) >= defs.size()) return std::nullopt;
    const DefDecl* d = defs[static_cast<std::size_t>(k)].decl;
    const std::size_t params = d ? d->params.size() : 0;
    if (!d || !d->body || params + 1 != e.args.size() || params == 0 || params > 3) return std::nullopt;
    if (!m_.recursive(k) || defs[static_cast<std::size_t>(k)].recursive != 2 || depth_ >= 16) return std::nullopt;
    // Its one call of itself is not in tail position: met again while compiling the body.
    if (std::find(looping_.begin(), looping_.end(), k) != looping_.end()) return std::nullopt;
    std::int32_t first[3] = {-1, -1, -1};
    std::vector<Ty> types;
    for (std::size_t i = 1; i < e.args.size(); ++i) {
      auto a = expr(*e.args[i]);
      if (!a) return std::nullopt;
      first[i - 1] = a->first;
      types.push_back(a->second);
    }
    // One loop per function and argument types: its body compiled once, and the calls of
    // all its call sites share its cache of last results (IntProgram::Loop::Cache).
    for (const LoopOf& l : loops_of_) {
      if (l.k == k && l.types == types) return Typed{op(Op::Loop, first[0], first[1], first[2], l.at), l.result};
    }
    Scope inner;
    inner.base = registers_;
    registers_ += std::max(d->frame_size, 1);
    ty_.resize(static_cast<std::size_t>(registers_), std::nullopt);
    for (std::size_t i = 0; i < params; ++i) {
      const auto slot = static_cast<std::size_t>(inner.base) + i;
      ty_[slot] = types[i];
      Node n;
      n.op = Op::Reg;
      n.v = static_cast<std::int64_t>(slot);
      inner.args.push_back(Typed{add(n), types[i]});
    }
    Scope* outer = scope_;
    scope_ = &inner;
    ++depth_;
    looping_.push_back(k);
    std::optional<Ty> result;
    const auto body = tail(*d->body, k, types, result);
    looping_.pop_back();
    --depth_;
    scope_ = outer;
    if (!body || !result) return std::nullopt;
    IntProgram::Loop q;
    q.base = inner.base;
    q.params = static_cast<int>(params);
    q.body = *body;
    // A function compiled on its own is called from some depth of the program's calls: its
    // loop leaves the last few steps below the limit to the function as written.
    q.most = m_.world().max_depth - (function_ ? kFunctionSlack : 0);
    code_.loops.push_back(q);
    const auto at = static_cast<std::int64_t>(code_.loops.size() - 1);
    loops_of_.push_back(LoopOf{k, types, at, *result});
    return Typed{op(Op::Loop, first[0], first[1], first[2], at), *result};
  }

  // The body of function k as a loop's (looped): its `if`s down to the leaves, each the result
  // (of type `result`, the same at every leaf) or the call of k again (Op::Again).
  std::optional<std::int32_t> tail(const Expr& e, int k, const std::vector<Ty>& types, std::optional<Ty>& result) {
    if (e.kind == ExprKind::If) {
      auto c = expr(*e.args[0]);
      if (!c || c->second != Ty::Bool) return std::nullopt;
      auto a = tail(*e.args[1], k, types, result);
      if (!a) return std::nullopt;
      auto b = tail(*e.args[2], k, types, result);
      if (!b) return std::nullopt;
      return op(Op::If, c->first, *a, *b);
    }
    if (e.kind == ExprKind::Call && e.clauses.empty() && e.args[0]->kind == ExprKind::Name &&
        e.args[0]->binding.to == Binding::To::Def && e.args[0]->binding.index == k) {
      if (e.args.size() != types.size() + 1) return std::nullopt;
      std::int32_t next[3] = {-1, -1, -1};
      for (std::size_t i = 0; i < types.size(); ++i) {
        auto a = expr(*e.args[i + 1]);
        if (!a || a->second != types[i]) return std::nullopt;
        next[i] = a->first;
      }
      return op(Op::Again, next[0], next[1], next[2]);
    }
    auto x = expr(e);
    if (!x || (result && *result != x->second)) return std::nullopt;
    result = x->second;
    return x->first;
  }

  // True when evaluating e always evaluates the local `slot` (a function's parameter):
  // conservatively, through operators, conditions and the branches of an `if` both taken.
  static bool strict_in(const Expr& e, int slot) {
    switch (e.kind) {
      case ExprKind::Name: return e.binding.to == Binding::To::Local && e.binding.index == slot;
      case ExprKind::Unary: return strict_in(*e.args[0], slot);
      case ExprKind::Binary:
        if (e.op == BinOp::And || e.op == BinOp::Or) return strict_in(*e.args[0], slot);
        return strict_in(*e.args[0], slot) || strict_in(*e.args[1], slot);
      case ExprKind::If:
        return strict_in(*e.args[0], slot) || (strict_in(*e.args[1], slot) && strict_in(*e.args[2], slot));
      case ExprKind::Index:
      case ExprKind::Tuple:
        if (!e.clauses.empty()) return false;
        for (const ExprPtr& a : e.args) {
          if (strict_in(*a, slot)) return true;
        }
        return false;
      case ExprKind::Call: {
        if (!e.clauses.empty() || e.args[0]->kind != ExprKind::Name) return false;
        const Binding& b = e.args[0]->binding;
        // Functions' and builtins' arguments are evaluated before the call, but for the
        // builtins that take theirs as written (table).
        if (b.to != Binding::To::Def &&
            (b.to != Binding::To::Builtin || kBuiltins[static_cast<std::size_t>(b.index)].as_written)) {
          return false;
        }
        for (std::size_t i = 1; i < e.args.size(); ++i) {
          if (strict_in(*e.args[i], slot)) return true;
        }
        return false;
      }
      default: return false;
    }
  }

  struct Scope {
    int base = 0;             // the register of the function's slot 0
    std::vector<Typed> args;  // its parameters' values
  };

  const GameDecl* d_ = nullptr;      // the game whose rules these are; null for a function
  const GameInstance* g_ = nullptr;
  Interpreter& m_;
  IntProgram::Packing packing_{};
  int frame_size_ = 0;
  const DefDecl* function_ = nullptr;  // build_function's
  static constexpr int kFunctionSlack = 16;
  int params_ = 0;
  int registers_ = 1;  // the game's frame, then each inlined call's
  Scope* scope_ = nullptr;
  int depth_ = 0;  // calls inlined within one another
  std::vector<int> looping_;  // the functions whose loops are being compiled (looped)
  struct LoopOf {
    int k = 0;
    std::vector<Ty> types;
    std::int64_t at = 0;
    Ty result{};
  };
  std::vector<LoopOf> loops_of_;  // the loops compiled (looped)
  int pin_ = -1;              // the tuple of the rule's first clause written out (pinned_count)
  std::vector<std::optional<Ty>> ty_;
  absl::flat_hash_map<const Expr*, std::int64_t> tables_;
  absl::flat_hash_map<std::pair<const Expr*, int>, std::int64_t> words_;  // tables of masks or words
  absl::flat_hash_map<int, Typed> bound_;  // names a destructuring clause binds (destructured)
  IntProgram code_;
};

}  // namespace

std::optional<CompiledFunction> compile_function(const DefDecl& decl, Interpreter& m) {
  if (!decl.body || decl.params.empty() || decl.params.size() > IntProgram::kMaxFunctionArgs) return std::nullopt;
  return Compiler(decl, m).build_function();
}

std::shared_ptr<const IntProgram> compile_rules(const GameDecl& decl, const GameInstance& game,
                                                Interpreter& m) {
  if (decl.form != GameDecl::Form::Rules) return nullptr;
  // Integers first; where the rules treat a coordinate as a set (`k in s`, `s + {k}`) or a
  // list (`xs[i]`, `len(xs)`), that coordinate as a set or a list of small integers. The
  // kinds are tried in order of how many coordinates are not integers (at most 3^4 tries,
  // each failing at the first expression of the wrong type).
  std::vector<IntProgram::Packing> tries;
  const unsigned all = 1u << IntProgram::kMaxArity;
  for (unsigned s = 0; s < all; ++s) {
    for (unsigned l = 0; l < all; ++l) {
      if ((s & l) == 0) tries.push_back({static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(l)});
    }
  }
  std::stable_sort(tries.begin(), tries.end(), [](IntProgram::Packing a, IntProgram::Packing b) {
    return __builtin_popcount(a.sets | a.lists) < __builtin_popcount(b.sets | b.lists);
  });
  for (IntProgram::Packing packing : tries) {
    if (auto p = Compiler(decl, game, m, packing).build()) return p;
  }
  return nullptr;
}

}  // namespace grundy::lang
