#include "runtime/Shorthands.hpp"

#include <algorithm>
#include <cctype>

#include "runtime/Error.hpp"

namespace grundy {

namespace {
std::string heap_check(const std::string& game, const Value& state) {
  if (!state.is(Kind::Int)) return game + " takes a heap size (an int), got " + to_string(state);
  if (state.as_int() < 0) return game + ": heap sizes are >= 0, got " + to_string(state);
  return {};
}
Position heap(const GameInstance& g, std::int64_t n) { return Position{&g, Value::integer(n)}; }
}  // namespace

SubtractionRuleset::SubtractionRuleset(std::string name, std::vector<std::int64_t> set)
    : name_(std::move(name)), set_(std::move(set)) {
  std::sort(set_.begin(), set_.end());
  set_.erase(std::unique(set_.begin(), set_.end()), set_.end());
}

std::string SubtractionRuleset::check_state(const Value& state) const { return heap_check(name_, state); }

std::unique_ptr<OptionCursor> SubtractionRuleset::options(const GameInstance& g, const Value& state) const {
  std::vector<Option> out;
  const std::int64_t n = state.as_int();
  for (std::int64_t s : set_) {
    if (s > n) break;
    out.push_back({heap(g, n - s)});
  }
  return std::make_unique<ListCursor>(std::move(out));
}

Plan SubtractionRuleset::plan() const {
  Plan plan;
  if (set_.empty() || set_.front() <= 0 || set_.back() > kMaxSpecDigit) return plan;
  HeapSpec spec;
  spec.digits.assign(static_cast<std::size_t>(set_.back()) + 1, 0);
  for (std::int64_t s : set_) spec.digits[static_cast<std::size_t>(s)] = HeapSpec::kNone | HeapSpec::kOne;
  spec.normalize();
  plan.code = std::move(spec);
  return plan;
}

Plan TakeAndBreakRuleset::plan() const {
  Plan plan;
  HeapSpec spec;
  for (int d : digits_) spec.digits.push_back(static_cast<std::uint8_t>(d));
  spec.normalize();
  plan.code = std::move(spec);
  return plan;
}

Plan GraphRuleset::plan() {
  Plan plan;
  plan.graph = true;
  return plan;
}

TakeAndBreakRuleset::TakeAndBreakRuleset(std::string name, const std::string& code) : name_(std::move(name)) {
  auto digit = [&](char c) -> int {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    throw Error(ErrorKind::Runtime, "bad digit '" + std::string(1, c) + "' in the code \"" + code + "\"",
                "codes are written d0.d1d2... with digits 0-9 and a-f, e.g. \"0.77\" or \"4.0\"");
  };
  const auto dot = code.find('.');
  if (dot == std::string::npos || dot != 1) {
    throw Error(ErrorKind::Runtime, "\"" + code + "\" is not an octal code",
                "write d0.d1d2..., e.g. \"0.77\" for Kayles or \"0.07\" for Dawson's Kayles");
  }
  const int d0 = digit(code[0]);
  if (d0 & 3) {
    throw Error(ErrorKind::Runtime, "the digit before the point must be 0, 4, 8 or c",
                "d0 splits a heap without removing tokens, so bits 1 and 2 make no sense there");
  }
  digits_.push_back(d0);
  for (std::size_t i = dot + 1; i < code.size(); ++i) digits_.push_back(digit(code[i]));
  while (digits_.size() > 1 && digits_.back() == 0) digits_.pop_back();
}

std::string TakeAndBreakRuleset::check_state(const Value& state) const { return heap_check(name_, state); }

namespace {
// The options of one heap, made one at a time in the order of the code's digits: a heap of n
// has about n/2 splits into two and n^2/12 into three, too many to list up front when only
// the first is wanted (whether a huge heap can move at all).
class TakeAndBreakCursor : public OptionCursor {
 public:
  TakeAndBreakCursor(const GameInstance& g, const std::vector<int>& digits, std::int64_t n)
      : g_(g), digits_(digits), n_(n) {}

