// The innermost loop of a rule (a range, a set's elements, a list's items, a table's row)
// listed a batch of its values at a time (IntProgram::lanes): `for k in 1..n if k * k <= n`,
// `for k in 1..M if not (k in used)` and Chomp's bite (a list comprehension per option)
// evaluate each node of their expressions once per batch, in a loop over the batch, rather than
// once per value: the dispatch of a tree walk, paid per node and per option, is paid per node
// and per batch.
#include <algorithm>

#include "runtime/IntOps.hpp"
#include "runtime/IntProgram.hpp"

namespace grundy {

using namespace int_ops;

namespace {
using Row = std::array<std::int64_t, IntProgram::kLaneWidth>;

// The values of a batch a node is evaluated for: lanes idx[0..m), increasing, or 0..m-1.
struct Sel {
  const std::uint8_t* idx = nullptr;
  int m = 0;
  int lane(int j) const { return idx ? idx[j] : j; }
  template <class F>
  void each(F f) const {
    if (idx) {
      for (int j = 0; j < m; ++j) f(idx[j]);
    } else {
      for (int j = 0; j < m; ++j) f(j);
    }
  }
};

// A node's value over a batch: its value at lane l is p[l] (a row, or a node's values by k),
// or (p null) x for every lane.
struct Val {
  const std::int64_t* p = nullptr;
  std::int64_t x = 0;
};
}  // namespace

// Evaluates nodes over the lanes of a batch, the loop's variable in row 0. Where a lane
// cannot go on (an overflow, an index out of range), `cut` comes down to it: it and the lanes
// after it are dropped, as the rules as written stop at the first such value.
class LaneEval {
 public:
  LaneEval(const IntProgram& p, const IntProgram::Item& it, std::int64_t slot, std::int64_t* r, Row* rows)
      : p_(p), plan_(it.lanes), moves_(it.lanes.moves), slot_(slot), r_(r), rows_(rows) {
    slots_[0] = slot;
  }
  // Over a batch of states (IntProgram::cell_options): the state's registers `slots` move,
  // rows 0 .. count - 1 their values; no values by k, no straight programs.
  LaneEval(const IntProgram& p, const IntProgram::Item::Lanes& plan, const std::int64_t* slots, int count,
           std::int64_t* r, Row* rows)
      : p_(p), plan_(plan), moves_(plan.moves), slot_(slots[0]), r_(r), rows_(rows), moving_(count) {
    std::copy(slots, slots + count, slots_.begin());
    top_ = static_cast<std::int16_t>(count);
  }

  int cut = IntProgram::kLaneWidth;
  // Whether lane l holds the value rows_[0][0] + l (a range's batch that no condition thinned).
  bool consecutive = false;

  // A fresh evaluation (the rows of the last one free); the lanes numbered anew.
  void reset() {
    free_rows();
    cut = IntProgram::kLaneWidth;
  }
  void free_rows() { top_ = static_cast<std::int16_t>(moving_); }
  static std::int64_t at(const Val& v, int lane) { return v.p ? v.p[lane] : v.x; }

  // Node i over lanes 0..n-1: by its straight program where it has one (Lanes::flats).
  Val top(std::int32_t i, int n) {
    const int f = plan_.flat_of.empty() ? -1 : plan_.flat_of[static_cast<std::size_t>(i)];
    return f >= 0 ? flat(plan_.flats[static_cast<std::size_t>(f)], n) : eval(i, Sel{nullptr, n});
  }

  Val eval(std::int32_t i, Sel s) {
    if (cut < IntProgram::kLaneWidth) {  // some lane failed: the lanes from it are dropped
      while (s.m > 0 && s.lane(s.m - 1) >= cut) --s.m;
    }
    if (s.m == 0) return {};  // a branch no lane takes is not evaluated
    const IntProgram::Node& n = p_.nodes[static_cast<std::size_t>(i)];
    if (n.op == Op::Reg) {
      for (int q = 0; q < moving_; ++q) {
        if (n.v == slots_[static_cast<std::size_t>(q)]) return Val{rows_[q].data(), 0};
      }
      return Val{nullptr, r_[n.v]};
    }
    if (n.op == Op::Const) return Val{nullptr, n.v};
    if (!moves_[static_cast<std::size_t>(i)]) {  // the same for every lane: once
      bool bail = false;
      const std::int64_t z = p_.eval(i, r_, bail);
      if (bail) cut = std::min(cut, s.lane(0));
      return Val{nullptr, z};
    }
    const std::int16_t res = top_++;
    std::int64_t* z = rows_[res].data();
    if (const int t = plan_.by_k_of.empty() ? -1 : plan_.by_k_of[static_cast<std::size_t>(i)]; t >= 0) {
      if (const std::int64_t* p = by_k(plan_.by_k[static_cast<std::size_t>(t)], z, s)) {
        if (p != z) top_ = res;
        else top_ = res + 1;
        return Val{p, 0};
      }
    }
    switch (n.op) {
      case Op::If: {
        const Val c = eval(n.a, s);
        if (!c.p) {  // the same branch for every lane (`if i >= c` in a comprehension)
          top_ = res;
          return eval(c.x != 0 ? n.b : n.c, s);
        }
        if (n.b == n.c) {  // `if c then e else e` (an argument evaluated first, for its failure)
          top_ = res;
          return eval(n.b, s);
        }
        std::uint8_t yes[IntProgram::kLaneWidth], no[IntProgram::kLaneWidth];
        int ny = 0, nn = 0;
        s.each([&](int l) {
          if (l >= cut) return;
          if (at(c, l) != 0) yes[ny++] = static_cast<std::uint8_t>(l);
          else no[nn++] = static_cast<std::uint8_t>(l);
        });
        // One branch for every lane of 0..m-1: its loops without an index.
        const bool whole = !s.idx && ny + nn == s.m;
        into(z, n.b, whole && nn == 0 ? Sel{nullptr, ny} : Sel{yes, ny});
        into(z, n.c, whole && ny == 0 ? Sel{nullptr, nn} : Sel{no, nn});
        break;
      }
      case Op::And:
      case Op::Or: {  // b only where a does not decide
        const Val a = eval(n.a, s);
        const bool is_and = n.op == Op::And;
        if (!a.p && (a.x != 0) != is_and) {  // decided for every lane
          top_ = res;
          return Val{nullptr, is_and ? 0 : 1};
        }
        std::uint8_t rest[IntProgram::kLaneWidth];
        int m = 0;
        s.each([&](int l) {
          if (l >= cut) return;
          if ((at(a, l) != 0) == is_and) rest[m++] = static_cast<std::uint8_t>(l);
          else z[l] = is_and ? 0 : 1;
        });
        const int mark = top_;
        // Every lane of 0..m-1 goes on: the loops over them without an index (vectorized).
        const Sel more = !s.idx && m == s.m ? Sel{nullptr, m} : Sel{rest, m};
        const Val b = eval(n.b, more);
        more.each([&](int l) { z[l] = at(b, l) != 0; });
        top_ = mark;
        break;
      }
      case Op::ListComp: comprehension(n, i, z, s); break;
      case Op::ListUpdate: {
        const Val w = eval(n.a, s);
        const Val index = eval(n.b, s);
        const Val x = eval(n.c, s);
        update_of(w, index, x, z, s);
        break;
      }
      default:
        if (!dispatch(n.op, [&](auto o) {
              binary<decltype(o)::value>(n, z, s);
              return true;
            })) {
          by_lane(i, z, s);
        }
        break;
    }
    top_ = res + 1;
    return Val{z, 0};
  }

