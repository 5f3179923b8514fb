#include "runtime/Meter.hpp"

namespace grundy {

namespace {

// What one body takes by itself, its elements' bodies left out.
std::uint64_t own_bytes(const Value& v) {
  switch (v.kind()) {
    case Kind::Str:
    case Kind::Table: return kValueBodyBytes + v.as_str().size();
    case Kind::Tuple:
    case Kind::List:
    case Kind::Set:
    case Kind::Sum: return kValueBodyBytes + v.items().size() * sizeof(Value);
    default: return kValueBodyBytes;
  }
}

template <typename F>
void each_child(const Value& v, F&& f) {
  switch (v.kind()) {
    case Kind::Tuple:
    case Kind::List:
    case Kind::Set:
    case Kind::Sum:
      for (const Value& x : v.items()) f(x);
      break;
    case Kind::Position: f(v.state()); break;
    default: break;
  }
}

}  // namespace

std::uint64_t ValueMeter::hold(const Value& v) {
  const std::uint64_t b = v.bytes();
  if (b < kShared) return b;
  if (large_.try_emplace(v.body(), 0).first->second++ > 0) return 0;
  std::uint64_t added = own_bytes(v);
  each_child(v, [&](const Value& x) { added += hold(x); });
  return added;
}

std::uint64_t ValueMeter::release(const Value& v) {
  const std::uint64_t b = v.bytes();
  if (b < kShared) return b;
  auto it = large_.find(v.body());
  if (it == large_.end()) return 0;  // cleared since it was held
  if (--it->second > 0) return 0;
  large_.erase(it);
  std::uint64_t removed = own_bytes(v);
  each_child(v, [&](const Value& x) { removed += release(x); });
  return removed;
}

}  // namespace grundy
