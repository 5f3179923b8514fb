#include "runtime/Tuples.hpp"

#include "runtime/OutcomeMemo.hpp"

#include <algorithm>

#include <absl/container/flat_hash_set.h>

namespace grundy {

// ---- the table ----

bool TupleMemo::inside(const std::int64_t* c) const {
  if (cells_ == 0) return false;
  for (int i = 0; i < arity_; ++i) {
    if (c[i] < 0 || c[i] >= dims_[static_cast<std::size_t>(i)]) return false;
  }
  return true;
}

std::int64_t TupleMemo::index(const std::int64_t* c) const {
  std::int64_t at = 0;
  for (int i = 0; i < arity_; ++i) at += c[i] * strides_[static_cast<std::size_t>(i)];
  return at;
}

std::optional<std::uint32_t> TupleMemo::known(const std::int64_t* c) const {
  if (!inside(c)) return std::nullopt;
  const std::uint32_t v = get(index(c));
  if (v == unknown()) return std::nullopt;
  return v;
}

std::string TupleMemo::describe() const {
  std::string s;
  for (int i = 0; i < arity_; ++i) {
    if (i) s += " x ";
    s += std::to_string(dims_[static_cast<std::size_t>(i)]);
  }
  return s + " cells of " + std::to_string(width_) + " byte" + (width_ > 1 ? "s" : "");
}

namespace {
template <typename To, typename From>
std::vector<To> widen_copy(std::vector<From>& from, To unknown) {
  const From old = static_cast<From>(~From{0});
  std::vector<To> to(from.size());
  for (std::size_t i = 0; i < from.size(); ++i) to[i] = from[i] == old ? unknown : from[i];
  std::vector<From>().swap(from);
  return to;
}
}  // namespace

void TupleMemo::widen(std::uint32_t v) {
  if (width_ == 1) {
    if (v < 0xFFFFu) {
      b2_ = widen_copy<std::uint16_t>(b1_, 0xFFFF);
      width_ = 2;
      return;
    }
    b4_ = widen_copy<std::uint32_t>(b1_, 0xFFFFFFFFu);
    width_ = 4;
    return;
  }
  b4_ = widen_copy<std::uint32_t>(b2_, 0xFFFFFFFFu);
  width_ = 4;
}

void TupleMemo::set(std::int64_t i, std::uint32_t v) {
  if (v >= unknown()) widen(v);
  const auto u = static_cast<std::size_t>(i);
  if (width_ == 1) b1_[u] = static_cast<std::uint8_t>(v);
  else if (width_ == 2) b2_[u] = static_cast<std::uint16_t>(v);
  else b4_[u] = v;
}

bool TupleMemo::grow(const std::int64_t* c, std::uint64_t max_cells) {
  std::array<std::int64_t, kMaxBoxArity> dims = dims_;
  std::uint64_t cells = 1;
  for (int i = 0; i < arity_; ++i) {
    auto& d = dims[static_cast<std::size_t>(i)];
    if (c[i] < 0) return false;
    if (static_cast<std::uint64_t>(c[i]) >= max_cells) return false;  // and c[i] + 1 cannot overflow
    if (c[i] >= d) {
      const std::int64_t twice = d > (INT64_MAX / 2) ? INT64_MAX : 2 * d;
      d = std::max({c[i] + 1, twice, std::int64_t{arity_ == 1 ? 64 : 8}});
    }
    if (static_cast<std::uint64_t>(d) > max_cells) return false;
    cells *= static_cast<std::uint64_t>(d);
    if (cells > max_cells) return false;
  }
  std::array<std::int64_t, kMaxBoxArity> strides{};
  std::int64_t s = 1;
  for (int i = arity_; i-- > 0;) {
    strides[static_cast<std::size_t>(i)] = s;
    s *= dims[static_cast<std::size_t>(i)];
  }
  auto move_to = [&](auto& old) {
    using T = typename std::decay_t<decltype(old)>::value_type;
    std::vector<T> fresh(cells, static_cast<T>(~T{0}));
    if (cells_ > 0) {
      // Copy the old box row by row (the last coordinate is contiguous in both).
      const auto row = static_cast<std::uint64_t>(dims_[static_cast<std::size_t>(arity_ - 1)]);
      Coords at{};
      for (std::uint64_t k = 0; k < cells_; k += row) {
        std::int64_t to = 0;
        for (int i = 0; i + 1 < arity_; ++i) to += at[static_cast<std::size_t>(i)] * strides[static_cast<std::size_t>(i)];
        std::copy(old.begin() + static_cast<std::ptrdiff_t>(k), old.begin() + static_cast<std::ptrdiff_t>(k + row),
                  fresh.begin() + to);
        for (int i = arity_ - 1; i-- > 0;) {
          auto& a = at[static_cast<std::size_t>(i)];
          if (++a < dims_[static_cast<std::size_t>(i)]) break;
          a = 0;
        }
      }
    }
    old.swap(fresh);
  };
  if (width_ == 1) move_to(b1_);
  else if (width_ == 2) move_to(b2_);
  else move_to(b4_);
  dims_ = dims;
  strides_ = strides;
  cells_ = cells;
  return true;
}

// ---- the sink: options read from the table ----

namespace {

constexpr int kRunParts = 4;
constexpr std::size_t kMaxChildren = std::size_t{1} << 20;  // options of one state not known yet

class BoxSink : public OptionSink {
 public:
  // The marks outlive one search (a fresh array per query would cost more than the query).
  BoxSink(TupleMemo& m, const BoxHooks& hooks) : m_(m), hooks_(hooks), stamp_(scratch().stamp), gen_(scratch().gen) {
    if (stamp_.size() < 65537) stamp_.assign(65537, 0);
  }