 private:
  using Flat = IntProgram::Item::Lanes::Flat;
  using Operand = IntProgram::Item::Lanes::Operand;
  using Step = IntProgram::Item::Lanes::Step;

  Val flat(const Flat& f, int n) {
    if (std::min(n, cut) <= 0) return {};  // no lane left to evaluate it for
    const int base = top_;
    const std::int64_t* vals[IntProgram::kLaneRows];  // step j's values
    const auto value = [&](const Operand& x) -> Val {
      switch (x.kind) {
        case Operand::Kind::Row: return Val{vals[x.x], 0};
        case Operand::Kind::K: return Val{rows_[0].data(), 0};
        case Operand::Kind::Reg: return Val{nullptr, r_[x.x]};
        case Operand::Kind::Const: return Val{nullptr, x.x};
        case Operand::Kind::Tree: break;
      }
      bool bail = false;  // the same for every lane: evaluated once, and where it fails, no lane goes on
      const std::int64_t z = p_.eval(static_cast<std::int32_t>(x.x), r_, bail);
      if (bail) cut = 0;
      return Val{nullptr, z};
    };
    for (std::size_t j = 0; j < f.code.size(); ++j) {
      const Step& in = f.code[j];
      const Sel s{nullptr, std::min(n, cut)};
      if (s.m <= 0) return {};
      std::int64_t* z = rows_[base + static_cast<int>(j)].data();
      if (in.kind == Step::Kind::Apply) {
        const Val a = value(in.a), b = value(in.b);
        if (cut == 0) return {};  // an operand failed, at every lane
        dispatch(in.op, [&](auto o) {
          binary_of<decltype(o)::value>(a, b, z, s);
          return true;
        });
        vals[j] = z;
        continue;
      }
      if (in.kind == Step::Kind::Update) {
        const Val a = value(in.a), b = value(in.b), c = value(in.c);
        if (cut == 0) return {};
        update_of(a, b, c, z, s);
        vals[j] = z;
        continue;
      }
      const std::int64_t* p =
          in.kind == Step::Kind::ByK ? by_k(plan_.by_k[static_cast<std::size_t>(in.t)], z, s) : nullptr;
      if (!p) {
        by_lane(in.node, z, s);
        p = z;
      }
      vals[j] = p;
    }
    top_ = static_cast<std::int16_t>(base + static_cast<int>(f.code.size()));
    return value(f.result);
  }

  // Node i over the lanes of s, into z at those lanes.
  void into(std::int64_t* z, std::int32_t i, Sel s) {
    const int mark = top_;
    const Val v = eval(i, s);
    s.each([&](int l) { z[l] = at(v, l); });
    top_ = mark;
  }

  // update(w, i, x) over the lanes of s: an index out of range (len(w) too) cuts there.
  void update_of(const Val& w, const Val& i, const Val& x, std::int64_t* z, Sel s) {
    s.each([&](int l) {
      if (l >= cut) return;
      const std::int64_t wl = at(w, l), il = at(i, l);
      if (il == list_len(wl) || !ok(list_put(wl, il, at(x, l), z[l]))) cut = l;
    });
  }

  // xs[i] of one list for every lane (`cells[i]` for i in a range): its width found once, not
  // per lane.
  void items_of(std::int64_t w, const Val& i, std::int64_t* z, Sel s) {
    const std::int64_t n = list_len(w);
    const int bits = list_bits(n);
    const std::int64_t most = IntProgram::max_item(n);
    s.each([&](int l) {
      if (l >= cut) return;
      const std::int64_t j = at(i, l);
      if (j < 0 || j >= n) cut = l;
      else z[l] = (w >> (bits * j)) & most;
    });
  }

