#include "runtime/Nim.hpp"

namespace grundy {

namespace {
class HeapCursor : public OptionCursor {
 public:
  HeapCursor(const GameInstance& g, std::int64_t n, bool descending)
      : g_(g), n_(n), descending_(descending) {}
  bool next(Option& out) override {
    if (k_ >= n_) return false;
    const std::int64_t heap = descending_ ? n_ - 1 - k_ : k_;
    ++k_;
    out.assign(1, Position{&g_, Value::integer(heap)});
    return true;
  }

 private:
  const GameInstance& g_;
  std::int64_t n_;
  bool descending_;
  std::int64_t k_ = 0;
};
}  // namespace

std::unique_ptr<OptionCursor> NimRuleset::options(const GameInstance& game, const Value& state) const {
  return std::make_unique<HeapCursor>(game, state.as_int(), descending_);
}

std::string NimRuleset::check_state(const Value& state) const {
  if (!state.is(Kind::Int)) return name_ + " takes a heap size (an int), got " + to_string(state);
  if (state.as_int() < 0 && !of_rules_) return name_ + ": heap sizes are >= 0, got " + to_string(state);
  return {};
}

}  // namespace grundy
