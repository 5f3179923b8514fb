// What --max-memory measures: the bytes the process's heap holds now. Every operator new and
// delete of the program is counted (runtime/Memory.cpp replaces them), so a check costs one
// load, and the limit holds for what is really allocated, not for an estimate of the
// program's own tables: the memo, a search's frames, a misère search's sums, a parser's
// tree, a table's cells. The resident set, which the operating system sees, adds the binary,
// the stack and what the allocator keeps free (docs/errors.md says how much).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace grundy {

namespace memory_detail {
// Signed: the main thread may free what the worker thread allocated.
extern std::atomic<std::int64_t> heap_bytes;
// The most heap_bytes has been since the last heap_peak_reset() (for the benchmarks).
extern std::atomic<std::int64_t> heap_peak;
}  // namespace memory_detail

// The most bytes the heap has held since heap_peak_reset(), which starts it at the present.
inline std::uint64_t heap_peak() {
  const std::int64_t b = memory_detail::heap_peak.load(std::memory_order_relaxed);
  return b > 0 ? static_cast<std::uint64_t>(b) : 0;
}
inline void heap_peak_reset() {
  memory_detail::heap_peak.store(memory_detail::heap_bytes.load(std::memory_order_relaxed),
                                 std::memory_order_relaxed);
}


// Bytes held by operator new now (0 or more).
inline std::uint64_t heap_bytes() {
  const std::int64_t b = memory_detail::heap_bytes.load(std::memory_order_relaxed);
  return b > 0 ? static_cast<std::uint64_t>(b) : 0;
}

// What the heap may hold when the process's resident set is to stay within `max_memory`:
// the binary, the stack and what the allocator keeps in its free lists take the rest,
// measured at under 1/16 of the heap and 8 MB (docs/errors.md).
inline std::uint64_t heap_budget(std::uint64_t max_memory) {
  const std::uint64_t reserve = max_memory / 16 + (std::uint64_t{8} << 20);
  return max_memory > 2 * reserve ? max_memory - reserve : max_memory / 2;
}
// The heap, with `more` bytes about to be allocated, passes the budget of `max_memory`.
inline bool heap_over(std::uint64_t max_memory, std::uint64_t more = 0) {
  const std::uint64_t budget = heap_budget(max_memory);
  return more > budget || heap_bytes() > budget - more;
}

// Bytes a hash map (absl's flat_hash_map or set) allocates at its next insert: when 7/8
// full it moves to a table twice as large, and holds the old one until it has. The searches
// check this before a memo grows, since its new table may be the largest block a run makes.
// (Nothing may throw from inside an absl table's growth: it is not exception safe.)
template <typename Map>
std::uint64_t next_growth_bytes(const Map& m) {
  const std::size_t cap = m.capacity();
  if (m.size() + 1 <= cap - cap / 8) return 0;
  const std::uint64_t next = 2 * static_cast<std::uint64_t>(cap) + 1;
  return next * (sizeof(typename Map::value_type) + 1);
}

// The resident set of the process now, from /proc/self/statm; 0 where it cannot be read.
std::uint64_t resident_bytes();

}  // namespace grundy