  template <Op o>
  void binary(const IntProgram::Node& n, std::int64_t* z, Sel s) {
    const Val a = eval(n.a, s);
    const Val b = reads_b(o) ? eval(n.b, s) : Val{};
    binary_of<o>(a, b, z, s);
  }
  template <Op o>
  void binary_of(const Val& a, const Val& b, std::int64_t* z, Sel s) {
    if constexpr (o == Op::ListAt) {
      if (!a.p) return items_of(a.x, b, z, s);
    }
    const std::int64_t* x = a.p ? a.p : &a.x;
    const std::int64_t* y = b.p ? b.p : &b.x;
    const int m = s.m;
    const int end = cut;
    if (s.idx == nullptr) {  // lanes 0..m-1: a loop per shape of operands, a register for the fixed one
      const int len = std::min(m, end);
      if constexpr (o == Op::Mod || o == Op::Div) {
        // By a small number the same for every lane (`x % 2`, `k / 3`): a division by a constant
        // the compiler turns into multiplications, not a divide instruction per lane.
        if (a.p && !b.p && by_small_constant<o>(b.x, x, len, z)) return;
        if (a.p && !b.p && b.x != 0 && b.x != -1) {  // nothing fails: the checks once, not per lane
          const std::int64_t d = b.x;
          std::uint64_t wide = 0;  // where every operand fits 32 bits unsigned, the shorter division
          for (int l = 0; l < len; ++l) wide |= static_cast<std::uint64_t>(x[l]);
          if (d > 0 && ((wide | static_cast<std::uint64_t>(d)) >> 32) == 0) {
            // Lemire's fastmod (Lemire, Kaser, Kurz, "Faster remainder by direct computation",
            // 2019): exact for 32-bit operands, a multiplication for a division.
            __extension__ using U128 = unsigned __int128;
            const auto e = static_cast<std::uint64_t>(d);
            if (e == 1) {  // its magic number would wrap to 0
              for (int l = 0; l < len; ++l) z[l] = o == Op::Mod ? 0 : x[l];
              return;
            }
            const std::uint64_t magic = ~std::uint64_t{0} / e + 1;
            for (int l = 0; l < len; ++l) {
              const auto u = static_cast<std::uint64_t>(x[l]);
              if constexpr (o == Op::Mod) z[l] = static_cast<std::int64_t>((U128{magic * u} * e) >> 64);
              else z[l] = static_cast<std::int64_t>((U128{magic} * u) >> 64);
            }
            return;
          }
          for (int l = 0; l < len; ++l) z[l] = o == Op::Mod ? x[l] % d : x[l] / d;
          return;
        }
      }
      const auto row = [](const std::int64_t* p) { return [p](int l) { return p[l]; }; };
      const auto one = [](std::int64_t v) { return [v](int) { return v; }; };
      const int got = a.p && b.p ? over<o>(len, row(x), row(y), z)
                      : a.p      ? over<o>(len, row(x), one(b.x), z)
                      : b.p      ? over<o>(len, one(a.x), row(y), z)
                                 : over<o>(len, one(a.x), one(b.x), z);
      if (got < len) cut = got;
      return;
    }
    // Some lanes: an operand the same for every lane is read in place, a stride of 0.
    const std::ptrdiff_t sx = a.p ? 1 : 0, sy = b.p ? 1 : 0;
    for (int j = 0; j < m; ++j) {
      const int l = s.idx[j];
      if (l >= end) return;
      if (!apply<o>(x[l * sx], y[l * sy], z[l])) {
        cut = l;
        return;
      }
    }
  }

  template <Op o, std::int64_t d>
  static void by_constant(const std::int64_t* x, int n, std::int64_t* z) {
    for (int l = 0; l < n; ++l) z[l] = o == Op::Mod ? x[l] % d : x[l] / d;  // d > 0: nothing fails
  }
  template <Op o>
  static bool by_small_constant(std::int64_t d, const std::int64_t* x, int n, std::int64_t* z) {
    switch (d) {
      case 2: by_constant<o, 2>(x, n, z); return true;
      case 3: by_constant<o, 3>(x, n, z); return true;
      case 4: by_constant<o, 4>(x, n, z); return true;
      case 5: by_constant<o, 5>(x, n, z); return true;
      case 6: by_constant<o, 6>(x, n, z); return true;
      case 7: by_constant<o, 7>(x, n, z); return true;
      case 8: by_constant<o, 8>(x, n, z); return true;
      case 10: by_constant<o, 10>(x, n, z); return true;
      default: return false;
    }
  }

  // z[l] = o(x(l), y(l)) for l in 0..n-1; returns the first l where o cannot go on (n: none).
  // A sum or difference checks its overflow for the whole loop at once (a loop without an exit,
  // which the compiler can vectorize), and looks for the lane only when there is one.
  template <Op o, class X, class Y>
  static int over(int n, X x, Y y, std::int64_t* z) {
    if constexpr (o == Op::Add || o == Op::Sub) {
      std::uint64_t bad = 0;
      for (int l = 0; l < n; ++l) {
        const auto a = static_cast<std::uint64_t>(x(l)), b = static_cast<std::uint64_t>(y(l));
        const std::uint64_t r = o == Op::Add ? a + b : a - b;
        bad |= (o == Op::Add ? ~(a ^ b) : (a ^ b)) & (a ^ r);  // the sign changed where it must not
        z[l] = static_cast<std::int64_t>(r);
      }
      if ((bad >> 63) == 0) return n;
    }
    for (int l = 0; l < n; ++l) {
      if (!apply<o>(x(l), y(l), z[l])) return l;
    }
    return n;
  }

  // [body for v in lo..hi], lo and hi the same for every lane: the body over the batch once per
  // item, each lane's list packed as it goes. Otherwise lane by lane.
  void comprehension(const IntProgram::Node& n, std::int32_t i, std::int64_t* z, Sel s) {
    const Val lo = eval(n.a, s), hi = eval(n.b, s);
    if (lo.p || hi.p) return by_lane(i, z, s);
    std::int64_t span = 0;  // a list longer than a packed one holds: by the tree walk, to its error
    if (__builtin_sub_overflow(hi.x, lo.x, &span) || span >= IntProgram::kMaxListLength)
      return by_lane(i, z, s);
    const std::int64_t count = span < 0 ? 0 : span + 1;
    const int bits = IntProgram::list_bits(count);
    const std::int64_t most = IntProgram::max_item(count);
    s.each([&](int l) { z[l] = count << IntProgram::kLengthShift; });
    // A body `if c then a else b` whose condition is the same for every lane (Chomp's `if i >= c
    // then min(hs[i], j) else hs[i]`): the condition evaluated here and the branch taken, a
    // level of the walk less per item.
    const IntProgram::Node& body = p_.nodes[static_cast<std::size_t>(n.c)];
    const bool choose = body.op == Op::If && moves_[static_cast<std::size_t>(n.c)] &&
                        !moves_[static_cast<std::size_t>(body.a)] &&
                        (plan_.by_k_of.empty() || plan_.by_k_of[static_cast<std::size_t>(n.c)] < 0);
    for (std::int64_t k = 0; k < count; ++k) {
      r_[n.v] = lo.x + k;
      const int mark = top_;
      std::int32_t item_node = n.c;
      if (choose) {
        bool bail = false;
        const std::int64_t c = p_.eval(body.a, r_, bail);
        if (bail) cut = std::min(cut, s.lane(0));  // as the walk meets it: no lane goes on
        item_node = c != 0 && !bail ? body.b : body.c;
      }
      const Val x = eval(item_node, s);
      const int end = cut;
      if (!x.p) {  // the same item for every lane
        if (x.x < 0 || x.x > most) {
          if (s.m > 0 && s.lane(0) < end) cut = s.lane(0);
        } else {
          const std::int64_t word = x.x << (bits * k);
          for (int j = 0; j < s.m && s.lane(j) < end; ++j) z[s.lane(j)] |= word;
        }
        top_ = mark;
        continue;
      }
      for (int j = 0; j < s.m; ++j) {
        const int l = s.lane(j);
        if (l >= end) break;
        const std::int64_t item = at(x, l);
        if (item < 0 || item > most) {
          cut = l;
          break;
        }
        z[l] |= item << (bits * k);
      }
      top_ = mark;
    }
  }