  // Marks the values of the options whose parts are all known, and lists the parts that
  // are not known yet.
  void start() {
    any_unknown_ = false;
    crowded_ = false;
    grow_ = false;
    if (++gen_ == 0) {
      std::fill(stamp_.begin(), stamp_.end(), 0);
      gen_ = 1;
    }
    big_.clear();
    children_.clear();
    child_index_.clear();
  }

  bool option(const std::int64_t* coords, int parts) override {
    const int ar = m_.arity();
    std::uint32_t x = 0;
    bool unknown = false;
    for (int j = 0; j < parts; ++j) {
      const std::int64_t* p = coords + j * ar;
      if (!m_.inside(p)) return want(p);
      const std::int64_t i = m_.index(p);
      const std::uint32_t v = m_.get(i);
      if (v == m_.unknown()) {
        unknown = true;
        if (!child(p, i)) return false;
      } else {
        x ^= v;
      }
    }
    if (unknown) any_unknown_ = true;
    else mark(x);
    return true;
  }

  bool run(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) override {
    if (count <= 0) return true;
    const int ar = m_.arity();
    std::int64_t last[kMaxBoxArity * kRunParts];
    std::int64_t lo[kMaxBoxArity * kRunParts];
    std::int64_t hi[kMaxBoxArity * kRunParts];
    if (parts > kRunParts) return one_by_one(first, slope, parts, count);
    for (int q = 0; q < parts * ar; ++q) {
      std::int64_t t = 0;
      if (__builtin_mul_overflow(slope[q], count - 1, &t) || __builtin_add_overflow(first[q], t, &last[q])) {
        return false;
      }
      lo[q] = std::min(first[q], last[q]);
      hi[q] = std::max(first[q], last[q]);
    }
    for (int j = 0; j < parts; ++j) {
      if (!m_.inside(lo + j * ar) || !m_.inside(hi + j * ar)) {
        for (int i = 0; i < ar; ++i) {
          if (lo[j * ar + i] < 0) return want(lo + j * ar);
        }
        return want(hi + j * ar);
      }
    }
    std::int64_t base[kRunParts], step[kRunParts];
    for (int j = 0; j < parts; ++j) {
      base[j] = m_.index(first + j * ar);
      step[j] = 0;
      for (int i = 0; i < ar; ++i) step[j] += slope[j * ar + i] * m_.strides()[static_cast<std::size_t>(i)];
    }
    bool unknown = false;
    m_.visit([&](const auto& vec) {
      using T = typename std::decay_t<decltype(vec)>::value_type;
      const T* t = vec.data();
      const T none = static_cast<T>(~T{0});
      std::uint32_t* stamp = stamp_.data();
      const std::uint32_t gen = gen_;
      if (sizeof(T) <= 2 && parts == 1) {
        // An unknown cell marks the slot of `none`, which no value of one part reaches:
        // one test after the loop instead of one per option.
        const std::uint32_t before = stamp[none];
        stamp[none] = 0;
        const T* p = t + base[0];
        for (std::int64_t k = 0; k < count; ++k, p += step[0]) stamp[*p] = gen;
        unknown = stamp[none] == gen;
        stamp[none] = before;
      } else if (sizeof(T) <= 2 && parts == 2) {
        // Everything in locals: a store through `stamp` must not make the compiler reload
        // the count and the steps from memory at every option.
        const T* p = t + base[0];
        const T* q = t + base[1];
        const std::int64_t sp = step[0], sq = step[1], n = count;
        // A cell is `none` (all ones) exactly when adding 1 to it carries into the bit
        // above its width: an OR of the sums keeps that bit, with no test per option.
        unsigned carried = 0;
        for (std::int64_t k = 0; k < n; ++k, p += sp, q += sq) {
          const unsigned a = *p, b = *q;
          carried |= (a + 1) | (b + 1);
          stamp[a ^ b] = gen;
        }
        unknown = (carried >> (8 * sizeof(T))) != 0;
      } else {
        for (std::int64_t k = 0; k < count; ++k) {
          std::uint32_t x = 0;
          for (int j = 0; j < parts; ++j) {
            const T v = t[base[j] + k * step[j]];
            unknown |= v == none;
            x ^= v;
          }
          mark(x);
        }
      }
    });
    // Some part is not known yet: go through the run again, one option at a time, to list it.
    if (unknown) return one_by_one(first, slope, parts, count);
    return true;
  }

