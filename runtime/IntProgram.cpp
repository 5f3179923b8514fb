#include "runtime/IntProgram.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cmath>

#include "runtime/Checked.hpp"
#include "runtime/IntOps.hpp"

namespace grundy {

namespace {
constexpr std::int64_t kStepBudget = std::int64_t{1} << 24;  // loop steps per state
using namespace int_ops;
}  // namespace

// ---- the expression graph ----

namespace {
// z where the operation that wrote it met no fault; else 0, and the evaluation bails.
std::int64_t value_or_bail(checked::Fault f, const std::int64_t& z, bool& bail) {
  if (f == checked::Fault::None) return z;
  bail = true;
  return 0;
}
}  // namespace

// A leaf read in place: most operands are a register or a constant (`w - i`, `2 * k`), and a
// call per leaf was a third of the cost of listing a state's runs.
std::int64_t IntProgram::operand(std::int32_t i, std::int64_t* r, bool& bail) const {
  const Node& n = nodes[static_cast<std::size_t>(i)];
  if (n.op == Op::Reg) return r[n.v];
  if (n.op == Op::Const) return n.v;
  return eval(i, r, bail);
}

std::int64_t IntProgram::eval(std::int32_t i, std::int64_t* r, bool& bail) const {
  const Node& n = nodes[static_cast<std::size_t>(i)];
  std::int64_t z = 0;
  auto done = [&](checked::Fault f) { return value_or_bail(f, z, bail); };
  switch (n.op) {
    case Op::Const: return n.v;
    case Op::Reg: return r[n.v];
    case Op::Neg: return done(checked::neg(eval(n.a, r, bail), z));
    case Op::Abs: return done(checked::abs(eval(n.a, r, bail), z));
    case Op::Bit: return done(bit(eval(n.a, r, bail), z));
    case Op::ListLen: return list_len(eval(n.a, r, bail));
    case Op::ListUpdate:
    case Op::ListComp:
    case Op::ListSort:
    case Op::TableAt:
    case Op::RowOf:
    case Op::RowLen:
    case Op::RowAt:
    case Op::InRow:
    case Op::InSet:
    case Op::Append:
    case Op::Cons:
    case Op::ListRemove:
    case Op::Concat:
    case Op::WordAt:
    case Op::SetComp:
    case Op::SetSum:
    case Op::SetMin:
    case Op::SetMax:
    case Op::RangeSet:
    case Op::ListSet:
    case Op::ListSum:
    case Op::ListMin:
    case Op::ListMax:
    case Op::Loop:
    case Op::Again: return eval_rare(n, r, bail);
    case Op::Popcount: return __builtin_popcountll(static_cast<std::uint64_t>(eval(n.a, r, bail)));
    case Op::Not: return eval(n.a, r, bail) ? 0 : 1;
    case Op::And: return eval(n.a, r, bail) ? (eval(n.b, r, bail) ? 1 : 0) : 0;
    case Op::Or: return eval(n.a, r, bail) ? 1 : (eval(n.b, r, bail) ? 1 : 0);
    case Op::If: return eval(n.a, r, bail) ? eval(n.b, r, bail) : eval(n.c, r, bail);
    default: break;
  }
  const std::int64_t x = operand(n.a, r, bail);
  const std::int64_t y = operand(n.b, r, bail);
  if (n.op == Op::Pow) return done(checked::pow(x, y, z));
  if (!dispatch(n.op, [&](auto o) { return apply<decltype(o)::value>(x, y, z); }))
    return done(checked::Fault::Overflow);
  return z;
}

// The nodes that hold a list's items (or read a table), out of eval: their frame made every
// call of eval pay for its size.
std::int64_t IntProgram::eval_rare(const Node& n, std::int64_t* r, bool& bail) const {
  std::int64_t z = 0;
  auto done = [&](checked::Fault f) { return value_or_bail(f, z, bail); };
  switch (n.op) {
    case Op::ListUpdate: {
      const std::int64_t w = eval(n.a, r, bail);
      const std::int64_t at = eval(n.b, r, bail);
      const std::int64_t x = eval(n.c, r, bail);
      if (bail) return 0;
      return at == list_len(w) ? done(checked::Fault::Overflow) : done(list_put(w, at, x, z));
    }
    case Op::ListComp: {
      const std::int64_t lo = eval(n.a, r, bail);
      const std::int64_t hi = eval(n.b, r, bail);
      Items xs;
      std::int64_t count = 0;
      for (std::int64_t k = lo; k <= hi && !bail; ++k) {
        if (count == kMaxListLength) return done(checked::Fault::Overflow);
        r[n.v] = k;
        xs[static_cast<std::size_t>(count++)] = eval(n.c, r, bail);
      }
      if (bail) return 0;
      return done(packed(xs, count, z));
    }
    case Op::ListSort: return list_sorted(eval(n.a, r, bail));
    case Op::TableAt:
    case Op::RowOf: {
      const Table& t = tables[static_cast<std::size_t>(n.v)];
      const std::int64_t at = eval(n.a, r, bail);
      if (bail) return 0;
      if (at < 0 || at >= (n.op == Op::RowOf ? t.rows() : static_cast<std::int64_t>(t.items.size())))
        return done(checked::Fault::Overflow);
      return n.op == Op::RowOf ? at : t.items[static_cast<std::size_t>(at)];
    }
    case Op::RowLen:
    case Op::RowAt:
    case Op::InRow: {
      const Table& t = tables[static_cast<std::size_t>(n.v)];
      const std::int64_t x = n.op == Op::InRow ? eval(n.a, r, bail) : 0;
      const std::int64_t row = eval(n.op == Op::InRow ? n.b : n.a, r, bail);  // checked by RowOf
      const std::int64_t j = n.op == Op::RowAt ? eval(n.b, r, bail) : 0;
      if (bail) return 0;
      const auto first = t.items.begin() + t.starts[static_cast<std::size_t>(row)];
      const auto last = t.items.begin() + t.starts[static_cast<std::size_t>(row) + 1];
      if (n.op == Op::RowLen) return last - first;
      if (n.op == Op::InRow) return std::find(first, last, x) != last ? 1 : 0;
      if (j < 0 || j >= last - first) return done(checked::Fault::Overflow);
      return first[j];
    }
    case Op::InSet: {
      const auto& s = sets[static_cast<std::size_t>(n.v)];
      return std::binary_search(s.begin(), s.end(), eval(n.a, r, bail)) ? 1 : 0;
    }
    case Op::WordAt: {
      const Table& t = tables[static_cast<std::size_t>(n.v)];
      const std::int64_t at = eval(n.a, r, bail);
      if (bail) return 0;
      if (at < 0 || at >= static_cast<std::int64_t>(t.items.size())) return done(checked::Fault::Overflow);
      const std::int64_t w = t.items[static_cast<std::size_t>(at)];
      return w < 0 ? done(checked::Fault::Overflow) : w;
    }
    case Op::SetComp: return set_comprehension(n, r, bail);
    case Op::Loop: return loop(n, r, bail);
    case Op::Again: return done(checked::Fault::Overflow);  // only a Loop's body has one
    default: break;
  }
  const std::int64_t x = operand(n.a, r, bail);
  const std::int64_t y = reads_b(n.op) ? operand(n.b, r, bail) : 0;
  if (!dispatch(n.op, [&](auto o) { return apply<decltype(o)::value>(x, y, z); }))
    return done(checked::Fault::Overflow);
  return z;
}

// {c for slot in ...}: c (a mask) for each value of the loop, ORed.
std::int64_t IntProgram::set_comprehension(const Node& n, std::int64_t* r, bool& bail) const {
  const Comp& q = comps[static_cast<std::size_t>(n.v)];
  std::uint64_t acc = 0;
  const auto each = [&](std::int64_t x) {
    r[q.slot] = x;
    acc |= static_cast<std::uint64_t>(eval(n.c, r, bail));
    return !bail;
  };
  switch (q.kind) {
    case Comp::Kind::Range: {
      const std::int64_t lo = eval(n.a, r, bail);
      const std::int64_t hi = eval(n.b, r, bail);
      if (bail || hi < lo) return 0;
      if (static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) >= kMaxCompRange) {
        bail = true;
        return 0;
      }
      for (std::int64_t k = lo;; ++k) {
        if (!each(k)) return 0;
        if (k == hi) break;
      }
      break;
    }
    case Comp::Kind::Row: {
      const Table& t = tables[static_cast<std::size_t>(q.table)];
      const std::int64_t row = eval(n.a, r, bail);  // checked by RowOf
      if (bail) return 0;
      for (std::uint32_t j = t.starts[static_cast<std::size_t>(row)];
           j < t.starts[static_cast<std::size_t>(row) + 1]; ++j) {
        if (!each(t.items[j])) return 0;
      }
      break;
    }
    case Comp::Kind::Bits: {
      const std::int64_t mask = eval(n.a, r, bail);
      if (bail) return 0;
      for (auto m = static_cast<std::uint64_t>(mask); m != 0; m &= m - 1) {
        if (!each(__builtin_ctzll(m))) return 0;
      }
      break;
    }
    case Comp::Kind::Items: {
      const std::int64_t w = eval(n.a, r, bail);
      if (bail) return 0;
      std::int64_t xs[kMaxListLength];
      const std::int64_t count = unpack_list(w, xs);
      for (std::int64_t j = 0; j < count; ++j) {
        if (!each(xs[j])) return 0;
      }
      break;
    }
  }
  return static_cast<std::int64_t>(acc);
}