  // A node of k alone over the lanes of s, from its values by k (Item::Lanes::by_k), kept up
  // to the lanes' largest k first: a pointer into them where the lanes' k are consecutive,
  // else read into z. Null where a lane's k is not kept (below the first kept, too far, or
  // where the node cannot be evaluated: the lanes then meet that as the rules as written do).
  // The values grow only for a larger k than the batch has, so that what this returns stays
  // valid for the batch.
  const std::int64_t* by_k(const IntProgram::Item::Lanes::ByK& t, std::int64_t* z, Sel s) {
    const std::int64_t* ks = rows_[0].data();
    const std::int64_t first = ks[s.lane(0)], last = ks[s.lane(s.m - 1)];  // a range's or a set's: increasing
    auto& v = t.values;
    if (v.empty() && !t.failed) t.base = first;
    if (first < t.base) return nullptr;
    // In unsigned arithmetic: last - base may pass 2^63 (the k of one state far from another's).
    const std::uint64_t span = static_cast<std::uint64_t>(last) - static_cast<std::uint64_t>(t.base);
    if (span >= static_cast<std::uint64_t>(t.most)) return nullptr;
    const std::size_t end = static_cast<std::size_t>(span) + 1;
    while (v.size() < end && !t.failed) {
      r_[slot_] = t.base + static_cast<std::int64_t>(v.size());  // up to last: no overflow
      bool bail = false;
      const std::int64_t x = p_.eval(t.node, r_, bail);
      if (bail) {
        t.failed = true;
      } else {
        v.push_back(x);
        t.least = std::min(t.least, x);
      }
    }
    if (v.size() < end) return nullptr;
    const std::int64_t* at = v.data() + (first - t.base);  // k = first
    if (s.idx == nullptr && consecutive) return at;
    s.each([&](int l) { z[l] = at[ks[l] - first]; });
    return z;
  }

  // Node i lane by lane, by the tree walk.
  void by_lane(std::int32_t i, std::int64_t* z, Sel s) {
    for (int j = 0; j < s.m; ++j) {
      const int l = s.lane(j);
      if (l >= cut) return;
      for (int q = 0; q < moving_; ++q) r_[slots_[static_cast<std::size_t>(q)]] = rows_[q][static_cast<std::size_t>(l)];
      bool bail = false;
      z[l] = p_.eval(i, r_, bail);
      if (bail) {
        cut = l;
        return;
      }
    }
  }

