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
#include <new>

namespace grundy {

namespace memory_detail {
// Signed: the main thread may free what the worker thread allocated.
extern std::atomic<std::int64_t> heap_bytes;
extern std::atomic<std::uint64_t> heap_limit;
}  // namespace memory_detail

// A large allocation (a table or a vector that doubles, a hash map that grows) that would
// take the heap past the limit throws HeapLimitReached instead: it would overshoot the
// limit by its whole size before the next check. Small ones are left to the checks, which
// the work makes often (Limits::charge, check_memory). set_heap_limit (below) sets it from
// --max-memory, as the language does before each run; no limit until then.
struct HeapLimitReached : std::bad_alloc {
  const char* what() const noexcept override { return "the heap limit (--max-memory) is reached"; }
};
inline constexpr std::size_t kLargeAllocation = std::size_t{64} << 10;

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

inline void set_heap_limit(std::uint64_t max_memory) {
  memory_detail::heap_limit.store(heap_budget(max_memory), std::memory_order_relaxed);
}

// The resident set of the process now, from /proc/self/statm; 0 where it cannot be read.
std::uint64_t resident_bytes();

}  // namespace grundy