  std::uint32_t mex() {
    std::uint32_t v = 0;
    while (v < stamp_.size() && stamp_[v] == gen_) ++v;
    if (v < stamp_.size() || big_.empty()) return v;
    std::sort(big_.begin(), big_.end());
    for (std::uint32_t b : big_) {
      if (b == v) ++v;
      else if (b > v) break;
    }
    return v;
  }

  void pulse() override {
    if (hooks_.poll) hooks_.poll();
  }

  bool any_unknown() const { return any_unknown_; }
  bool crowded() const { return crowded_; }
  bool grow_wanted() const { return grow_; }
  const Coords& grow_to() const { return grow_to_; }
  const std::vector<Coords>& children() const { return children_; }

 private:
  bool one_by_one(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) {
    const int n = parts * m_.arity();
    std::vector<std::int64_t> c(first, first + n);
    for (std::int64_t k = 0; k < count; ++k) {
      if (!option(c.data(), parts)) return false;
      for (int q = 0; q < n; ++q) c[static_cast<std::size_t>(q)] += slope[q];
    }
    return true;
  }
  void mark(std::uint32_t x) {
    if (x < stamp_.size()) stamp_[x] = gen_;
    else big_.push_back(x);
  }
  bool child(const std::int64_t* p, std::int64_t i) {
    // Millions of options not known yet (one state's options spread over a huge range):
    // give up, in good time and before the list passes the search stack's share of
    // --max-memory. The general search takes such a state (and counts its steps).
    if (children_.size() >= kMaxChildren ||
        children_.size() * (sizeof(Coords) + 2 * sizeof(std::int64_t)) > hooks_.max_stack_bytes) {
      crowded_ = true;
      return false;
    }
    if (!child_index_.insert(i).second) return true;
    Coords c{};
    std::copy(p, p + m_.arity(), c.begin());
    children_.push_back(c);
    return true;
  }
  bool want(const std::int64_t* p) {
    grow_ = true;
    grow_to_ = Coords{};
    std::copy(p, p + m_.arity(), grow_to_.begin());
    return false;
  }

  struct Scratch {
    std::vector<std::uint32_t> stamp;
    std::uint32_t gen = 0;
  };
  static Scratch& scratch() {
    thread_local Scratch s;
    return s;
  }

