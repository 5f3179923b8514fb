// Rules compiled to a program over unboxed integers, for games whose state is one integer or
// a tuple of integers and whose options are states of the same game. The compiler
// (lang/Compile.cpp) writes the program, as clox's compiler writes a chunk; the executor here
// runs it, as the VM runs the chunk: the evaluator drives it into dense tables
// (runtime/BoxTable.hpp) without building a Value, a Position or an Option per option, and
// without walking the syntax tree.
//
// A program is an expression graph (nodes), flattened per rule into straight lists of
// instructions over one array of values: the frame's registers first (state, parameters,
// lets, clause variables), then the constants, then one slot per instruction. What must not
// be evaluated eagerly (and, or, if: a branch not taken may divide by zero) is one
// instruction that walks its tree. The innermost `for k in lo..hi` of a rule whose parts are
// affine in k is one run (first option, slope, count), read by the evaluator as a strided loop.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace grundy {

// Receives the options of one state. A part is `arity` integers; an option is `parts` parts.
class OptionSink {
 public:
  virtual ~OptionSink() = default;
  // One option; coords holds parts * arity integers. False: stop (the sink cannot use it).
  virtual bool option(const std::int64_t* coords, int parts) = 0;
  // `count` options: the k-th (k = 0 .. count-1) has coordinates first[i] + k * slope[i].
  // Both ends are valid states (checked by the program's arithmetic). False: stop.
  virtual bool run(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) = 0;
  // `count` options one after another in coords, `width` integers apart (an innermost
  // loop whose options are not a run: n - k * k for k in 1..n if k * k <= n). Returns how
  // many it took before one it said stop at (count: all). One call per batch, rather than
  // one per option, lets a sink read its table in a loop of its own.
  virtual std::int64_t batch(const std::int64_t* coords, int parts, int width, std::int64_t count) {
    for (std::int64_t j = 0; j < count; ++j) {
      if (!option(coords + j * width, parts)) return j;
    }
    return count;
  }
  // As batch for options of one integer each, the k-th c - x[k] (no difference overflows: the
  // program checked), so that a sink reading its table subtracts as it reads (`n - k * k`).
  virtual std::int64_t batch_minus(std::int64_t c, const std::int64_t* x, std::int64_t count) {
    std::int64_t coords[64];
    std::int64_t done = 0;
    while (done < count) {
      const std::int64_t m = std::min<std::int64_t>(64, count - done);
      for (std::int64_t j = 0; j < m; ++j) coords[j] = c - x[done + j];
      const std::int64_t took = batch(coords, 1, 1, m);
      done += took;
      if (took < m) break;
    }
    return done;
  }
  // As batch, where the listing could go on right after the batch: a sink that stops at an
  // option may keep it and the options after it to look at later (kept: true), and then takes
  // the whole batch; the listing stops there, to go on after the batch.
  virtual std::int64_t batch_or_keep(const std::int64_t* coords, int parts, int width, std::int64_t count,
                                     bool& kept) {
    kept = false;
    return batch(coords, parts, width, count);
  }
  // Whether the sink looks at every option (a mex) rather than stopping at the first that
  // decides (an outcome): a listing then computes its options in full batches from the start.
  virtual bool takes_all() const { return false; }
  // Called every few thousand loop steps, so that one state with millions of options still
  // notices Ctrl-C; may throw (an interrupt).
  virtual void pulse() {}
};