// The calls of a tail-recursive function one after another in its registers, as a hand-written
// while loop, rather than a call per step.
std::int64_t IntProgram::loop(const Node& n, std::int64_t* r, bool& bail) const {
  const Loop& q = loops[static_cast<std::size_t>(n.v)];
  std::int64_t args[3] = {};
  const auto take = [&](const Node& call) {
    // Every argument before any parameter changes: the next call's arguments read this one's.
    const std::int32_t at[3] = {call.a, call.b, call.c};
    for (int j = 0; j < q.params; ++j) args[j] = eval(at[j], r, bail);
    for (int j = 0; j < q.params; ++j) r[q.base + j] = args[j];
  };
  take(n);
  if (!q.code.code.empty() && !bail) {
    Loop::Cache& cache = q.cache;
    Loop::Cache::Entry* entry = nullptr;
    if (!cache.off) {
      std::uint64_t h = 0;
      for (int j = 0; j < q.params; ++j) h = (h ^ static_cast<std::uint64_t>(args[j])) * 0x9E3779B97F4A7C15ULL;
      entry = &cache.entries[h >> 58];
      bool same = entry->full;
      for (int j = 0; j < q.params; ++j) same = same && entry->args[static_cast<std::size_t>(j)] == args[j];
      if (same) {
        ++cache.hits;
        return entry->value;
      }
      // Seldom found (each call new, as trial division's): no more looking.
      if (++cache.calls == 4096) cache.off = cache.hits < cache.calls / 16;
    }
    std::int64_t calls = q.most - 1;  // the calls after the first
    if (!exec(q.code, r, &calls)) {
      bail = true;
      return 0;
    }
    const std::int64_t v = r[q.result];
    if (entry) {
      std::copy(args, args + q.params, entry->args.begin());
      entry->value = v;
      entry->full = true;
    }
    return v;
  }
  for (std::int64_t calls = 1; !bail; ++calls) {
    std::int32_t at = q.body;
    for (;;) {
      const Node& b = nodes[static_cast<std::size_t>(at)];
      if (b.op != Op::If) break;
      const std::int64_t c = eval(b.a, r, bail);
      if (bail) return 0;
      at = c ? b.b : b.c;
    }
    const Node& leaf = nodes[static_cast<std::size_t>(at)];
    if (leaf.op != Op::Again) return eval(at, r, bail);
    if (calls >= q.most) break;
    take(leaf);
  }
  bail = true;
  return 0;
}

std::optional<std::int64_t> IntProgram::value_at(std::int32_t node, std::int64_t slot,
                                                 std::int64_t value) const {
  // (The compiler asks before it knows the frame.)
  std::vector<std::int64_t> r(static_cast<std::size_t>(registers_from(slot + 1)), 0);
  r[static_cast<std::size_t>(slot)] = value;
  bool bail = false;
  const std::int64_t v = eval(node, r.data(), bail);
  if (bail) return std::nullopt;
  return v;
}

std::optional<std::int64_t> IntProgram::value_with(std::int32_t node, const std::int64_t* args, int count) const {
  std::int64_t small[256] = {};
  std::vector<std::int64_t> big;
  std::int64_t* r = small;
  const std::int64_t n = std::max<std::int64_t>(registers_, values());
  if (n > 256) {
    big.assign(static_cast<std::size_t>(n), 0);
    r = big.data();
  }
  std::copy(args, args + count, r);
  std::copy(consts_.begin(), consts_.end(), r + frame);  // the flat code of loops reads them
  bool bail = false;
  const std::int64_t v = eval(node, r, bail);
  if (bail) return std::nullopt;
  return v;
}

std::optional<std::int64_t> IntProgram::sole_register(std::int32_t i) const {
  if (i < 0) return -1;
  const Node& n = nodes[static_cast<std::size_t>(i)];
  switch (n.op) {
    case Op::Const: return -1;
    case Op::Reg: return n.v;
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Mod: case Op::Pow: case Op::Xor:
    case Op::Neg: case Op::Min: case Op::Max: case Op::Abs: case Op::Lt: case Op::Le: case Op::Gt:
    case Op::Ge: case Op::Eq: case Op::Ne: case Op::And: case Op::Or: case Op::Not: case Op::If:
    case Op::InSet: break;
    default: return std::nullopt;
  }
  std::int64_t one = -1;
  for (const std::int32_t q : {n.a, n.b, n.c}) {
    const auto s = sole_register(q);
    if (!s) return std::nullopt;
    if (*s < 0) continue;
    if (one >= 0 && one != *s) return std::nullopt;
    one = *s;
  }
  return one;
}

void IntProgram::tabulate(std::int32_t i, std::int64_t slot, std::int64_t n, std::int64_t* out,
                          std::uint8_t* ok) const {
  std::vector<std::int64_t> r(static_cast<std::size_t>(registers_from(slot + 1)), 0);
  for (std::int64_t x = 0; x < n; ++x) {
    if (slot >= 0) r[static_cast<std::size_t>(slot)] = x;
    bool bail = false;
    out[x] = eval(i, r.data(), bail);
    ok[x] = !bail;
  }
}

