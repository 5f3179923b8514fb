#include "runtime/Evaluator.hpp"

#include <algorithm>

#include <absl/container/flat_hash_set.h>

#include "runtime/Error.hpp"
#include "runtime/StackGuard.hpp"

namespace grundy {

std::uint32_t mex(const std::vector<bool>& seen) {
  std::uint32_t m = 0;
  while (m < seen.size() && seen[m]) ++m;
  return m;
}

namespace {

// The values seen among a position's options. Small values sit in a bit vector; the rare
// large ones (XORs of big values) in a list, since the mex never exceeds the option count.
class SeenValues {
 public:
  void add(std::uint32_t v) {
    if (v < kDense) {
      if (v >= bits_.size()) bits_.resize(std::max<std::size_t>(v + 1, bits_.size() * 2));
      bits_[v] = true;
    } else {
      big_.push_back(v);
    }
  }
  std::uint32_t mex() {
    std::uint32_t m = grundy::mex(bits_);
    if (m < kDense || big_.empty()) return m;
    std::sort(big_.begin(), big_.end());
    for (std::uint32_t v : big_) {
      if (v == m) ++m;
      else if (v > m) break;
    }
    return m;
  }

 private:
  static constexpr std::uint32_t kDense = 1u << 16;
  std::vector<bool> bits_;
  std::vector<std::uint32_t> big_;
};

struct Frame {
  Position pos;
  std::unique_ptr<OptionCursor> cursor;
  Option pending;
  bool has_pending = false;
  SeenValues seen;
};

// A Nim heap's value is its size; no memo, no search.
std::uint32_t nim_value(const Position& p) {
  const std::int64_t n = p.state.as_int();
  if (n < 0 || n >= static_cast<std::int64_t>(kInProgress)) {
    throw Error(ErrorKind::Limit, "the nim-value of " + to_string(p) + " does not fit in 32 bits");
  }
  return static_cast<std::uint32_t>(n);
}

[[noreturn]] void throw_loop(const std::vector<Frame>& stack, const Position& again) {
  std::size_t from = 0;
  for (std::size_t i = stack.size(); i-- > 0;) {
    if (stack[i].pos == again) {
      from = i;
      break;
    }
  }
  std::string path;
  constexpr std::size_t kShown = 12;
  const std::size_t len = stack.size() - from;
  for (std::size_t i = from; i < stack.size(); ++i) {
    if (len > kShown && i == from + kShown / 2) {
      path += "... (" + std::to_string(len - kShown) + " more) -> ";
      i = stack.size() - kShown / 2;
    }
    path += to_string(stack[i].pos) + " -> ";
  }
  path += to_string(again);
  throw Error(ErrorKind::Runtime, "the rules loop: " + path,
              "a game must end: every sequence of moves has to reach a position with no options");
}

}  // namespace

std::uint32_t Evaluator::grundy(const Position& root) {
  if (root.game->rules().is_nim()) return nim_value(root);
  check_stack();  // a query inside a rule re-enters here
  {
    auto it = root.game->memo.find(root.state);
    if (it != root.game->memo.end() && it->second != kInProgress) return it->second;
  }
  std::vector<Frame> stack;
  std::uint64_t ticks = 0;
  auto enter = [&](const Position& p) {
    if (games_.states >= limits_.max_states) {
      throw Error(ErrorKind::Limit,
                  "too many states: the memo holds " + std::to_string(games_.states) +
                      " positions (the limit)",
                  "raise the limit with --max-states N");
    }
    p.game->memo[p.state] = kInProgress;
    ++games_.states;
    stack.push_back(Frame{p, p.game->rules().options(*p.game, p.state), {}, false, {}});
  };
  try {
    enter(root);
    while (!stack.empty()) {
      if ((++ticks & 0xFFF) == 0 && limits_.interrupt &&
          limits_.interrupt->load(std::memory_order_relaxed)) {
        throw Error(ErrorKind::Interrupted, "interrupted");
      }
      Frame& f = stack.back();
      if (!f.has_pending) {
        if (!f.cursor->next(f.pending)) {
          f.pos.game->memo[f.pos.state] = f.seen.mex();
          stack.pop_back();
          continue;
        }
        f.has_pending = true;
      }
      std::uint32_t x = 0;
      bool ready = true;
      for (const Position& part : f.pending) {
        if (part.game->rules().is_nim()) {
          x ^= nim_value(part);
          continue;
        }
        auto it = part.game->memo.find(part.state);
        if (it == part.game->memo.end()) {
          ready = false;
          enter(part);  // invalidates f
          break;
        }
        if (it->second == kInProgress) throw_loop(stack, part);
        x ^= it->second;
      }
      if (!ready) continue;
      f.seen.add(x);
      f.has_pending = false;
    }
  } catch (...) {
    // Positions left in progress would look like loops to the next query.
    for (const Frame& f : stack) {
      f.pos.game->memo.erase(f.pos.state);
      --games_.states;
    }
    throw;
  }
  return root.game->memo.at(root.state);
}

std::uint32_t Evaluator::grundy(const Option& parts) {
  std::uint32_t x = 0;
  for (const Position& p : parts) x ^= grundy(p);
  return x;
}

namespace {
// Options equal as multisets are one option.
class MultisetFilter {
 public:
  bool first_time(const Option& o) {
    std::vector<Value> key;
    key.reserve(o.size());
    for (const Position& p : o) key.push_back(Value::position(p.game, p.state));
    std::sort(key.begin(), key.end());
    return seen_.insert(std::move(key)).second;
  }

 private:
  absl::flat_hash_set<std::vector<Value>> seen_;
};
}  // namespace

std::vector<Option> Evaluator::options(const Position& p) {
  std::vector<Option> out;
  MultisetFilter filter;
  auto cursor = p.game->rules().options(*p.game, p.state);
  Option o;
  while (cursor->next(o)) {
    if (filter.first_time(o)) out.push_back(o);
  }
  return out;
}

std::vector<Option> sum_options(Evaluator& ev, const Option& sum) {
  std::vector<Option> out;
  MultisetFilter filter;
  for (std::size_t i = 0; i < sum.size(); ++i) {
    for (Option& o : ev.options(sum[i])) {
      Option next(sum.begin(), sum.begin() + static_cast<std::ptrdiff_t>(i));
      next.insert(next.end(), o.begin(), o.end());
      next.insert(next.end(), sum.begin() + static_cast<std::ptrdiff_t>(i) + 1, sum.end());
      if (filter.first_time(next)) out.push_back(std::move(next));
    }
  }
  return out;
}

}  // namespace grundy