  TupleMemo& m_;
  const BoxHooks& hooks_;
  std::vector<std::uint32_t>& stamp_;
  std::uint32_t& gen_;
  std::vector<std::uint32_t> big_;
  bool any_unknown_ = false;
  bool crowded_ = false;
  bool grow_ = false;
  Coords grow_to_{};
  std::vector<Coords> children_;
  absl::flat_hash_set<std::int64_t> child_index_;
};

std::string show(const Coords& c, int arity) {
  std::string s = "(";
  for (int i = 0; i < arity; ++i) {
    if (i) s += ", ";
    s += std::to_string(c[static_cast<std::size_t>(i)]);
  }
  return s + ")";
}

}  // namespace

std::optional<std::uint32_t> box_value(TupleMemo& memo, const IntRules& rules, const std::int64_t* c,
                                       const BoxHooks& hooks, std::string& why) {
  const int ar = memo.arity();
  Coords root{};
  std::copy(c, c + ar, root.begin());
  if (!memo.inside(c) && !memo.grow(c, hooks.max_cells)) {
    why = "the state " + show(root, ar) + " does not fit a table of at most " +
          std::to_string(hooks.max_cells) + " cells";
    return std::nullopt;
  }
  if (auto v = memo.known(c)) return v;
  BoxSink sink(memo, hooks);
  // Most often (a grid of queries in order) every option is known already: no search.
  sink.start();
  if (rules.options(c, sink) && !sink.any_unknown()) {
    if (hooks.reserve) hooks.reserve(1);
    const std::uint32_t v = sink.mex();
    memo.set(memo.index(c), v);
    if (hooks.computed) hooks.computed(1);
    return v;
  }
  struct Entry {
    Coords c;
    bool expanded;
  };
  std::vector<Entry> stack{{root, false}};
  absl::flat_hash_set<Coords> grey;  // expanded and not finished: the ancestors of the top
  std::uint64_t ticks = 0;
  std::uint64_t done = 0;
  while (!stack.empty()) {
    if ((++ticks & 0xFFF) == 0 && hooks.poll) hooks.poll();
    const Coords at = stack.back().c;
    const bool expanded = stack.back().expanded;
    if (memo.known(at.data())) {
      if (expanded) grey.erase(at);
      stack.pop_back();
      continue;
    }
    sink.start();
    const bool ok = rules.options(at.data(), sink);
    if (!ok) {
      if (sink.grow_wanted() && memo.grow(sink.grow_to().data(), hooks.max_cells)) continue;
      why = sink.grow_wanted() ? "the option " + show(sink.grow_to(), ar) + " of " + show(at, ar) +
                                     " does not fit a table of at most " +
                                     std::to_string(hooks.max_cells) + " cells"
            : sink.crowded() ? "the options of " + show(at, ar) + " not known yet fill the search stack"
                             : "the compiled rules stop at " + show(at, ar);
      return std::nullopt;
    }
    if (!sink.any_unknown()) {
      if (hooks.reserve) hooks.reserve(1);
      memo.set(memo.index(at.data()), sink.mex());
      if (hooks.computed) hooks.computed(1);
      ++done;
      if (expanded) grey.erase(at);
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      stack.back().expanded = true;
      grey.insert(at);
    }
    for (const Coords& child : sink.children()) {
      if (grey.count(child)) {
        why = "a loop through " + show(child, ar);
        return std::nullopt;
      }
      stack.push_back({child, false});
    }
    if (grey.size() + done >= hooks.room) {
      why = "more states than --max-states allows";
      return std::nullopt;
    }
    // Every unknown child of every expanded state waits on the stack: with n options per
    // state that is n^2 / 2 entries. Past a quarter of --max-memory the general search,
    // which keeps one cursor per level and counts its memory, takes over.
    if (stack.size() * sizeof(Entry) > hooks.max_stack_bytes) {
      why = "the search stack holds " + std::to_string(stack.size()) + " states";
      return std::nullopt;
    }
  }
  return memo.known(c);
}

// ---- outcomes, with the first losing option cutting the search short ----

namespace {

class OutcomeSink : public OptionSink {
 public:
  enum class Found : std::uint8_t { Nothing, Losing, Unknown };

  OutcomeSink(OutcomeMemo& outcomes, const TupleMemo& values, const BoxHooks& hooks)
      : o_(outcomes), v_(values), hooks_(hooks) {}

  void pulse() override {
    if (hooks_.poll) hooks_.poll();
  }

  // Looks at the options from number `skip` on (the earlier ones are known to be N).
  void start(std::int64_t skip) {
    skip_ = skip;
    seen_ = 0;
    found_ = Found::Nothing;
    grow_ = false;
  }

  bool option(const std::int64_t* coords, int parts) override {
    if (seen_++ < skip_) return true;
    if (parts == 0) return stop(Found::Losing, coords);  // split []: the empty sum, a P-position
    return look(coords);
  }

  bool run(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) override {
    if (count <= 0) return true;
    if (seen_ + count <= skip_) {
      seen_ += count;
      return true;
    }
    const int ar = o_.arity();
    std::int64_t k = std::max<std::int64_t>(0, skip_ - seen_);
    seen_ += k;
    std::int64_t c[kMaxBoxArity];
    for (; k < count; ++k) {
      for (int i = 0; i < ar; ++i) c[i] = first[i] + k * slope[i];
      ++seen_;
      if (parts == 0) return stop(Found::Losing, c);
      if (!look(c)) return false;
    }
    return true;
  }

  Found found() const { return found_; }
  std::int64_t position() const { return seen_ - 1; }  // of the option found
  const Coords& child() const { return child_; }
  bool grow_wanted() const { return grow_; }