bool IntProgram::mentions(std::int32_t i, std::int64_t slot) const {
  if (i < 0) return false;
  const Node& n = nodes[static_cast<std::size_t>(i)];
  if (n.op == Op::Reg) return n.v == slot;
  return mentions(n.a, slot) || mentions(n.b, slot) || mentions(n.c, slot);
}

std::optional<std::int64_t> IntProgram::slope(std::int32_t i, std::int64_t slot) const {
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

// ---- flat programs ----

// Where node i's value is once `p` has run: appends the instructions that compute it.
// Temporaries are numbered from 0 here and moved past the constants by `seal`.
std::int32_t IntProgram::const_place(std::int64_t v) {
  for (std::size_t k = 0; k < consts_.size(); ++k) {
    if (consts_[k] == v) return frame + static_cast<std::int32_t>(k);
  }
  consts_.push_back(v);
  return frame + static_cast<std::int32_t>(consts_.size() - 1);
}

// Appends one instruction; returns its index.
std::int32_t IntProgram::emit(Prog& p, Op op, std::int32_t dst, std::int32_t a, std::int32_t b,
                              std::int32_t node) {
  Instr in;
  in.op = op;
  in.dst = dst;
  in.a = a;
  in.b = b;
  in.node = node;
  p.code.push_back(in);
  return static_cast<std::int32_t>(p.code.size() - 1);
}

// Whether the instruction just emitted may take on more (a jump, another destination): it is
// no jump or tree walk, and no jump lands past it, as an `and`'s skip or an `if`'s other
// branch does, which write the same value by another way.
bool IntProgram::last_is_plain(const Prog& p) {
  if (p.code.empty()) return false;
  const Instr& last = p.code.back();
  const auto jumps = [](const Instr& in) { return in.op == Op::Jz || in.op == Op::Jnz || in.op == Op::Jmp; };
  if (last.tree || last.or_jump || jumps(last)) return false;
  const auto here = static_cast<std::int32_t>(p.code.size());
  return std::none_of(p.code.begin(), p.code.end(),
                      [&](const Instr& in) { return (jumps(in) || in.or_jump) && in.target == here; });
}

// A jump where c is 0, in a loop's code: where the instruction just emitted computed c (a
// test), that one jumps, and a step of trial division is six instructions rather than eight.
std::int32_t IntProgram::emit_jz(Prog& p, std::int32_t c, std::int32_t node) {
  if (last_is_plain(p) && p.code.back().dst == c) {
    p.code.back().or_jump = true;
    return static_cast<std::int32_t>(p.code.size()) - 1;
  }
  return emit(p, Op::Jz, const_place(0), c, const_place(0), node);
}

// If, And and Or as branches over flat instructions, so that only the branch taken runs
// (`if b == 0 then 0 else a / b`) without a tree walk per value. Every instruction that
// writes the node's value is marked with the node, so that an affine run sees it as the node
// (not affine) and does not extrapolate it. (A list comprehension stays one tree walk: as a
// loop of flat instructions, an indirect jump per instruction, it ran slower.)
std::int32_t IntProgram::place_branches(std::int32_t i, Prog& p) {
  const Node& n = nodes[static_cast<std::size_t>(i)];
  const std::int32_t zero = const_place(0);
  auto here = [&] { return static_cast<std::int32_t>(p.code.size()); };
  // Whether the node just placed got a temporary of its own that nothing else names (so no
  // later instruction reads it): its register may then be taken over.
  auto fresh = [&](std::size_t before, std::int32_t temps, std::int32_t node, std::int32_t at) {
    if (at >= 0 || -1 - at < temps || placed_.size() <= before || placed_.back().node != node) return false;
    return std::none_of(placed_.begin() + static_cast<std::ptrdiff_t>(before), placed_.end() - 1,
                        [&](const Placed& q) { return q.at == at; });
  };
  switch (n.op) {
    case Op::If: {
      // `if c then e else e` (an argument that must be evaluated first, lang/Compile.cpp):
      // the test for its failure, then e once.
      if (n.b == n.c) {
        const Node& t = nodes[static_cast<std::size_t>(n.a)];
        place(t.op == Op::Eq && t.a == t.b ? t.a : n.a, p);
        return place(n.b, p);
      }
      const std::int32_t dst = -1 - temps_++;
      const std::int32_t c = place(n.a, p);
      const std::int32_t jz = emit(p, Op::Jz, zero, c, zero, i);
      const std::size_t mark = placed_.size();
      emit(p, Op::Move, dst, place(n.b, p), zero, i);
      placed_.resize(mark);
      const std::int32_t jmp = emit(p, Op::Jmp, zero, zero, zero, i);
      p.code[static_cast<std::size_t>(jz)].target = here();
      emit(p, Op::Move, dst, place(n.c, p), zero, i);
      placed_.resize(mark);
      p.code[static_cast<std::size_t>(jmp)].target = here();
      return dst;
    }
    default: {  // And, Or: b only when a does not decide
      // A truth value (a comparison, another and) is its own 0 or 1: no `!= 0` after it, and
      // a first operand's register becomes the result's.
      std::size_t before = placed_.size();
      std::int32_t temps = temps_;
      const std::int32_t a = place(n.a, p);
      std::int32_t dst = 0;
      if (truth(n.a) && fresh(before, temps, n.a, a)) {
        placed_.pop_back();
        dst = a;
      } else {
        dst = -1 - temps_++;
        emit(p, Op::Ne, dst, a, zero, i);
      }
      const std::int32_t skip = emit(p, n.op == Op::And ? Op::Jz : Op::Jnz, zero, dst, zero, i);
      before = placed_.size();
      temps = temps_;
      const std::int32_t b = place(n.b, p);
      Instr& last = p.code.back();
      const Op bop = nodes[static_cast<std::size_t>(n.b)].op;
      if (truth(n.b) && bop != Op::And && bop != Op::Or && fresh(before, temps, n.b, b) && !last.tree &&
          last.dst == b) {
        last.dst = dst;
      } else {
        emit(p, truth(n.b) ? Op::Move : Op::Ne, dst, b, zero, i);
      }
      placed_.resize(before);
      p.code[static_cast<std::size_t>(skip)].target = here();
      return dst;
    }
  }
}

// Whether node i's value is 0 or 1.
bool IntProgram::truth(std::int32_t i) const {
  switch (nodes[static_cast<std::size_t>(i)].op) {
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
    case Op::Not:
    case Op::And:
    case Op::Or: return true;
    default: return false;
  }
}

std::int32_t IntProgram::place(std::int32_t i, Prog& p) {
  const Node& n = nodes[static_cast<std::size_t>(i)];
  if (n.op == Op::Reg) return static_cast<std::int32_t>(n.v);
  if (n.op == Op::Const) return const_place(n.v);
  if (&p != placing_) {
    placing_ = &p;
    placed_.clear();
  }
  for (auto q = placed_.rbegin(); q != placed_.rend(); ++q) {
    if (q->node == i) return q->at;
  }
  std::int32_t at = 0;
  if (n.op == Op::If || n.op == Op::And || n.op == Op::Or) {
    at = place_branches(i, p);
    placed_.push_back(Placed{i, n.op, INT32_MIN, INT32_MIN, at});
    return at;
  }
  Instr in;
  in.op = n.op;
  in.node = i;
  switch (n.op) {
    case Op::InSet:
    case Op::Pow:
    case Op::ListUpdate:
    case Op::ListComp:
    case Op::TableAt:
    case Op::RowOf:
    case Op::RowLen:
    case Op::RowAt:
    case Op::InRow:
    case Op::WordAt:
    case Op::SetComp:
    case Op::Loop:
    case Op::Again:
      in.tree = true;
      in.a = i;
      break;
    default:
      in.a = place(n.a, p);
      if (reads_b(n.op)) in.b = place(n.b, p);
      // The same operation on the same values, computed before where this one runs.
      for (auto q = placed_.rbegin(); q != placed_.rend(); ++q) {
        if (q->op == in.op && q->a == in.a && q->b == in.b) {
          const std::int32_t found = q->at;  // before push_back moves the entries
          placed_.push_back(Placed{i, n.op, INT32_MIN, INT32_MIN, found});
          return found;
        }
      }
      break;
  }
  in.dst = -1 - temps_++;  // a temporary, placed by seal
  p.code.push_back(in);
  placed_.push_back(Placed{i, n.op, in.tree ? INT32_MIN : in.a, in.tree ? INT32_MIN : in.b, in.dst});
  return in.dst;
}

// Once every program is built: temporaries (negative places) go after the constants.
std::int32_t IntProgram::sealed(std::int32_t at) const {
  return at >= 0 ? at : frame + static_cast<std::int32_t>(consts_.size()) + (-1 - at);
}

void IntProgram::seal(Prog& p) const {
  for (Instr& in : p.code) {
    in.dst = sealed(in.dst);
    if (!in.tree) {
      in.a = sealed(in.a);
      in.b = sealed(in.b);
    }
  }
}

// The registers the tree walk may write: at least `least` and the frame, and a comprehension's
// or a loop's own past them.
std::int64_t IntProgram::registers_from(std::int64_t least) const {
  std::int64_t regs = std::max<std::int64_t>(least, frame);
  for (const Node& m : nodes) {
    if (m.op == Op::Reg || m.op == Op::ListComp) regs = std::max(regs, m.v + 1);
  }
  for (const Comp& q : comps) regs = std::max(regs, q.slot + 1);
  for (const Loop& q : loops) regs = std::max(regs, q.base + q.params);
  return regs;
}

void IntProgram::link() {
  placing_ = nullptr;
  registers_ = registers_from(0);
  for (Item& it : items) {
    if (it.let) it.expr_at = place(it.expr, it.prog);
    for (Clause& c : it.clauses) {
      if (c.kind != Clause::Kind::List) c.lo_at = place(c.lo, c.prog);
      if (c.kind == Clause::Kind::Range) c.hi_at = place(c.hi, c.prog);
      if (c.divides >= 0) c.divides_at = place(c.divides, c.divides_prog);
      if (c.excluded >= 0) c.excluded_at = place(c.excluded, c.excluded_prog);
      for (Bound& b : c.bounds) {
        if (!b.guard) b.lhs_at = place(b.lhs, b.prog);
        b.rhs_at = place(b.rhs, b.prog);
      }
    }
    for (std::int32_t q : it.coords) it.coords_at.push_back(place(q, it.prog));
  }
  // Every program placed before any is sealed: a temporary's register comes after every
  // constant, and a loop's body may bring constants the rules do not have.
  for (Loop& q : loops) {
    q.result = -1 - temps_++;
    std::vector<std::int32_t> ends;
    flat_step(q, q.body, ends);
    const auto end = static_cast<std::int32_t>(q.code.code.size());
    for (const std::int32_t j : ends) q.code.code[static_cast<std::size_t>(j)].target = end;
  }
  for (Item& it : items) {
    seal(it.prog);
    it.expr_at = sealed(it.expr_at);
    for (auto& q : it.coords_at) q = sealed(q);
    for (Clause& c : it.clauses) {
      seal(c.prog);
      c.lo_at = sealed(c.lo_at);
      c.hi_at = sealed(c.hi_at);
      if (c.divides >= 0) {
        seal(c.divides_prog);
        c.divides_at = sealed(c.divides_at);
      }
      if (c.excluded >= 0) {
        seal(c.excluded_prog);
        c.excluded_at = sealed(c.excluded_at);
      }
      for (Bound& b : c.bounds) {
        seal(b.prog);
        b.lhs_at = sealed(b.lhs_at);
        b.rhs_at = sealed(b.rhs_at);
      }
    }
    if (it.affine) moving_values(it);
    plan_lanes(it);
  }
  for (Loop& q : loops) {
    seal(q.code);
    q.result = sealed(q.result);
  }
  plan_cells();
  placing_ = nullptr;
  placed_.clear();
}

// Loop::code for the body's node `node` and the nodes under its `if`s: each leaf ends with a
// jump to the end (`ends`, set once the program is whole).
void IntProgram::flat_step(Loop& q, std::int32_t node, std::vector<std::int32_t>& ends) {
  Prog& p = q.code;
  if (&p != placing_) {
    placing_ = &p;
    placed_.clear();
  }
  const Node& n = nodes[static_cast<std::size_t>(node)];
  const std::int32_t zero = const_place(0);
  if (n.op == Op::If) {
    const std::int32_t c = place(n.a, p);
    const std::int32_t jz = emit_jz(p, c, node);
    const std::size_t mark = placed_.size();
    flat_step(q, n.b, ends);
    placed_.resize(mark);
    p.code[static_cast<std::size_t>(jz)].target = static_cast<std::int32_t>(p.code.size());
    flat_step(q, n.c, ends);
    placed_.resize(mark);
    return;
  }
  if (n.op == Op::Again) {
    const std::int32_t args[3] = {n.a, n.b, n.c};
    std::int32_t at[3] = {};
    for (int j = 0; j < q.params; ++j) at[j] = place(args[j], p);
    // The last argument computed straight into its parameter (`d + 1` into d), where nothing
    // after it reads that parameter or that value: no move per step.
    const int last_param = q.params - 1;
    const auto into = static_cast<std::int32_t>(q.base + last_param);
    if (at[last_param] < 0 && last_is_plain(p) && p.code.back().dst == at[last_param]) {
      bool read = false;
      for (int j = 0; j < last_param; ++j) read = read || at[j] == at[last_param] || at[j] == into;
      if (!read) {
        p.code.back().dst = into;
        at[last_param] = into;
      }
    }
    // The parameters are set together: an argument that is another parameter is copied
    // before any is set (`f(b, a)`).
    for (int j = 0; j < q.params; ++j) {
      const std::int64_t m = at[j] - q.base;
      if (m >= 0 && m < q.params && m != j) {
        const std::int32_t t = -1 - temps_++;
        emit(p, Op::Move, t, at[j], zero, node);
        at[j] = t;
      }
    }
    for (int j = 0; j < q.params; ++j) {
      const auto param = static_cast<std::int32_t>(q.base + j);
      if (at[j] != param) emit(p, Op::Move, param, at[j], zero, node);
    }
    emit(p, Op::Jmp, zero, zero, zero, node);  // target 0: back to the start (exec counts it)
    return;
  }
  emit(p, Op::Move, q.result, place(node, p), zero, node);
  ends.push_back(emit(p, Op::Jmp, zero, zero, zero, node));
}

// Item::moving, from the instructions of the item's program.
void IntProgram::moving_values(Item& it) {
  const std::int64_t k = it.clauses[static_cast<std::size_t>(it.run_at)].slot;
  it.still = std::all_of(it.slopes.begin(), it.slopes.end(), [](std::int64_t d) { return d == 0; });
  for (const auto& in : it.prog.code) {
    if (!mentions(in.node, k)) continue;
    const auto s = in.tree ? std::nullopt : slope(in.node, k);
    if (!s) {  // cannot be, in an affine item; if it were, the plain loop is right
      it.affine = false;
      it.moving.clear();
      return;
    }
    it.moving.emplace_back(in.dst, *s);
  }
}

// Runs p over the value array v; false on an overflow, a division by zero, ...
[[gnu::always_inline]] inline bool IntProgram::exec(const Prog& p, std::int64_t* v, std::int64_t* calls) const {
  const Instr* code = p.code.data();
  const std::size_t size = p.code.size();
  for (std::size_t pc = 0; pc < size; ++pc) {
    const Instr& in = code[pc];
    std::int64_t z = 0;
    if (in.tree) {
      bool bail = false;
      z = eval(in.a, v, bail);
      if (bail) return false;
      v[in.dst] = z;
      continue;
    }
    const std::int64_t x = v[in.a];
    switch (in.op) {
      case Op::Jz:
        if (x == 0) pc = static_cast<std::size_t>(in.target) - 1;  // then ++pc
        continue;
      case Op::Jnz:
        if (x != 0) pc = static_cast<std::size_t>(in.target) - 1;
        continue;
      case Op::Jmp:
        // Back to the start: a loop's next call (Loop::code), the only jump that goes back.
        if (in.target == 0 && (*calls)-- <= 0) return false;
        pc = static_cast<std::size_t>(in.target) - 1;
        continue;
      default: break;
    }
    const std::int64_t y = v[in.b];
    if (!dispatch(in.op, [&](auto o) { return apply<decltype(o)::value>(x, y, z); })) return false;
    v[in.dst] = z;
    if (in.or_jump && z == 0) pc = static_cast<std::size_t>(in.target) - 1;
  }
  return true;
}

// ---- running ----

int IntProgram::max_parts() const {
  int most = 0;
  for (const Item& it : items) most = std::max(most, it.parts);
  return most;
}

bool IntProgram::options(const std::int64_t* state, OptionSink& sink, const Resume* from,
                         Resume* stop) const {
  std::int64_t small[256];
  std::vector<std::int64_t> big;
  std::int64_t* r = small;
  const std::int32_t n = values();
  if (n > 256) {
    big.assign(static_cast<std::size_t>(n), 0);
    r = big.data();
  }
  for (std::size_t i = 0; i < state_slots.size(); ++i) r[state_slots[i]] = state[i];
  std::copy(consts_.begin(), consts_.end(), r + frame);
  std::int64_t budget = kStepBudget;
  const auto first = from ? static_cast<std::size_t>(from->item) : 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    if (it.let) {
      if (!exec(it.prog, r)) return false;
      r[it.slot] = r[it.expr_at];
      continue;
    }
    if (i < first) continue;  // its options were all listed before
    if (!clauses(it, 0, r, sink, budget, i == first ? from : nullptr, stop)) {
      if (stop) stop->item = static_cast<std::int32_t>(i);
      return false;
    }
  }
  return true;
}