  const IntProgram& p_;
  const IntProgram::Item::Lanes& plan_;
  const std::vector<std::uint8_t>& moves_;
  std::int64_t slot_;
  std::int64_t* r_;
  Row* rows_;
  int moving_ = 1;  // rows 0 .. moving_ - 1: the registers slots_ over the lanes
  std::array<std::int64_t, IntProgram::kMaxArity> slots_{};
  std::int16_t top_ = 1;
};

namespace {
// Keeps the values j (ks[j], pos[j], j < got) where o(a, b) holds, in order; returns how many.
template <Op o>
int keep_if(const Val& a, const Val& b, int got, std::int64_t* ks, std::uint8_t* pos) {
  int kept = 0;
  for (int j = 0; j < got; ++j) {
    std::int64_t z = 0;
    apply<o>(LaneEval::at(a, j), LaneEval::at(b, j), z);
    ks[kept] = ks[j];
    pos[kept] = pos[j];
    kept += z != 0;
  }
  return kept;
}
int keep_where(Op o, const Val& a, const Val& b, int got, std::int64_t* ks, std::uint8_t* pos) {
  switch (o) {
    case Op::Lt: return keep_if<Op::Lt>(a, b, got, ks, pos);
    case Op::Le: return keep_if<Op::Le>(a, b, got, ks, pos);
    case Op::Gt: return keep_if<Op::Gt>(a, b, got, ks, pos);
    case Op::Ge: return keep_if<Op::Ge>(a, b, got, ks, pos);
    case Op::Eq: return keep_if<Op::Eq>(a, b, got, ks, pos);
    default: return keep_if<Op::Ne>(a, b, got, ks, pos);
  }
}
bool is_comparison(Op o) {
  return o == Op::Lt || o == Op::Le || o == Op::Gt || o == Op::Ge || o == Op::Eq || o == Op::Ne;
}

// Rows a node's evaluation may hold at once (a bound: every moving node of its tree).
int rows_needed(const IntProgram& p, const std::vector<std::uint8_t>& moves, std::int32_t i) {
  if (i < 0 || !moves[static_cast<std::size_t>(i)]) return 0;
  const IntProgram::Node& n = p.nodes[static_cast<std::size_t>(i)];
  if (n.op == Op::Reg) return 0;
  return 1 + rows_needed(p, moves, n.a) + rows_needed(p, moves, n.b) + rows_needed(p, moves, n.c);
}
}  // namespace

// Lanes::by_k: the largest nodes of the conditions and coordinates that read k and no other
// register, other than k itself.
void IntProgram::plan_by_k(const Item& it, Item::Lanes& lanes, std::int64_t k) const {
  // A comprehension's body reads its own variable besides k (`{u for u in E[v] if u != v}`,
  // of v alone): the registers it may read, k and the variables of the comprehensions around it.
  const auto comp_slot = [&](const Node& n) -> std::int64_t {
    return n.op == Op::ListComp ? n.v : n.op == Op::SetComp ? comps[static_cast<std::size_t>(n.v)].slot : -1;
  };
  std::vector<std::int64_t> bound{k};
  const auto within = [&](const auto& self, std::int32_t i) -> bool {
    if (i < 0) return true;
    const Node& n = nodes[static_cast<std::size_t>(i)];
    if (n.op == Op::Reg) return std::find(bound.begin(), bound.end(), n.v) != bound.end();
    if (!self(self, n.a) || !self(self, n.b)) return false;
    const std::int64_t own = comp_slot(n);
    if (own >= 0) bound.push_back(own);
    const bool c = self(self, n.c);
    if (own >= 0) bound.pop_back();
    return c;
  };
  std::vector<std::uint8_t> only_k(nodes.size(), 2);  // 2: not known yet
  const auto k_alone = [&](const auto& self, std::int32_t i) -> bool {
    if (i < 0) return true;
    std::uint8_t& m = only_k[static_cast<std::size_t>(i)];
    if (m == 2) {
      const Node& n = nodes[static_cast<std::size_t>(i)];
      m = n.op == Op::Reg     ? n.v == k
          : comp_slot(n) >= 0 ? within(within, i)
                              : self(self, n.a) && self(self, n.b) && self(self, n.c);
    }
    return m != 0;
  };
  lanes.by_k_of.assign(nodes.size(), -1);
  const auto take = [&](const auto& self, std::int32_t i) -> void {
    if (i < 0 || !lanes.moves[static_cast<std::size_t>(i)]) return;
    const Node& n = nodes[static_cast<std::size_t>(i)];
    if (n.op == Op::Reg) return;
    if (k_alone(k_alone, i)) {
      if (lanes.by_k_of[static_cast<std::size_t>(i)] < 0 && lanes.by_k.size() < 64) {
        lanes.by_k_of[static_cast<std::size_t>(i)] = static_cast<std::int16_t>(lanes.by_k.size());
        lanes.by_k.emplace_back().node = i;
      }
      return;
    }
    self(self, n.a);
    self(self, n.b);
    self(self, n.c);
  };
  for (std::int32_t q : lanes.conditions) take(take, q);
  for (std::int32_t q : it.coords) take(take, q);
  // The rule's tables share kMaxByK values.
  for (auto& t : lanes.by_k) t.most = kMaxByK / static_cast<std::int64_t>(lanes.by_k.size());
}

// Lanes::flats: node's straight program, where its moving nodes allow one.
void IntProgram::plan_flat(Item::Lanes& lanes, std::int32_t node) const {
  using Operand = Item::Lanes::Operand;
  using Step = Item::Lanes::Step;
  if (lanes.flat_of[static_cast<std::size_t>(node)] >= 0) return;
  Item::Lanes::Flat f;
  bool ok = true;
  const auto row = [&](Step s) {
    f.code.push_back(s);
    return Operand{Operand::Kind::Row, static_cast<std::int64_t>(f.code.size()) - 1};
  };
  const auto emit = [&](const auto& self, std::int32_t i) -> Operand {
    const Node& n = nodes[static_cast<std::size_t>(i)];
    if (!lanes.moves[static_cast<std::size_t>(i)]) {
      if (n.op == Op::Reg) return {Operand::Kind::Reg, n.v};
      if (n.op == Op::Const) return {Operand::Kind::Const, n.v};
      return {Operand::Kind::Tree, i};
    }
    if (n.op == Op::Reg) return {Operand::Kind::K, 0};
    if (const int t = lanes.by_k_of.empty() ? -1 : lanes.by_k_of[static_cast<std::size_t>(i)]; t >= 0)
      return row(Step{Step::Kind::ByK, Op::Move, {}, {}, i, static_cast<std::int16_t>(t), {}});
    if (n.op == Op::If || n.op == Op::And || n.op == Op::Or || n.op == Op::ListComp) {
      ok = false;  // branches over some lanes: the tree walk
      return {};
    }
    if (n.op == Op::ListUpdate) {
      const Operand a = self(self, n.a), b = self(self, n.b), c = self(self, n.c);
      return row(Step{Step::Kind::Update, n.op, a, b, i, -1, c});
    }
    if (!dispatch(n.op, [](auto) { return true; }))
      return row(Step{Step::Kind::ByLane, Op::Move, {}, {}, i, -1, {}});
    const Operand a = self(self, n.a);
    const Operand b = reads_b(n.op) ? self(self, n.b) : Operand{};
    return row(Step{Step::Kind::Apply, n.op, a, b, i, -1, {}});
  };
  f.result = emit(emit, node);
  // Its steps are at most the tree walk's rows (a row per moving node), which plan_lanes
  // bounds; checked all the same, as the rows are an array on the stack.
  if (!ok || f.code.size() + 1 >= static_cast<std::size_t>(kLaneRows)) return;
  lanes.flat_of[static_cast<std::size_t>(node)] = static_cast<std::int16_t>(lanes.flats.size());
  lanes.flats.push_back(std::move(f));
}

// Per node, whether it reads one of the registers slots[0 .. count): every node once, rather
// than a walk of its tree per node.
std::vector<std::uint8_t> IntProgram::reading(const std::int64_t* slots, std::size_t count) const {
  std::vector<std::uint8_t> reads(nodes.size(), 2);  // 2: not known yet
  const auto of = [&](const auto& self, std::int32_t i) -> bool {
    if (i < 0) return false;
    std::uint8_t& m = reads[static_cast<std::size_t>(i)];
    if (m == 2) {
      const Node& n = nodes[static_cast<std::size_t>(i)];
      m = (n.op == Op::Reg ? std::find(slots, slots + count, n.v) != slots + count
                           : self(self, n.a) || self(self, n.b) || self(self, n.c))
              ? 1
              : 0;
    }
    return m != 0;
  };
  for (std::size_t i = 0; i < nodes.size(); ++i) of(of, static_cast<std::int32_t>(i));
  return reads;
}

// Item::lanes: the rule's last clause that is not a condition, when only conditions follow it.
void IntProgram::plan_lanes(Item& it) {
  if (it.let) return;
  std::size_t ci = it.clauses.size();
  while (ci > 0 && it.clauses[ci - 1].kind == Clause::Kind::If) --ci;
  if (ci == 0) return;
  --ci;
  const std::int64_t k = it.clauses[ci].slot;
  Item::Lanes lanes;
  lanes.moves = reading(&k, 1);
  for (std::size_t j = ci + 1; j < it.clauses.size(); ++j) lanes.conditions.push_back(it.clauses[j].lo);
  if (it.clauses[ci].kind == Clause::Kind::Range || it.clauses[ci].kind == Clause::Kind::Bits)
    plan_by_k(it, lanes, k);
  int most = 0;
  for (std::int32_t q : lanes.conditions) most = std::max(most, rows_needed(*this, lanes.moves, q));
  for (std::int32_t q : it.coords) most = std::max(most, rows_needed(*this, lanes.moves, q));
  if (most + 1 > kLaneRows) return;
  lanes.at = static_cast<std::int32_t>(ci);
  if (it.parts == 1 && it.coords.size() == 1) {
    const Node& d = nodes[static_cast<std::size_t>(it.coords[0])];
    lanes.minus = d.op == Op::Sub && !lanes.moves[static_cast<std::size_t>(d.a)] &&
                  lanes.moves[static_cast<std::size_t>(d.b)];
  }
  // Every expression IntProgram::lanes evaluates over a batch (LaneEval::top): its straight
  // program, where it has one.
  lanes.flat_of.assign(nodes.size(), -1);
  for (std::int32_t q : lanes.conditions) {
    plan_flat(lanes, q);
    const Node& cn = nodes[static_cast<std::size_t>(q)];
    if (is_comparison(cn.op) || cn.op == Op::Not) plan_flat(lanes, cn.a);
    if (is_comparison(cn.op)) plan_flat(lanes, cn.b);
  }
  for (std::int32_t q : it.coords) {
    plan_flat(lanes, q);
    const Node& d = nodes[static_cast<std::size_t>(q)];
    if (d.op == Op::Sub) {
      plan_flat(lanes, d.a);
      plan_flat(lanes, d.b);
    }
  }
  it.lanes = std::move(lanes);
}

// The values of the rule's last clause (Item::lanes), a batch at a time: each condition
// evaluated over the batch and the values that fail it dropped, then the coordinates of the
// options left, handed to the sink in one call. Where an expression cannot be evaluated at some
// value, the options before it are handed over first, so that a sink that stops before it never
// meets it, as the rules as written would not; the listing then gives up.
bool IntProgram::lanes(const Item& it, std::size_t ci, const Clause& c, std::int64_t a, std::int64_t b,
                       const Resume* from, std::int64_t* r, OptionSink& sink, std::int64_t& budget,
                       Resume* stop, bool complement) const {
  using Kind = Clause::Kind;
  // The values from where the listing is: a range's, a set's elements, a list's items.
  struct {
    Kind kind;
    std::int64_t x = 0, hi = 0;           // Range: the next value, the last
    std::uint64_t left = 0;               // Bits: the elements not taken yet
    std::int64_t i = 0, n = 0;            // List, Items, Row: the next index, the end
    const std::int64_t* items = nullptr;  // ... their items
  } v{complement ? Kind::Bits : c.kind};
  std::int64_t unpacked[kMaxListLength];
  const std::int64_t* resume = from ? &from->at[ci] : nullptr;
  switch (v.kind) {
    case Kind::Range:
      v.x = resume ? *resume : a;
      v.hi = b;
      break;
    case Kind::Bits: v.left = static_cast<std::uint64_t>(resume ? *resume : a); break;
    case Kind::List:
      v.i = resume ? *resume : a;
      v.n = b;
      v.items = c.list.data();
      break;
    case Kind::Items:
      v.i = resume ? *resume : 0;
      v.n = unpack_list(a, unpacked);
      v.items = unpacked;
      break;
    case Kind::Row: {
      const Table& t = tables[static_cast<std::size_t>(c.table)];
      const std::int64_t first = t.starts[static_cast<std::size_t>(a)];  // a row checked by RowOf
      v.i = resume ? *resume : 0;
      v.n = t.starts[static_cast<std::size_t>(a) + 1] - first;
      v.items = t.items.data() + first;
      break;
    }
    case Kind::If: return false;  // not a loop
  }
  const auto width = static_cast<std::size_t>(it.coords.size());
  Row rows[kLaneRows];
  std::int64_t buf[kLaneWidth * kMaxParts * kMaxArity];
  Row& ks = rows[0];
  std::uint8_t pos[kLaneWidth];  // each value's place in its batch
  // A range that a listing left after its last batch.
  if (v.kind == Kind::Range && v.x > v.hi) return true;
  LaneEval lanes(*this, it, c.slot, r, rows);
  // A search that stops at its first options computes few beyond them: its batches grow, to a
  // quarter of the width (what it keeps of a batch is less).
  const int widest = sink.takes_all() ? kLaneWidth : kLaneWidth / 4;
  int size = sink.takes_all() ? kLaneWidth : 8;
  for (;;) {
    // The batch, and where a listing that stops after it goes on (`after`, when it can say).
    int m = 0;
    bool last = false, can_after = true;
    std::int64_t after = 0, base = 0;
    std::uint64_t had = v.left;
    switch (v.kind) {
      case Kind::Range: {
        const std::uint64_t left = static_cast<std::uint64_t>(v.hi) - static_cast<std::uint64_t>(v.x);
        last = left < static_cast<std::uint64_t>(size);
        m = last ? static_cast<int>(left) + 1 : size;
        for (int j = 0; j < m; ++j) ks[static_cast<std::size_t>(j)] = v.x + j;  // up to hi
        can_after = !last || v.hi < INT64_MAX;
        if (!last) v.x += m;
        after = last ? v.hi + (can_after ? 1 : 0) : v.x;
        break;
      }
      case Kind::Bits:
        for (; m < size && v.left != 0; v.left &= v.left - 1)
          ks[static_cast<std::size_t>(m++)] = __builtin_ctzll(v.left);
        last = v.left == 0;
        after = static_cast<std::int64_t>(v.left);
        break;
      default:
        base = v.i;
        m = static_cast<int>(std::min<std::int64_t>(size, v.n - v.i));
        for (int j = 0; j < m; ++j) ks[static_cast<std::size_t>(j)] = v.items[v.i + j];
        v.i += m;
        last = v.i == v.n;
        after = v.i;
        break;
    }
    if (m == 0) return true;
    if (v.kind != Kind::Range && v.kind != Kind::Bits) {  // their own values say where they are
      for (int j = 0; j < m; ++j) pos[j] = static_cast<std::uint8_t>(j);
    }
    // Where a listing that stops at the j-th value left goes on: that value.
    auto at = [&](int j) -> std::int64_t {
      const std::int64_t x = ks[static_cast<std::size_t>(j)];
      if (v.kind == Kind::Range) return x;
      if (v.kind == Kind::Bits) return static_cast<std::int64_t>(had & ~((std::uint64_t{1} << x) - 1));
      return base + pos[j];
    };
    if (!spend(budget, m, sink)) return false;
    int n = m;
    bool failed = false;
    lanes.consecutive = v.kind == Kind::Range;
    // A range's complement (Clause::excluded): its first condition holds for every value.
    for (std::size_t q = complement ? 1 : 0; q < it.lanes.conditions.size(); ++q) {
      const std::int32_t cond = it.lanes.conditions[q];
      lanes.reset();
      // A comparison that moves (`n % k == 0`): its sides evaluated, and compared as the values
      // that meet it are kept, without a row of its own; a negation (`not (k in used)`) its
      // operand, kept where 0.
      const Node& cn = nodes[static_cast<std::size_t>(cond)];
      const bool own = it.lanes.moves[static_cast<std::size_t>(cond)] &&
                       (it.lanes.by_k_of.empty() || it.lanes.by_k_of[static_cast<std::size_t>(cond)] < 0);
      const bool sides = own && is_comparison(cn.op);
      Val lhs, rhs;  // the condition itself, compared with 0, where it is neither
      Op keep = Op::Ne;
      if (sides) {
        lhs = lanes.top(cn.a, n);
        rhs = lanes.top(cn.b, n);
        keep = cn.op;
      } else if (own && cn.op == Op::Not) {
        lhs = lanes.top(cn.a, n);
        keep = Op::Eq;
      } else {
        lhs = lanes.top(cond, n);
      }
      const int got = std::min(n, lanes.cut);
      failed = failed || got < n;
      const int kept = keep_where(keep, lhs, rhs, got, ks.data(), pos);
      lanes.consecutive = lanes.consecutive && kept == n;
      n = kept;
      if (n == 0) break;
    }
    if (n > 0 && it.lanes.minus && !stop) {
      // One coordinate c - x(k), c the same for every value (`n - k * k`): the sink subtracts
      // as it reads its table, where no difference overflows (else the general way below,
      // which meets the overflow where the rules would).
      const Node& d = nodes[static_cast<std::size_t>(it.coords[0])];
      lanes.reset();
      const Val head = lanes.top(d.a, n);
      const Val less = lanes.top(d.b, n);
      if (lanes.cut >= n && !head.p && less.p) {
        // n - x(k) with n >= 0 and the values of x(k) kept by k all >= 0 cannot overflow.
        const int t = it.lanes.by_k_of.empty() ? -1 : it.lanes.by_k_of[static_cast<std::size_t>(d.b)];
        std::uint64_t bad = 0;
        if (head.x < 0 || t < 0 || it.lanes.by_k[static_cast<std::size_t>(t)].least < 0) {
          const auto u = static_cast<std::uint64_t>(head.x);
          for (int j = 0; j < n; ++j) {
            const auto w = static_cast<std::uint64_t>(less.p[j]);
            bad |= (u ^ w) & (u ^ (u - w));  // the sign changed where it must not
          }
        }
        if ((bad >> 63) == 0) {
          if (sink.batch_minus(head.x, less.p, n) < n || failed) return false;
          if (last) return true;
          size = std::min(2 * size, widest);
          continue;
        }
      }
    }
    if (n > 0) {
      const std::int64_t* options = buf;
      lanes.reset();
      for (std::size_t q = 0; q < width; ++q) {
        const Val x = lanes.top(it.coords[q], n);
        if (width == 1 && x.p) {  // one coordinate, moving: its row is the options
          options = x.p;
          break;
        }
        for (int j = 0; j < n; ++j) buf[static_cast<std::size_t>(j) * width + q] = lanes.at(x, j);
        lanes.free_rows();
      }
      const int got = std::min(n, lanes.cut);
      failed = failed || got < n;
      n = got;
      if (n > 0) {
        const bool keep = stop && !failed && can_after;
        bool kept = false;
        const std::int64_t took =
            keep ? sink.batch_or_keep(options, it.parts, static_cast<int>(width), n, kept)
                 : sink.batch(options, it.parts, static_cast<int>(width), n);
        if (kept) {
          stop->at[ci] = after;
          return false;
        }
        if (took < n) {
          if (stop) stop->at[ci] = at(static_cast<int>(took));
          return false;
        }
      }
    }
    if (failed) return false;
    if (last) return true;
    size = std::min(2 * size, widest);
  }
}

// cell_plans_: for rules whose items are conditions and an option, which nodes move with the
// state (every node that reads one of its registers). An item with one loop over a few
// constant values (`for s in S`, S a parameter of three elements: WindUp) is an item per value,
// its variable set before the batch's conditions and option are evaluated; the loop's guards
// (its conditions free of the variable, tested once in the rules' loop) are conditions of
// each. A bound on the variable itself (`if s <= n`) leaves the rules to options().
void IntProgram::plan_cells() {
  cell_plans_.clear();
  cell_at_.clear();
  cells_.clear();
  cells_width_ = 0;
  const auto ar = static_cast<int>(state_slots.size());
  if (ar < 1 || ar > kMaxArity || items.empty()) return;
  const std::vector<std::uint8_t> moves = reading(state_slots.data(), state_slots.size());
  std::vector<Item::Lanes> plans;
  std::vector<std::size_t> at;
  std::vector<CellItem> cells;
  std::size_t next = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    if (it.let) return;
    Item::Lanes plan;
    const Clause* loop = nullptr;
    for (const Clause& c : it.clauses) {
      if (c.kind == Clause::Kind::If) {
        plan.conditions.push_back(c.lo);
        continue;
      }
      // One loop over a constant list, whose bounds are all guards: unrolled below.
      if (loop || c.kind != Clause::Kind::List || c.list.size() > static_cast<std::size_t>(kFewForCells)) return;
      for (const Bound& b : c.bounds) {
        if (!b.guard) return;
        plan.conditions.push_back(b.rhs);
      }
      loop = &c;
    }
    int most = 0;
    for (std::int32_t q : plan.conditions) most = std::max(most, rows_needed(*this, moves, q));
    for (std::int32_t q : it.coords) most = std::max(most, rows_needed(*this, moves, q));
    if (most + ar + 1 > kLaneRows) return;
    plan.moves = moves;
    const std::size_t copies = loop ? loop->list.size() : 1;
    for (std::size_t v = 0; v < copies; ++v) {
      cells.push_back(loop ? CellItem{i, loop->slot, loop->list[v]} : CellItem{i, -1, 0});
      plans.push_back(plan);
      at.push_back(next);
      next += it.coords.size() * static_cast<std::size_t>(kCellLanes);
    }
    if (cells.size() > static_cast<std::size_t>(kMaxCellItems)) return;
  }
  at.push_back(next);
  cell_plans_ = std::move(plans);
  cell_at_ = std::move(at);
  cells_ = std::move(cells);
  // One part of arity integers each, every item: send() gives a state's options as a batch.
  cells_width_ = std::all_of(cells_.begin(), cells_.end(),
                             [&](const CellItem& c) {
                               return items[c.item].parts == 1 &&
                                      items[c.item].coords.size() == static_cast<std::size_t>(ar);
                             })
                     ? ar
                     : 0;
}