  bool next(Option& out) override {
    while (k_ < digits_.size() && static_cast<std::int64_t>(k_) <= n_) {
      const int d = digits_[k_];
      const std::int64_t r = n_ - static_cast<std::int64_t>(k_);
      if (phase_ == 0) {  // no heap left
        phase_ = 1;
        if ((d & 1) && r == 0 && k_ > 0) {
          out.clear();
          return true;
        }
      }
      if (phase_ == 1) {  // one heap
        phase_ = 2;
        a_ = 1;
        if ((d & 2) && r > 0 && k_ > 0) {
          out.assign({heap(g_, r)});
          return true;
        }
      }
      if (phase_ == 2) {  // two heaps a <= r - a
        if ((d & 4) && a_ <= r / 2) {
          out.assign({heap(g_, a_), heap(g_, r - a_)});
          ++a_;
          return true;
        }
        phase_ = 3;
        a_ = 1;
        b_ = 1;
      }
      if (d & 8) {  // three heaps a <= b <= r - a - b
        while (a_ <= r / 3) {
          if (b_ <= (r - a_) / 2) {
            out.assign({heap(g_, a_), heap(g_, b_), heap(g_, r - a_ - b_)});
            ++b_;
            return true;
          }
          ++a_;
          b_ = a_;
        }
      }
      phase_ = 0;
      ++k_;
    }
    return false;
  }

 private:
  const GameInstance& g_;
  const std::vector<int>& digits_;
  std::int64_t n_;
  std::size_t k_ = 0;
  int phase_ = 0;
  std::int64_t a_ = 1, b_ = 1;
};
}  // namespace

std::unique_ptr<OptionCursor> TakeAndBreakRuleset::options(const GameInstance& g, const Value& state) const {
  return std::make_unique<TakeAndBreakCursor>(g, digits_, state.as_int());
}

GraphRuleset::GraphRuleset(std::string name, std::vector<Node> nodes, bool loopy)
    : name_(std::move(name)), nodes_(std::move(nodes)), loopy_(loopy) {
  for (std::size_t i = 0; i < nodes_.size(); ++i) index_.try_emplace(nodes_[i].label, i);
}

std::size_t GraphRuleset::index_of(const Value& label) const {
  const auto it = index_.find(label);
  return it == index_.end() ? nodes_.size() : it->second;
}

std::string GraphRuleset::check_state(const Value& state) const {
  if (index_of(state) < nodes_.size()) return {};
  std::string labels;
  for (std::size_t i = 0; i < nodes_.size() && i < 12; ++i) {
    if (i) labels += ", ";
    append_state(labels, nodes_[i].label);
  }
  if (nodes_.size() > 12) labels += ", ...";
  return name_ + " has no node " + to_string(state) + " (its nodes: " + labels + ")";
}

void GraphRuleset::append_state(std::string& out, const Value& state) const {
  if (state.is(Kind::Str)) out += state.as_str();
  else append_value(out, state);
}

std::unique_ptr<OptionCursor> GraphRuleset::options(const GameInstance& g, const Value& state) const {
  std::vector<Option> out;
  const std::size_t i = index_of(state);
  if (i < nodes_.size()) {
    for (std::size_t j : nodes_[i].successors) out.push_back({Position{&g, nodes_[j].label}});
  }
  return std::make_unique<ListCursor>(std::move(out));
}

std::vector<Value> GraphRuleset::find_cycle() const {
  enum Color { White, Grey, Black };
  std::vector<Color> color(nodes_.size(), White);
  std::vector<std::size_t> path;
  std::vector<std::pair<std::size_t, std::size_t>> stack;  // node, next successor index
  for (std::size_t start = 0; start < nodes_.size(); ++start) {
    if (color[start] != White) continue;
    stack.push_back({start, 0});
    color[start] = Grey;
    path.push_back(start);
    while (!stack.empty()) {
      auto& [u, k] = stack.back();
      if (k < nodes_[u].successors.size()) {
        const std::size_t v = nodes_[u].successors[k++];
        if (color[v] == Grey) {
          std::vector<Value> cycle;
          auto at = std::find(path.begin(), path.end(), v);
          for (; at != path.end(); ++at) cycle.push_back(nodes_[*at].label);
          cycle.push_back(nodes_[v].label);
          return cycle;
        }
        if (color[v] == White) {
          color[v] = Grey;
          path.push_back(v);
          stack.push_back({v, 0});
        }
      } else {
        color[u] = Black;
        path.pop_back();
        stack.pop_back();
      }
    }
  }
  return {};
}

}  // namespace grundy