[[gnu::always_inline]] inline bool IntProgram::coords_of(const Item& it, std::int64_t* r,
                                                         std::int64_t* out) const {
  if (!exec(it.prog, r)) return false;
  for (std::size_t q = 0; q < it.coords_at.size(); ++q) out[q] = r[it.coords_at[q]];
  return true;
}

// The options of an affine item's last range as one run: `count` values of its variable
// from `first`, `step` apart (1, or a modular condition's modulus). The program runs once,
// at first: every value in it that moves with the range's variable is affine in it, so it
// takes its largest and smallest values at the two ends, and its value at the last (the one
// at first plus its slope times the span) fits in 64 bits exactly when evaluating there
// would not overflow; the options between cannot overflow then either.
[[gnu::always_inline]] inline bool IntProgram::affine_run(const Item& it, const Clause& c, std::int64_t first,
                                                          std::int64_t count, std::int64_t step,
                                                          std::int64_t* r, OptionSink& sink,
                                                          std::int64_t& budget) const {
  std::int64_t span = 0;
  if (__builtin_mul_overflow(count - 1, step, &span)) return false;
  r[c.slot] = first;
  std::int64_t at_first[kMaxParts * kMaxArity];
  if (!coords_of(it, r, at_first)) return false;
  for (const auto& [at, slope] : it.moving) {
    std::int64_t d = 0, end = 0;
    if (__builtin_mul_overflow(slope, span, &d) || __builtin_add_overflow(r[at], d, &end)) return false;
  }
  // A run counts against the state's budget like the loop it replaces, so that a state with
  // millions of options in runs still gives up (the rules as written then meet their step
  // limit), and still lets Ctrl-C in.
  if (!spend(budget, count, sink)) return false;
  // Slope 0 in every coordinate: the same option count times, which is one option.
  if (it.still) return sink.option(at_first, it.parts);
  if (step == 1) return sink.run(at_first, it.slopes.data(), it.parts, count);
  std::int64_t slopes[kMaxParts * kMaxArity];
  for (std::size_t q = 0; q < it.slopes.size(); ++q) {
    if (__builtin_mul_overflow(it.slopes[q], step, &slopes[q])) return false;
  }
  return sink.run(at_first, slopes, it.parts, count);
}