void IntProgram::cell_options(const std::int64_t* states, int n, Cells& out) const {
  const auto ar = static_cast<int>(state_slots.size());
  n = std::min(n, kCellLanes);
  std::int64_t small[256];
  std::vector<std::int64_t> big;
  std::int64_t* r = small;
  if (values() > 256) {
    big.assign(static_cast<std::size_t>(values()), 0);
    r = big.data();
  }
  std::copy(consts_.begin(), consts_.end(), r + frame);
  Row rows[kLaneRows];
  for (int l = 0; l < n; ++l) {
    for (int q = 0; q < ar; ++q) rows[q][static_cast<std::size_t>(l)] = states[l * ar + q];
  }
  out.count = n;
  out.done = n;
  out.takes.assign(cells_.size() * static_cast<std::size_t>(kCellLanes), 0);
  out.coords.resize(cell_at_.back());
  for (std::size_t i = 0; i < cells_.size() && out.done > 0; ++i) {
    const Item& it = items[cells_[i].item];
    if (cells_[i].slot >= 0) r[cells_[i].slot] = cells_[i].value;  // the unrolled loop's value
    LaneEval e(*this, cell_plans_[i], state_slots.data(), ar, r, rows);
    std::uint8_t idx[kCellLanes];
    int m = out.done;
    for (int l = 0; l < m; ++l) idx[l] = static_cast<std::uint8_t>(l);
    // Lanes 0..m-1 without an index while every state is still in (vectorized loops).
    bool all = true;
    const auto sel = [&] { return all ? Sel{nullptr, m} : Sel{idx, m}; };
    // The conditions in turn, each over the states the ones before let through.
    for (std::int32_t q : cell_plans_[i].conditions) {
      e.reset();
      const Val v = e.eval(q, sel());
      out.done = std::min(out.done, e.cut);
      int kept = 0;
      for (int j = 0; j < m; ++j) {
        const int l = idx[j];
        if (l < out.done && LaneEval::at(v, l) != 0) idx[kept++] = static_cast<std::uint8_t>(l);
      }
      all = all && kept == m;
      m = kept;
    }
    const std::size_t width = it.coords.size();
    std::int64_t* coords = out.coords.data() + cell_at_[i];
    for (std::size_t q = 0; q < width && m > 0; ++q) {
      e.reset();
      const Val x = e.eval(it.coords[q], sel());
      out.done = std::min(out.done, e.cut);
      for (int j = 0; j < m; ++j) coords[static_cast<std::size_t>(idx[j]) * width + q] = LaneEval::at(x, idx[j]);
    }
    std::uint8_t* takes = out.takes.data() + i * static_cast<std::size_t>(kCellLanes);
    for (int j = 0; j < m; ++j) {
      if (idx[j] < out.done) takes[idx[j]] = 1;
    }
  }
}

bool IntProgram::send(const Cells& cells, int l, OptionSink& sink) const {
  if (cells_width_ == 0)
    return each_option(cells, l, [&](const std::int64_t* coords, int parts) { return sink.option(coords, parts); });
  // Options of one shape: gathered, and given to the sink as one batch (a loopy game's
  // graph takes a row at a time).
  std::int64_t gathered[kMaxCellItems * kMaxArity];
  std::int64_t count = 0;
  each_option(cells, l, [&](const std::int64_t* coords, int) {
    std::copy(coords, coords + cells_width_, gathered + count * cells_width_);
    ++count;
    return true;
  });
  return sink.batch(gathered, 1, cells_width_, count) == count;
}

}  // namespace grundy