 private:
  bool look(const std::int64_t* p) {
    if (!o_.inside(p)) {
      grow_ = true;
      std::copy(p, p + o_.arity(), grow_to_.begin());
      child_ = grow_to_;
      return false;
    }
    if (const auto w = o_.get(p)) {
      if (!*w) return stop(Found::Losing, p);
      return true;
    }
    if (auto g = v_.known(p)) {
      if (*g == 0) return stop(Found::Losing, p);
      return true;
    }
    return stop(Found::Unknown, p);
  }
  bool stop(Found f, const std::int64_t* p) {
    found_ = f;
    child_ = Coords{};
    std::copy(p, p + o_.arity(), child_.begin());
    return false;
  }

  OutcomeMemo& o_;
  const TupleMemo& v_;
  const BoxHooks& hooks_;
  std::int64_t skip_ = 0;
  std::int64_t seen_ = 0;
  Found found_ = Found::Nothing;
  bool grow_ = false;
  Coords grow_to_{};
  Coords child_{};
};

}  // namespace

std::optional<bool> box_outcome(OutcomeMemo& outcomes, const TupleMemo& values, const IntRules& rules,
                                const std::int64_t* c, const BoxHooks& hooks, std::string& why) {
  const int ar = outcomes.arity();
  Coords root{};
  std::copy(c, c + ar, root.begin());
  if (auto g = values.known(c)) return *g != 0;
  if (!outcomes.inside(c) && !outcomes.grow(c, hooks.max_cells)) {
    why = "the state " + show(root, ar) + " does not fit a table of at most " +
          std::to_string(hooks.max_cells) + " cells";
    return std::nullopt;
  }
  auto known = [&](const std::int64_t* p) -> std::optional<bool> {
    if (outcomes.inside(p)) {
      if (const auto w = outcomes.get(p)) return *w;
    }
    if (auto g = values.known(p)) return *g != 0;
    return std::nullopt;
  };
  std::uint64_t done = 0;
  auto record = [&](const Coords& at, bool wins) {
    if (hooks.reserve) hooks.reserve(1);
    outcomes.set(at.data(), wins);
    if (hooks.computed) hooks.computed(1);
    ++done;
  };
  struct Entry {
    Coords c;
    std::int64_t skip;  // options before this one are known to be N
    bool expanded;
  };
  std::vector<Entry> stack{{root, 0, false}};
  // The expanded states on the stack (the ancestors of the top) carry a mark in the memo
  // itself, where a loop meets them again; however the search ends (an answer, giving up,
  // an exception from a hook), no mark stays behind.
  std::uint64_t grey = 0;
  struct Unmark {
    OutcomeMemo& memo;
    const std::vector<Entry>& stack;
    ~Unmark() {
      for (const Entry& e : stack) {
        if (e.expanded) memo.unmark_searching(e.c.data());
      }
    }
  } unmark{outcomes, stack};
  OutcomeSink sink(outcomes, values, hooks);
  std::uint64_t ticks = 0;
  while (!stack.empty()) {
    if ((++ticks & 0xFFF) == 0 && hooks.poll) hooks.poll();
    Entry& e = stack.back();
    const Coords at = e.c;
    if (known(at.data())) {
      if (e.expanded) {
        outcomes.unmark_searching(at.data());
        --grey;
      }
      stack.pop_back();
      continue;
    }
    sink.start(e.skip);
    const bool all = rules.options(at.data(), sink);
    if (!all && sink.found() == OutcomeSink::Found::Nothing) {
      if (sink.grow_wanted() && outcomes.grow(sink.child().data(), hooks.max_cells)) continue;
      why = sink.grow_wanted() ? "the option " + show(sink.child(), ar) + " of " + show(at, ar) +
                                     " does not fit a table of at most " + std::to_string(hooks.max_cells) +
                                     " cells"
                               : "the compiled rules stop at " + show(at, ar);
      return std::nullopt;
    }
    if (sink.found() != OutcomeSink::Found::Unknown) {
      record(at, sink.found() == OutcomeSink::Found::Losing);  // replaces the mark
      if (e.expanded) --grey;
      stack.pop_back();
      continue;
    }
    // The first option not known yet: decide it, then come back to the options after it.
    e.skip = sink.position();
    if (!e.expanded) {
      e.expanded = true;
      outcomes.mark_searching(at.data());
      ++grey;
    }
    const Coords child = sink.child();
    if (outcomes.inside(child.data()) && outcomes.searching(child.data())) {
      why = "a loop through " + show(child, ar);
      return std::nullopt;
    }
    if (grey + done >= hooks.room) {
      why = "more states than --max-states allows";
      return std::nullopt;
    }
    stack.push_back({child, 0, false});
  }
  if (auto w = known(c)) return *w;
  return std::nullopt;
}

}  // namespace grundy