// The range lo..hi of an item with kinks (Item::kinks) as runs, one per piece between the k
// where the operands of a min or max cross, in the order of k. Each piece's options are
// computed at its two ends (and next to its first): affine in k there, every value of the
// program takes its extremes at the ends, so none between overflows when neither end does; the
// slopes follow from the ends. A listing stopped in a piece goes on with that piece, or the next
// one where the caller went through the run (as strided does by residues).
bool IntProgram::pieces(const Item& it, std::size_t ci, const Clause& c, std::int64_t lo, std::int64_t hi,
                        std::int64_t* r, OptionSink& sink, std::int64_t& budget, const Resume* from,
                        Resume* stop) const {
  if (lo > hi) return true;
  __extension__ using I128 = __int128;
  std::array<std::int64_t, Item::kMaxKinks + 1> cuts{};
  std::size_t n = 0;
  cuts[n++] = lo;
  r[c.slot] = lo;
  for (const Item::Kink& q : it.kinks) {
    if (q.slope == 0) continue;
    bool bail = false;
    const std::int64_t a = eval(q.a, r, bail), b = eval(q.b, r, bail);
    if (bail) return false;  // the first option fails: the rules as written meet it there
    // The operands' difference, d0 + slope * (k - lo): the first k past lo where its sign
    // (<= 0 or > 0) changes.
    const I128 d0 = static_cast<I128>(a) - b;
    const I128 s = q.slope;
    I128 at = -1;
    if (s > 0 && d0 <= 0) at = lo + (-d0) / s + 1;
    if (s < 0 && d0 > 0) at = lo + (d0 + (-s) - 1) / (-s);
    if (at > lo && at <= hi) cuts[n++] = static_cast<std::int64_t>(at);
  }
  std::sort(cuts.begin(), cuts.begin() + static_cast<std::ptrdiff_t>(n));
  n = static_cast<std::size_t>(std::unique(cuts.begin(), cuts.begin() + static_cast<std::ptrdiff_t>(n)) - cuts.begin());
  std::size_t j = from ? static_cast<std::size_t>(from->at[ci]) + (from->in_run ? 1 : 0) : 0;
  std::int64_t first_coords[kMaxParts * kMaxArity], last_coords[kMaxParts * kMaxArity], next_coords[kMaxParts * kMaxArity];
  std::int64_t slopes[kMaxParts * kMaxArity];
  const std::size_t width = it.coords.size();
  for (; j < n; ++j) {
    const std::int64_t first = cuts[j], last = j + 1 < n ? cuts[j + 1] - 1 : hi;
    const std::int64_t count = last - first + 1;  // (no overflow: lo <= first <= last <= hi)
    const auto stopped = [&] {
      if (stop) stop->at[ci] = static_cast<std::int64_t>(j);
      return false;
    };
    r[c.slot] = first;
    if (!coords_of(it, r, first_coords)) return false;
    bool still = true;
    if (count > 1) {
      r[c.slot] = last;
      if (!coords_of(it, r, last_coords)) return false;
      r[c.slot] = first + 1;
      if (!coords_of(it, r, next_coords)) return false;
      for (std::size_t q = 0; q < width; ++q) {
        // The slope next to the first, and at the last as the ends say: otherwise not affine
        // after all, and the rules as written list this range.
        const I128 d = static_cast<I128>(next_coords[q]) - first_coords[q];
        if (d * (count - 1) != static_cast<I128>(last_coords[q]) - first_coords[q] || d > INT64_MAX || d < INT64_MIN)
          return false;
        slopes[q] = static_cast<std::int64_t>(d);
        still = still && d == 0;
      }
    }
    if (!spend(budget, count, sink)) return false;
    const bool more = count == 1 || still ? sink.option(first_coords, it.parts)
                                          : sink.run(first_coords, slopes, it.parts, count);
    if (!more) return stopped();
  }
  return true;
}

