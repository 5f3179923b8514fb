// The memoized search for nim-values over compiled rules, in a hash map
// (runtime/HashedValues.hpp).
#include "runtime/HashedValues.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "runtime/ChunkedStack.hpp"
#include "runtime/Mex.hpp"
#include "runtime/Runaway.hpp"

namespace grundy {

namespace {

constexpr int kMaxCoords = IntProgram::kMaxParts * IntProgram::kMaxArity;

// A run of options (IntProgram's affine loop) in which an option not known yet was met: the
// search decides it, then goes on through the run from there.
struct Run {
  std::array<std::int64_t, kMaxCoords> first, slope;  // (not initialized: see Frame)
  int parts = 0;
  std::int64_t k = 0, count = 0;
};

// Adds the value of each option whose parts are all known to `seen`; stops at the first
// part that is not (`child`).
class ValueSink : public OptionSink {
 public:
  ValueSink(const HashedValues& memo, const BoxHooks& hooks) : memo_(memo), hooks_(hooks) {}

  void start(SeenValues& seen) {
    seen_ = &seen;
    stuck_ = false;
    in_run_ = false;
    rest_.clear();
  }
  void pulse() override {
    if (hooks_.poll) hooks_.poll();
  }
  bool option(const std::int64_t* coords, int parts) override {
    const int ar = memo_.arity();
    std::uint32_t x = 0;
    for (int j = 0; j < parts; ++j) {
      const std::int64_t* p = coords + j * ar;
      const std::uint32_t* v = memo_.find(p);
      if (v == nullptr || *v == HashedValues::kInProgress) {
        stuck_ = true;
        looping_ = v != nullptr;
        std::copy(p, p + ar, child_.begin());
        return false;
      }
      x ^= *v;
    }
    seen_->add(x);
    return true;
  }
  bool run(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) override {
    const int n = parts * memo_.arity();
    std::array<std::int64_t, kMaxCoords> c{};
    std::copy(first, first + n, c.begin());
    for (std::int64_t k = 0; k < count; ++k) {
      if (!option(c.data(), parts)) {
        in_run_ = true;
        run_ = Run{};
        std::copy(first, first + n, run_.first.begin());
        std::copy(slope, slope + n, run_.slope.begin());
        run_.parts = parts;
        run_.k = k;
        run_.count = count;
        return false;
      }
      // Unsigned: the step after the last option may leave the 64-bit range (and is not used).
      for (int q = 0; q < n; ++q) {
        c[static_cast<std::size_t>(q)] =
            static_cast<std::int64_t>(static_cast<std::uint64_t>(c[static_cast<std::size_t>(q)]) +
                                      static_cast<std::uint64_t>(slope[q]));
      }
    }
    return true;
  }

  std::int64_t batch(const std::int64_t* coords, int parts, int width, std::int64_t count) override {
    // Every option's slot asked for first: their cache misses overlap.
    for (std::int64_t j = 0; j < count; ++j) {
      for (int q = 0; q < parts; ++q) memo_.prefetch(coords + j * width + q * memo_.arity());
    }
    return OptionSink::batch(coords, parts, width, count);
  }
  // A batch stopped at an option not known yet: it and the few after it are kept (rest()) for
  // the search to take in turn, so that the listing goes on after the batch rather than
  // listing those options again after each one is known.
  static constexpr std::int64_t kMaxKept = 64;  // integers
  std::int64_t batch_or_keep(const std::int64_t* coords, int parts, int width, std::int64_t count,
                             bool& kept) override {
    kept = false;
    const std::int64_t took = batch(coords, parts, width, count);
    if (took == count || !stuck_ || looping_ || (count - took) * width > kMaxKept) return took;
    rest_.assign(coords + took * width, coords + count * width);
    rest_parts_ = parts;
    rest_width_ = width;
    kept = true;
    return count;
  }
  const std::vector<std::int64_t>& rest() const { return rest_; }
  int rest_parts() const { return rest_parts_; }
  int rest_width() const { return rest_width_; }

  bool takes_all() const override { return true; }
  bool stuck() const { return stuck_; }      // at an option not known yet (else: the rules stopped)
  bool looping() const { return looping_; }  // ... which is on the search's path
  const Coords& child() const { return child_; }
  bool in_run() const { return in_run_; }
  const Run& run_found() const { return run_; }

