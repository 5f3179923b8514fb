// The values of a one-integer table over the interval of its known cells, for the mex of a
// state whose options are a run of consecutive states: `move c + k for k in 1..min(c * c,
// S - c)` (HDU 1729's boxes of stones), `move n - k for k in 1..n / 2`. Marking each option's
// value costs the run's length per state, the square of the table in all (Box[10^6] for an
// hour); but a run that starts or ends where the known cells do is a question about the
// values: v is among its options exactly when v's first place in the interval lies before the
// run's end (or its last place after the run's start), and the least value that is not, a
// descent of a tree over the values.
//
// The interval grows at either end as the table's cells are filled (the sweep upwards, the
// search top-down from the largest state down) and takes in the known cells it meets; a cell
// filled elsewhere waits until the interval reaches it.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace grundy {

class IntervalValues {
 public:
  // The known cells lo..hi (value(i) for each), the interval to start from.
  template <class ValueAt>
  IntervalValues(std::int64_t lo, std::int64_t hi, ValueAt value) : lo_(lo), hi_(lo - 1) {
    for (std::int64_t i = lo; i <= hi; ++i) take_above(value(i));
  }

  std::int64_t lo() const { return lo_; }
  std::int64_t hi() const { return hi_; }
  // Whether the run of cells a..b lies in the interval and starts or ends with it.
  bool covers(std::int64_t a, std::int64_t b) const { return lo_ <= a && b <= hi_ && (a == lo_ || b == hi_); }
  // For a run that covers(a, b): whether value v is in it, and the least value from v on that
  // is not.
  bool has(std::uint32_t v, std::int64_t a, std::int64_t b) const {
    if (v >= cap_) return false;
    return a == lo_ ? first_[v] <= b : last_[v] >= a;
  }
  std::uint32_t absent_from(std::uint32_t v, std::int64_t a, std::int64_t b) const;

  // Cell i has just been filled with v: the interval grows when i is next to it, and then
  // takes in the known cells beyond (known(j): whether cell j is known, its value).
  template <class Known>
  void note(std::int64_t i, std::uint32_t v, Known known) {
    if (i == hi_ + 1) {
      take_above(v);
      while (auto w = known(hi_ + 1)) take_above(*w);
    } else if (i == lo_ - 1) {
      take_below(v);
      while (lo_ > 0) {
        const auto w = known(lo_ - 1);
        if (!w) break;
        take_below(*w);
      }
    }
  }

 private:
  static constexpr std::int32_t kAbsentFirst = std::numeric_limits<std::int32_t>::max();
  static constexpr std::int32_t kAbsentLast = -1;
  void take_above(std::uint32_t v);
  void take_below(std::uint32_t v);
  void reserve(std::uint32_t v);  // room for value v in the arrays and trees
  void update(std::uint32_t v);   // the trees' paths above v

  std::int64_t lo_, hi_;
  std::uint32_t cap_ = 0;  // a power of two: values 0..cap_-1 have their place
  // Per value: its first and last place in the interval (kAbsent... when it has none).
  std::vector<std::int32_t> first_, last_;
  // Trees over the values, node 1 the root, leaves at cap_ + v: the largest first place
  // below each node (a value is absent from a run a..b that starts with the interval when its
  // first place is past b), and the smallest last place (absent from one that ends with it
  // when its last place is before a).
  std::vector<std::int32_t> max_first_, min_last_;
};

}  // namespace grundy