// A range lo..hi (lo >= 0) whose next clause is its modular condition (Clause::mod): the
// values of each residue let through in turn, `mod` apart, and the clauses after the
// condition for each; one run per residue where the item is affine. A listing stopped in
// a run goes on with the next residue (the caller has gone through the run); one stopped
// at a value goes on from it.
bool IntProgram::strided(const Item& it, std::size_t ci, const Clause& c, const std::int64_t* residues,
                         std::size_t n, std::int64_t lo, std::int64_t hi, std::int64_t* r, OptionSink& sink,
                         std::int64_t& budget, const Resume* from, Resume* stop) const {
  const std::int64_t m = c.mod;
  const bool run = it.affine && static_cast<std::size_t>(it.run_at) == ci;
  std::size_t j = 0;
  std::int64_t resume = -1;  // the value a listing goes on from
  if (from && run) {
    j = static_cast<std::size_t>(from->at[ci]) + (from->in_run ? 1 : 0);
  } else if (from) {
    resume = from->at[ci];
    j = static_cast<std::size_t>(std::lower_bound(residues, residues + n, resume % m) - residues);
  }
  for (; j < n; ++j) {
    std::int64_t first = lo + ((residues[j] - lo % m) % m + m) % m;
    if (resume >= 0) first = resume;
    resume = -1;
    if (first > hi) continue;
    const std::int64_t count = (hi - first) / m + 1;
    if (run) {
      if (!affine_run(it, c, first, count, m, r, sink, budget)) {
        if (stop) stop->at[ci] = static_cast<std::int64_t>(j);
        return false;
      }
      continue;
    }
    for (std::int64_t i = 0; i < count; ++i) {
      if (!spend(budget, 1, sink)) return false;
      const std::int64_t k = first + i * m;
      r[c.slot] = k;
      if (!clauses(it, ci + 2, r, sink, budget, from, stop)) {
        if (stop) stop->at[ci] = k;
        return false;
      }
      from = nullptr;
    }
  }
  return true;
}

// The range lo..hi (lo >= 1) of a clause `if a % k == 0` (Clause::divides), a > 0: its k are the
// divisors of a in it, listed in increasing order (the small ones d <= sqrt(a), then the large
// ones a / d as d comes down), the clauses after the condition run for each as the loop would
// (the condition holds there, and nowhere else in the range). A listing stopped at k goes on
// from k.
bool IntProgram::divisors(const Item& it, std::size_t ci, const Clause& c, std::int64_t a, std::int64_t lo,
                          std::int64_t hi, std::int64_t* r, OptionSink& sink, std::int64_t& budget,
                          const Resume* from, Resume* stop) const {
  const std::int64_t resumed = from ? from->at[ci] : 0;
  if (from) lo = std::max(lo, resumed);
  auto root = static_cast<std::int64_t>(std::sqrt(static_cast<double>(a)));
  while (root > 0 && root > a / root) --root;  // the largest d with d * d <= a, exactly
  while ((root + 1) <= a / (root + 1)) ++root;
  auto each = [&](std::int64_t k) {
    if (k != resumed) from = nullptr;  // the clauses after it go on from where they stopped only at k
    r[c.slot] = k;
    if (!clauses(it, ci + 1, r, sink, budget, from, stop)) {
      if (stop) stop->at[ci] = k;
      return false;
    }
    from = nullptr;
    return true;
  };
  // Trials count against the state's budget like the loop's steps they replace.
  for (std::int64_t d = lo; d <= std::min(root, hi); ++d) {
    if (!spend(budget, 1, sink)) return false;
    if (a % d == 0 && !each(d)) return false;
  }
  // The large divisors a / d > root in lo..hi: d from a / lo down (within 1..root) to a / hi.
  const std::int64_t top = std::min(root, a / std::max(lo, root + 1));
  const std::int64_t least = std::max<std::int64_t>(1, a / hi);
  for (std::int64_t d = top; d >= least; --d) {
    if (!spend(budget, 1, sink)) return false;
    if (a % d != 0) continue;
    const std::int64_t k = a / d;
    if (k <= root || k < lo || k > hi) continue;
    if (!each(k)) return false;
  }
  return true;
}

// The residues mod c.mod (increasing) whose k the condition after the range lets through, for
// this state (Clause::per_state): the condition tested at lo .. lo + mod - 1, after each x of
// its x % M is evaluated at lo and at hi (affine in k, so every k between stays in range too,
// and keeps the sign of both ends where they agree). False where anything fails or a sign
// changes (the loop then tests each k).
bool IntProgram::state_residues(const Item& it, std::size_t ci, const Clause& c, std::int64_t lo,
                                std::int64_t hi, std::int64_t* r, std::int64_t* residues,
                                std::size_t& count) const {
  for (const std::int32_t x : c.moduli) {
    std::int64_t ends[2];
    for (int e = 0; e < 2; ++e) {
      r[c.slot] = e == 0 ? lo : hi;
      bool bail = false;
      ends[e] = eval(x, r, bail);
      if (bail) return false;
    }
    // % takes the dividend's sign (-1 % 3 is -1, 2 % 3 is 2): periodic only where x keeps it.
    if (!((ends[0] >= 0 && ends[1] >= 0) || (ends[0] <= 0 && ends[1] <= 0))) return false;
  }
  const Clause& cond = it.clauses[ci + 1];
  const std::int64_t m = c.mod;
  count = 0;
  for (std::int64_t k = lo; k < lo + m; ++k) {
    r[c.slot] = k;
    if (!exec(cond.prog, r)) return false;
    if (r[cond.lo_at] != 0) residues[count++] = k % m;
  }
  std::sort(residues, residues + count);
  return true;
}