class IntProgram {
 public:
  // The most integers in a state: the boxes of runtime/BoxTable.hpp have up to four dimensions.
  static constexpr int kMaxArity = 4;
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
    // Sets of small integers as bitmasks (element k is bit k, k in 0..kMaxElement):
    Bit,       // {a}: bit a; bails when a is not in 0..kMaxElement
    Test,      // a in b
    Union,     // a + b
    Minus,     // a - b
    Popcount,  // len(a)
    SetSum,    // sum(a)
    SetMin,    // min(a); bails when a is empty (the rules as written raise)
    SetMax,    // max(a); the same
    RangeSet,  // set(a..b); bails unless its elements lie in 0..kMaxElement
    // {c for slot in ...} (Comp, `v` its place in comps): the union of c, a mask (a bit, or 0
    // where a condition says no), over a range a..b, a table's row a (a RowOf), a set a or a
    // packed list a; bails where c does, or a range is longer than kMaxCompRange.
    SetComp,
    // Lists of small integers packed into one word (list_bits): the length in bits 56..62,
    // the items below it. Each bails where the list would not fit (longer than
    // kMaxListLength, an item too large for its length's width) or the rules as written
    // raise (an index out of range):
    ListLen,     // len(a)
    ListAt,      // a[b]
    Append,      // a + [b]
    ListUpdate,  // update(a, b, c)
    ListComp,    // [c for slot v in a..b]
    ListHas,     // a in b (b a list)
    ListSort,    // sorted(a)
    ListRemove,  // remove(a, b): without item b
    Concat,      // a + b
    // [b] + a's fields, in a list whose length a has already ([x, y, z] is Cons(Cons(Cons(
    // three zeros, z), y), x): each item is put at its final width once, where appending them
    // one at a time repacked the list at every new width); bails where b does not fit that width
    Cons,
    ListSet,     // set(a): bails when an item is past kMaxElement
    ListSum,     // sum(a)
    ListMin,     // min(a); bails when a is empty (the rules as written raise)
    ListMax,     // max(a); the same
    // Constant tables (Table, `v` the table): a list of integers given by a parameter or a
    // top-level `let`, or a list of such lists (the edges out of each node of a graph).
    // Each bails where the rules as written raise (an index out of range):
    TableAt,  // t[a]
    RowOf,    // t[a] of a table of rows: the row number a, checked
    RowLen,   // len(t[a]), a a RowOf
    RowAt,    // t[a][b]
    InRow,    // a in t[b]
    // A constant list of sets or of lists (`let C = [{0, 1}, {0, 1, 2}]`, a graph's out-edges
    // `E` read as lists, `set(E[v])`): t[a] as a mask or a packed word, from a table of them
    // (Table::items) in which a row that has none (an element past kMaxElement, a list too
    // long to pack) is -1; bails there and where a is out of range.
    WordAt,
    // A function that calls itself in tail position only (`def next_empty(cs, i) = if cs[i] == 0
    // then i else next_empty(cs, i + 1)`), as a loop (Loop, `v` its place in loops): a, b, c
    // are the first call's arguments (-1 past the function's parameters), written into the
    // loop's registers; its body is walked through its `if`s to a leaf, which is the result,
    // or an Again, whose a, b, c are the next call's arguments. Bails after Loop::most calls
    // (the rules as written then meet the nesting limit, or do not). Again is met only there.
    Loop,
    Again,
    // Control flow in flat programs (If, And and Or are branches, not tree walks): to
    // `target` when a is 0, when it is not, always; dst = a.
    Jz,
    Jnz,
    Jmp,
    Move,
  };
  // The largest element of a set held as a bitmask: bit 63 stays clear, so that a mask is a
  // non-negative coordinate like any other.
  static constexpr std::int64_t kMaxElement = 62;
  // A packed list of n items shares 56 bits among them, 56 / n each (3 items of 0..262143,
  // 7 of 0..255, 10 of 0..31, 14 of 0..15, 56 of 0..1): Chomp's three rows of 300 fit. The
  // width follows from the length, so a list has one word and equal lists equal words.
  static constexpr int kLengthShift = 56;
  static constexpr int kMaxListLength = 56;
  // (A table: the division was a tenth of a loop over a list's items.)
  static constexpr std::array<std::uint8_t, 128> kListBits = [] {
    std::array<std::uint8_t, 128> t{};
    for (int n = 0; n < 128; ++n) t[static_cast<std::size_t>(n)] = static_cast<std::uint8_t>(n == 0 ? kLengthShift : kLengthShift / n);
    return t;
  }();
  static constexpr int list_bits(std::int64_t n) { return kListBits[static_cast<std::size_t>(n) & 127]; }
  static constexpr std::int64_t max_item(std::int64_t n) { return (std::int64_t{1} << list_bits(n)) - 1; }
  static constexpr std::int64_t list_len(std::int64_t w) { return w >> kLengthShift; }
  // The word of items[0..n); false when they do not fit.
  static bool pack_list(const std::int64_t* items, std::int64_t n, std::int64_t& w) {
    if (n < 0 || n > kMaxListLength) return false;
    const int b = list_bits(n);
    w = n << kLengthShift;
    for (std::int64_t i = 0; i < n; ++i) {
      if (items[i] < 0 || items[i] > max_item(n)) return false;
      w |= items[i] << (b * i);
    }
    return true;
  }
  // The items of w into items (room for kMaxListLength); returns how many.
  static std::int64_t unpack_list(std::int64_t w, std::int64_t* items) {
    const std::int64_t n = list_len(w);
    const int b = list_bits(n);
    for (std::int64_t i = 0; i < n; ++i) items[i] = (w >> (b * i)) & max_item(n);
    return n;
  }
  // A node of the expression graph: operands a, b, c are node numbers.
  struct Node {
    Op op = Op::Const;
    std::int32_t a = -1, b = -1, c = -1;
    std::int64_t v = 0;  // Const: the value; Reg: the slot; InSet: the set; TableAt ... WordAt: the table;
                         // SetComp: the comprehension
  };
  // A set comprehension's loop (Op::SetComp): over what, into which register, and for a row
  // the table.
  struct Comp {
    enum class Kind : std::uint8_t { Range, Row, Bits, Items } kind = Kind::Range;
    std::int64_t slot = -1;
    std::int64_t table = -1;  // Row
  };
  // The longest range a set comprehension runs over: its elements must lie in 0..kMaxElement
  // anyway, and a longer one (`{k for k in 1..n if k * k == n}`) is left to the rules as
  // written, which count its steps.
  static constexpr std::int64_t kMaxCompRange = 1024;
  struct Instr {
    Op op;
    bool tree = false;  // evaluate node `a` by the tree walk
    // Then go on at `target` if the value is 0 (a loop's test and its jump in one instruction,
    // Loop::code only: the lanes do not read it).
    bool or_jump = false;
    std::int32_t dst = 0, a = 0, b = 0;
    std::int32_t node = -1;   // the node computed
    std::int32_t target = 0;  // Jz, Jnz, Jmp: the instruction to go on at
  };
  struct Prog {
    std::vector<Instr> code;
  };
  // A tail-recursive function's loop (Op::Loop): the registers of its parameters (base, base + 1,
  // ...), its body, and the most calls it makes before it bails.
  struct Loop {
    std::int64_t base = 0;
    int params = 0;  // 1 to 3
    std::int32_t body = -1;
    std::int64_t most = 0;
    // The body in flat code (link), one program for the whole chain: each `if` a branch,
    // each leaf its value into `result` and a jump to the end, or the next call's arguments
    // into the parameters and a jump back to the start; empty before link (the tree walk
    // then runs it). One program, not one per `if` and step: a step of a short chain (the
    // next empty square) is a few instructions, and each program run costs more than they do.
    Prog code;
    std::int32_t result = 0;
    // The last results by their arguments: the body reads nothing but its parameters, so a
    // call with the arguments of one before has its value (a rule that tests and then uses
    // `next_empty(cs, i)` runs the chain once). Given up where it seldom finds one.
    struct Cache {
      static constexpr int kSize = 64;
      struct Entry {
        std::array<std::int64_t, 3> args{};
        std::int64_t value = 0;
        bool full = false;
      };
      std::array<Entry, kSize> entries{};
      std::uint32_t calls = 0, hits = 0;
      bool off = false;
    };
    mutable Cache cache;
  };
  // A constant table: its items, and for a table of rows where each row starts (one more
  // than there are rows; empty for a table of integers).
  struct Table {
    std::vector<std::int64_t> items;
    std::vector<std::uint32_t> starts;
    std::int64_t rows() const { return starts.empty() ? 0 : static_cast<std::int64_t>(starts.size()) - 1; }
  };
  // A condition `lhs op rhs` (op: Lt, Le, Gt, Ge or Eq) on a range's variable k, lhs affine
  // in k with slope `slope` (not 0) and rhs free of k: the range is cut to the k that meet
  // it, instead of testing each k. Or (`guard`) a condition free of k, `rhs`: tested once,
  // once the range's ends are known, and the range is empty unless it holds.
  //
  // Or (`monotone`) lhs is not affine but never decreases as k grows from 0 (k * k, 2 ^ k,
  // k * (k + 1) / 2 ...) and op is Lt, Le, Gt or Ge: the k that meet it are a prefix or a
  // suffix of the range, its end found by bisection (`for k in 1..n if k * k <= n` looks at
  // the k up to sqrt(n)). Taken where the range starts at 0 or above; below, the rules as
  // written take the state.
  struct Bound {
    bool guard = false;
    bool monotone = false;
    Op op = Op::Ge;
    std::int64_t slope = 1;
    std::int32_t lhs = -1, rhs = -1;  // nodes
    Prog prog;                        // computes both
    std::int32_t lhs_at = 0, rhs_at = 0;
    // Monotone: where it cut its range for the last state, where the next cut is looked for
    // first. Any value is safe (a hint); like Lanes::ByK, written by the one thread that lists.
    mutable std::int64_t last = -1;
  };
  struct Clause {
    // Bits: `for k in S` over a set held as a bitmask (lo), in increasing order like the set.
    // Items: `for x in xs` over a packed list (lo). Row: `for x in t[i]` over a row of a
    // constant table (`table`; lo is the RowOf).
    enum class Kind : std::uint8_t { Range, List, If, Bits, Items, Row } kind = Kind::If;
    std::int64_t slot = -1;
    std::int32_t lo = -1, hi = -1;  // Range; If: lo is the condition; Bits, Items, Row: lo is the collection
    std::int32_t table = -1;        // Row
    // Range: the next clause is `if k % mod == r` (or `!= r`), mod a constant > 0, and these
    // are the residues it lets through, in increasing order. Where the range starts at 0 or
    // above, each residue's values are a strided run (k, k + mod, ...): the options of each
    // in turn, the condition never tested. Below 0 the loop tests it as written.
    std::int64_t mod = 0;
    std::vector<std::int64_t> residues;
    // Or (per_state) the condition reads k only as x % M with x affine in k and other registers
    // anywhere (`if (n - k) % 3 != 0`): periodic in k with period `mod` all the same, the
    // residues it lets through found for each state by testing it at lo .. lo + mod - 1, once
    // each x (`moduli`) is known to stay in range at both ends (an affine x is largest and
    // smallest there).
    bool per_state = false;
    std::vector<std::int32_t> moduli;
    // Range: the next clause is `if A % k == 0` with A (this node) free of k. Where the range
    // starts at 1 or above and is longer than a trial division up to sqrt(|A|), the k are A's
    // divisors in it, found by that division (IntProgram::divisors), in increasing order.
    std::int32_t divides = -1;
    Prog divides_prog;  // computes A into divides_at
    std::int32_t divides_at = 0;
    // Range: the next clause is `if not (k in S)` with S (this node) free of k. Where the range
    // lies within a set's elements (0..kMaxElement), its k are the bits of the range's mask
    // less S, taken as a set's elements are (Kind::Bits), and that clause is not tested: `for k
    // in 1..M if not (k in used)` looks at the numbers not used, as a hand-written loop over
    // a bitmask does.
    std::int32_t excluded = -1;
    Prog excluded_prog;  // computes S into excluded_at
    std::int32_t excluded_at = 0;
    std::vector<std::int64_t> list;
    Prog prog;  // computes lo and hi into their places
    std::int32_t lo_at = 0, hi_at = 0;
    std::vector<Bound> bounds;  // Range
  };
  // A batch of values of a rule's innermost loop (runtime/IntLanes.cpp): up to kLaneWidth
  // values, and rows for the values computed from them.
  static constexpr int kLaneWidth = 256;
  static constexpr int kLaneRows = 48;
  // A loop over a list, a set or a table's row of at most this many values is listed value by
  // value even where it has lanes: a batch's set-up costs more than the few options (WindUp's
  // `for s in S`, three moves). Ranges keep their lanes however short: Chomp's `for j in
  // 0..hs[c]-1` is short, and its comprehension gains from batches (measured 15% slower
  // value by value).
  static constexpr int kFewForLanes = 4;
  static constexpr std::int64_t kMaxByK = std::int64_t{1} << 21;  // Lanes::ByK: 16 MB a rule at most
  // A `let` (the value of `expr` into `slot`) or a rule (its clauses, then its parts).
  struct Item {
    bool let = false;
    std::int64_t slot = -1;  // Let
    std::int32_t expr = -1;  // Let
    Prog prog;               // Let: computes expr; a rule: computes the coordinates
    std::int32_t expr_at = 0;
    std::vector<Clause> clauses;
    std::vector<std::int32_t> coords;  // parts * arity nodes
    std::vector<std::int32_t> coords_at;
    int parts = 0;
    // The last clause is a range (or a range and its modular condition, Clause::mod) and
    // every coordinate is affine in its variable.
    bool affine = false;
    std::int32_t run_at = -1;          // affine: that range's clause
    std::vector<std::int64_t> slopes;  // per coordinate
    bool still = false;                // affine with every slope 0: the same option throughout
    // Not affine, but the last clause is a range and every coordinate is affine in its variable
    // k but for min and max of two affine operands (Chomp's `(j, min(b, j), min(c, j))`): between
    // the k where the operands of one cross, every coordinate is affine, and each such piece of
    // the range is one run (IntProgram::pieces). Per min or max: its operands, and the slope of
    // their difference.
    struct Kink {
      std::int32_t a = -1, b = -1;
      std::int64_t slope = 0;
    };
    std::vector<Kink> kinks;
    static constexpr std::size_t kMaxKinks = 8;
    // Affine: the places of the values in `prog` that move with the range's variable, and
    // their slopes. Their values at the range's end follow from those at its start.
    std::vector<std::pair<std::int32_t, std::int64_t>> moving;
    // Where the rule's innermost clause (a range, a set, a list) is followed by conditions only
    // and its options are not a run: they are listed a batch of its values at a time
    // (IntProgram::lanes), each expression evaluated over the batch node by node.
    struct Lanes {
      std::int32_t at = -1;                  // that clause; -1: listed value by value
      std::vector<std::int32_t> conditions;  // the conditions after it, as nodes
      std::vector<std::uint8_t> moves;       // per node: whether it depends on the clause's variable
      // One coordinate, c - x with c fixed and x moving (`n - k * k`): OptionSink::batch_minus.
      bool minus = false;
      // The largest expressions of a range's or a set's variable k alone (`k * k`, `f(k)`,
      // `not (k in S)`): the same for every state, so their values are kept by k (up to
      // kMaxByK of them in all), computed once for all the states listed, and read, not computed,
      // by each batch. The rules' listings run on one thread at a time (a parallel sweep gives
      // each thread a copy of the program).
      struct ByK {
        std::int32_t node = -1;
        std::int64_t most = 0;                     // values kept at most
        mutable std::int64_t base = 0;             // the first k kept: the first asked for
        mutable std::vector<std::int64_t> values;  // for k = base, base + 1, ...
        mutable bool failed = false;               // not evaluable at the k after them
        mutable std::int64_t least = INT64_MAX;    // the least of them
      };
      std::vector<ByK> by_k;
      std::vector<std::int16_t> by_k_of;  // per node: its place in by_k, or -1
      // An expression whose moving nodes are all operations on values (no if, and, or or
      // comprehension) as a straight list of batch instructions, each a node over the whole
      // batch into a row of its own: the tree walk's recursion and its checks per node cost more
      // than the batch's few values (a search lists eight at a time: Can I Win's
      // `not (k in used)`, `used + {k}`, `total + k`).
      struct Operand {
        enum class Kind : std::uint8_t { Row, K, Reg, Const, Tree } kind = Kind::Const;
        std::int64_t x = 0;  // Row: the instruction; Reg: the slot; Const: the value; Tree: the node
      };
      struct Step {
        // Update: update(a, b, c) (Op::ListUpdate), the one operation of three operands.
        enum class Kind : std::uint8_t { Apply, ByK, ByLane, Update } kind = Kind::Apply;
        Op op = Op::Move;
        Operand a, b;
        std::int32_t node = -1;  // ByK, ByLane: the node (by lane where its values by k are not kept)
        std::int16_t t = -1;     // ByK: its place in by_k
        Operand c;               // Update
      };
      struct Flat {
        std::vector<Step> code;  // step j writes row j (after the rows in use)
        Operand result;
      };
      std::vector<Flat> flats;
      std::vector<std::int16_t> flat_of;  // per node: its place in flats, or -1
    } lanes;
  };
  static constexpr int kMaxParts = 8;
  // The most clauses a rule may have (the compiler leaves longer rules to the rules as written).
  static constexpr int kMaxClauses = 16;

  // Where a listing of a state's options stopped (the sink said stop), so that the next
  // listing goes on from that option, inclusive, without listing the ones before it again,
  // as a hand-written win() goes on with its loop after a recursive call.
  struct Resume {
    std::int32_t item = 0;  // the rule
    // The stop was in the run of the rule's last clause: the next listing goes on after the
    // whole run (the caller has gone through it).
    bool in_run = false;
    // (Not initialized: written along the path of the clauses where the listing stopped, and
    // read only along that path.)
    std::array<std::int64_t, kMaxClauses>
        at;  // per clause: Range: the value; List, Items, Row: the index; Bits: the bits left
    // Range: its ends once cut by its bounds, the same when the listing goes on (the state is
    // the same), so that a search that comes back to a state does not work them out again.
    // For the first few clauses only: a search keeps a Resume per state on its path.
    static constexpr int kKeptEnds = 4;
    std::array<std::int64_t, kKeptEnds> lo, hi;
  };

  // ---- written by the compiler ----
  int arity = 0;
  // Which coordinates of the state are sets of small integers held as bitmasks, and which
  // lists of small integers packed into one word (bit i: coordinate i); the others are
  // integers.
  struct Packing {
    std::uint8_t sets = 0, lists = 0;
    bool any() const { return (sets | lists) != 0; }
  };
  Packing packing;
  std::vector<std::int64_t> state_slots;  // the registers of the state's coordinates
  std::int32_t frame = 1;                 // registers
  std::vector<Node> nodes;
  std::vector<std::vector<std::int64_t>> sets;  // sorted
  std::vector<Table> tables;
  std::vector<Comp> comps;
  std::vector<Loop> loops;
  std::vector<Item> items;

  std::int32_t add(Node n) {
    nodes.push_back(n);
    return static_cast<std::int32_t>(nodes.size() - 1);
  }
  // d(node)/d(slot) when the node is affine in the slot with a constant slope.
  std::optional<std::int64_t> slope(std::int32_t node, std::int64_t slot) const;
  // Whether the node's value depends on the slot.
  bool mentions(std::int32_t i, std::int64_t slot) const;
  // The node's value with `slot` holding `value`, for a node that reads no other register;
  // nothing where it fails (the compiler asks this of conditions on residues).
  std::optional<std::int64_t> value_at(std::int32_t node, std::int64_t slot, std::int64_t value) const;
  // The node's value with registers 0 .. count - 1 holding args (a function compiled on its
  // own, once linked); nothing where it fails.
  static constexpr int kMaxFunctionArgs = 8;
  std::optional<std::int64_t> value_with(std::int32_t node, const std::int64_t* args, int count) const;
  // The one register node i reads (-1: none), where it reads it through arithmetic,
  // comparisons and branches alone (no list, set, table or loop); nothing where it reads more
  // than one, or reads one otherwise. Such a node is a function of that register only, and
  // tabulate() may list its values.
  std::optional<std::int64_t> sole_register(std::int32_t i) const;
  // Node i's values with register `slot` holding 0 .. n - 1 (a node of sole_register() slot or
  // -1): out[x], and ok[x] false where it fails (an overflow, a division by zero).
  void tabulate(std::int32_t i, std::int64_t slot, std::int64_t n, std::int64_t* out, std::uint8_t* ok) const;
  // Once every item is written: flattens their expressions into instructions over the value
  // array, and finds what moves along each affine run.
  void link();

  // ---- run by the evaluator ----
  // The most parts an option has (1: moves only, so outcomes follow from outcomes).
  int max_parts() const;
  // Sends every option of `state` (arity integers) to `sink`, in rule order. Returns false
  // when the program cannot go on (an overflow, a division by zero, a value that is not an
  // integer) or the sink said stop; the evaluator then falls back to the rules themselves,
  // which meet the same error only if the query needs that state.
  bool options(const std::int64_t* state, OptionSink& sink) const {
    return options(state, sink, nullptr, nullptr);
  }
  // The same from where `from` says (the start when null), recording in `stop` (when not
  // null) where the listing stopped.
  bool options(const std::int64_t* state, OptionSink& sink, const Resume* from, Resume* stop) const;

  // The options of up to kCellLanes states at once, for a sweep (runtime/BoxFill.cpp) over
  // rules whose every item is conditions and an option (a knight's four moves, a constant list
  // written out): each expression evaluated once over the batch (runtime/IntLanes.cpp), not
  // once per state, as a contest solution's loop body runs without an interpreter's dispatch.
  static constexpr int kCellLanes = 64;
  struct Cells {
    int count = 0;
    // The first state whose options the batch could not compute (an overflow, ...): from it
    // on, options() lists them, and meets what the rules as written meet.
    int done = 0;
    std::vector<std::uint8_t> takes;   // [cell item][state]: whether it gives the state an option
    std::vector<std::int64_t> coords;  // per cell item from cell_at_[item]: [state][coordinate]
  };
  bool by_cells() const { return !cell_plans_.empty(); }
  // states: n <= kCellLanes states, one after another.
  void cell_options(const std::int64_t* states, int n, Cells& out) const;
  // The options of state l of a batch (l < out.done), in rule order; false where the sink says stop.
  bool send(const Cells& cells, int l, OptionSink& sink) const;
  // f(coords, parts) for each option of state l, in rule order, while it returns true.
  template <class F>
  bool each_option(const Cells& cells, int l, F&& f) const {
    const auto lane = static_cast<std::size_t>(l);
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      if (!cells.takes[i * static_cast<std::size_t>(kCellLanes) + lane]) continue;
      const Item& it = items[cells_[i].item];
      if (!f(cells.coords.data() + cell_at_[i] + lane * it.coords.size(), it.parts)) return false;
    }
    return true;
  }

 private:
  std::vector<std::int64_t> consts_;  // at frame + i
  std::int64_t registers_ = 0;  // what the tree walk may write, past the frame (value_with)
  std::int64_t registers_from(std::int64_t least) const;
  // The items of a batch (by_cells()): a rule, or a rule's loop over a few constant values
  // taken one value at a time (slot: the loop's variable, set to value), in the rules' order.
  struct CellItem {
    std::size_t item = 0;
    std::int64_t slot = -1, value = 0;
  };
  static constexpr int kFewForCells = 8;    // values of a loop unrolled
  static constexpr int kMaxCellItems = 32;  // items of a batch, unrolled
  std::vector<CellItem> cells_;
  int cells_width_ = 0;  // arity where every cell item gives one part (send() batches), else 0
  std::vector<Item::Lanes> cell_plans_;  // per cell item: what moves with the state
  std::vector<std::size_t> cell_at_;     // per cell item: its first coordinate in Cells::coords
  void plan_cells();
  std::vector<std::uint8_t> reading(const std::int64_t* slots, std::size_t count) const;
  void flat_step(Loop& q, std::int32_t node, std::vector<std::int32_t>& ends);
  std::int32_t temps_ = 0;            // after the constants
  // What the program being written (placing_) has computed where every later instruction
  // sees it: by node, and by instruction (op, a, b), so that a value used twice (an inlined
  // function's parameter, `x + dx` in two tests) is computed once. Entries made inside a
  // branch are dropped as it ends.
  struct Placed {
    std::int32_t node;
    Op op;
    std::int32_t a, b, at;
  };
  const Prog* placing_ = nullptr;
  std::vector<Placed> placed_;

  std::int32_t values() const { return frame + static_cast<std::int32_t>(consts_.size()) + temps_; }
  std::int32_t place(std::int32_t i, Prog& p);
  std::int32_t const_place(std::int64_t v);
  std::int32_t place_branches(std::int32_t i, Prog& p);
  bool truth(std::int32_t i) const;
  std::int32_t emit(Prog& p, Op op, std::int32_t dst, std::int32_t a, std::int32_t b, std::int32_t node);
  static bool last_is_plain(const Prog& p);
  std::int32_t emit_jz(Prog& p, std::int32_t c, std::int32_t node);
  std::int32_t sealed(std::int32_t at) const;
  void seal(Prog& p) const;
  void moving_values(Item& it);
  std::int64_t operand(std::int32_t i, std::int64_t* r, bool& bail) const;
  std::int64_t eval(std::int32_t i, std::int64_t* r, bool& bail) const;
  [[gnu::noinline]] std::int64_t eval_rare(const Node& n, std::int64_t* r, bool& bail) const;
  std::int64_t set_comprehension(const Node& n, std::int64_t* r, bool& bail) const;
  std::int64_t loop(const Node& n, std::int64_t* r, bool& bail) const;
  // `calls`: a loop's (Loop::code) calls left, each jump back to the start one.
  bool exec(const Prog& p, std::int64_t* v, std::int64_t* calls = nullptr) const;
  bool coords_of(const Item& it, std::int64_t* r, std::int64_t* out) const;
  bool affine_run(const Item& it, const Clause& c, std::int64_t first, std::int64_t count, std::int64_t step,
                  std::int64_t* r, OptionSink& sink, std::int64_t& budget) const;
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
  friend class LaneEval;
  void plan_lanes(Item& it);
  void plan_by_k(const Item& it, Item::Lanes& lanes, std::int64_t k) const;
  void plan_flat(Item::Lanes& lanes, std::int32_t node) const;
  // The clause's values a batch at a time (runtime/IntLanes.cpp), from `from` when it resumes:
  // a, b are a range's ends, a constant list's first and end index (cut by its bounds), a set's
  // mask, a packed list's word, a table's row.
  bool lanes(const Item& it, std::size_t ci, const Clause& c, std::int64_t a, std::int64_t b,
             const Resume* from, std::int64_t* r, OptionSink& sink, std::int64_t& budget, Resume* stop,
             bool complement = false) const;
  bool pieces(const Item& it, std::size_t ci, const Clause& c, std::int64_t lo, std::int64_t hi, std::int64_t* r,
              OptionSink& sink, std::int64_t& budget, const Resume* from, Resume* stop) const;
  bool strided(const Item& it, std::size_t ci, const Clause& c, const std::int64_t* residues,
               std::size_t count, std::int64_t lo, std::int64_t hi, std::int64_t* r, OptionSink& sink,
               std::int64_t& budget, const Resume* from, Resume* stop) const;
  bool state_residues(const Item& it, std::size_t ci, const Clause& c, std::int64_t lo, std::int64_t hi,
                      std::int64_t* r, std::int64_t* residues, std::size_t& count) const;
  bool divisors(const Item& it, std::size_t ci, const Clause& c, std::int64_t a, std::int64_t lo,
                std::int64_t hi, std::int64_t* r, OptionSink& sink, std::int64_t& budget, const Resume* from,
                Resume* stop) const;
  bool bounded(const Clause& c, std::int64_t* r, std::int64_t& lo, std::int64_t& hi, bool& empty) const;
  bool monotone_cut(const Bound& b, std::int64_t slot, std::int64_t* r, std::int64_t& lo, std::int64_t& hi,
                    bool& empty) const;
  bool clauses(const Item& it, std::size_t ci, std::int64_t* r, OptionSink& sink, std::int64_t& budget,
               const Resume* from, Resume* stop) const;
};

}  // namespace grundy