 private:
  const HashedValues& memo_;
  const BoxHooks& hooks_;
  SeenValues* seen_ = nullptr;
  bool stuck_ = false, looping_ = false, in_run_ = false;
  Coords child_{};
  Run run_;
  std::vector<std::int64_t> rest_;
  int rest_parts_ = 0, rest_width_ = 0;
};

}  // namespace

std::optional<std::uint32_t> hashed_value(HashedValues& memo, const IntProgram& rules, const std::int64_t* c,
                                          const BoxHooks& hooks, std::string& why) {
  if (auto v = memo.known(c)) return v;
  const int ar = memo.arity();
  struct Frame {
    // Not value-initialized: `from` is written when the listing stops, and read only after
    // that.
    explicit Frame(const Coords& at) : c(at) {}
    Coords c;
    SeenValues seen;
    bool resumed = false;  // a listing goes on from `from`
    IntProgram::Resume from;
    // The option being decided lies in a run, runs.back(): only the top frame goes through
    // its run, so the runs of the frames that have one form a stack of their own. (In the
    // frame, half a kilobyte each, a chain of 3 million states held 2.7 GB.)
    bool in_run = false;
    // Options listed and not taken yet (ValueSink::rest), in `kept` from `next` to `end`,
    // `width` integers and `parts` parts each; the frame's share of `kept` starts at `base`.
    std::size_t base = 0, next = 0, end = 0;
    int parts = 0, width = 0;
  };
  std::vector<std::int64_t> kept;
  ChunkedStack<Frame> stack;
  std::vector<Run> runs;
  // However the search ends, the states on its path lose their mark.
  struct Unmark {
    HashedValues& memo;
    ChunkedStack<Frame>& stack;
    ~Unmark() {
      for (std::size_t i = 0; i < stack.size(); ++i) memo.erase(stack[i].c.data());
    }
  } unmark{memo, stack};
  Tally tally(hooks);
  ValueSink sink(memo, hooks);
  std::uint64_t ticks = 0, entered = 0;
  auto give_up = [&](BoxHooks::Limit limit, const Coords& at) {
    tally.flush();
    if (hooks.exhausted) hooks.exhausted(stack.empty() ? at : stack.front().c, stack.size(), limit);
  };
  // false: give up (why says)
  auto enter = [&](const Coords& at, bool looping) {
    if (looping) {
      why = "a loop through " + coords_text(at, ar, rules.packing);
      return false;
    }
    const bool full = stack.size() + tally.done() >= hooks.room;
    // The path and the table together, within the shares of both (a chain of states holds
    // its whole path and few values).
    const std::uint64_t path_bytes =
        (stack.size() + ChunkedStack<Frame>::kChunk) * sizeof(Frame) + kept.size() * sizeof(std::int64_t) +
        runs.size() * sizeof(Run);
    if (full || path_bytes + memo.bytes() > hooks.max_search_bytes) {
      give_up(full ? BoxHooks::Limit::States : BoxHooks::Limit::Memory, at);
      why = full ? "more states than --max-states allows"
                 : "the search stack holds " + std::to_string(stack.size()) + " states";
      return false;
    }
    memo.set(at.data(), HashedValues::kInProgress);
    stack.emplace_back(at).base = kept.size();
    stack.back().next = stack.back().end = kept.size();
    // A game whose states run away (`update(xs, 0, xs[0] + 1)`) is stopped by its rule, not
    // by a limit minutes later.
    if (hooks.deep && (++entered & 0xFFFF) == 0 && stack.size() >= kRunawayDepth) {
      hooks.deep(stack.size(), [&stack](std::size_t i) { return stack[i].c; });
    }
    return true;
  };
  Coords root{};
  std::copy(c, c + ar, root.begin());
  if (!enter(root, false)) return std::nullopt;
  IntProgram::Resume stopped{};  // where a listing stopped: one for the search, not cleared per listing
  while (!stack.empty()) {
    if ((++ticks & 0xFFF) == 0) {
      tally.flush();
      if (hooks.poll) hooks.poll();
      if (memo.bytes() > hooks.max_outcome_bytes) {
        give_up(BoxHooks::Limit::Memory, stack.back().c);
        why = "the table of values passes its share of --max-memory";
        return std::nullopt;
      }
    }
    Frame& f = stack.back();
    if (f.next < f.end) {  // the options kept from a batch, in turn
      sink.start(f.seen);
      while (f.next < f.end && sink.option(kept.data() + f.next, f.parts))
        f.next += static_cast<std::size_t>(f.width);
      if (f.next < f.end) {
        const Coords child = sink.child();
        if (!enter(child, sink.looping())) return std::nullopt;
        continue;
      }
      // the listing goes on after them (f.from)
    }
    if (f.in_run) {  // through the run from where it stopped, option by option
      Run& r = runs.back();
      const int n = r.parts * ar;
      std::array<std::int64_t, kMaxCoords> p{};
      sink.start(f.seen);
      for (; r.k < r.count; ++r.k) {
        for (int q = 0; q < n; ++q) {
          p[static_cast<std::size_t>(q)] =
              r.first[static_cast<std::size_t>(q)] + r.k * r.slope[static_cast<std::size_t>(q)];
        }
        if (!sink.option(p.data(), r.parts)) break;
      }
      if (r.k < r.count) {
        const Coords child = sink.child();
        if (!enter(child, sink.looping())) return std::nullopt;
        continue;
      }
      f.in_run = false;  // the listing goes on after the run (f.from.in_run)
      runs.pop_back();
    }
    sink.start(f.seen);
    if (rules.options(f.c.data(), sink, f.resumed ? &f.from : nullptr, &stopped)) {
      memo.set(f.c.data(), f.seen.mex());
      tally.add();
      kept.resize(f.base);
      stack.pop_back();
      continue;
    }
    if (!sink.stuck()) {
      why = "the compiled rules stop at " + coords_text(f.c, ar, rules.packing);
      return std::nullopt;
    }
    f.from = stopped;
    f.from.in_run = f.in_run = sink.in_run();
    f.resumed = true;
    if (f.in_run) runs.push_back(sink.run_found());
    if (!sink.rest().empty()) {
      f.next = kept.size();
      kept.insert(kept.end(), sink.rest().begin(), sink.rest().end());
      f.end = kept.size();
      f.parts = sink.rest_parts();
      f.width = sink.rest_width();
    }
    const Coords child = sink.child();
    if (!enter(child, sink.looping())) return std::nullopt;
  }
  return memo.known(c);
}

}  // namespace grundy