namespace {
__extension__ using I128 = __int128;  // GCC and Clang; -Wpedantic wants it marked

// floor(a / b) and ceil(a / b), b != 0.
I128 floor_div(I128 a, I128 b) {
  if (b == 1) return a;  // the usual slope, without a 128-bit division
  if (b == -1) return -a;
  I128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
I128 ceil_div(I128 a, I128 b) { return -floor_div(-a, b); }
}  // namespace

// Cuts lo..hi (not empty) to the k that meet the range's bounds (`empty`: none does). Each lhs is evaluated
// at both ends: affine in k, it and every part of it take their extremes there, so when neither end overflows
// no k between does, and testing each k as written would have met no error either. False when an end does
// (the rules as written then take over).
bool IntProgram::bounded(const Clause& c, std::int64_t* r, std::int64_t& lo, std::int64_t& hi,
                         bool& empty) const {
  for (const Bound& b : c.bounds) {
    if (b.guard) {
      if (!exec(b.prog, r)) return false;
      if (r[b.rhs_at] == 0) {
        empty = true;
        return true;
      }
      continue;
    }
    r[c.slot] = hi;
    if (!exec(b.prog, r)) return false;
    if (b.monotone) {
      if (lo < 0) return false;
      if (!monotone_cut(b, c.slot, r, lo, hi, empty)) return false;
      if (empty) return true;
      continue;
    }
    r[c.slot] = lo;
    if (!exec(b.prog, r)) return false;
    // lhs(k) = L + s * t with t = k - lo; the condition on t, solved exactly in 128 bits:
    // s * t in [below, above] (d = rhs - L).
    const I128 d = static_cast<I128>(r[b.rhs_at]) - r[b.lhs_at];
    const I128 s = b.slope;
    const bool has_below = b.op != Op::Le && b.op != Op::Lt, has_above = b.op != Op::Ge && b.op != Op::Gt;
    const I128 below = b.op == Op::Gt ? d + 1 : d, above = b.op == Op::Lt ? d - 1 : d;
    I128 t_lo = 0, t_hi = static_cast<I128>(hi) - lo;
    if (s > 0) {
      if (has_below) t_lo = std::max(t_lo, ceil_div(below, s));
      if (has_above) t_hi = std::min(t_hi, floor_div(above, s));
    } else {
      if (has_below) t_hi = std::min(t_hi, floor_div(below, s));
      if (has_above) t_lo = std::max(t_lo, ceil_div(above, s));
    }
    if (t_hi < t_lo) {
      empty = true;
      return true;
    }
    hi = static_cast<std::int64_t>(lo + t_hi);
    lo = static_cast<std::int64_t>(lo + t_lo);
  }
  return true;
}

// A monotone bound (Bound::monotone) on lo..hi, lo >= 0, its program just run at hi without
// an overflow: each part of lhs never decreases from lo to hi and is not negative, so no k
// between overflows either. The k that meet it are a prefix (lhs < or <= rhs) or a suffix
// (> or >=) of the range, the condition tested as the rules test it. Its end is looked for
// from where it was for the last state (Bound::last): states asked one after another
// (n, n + 1, ...) move it by little, and `k * k <= n` then costs three tests rather than a
// bisection of 1..n.
bool IntProgram::monotone_cut(const Bound& b, std::int64_t slot, std::int64_t* r, std::int64_t& lo,
                              std::int64_t& hi, bool& empty) const {
  const bool prefix = b.op == Op::Lt || b.op == Op::Le;
  auto meets = [&](std::int64_t k, bool& ok) {
    r[slot] = k;
    ok = exec(b.prog, r);
    const std::int64_t x = r[b.lhs_at], y = r[b.rhs_at];
    switch (b.op) {
      case Op::Lt: return x < y;
      case Op::Le: return x <= y;
      case Op::Gt: return x > y;
      default: return x >= y;
    }
  };
  bool ok = true;
  // The end where the condition holds if anywhere: lo for a prefix, hi for a suffix.
  std::int64_t in = prefix ? lo : hi;
  const std::int64_t end = prefix ? hi : lo;
  if (!meets(in, ok)) {
    empty = ok;
    return ok;
  }
  // Distances from the `in` end; lo >= 0, so they and the range's span fit.
  const std::int64_t d = prefix ? 1 : -1, span = hi - lo;
  std::int64_t out = end;  // fails there, once `found`
  bool found = false;
  if (const std::int64_t h = b.last; h >= lo && h <= hi) {
    // Gallop from the last end: away from `in` while the condition holds, back while it fails.
    bool up = true;
    if (h != in) {
      up = meets(h, ok);
      if (!ok) return false;
    }
    std::int64_t at = h;
    for (std::int64_t step = 1;; step = step > span / 2 ? span : 2 * step) {
      const std::int64_t gone = (at - (prefix ? lo : hi)) * d;
      if (up) {
        in = at;
        if (span - gone <= step) break;  // `end` is next: tested below
      } else {
        out = at;
        found = true;
        if (gone <= step) break;  // back to `in`, which meets
      }
      const std::int64_t next = at + (up ? step : -step) * d;
      const bool m = meets(next, ok);
      if (!ok) return false;
      if (m != up) {
        (up ? out : in) = next;
        found = found || up;
        break;
      }
      at = next;
    }
  }
  if (!found) {
    if (meets(end, ok)) {  // the whole range from `in` on
      b.last = end;
      return ok;
    }
    if (!ok) return false;
  }
  while (in + 1 != out && in - 1 != out) {
    const std::int64_t mid = in + (out - in) / 2;
    if (meets(mid, ok)) in = mid;
    else out = mid;
    if (!ok) return false;
  }
  (prefix ? hi : lo) = in;
  b.last = in;
  return true;
}

// `from`: this clause resumes where a listing stopped (its first value is the one it stopped
// at); `stop`: where to record the stop, each clause its own value, as the stop unwinds.
bool IntProgram::clauses(const Item& it, std::size_t ci, std::int64_t* r, OptionSink& sink,
                         std::int64_t& budget, const Resume* from, Resume* stop) const {
  std::int64_t coords[kMaxParts * kMaxArity];
  if (ci == it.clauses.size()) {
    if (!coords_of(it, r, coords)) return false;
    return sink.option(coords, it.parts);
  }
  const Clause& c = it.clauses[ci];
  const auto at = [&](std::int64_t v) {
    if (stop) stop->at[ci] = v;
    return false;
  };
  // The clause's variable takes value(i) for i in begin..end - 1 (from where a listing
  // stopped, when it resumes here), the clauses after it for each; the stop records i.
  const auto each = [&](std::int64_t begin, std::int64_t end, auto value) {
    for (std::int64_t i = from ? from->at[ci] : begin; i < end; ++i) {
      if (!spend(budget, 1, sink)) return false;
      r[c.slot] = value(i);
      if (!clauses(it, ci + 1, r, sink, budget, from, stop)) return at(i);
      from = nullptr;
    }
    return true;
  };
  // The clause's variable takes each element of `mask` in increasing order (a set's elements,
  // or a range's numbers less a set: `complement`, whose next clause, the set's test, holds for
  // each and is skipped); the stop records the elements left.
  const auto elements = [&](std::uint64_t mask, bool complement) __attribute__((always_inline)) {
    if (static_cast<std::size_t>(it.lanes.at) == ci && std::popcount(mask) > kFewForLanes)
      return lanes(it, ci, c, static_cast<std::int64_t>(mask), 0, from, r, sink, budget, stop, complement);
    const std::size_t next = ci + (complement ? 2 : 1);
    for (auto m = from ? static_cast<std::uint64_t>(from->at[ci]) : mask; m != 0; m &= m - 1) {
      if (!spend(budget, 1, sink)) return false;
      r[c.slot] = __builtin_ctzll(m);
      if (!clauses(it, next, r, sink, budget, from, stop)) return at(static_cast<std::int64_t>(m));
      from = nullptr;
    }
    return true;
  };
  switch (c.kind) {
    case Clause::Kind::If: {
      if (!exec(c.prog, r)) return false;
      return r[c.lo_at] != 0 ? clauses(it, ci + 1, r, sink, budget, from, stop) : true;
    }
    case Clause::Kind::List: {
      // Bounds (an increasing list): the items between them, found by their values.
      std::size_t first = 0, last = c.list.size();
      if (!c.bounds.empty()) {
        std::int64_t lo = c.list.front(), hi = c.list.back();
        bool empty = false;
        if (!bounded(c, r, lo, hi, empty)) return false;
        if (empty) return true;
        first = static_cast<std::size_t>(std::lower_bound(c.list.begin(), c.list.end(), lo) - c.list.begin());
        last = static_cast<std::size_t>(std::upper_bound(c.list.begin(), c.list.end(), hi) - c.list.begin());
      }
      if (static_cast<std::size_t>(it.lanes.at) == ci && last - first > kFewForLanes)
        return lanes(it, ci, c, static_cast<std::int64_t>(first), static_cast<std::int64_t>(last), from, r,
                     sink, budget, stop);
      return each(static_cast<std::int64_t>(first), static_cast<std::int64_t>(last),
                  [&](std::int64_t i) { return c.list[static_cast<std::size_t>(i)]; });
    }
    case Clause::Kind::Bits: {
      if (!exec(c.prog, r)) return false;
      return elements(static_cast<std::uint64_t>(r[c.lo_at]), false);
    }
    case Clause::Kind::Items: {
      if (!exec(c.prog, r)) return false;
      const std::int64_t w = r[c.lo_at];
      const std::int64_t n = list_len(w);
      if (static_cast<std::size_t>(it.lanes.at) == ci && n > kFewForLanes)
        return lanes(it, ci, c, w, 0, from, r, sink, budget, stop);
      const int bits = list_bits(n);
      return each(0, n, [&](std::int64_t i) { return (w >> (bits * i)) & max_item(n); });
    }
    case Clause::Kind::Row: {
      if (!exec(c.prog, r)) return false;
      const Table& t = tables[static_cast<std::size_t>(c.table)];
      const auto row = static_cast<std::size_t>(r[c.lo_at]);  // checked by RowOf
      const std::int64_t first = t.starts[row];
      if (static_cast<std::size_t>(it.lanes.at) == ci && t.starts[row + 1] - first > kFewForLanes)
        return lanes(it, ci, c, r[c.lo_at], 0, from, r, sink, budget, stop);
      return each(0, t.starts[row + 1] - first,
                  [&](std::int64_t i) { return t.items[static_cast<std::size_t>(first + i)]; });
    }
    case Clause::Kind::Range: {
      std::int64_t lo = 0, hi = 0;
      const bool ends_kept = ci < static_cast<std::size_t>(Resume::kKeptEnds);
      if (from && ends_kept) {
        lo = from->lo[ci];
        hi = from->hi[ci];
      } else {
        if (!exec(c.prog, r)) return false;
        lo = r[c.lo_at];
        hi = r[c.hi_at];
        if (hi < lo) return true;
        if (!c.bounds.empty()) {
          bool empty = false;
          if (!bounded(c, r, lo, hi, empty)) return false;
          if (empty) return true;
        }
      }
      if (stop && ends_kept) {
        stop->lo[ci] = lo;
        stop->hi[ci] = hi;
      }
      if (c.mod > 0 && lo >= 0 && !c.per_state)
        return strided(it, ci, c, c.residues.data(), c.residues.size(), lo, hi, r, sink, budget, from, stop);
      if (c.per_state && lo >= 0 && hi - lo >= c.mod) {
        std::int64_t residues[64];
        std::size_t count = 0;
        if (state_residues(it, ci, c, lo, hi, r, residues, count))
          return strided(it, ci, c, residues, count, lo, hi, r, sink, budget, from, stop);
        // Otherwise the loop below tests each k, and meets any error where the rules would.
      }
      if (c.divides >= 0 && lo >= 1) {
        // A is evaluated here only to choose the path: where it fails, the loop meets it as written.
        if (exec(c.divides_prog, r)) {
          const std::int64_t a = r[c.divides_at];
          if (a != 0 && a != INT64_MIN) {
            const auto root = static_cast<std::int64_t>(std::sqrt(static_cast<double>(a < 0 ? -a : a)));
            // Two trials per number up to the root, against one test per k of the range.
            if (root < (hi - lo) / 4)
              return divisors(it, ci, c, a < 0 ? -a : a, lo, hi, r, sink, budget, from, stop);
          }
        }
      }
      if (c.excluded >= 0 && lo >= 0 && hi <= kMaxElement && exec(c.excluded_prog, r)) {
        // The range's mask less S (a mask: an element is in 0..kMaxElement); the condition
        // after the range holds for each of its bits, and is not tested.
        const std::uint64_t range = (std::uint64_t{2} << hi) - (std::uint64_t{1} << lo);
        return elements(range & ~static_cast<std::uint64_t>(r[c.excluded_at]), true);
      }
      if (!it.kinks.empty() && ci + 1 == it.clauses.size())
        return pieces(it, ci, c, lo, hi, r, sink, budget, from, stop);
      if (it.affine && ci + 1 == it.clauses.size()) {
        if (from && from->in_run) return true;  // gone through by the caller
        std::int64_t span = 0;
        if (__builtin_sub_overflow(hi, lo, &span) || span == INT64_MAX) return false;
        return affine_run(it, c, lo, span + 1, 1, r, sink, budget);
      }
      if (static_cast<std::size_t>(it.lanes.at) == ci)
        return lanes(it, ci, c, lo, hi, from, r, sink, budget, stop);
      for (std::int64_t x = from ? from->at[ci] : lo;; ++x) {
        if (!spend(budget, 1, sink)) return false;
        r[c.slot] = x;
        if (!clauses(it, ci + 1, r, sink, budget, from, stop)) return at(x);
        from = nullptr;
        if (x == hi) break;
      }
      return true;
    }
  }
  return false;
}

}  // namespace grundy
