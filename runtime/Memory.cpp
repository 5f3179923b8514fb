#include "runtime/Memory.hpp"

#include <fcntl.h>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <new>

namespace grundy {

namespace memory_detail {
std::atomic<std::int64_t> heap_bytes{0};
std::atomic<std::int64_t> heap_peak{0};
}  // namespace memory_detail

std::uint64_t resident_bytes() {
#ifdef __EMSCRIPTEN__
  // WebAssembly's memory only grows: its size is the peak, as RSS would be.
  return static_cast<std::uint64_t>(__builtin_wasm_memory_size(0)) * 65536;
#endif
  const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[128] = {};
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  unsigned long long pages = 0, resident = 0;
  if (n <= 0 || std::sscanf(buf, "%llu %llu", &pages, &resident) != 2) return 0;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace grundy

// ---- the counted heap ----
// The process allocates on one thread at a time (the worker runs while the main thread
// waits), so the count is a relaxed load and store, not a locked add.
namespace {

inline void count(void* p, bool add) {
  if (!p) return;
  // With the allocator's own word before each chunk: a million small nodes hold it too.
  const auto n = static_cast<std::int64_t>(malloc_usable_size(p) + sizeof(std::size_t));
  auto& total = grundy::memory_detail::heap_bytes;
  const std::int64_t now = total.load(std::memory_order_relaxed) + (add ? n : -n);
  total.store(now, std::memory_order_relaxed);
  auto& peak = grundy::memory_detail::heap_peak;
  if (add && now > peak.load(std::memory_order_relaxed)) peak.store(now, std::memory_order_relaxed);
}

// A large block (a table, a graph's arrays) is backed by transparent huge pages where the
// system gives them on request (its `madvise` mode, Debian's default): a fresh page costs a
// fault of several microseconds on a virtual machine, and vectors that double to 60 MB meet
// 20,000 of them, more time than the work that fills them. The blocks the allocator always
// maps afresh (32 MB and more) start on a 2 MB boundary, so that all of them is covered;
// smaller ones keep the allocator's placement, which reuses what the heap has freed, and
// only their whole 2 MB extents are covered. Pages are still given as they are written, and
// no block is rounded up: the heap and the resident set stay what they were.
constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kHugeFrom = 2 * kHugePage;
constexpr std::size_t kAlignedFrom = std::size_t{32} << 20;

void advise_huge(void* p, std::size_t size) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t from = (at + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t to = (at + size) & ~(kHugePage - 1);
  if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);  // advice: may fail
}

void* allocate(std::size_t size) {
  auto get = [&]() -> void* {
    if (size < kAlignedFrom) return std::malloc(size ? size : 1);
    void* q = nullptr;  // posix_memalign, unlike aligned_alloc, takes a size of any multiple
    return ::posix_memalign(&q, kHugePage, size) == 0 ? q : nullptr;
  };
  void* p = get();
  while (!p) {
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
    p = get();
  }
  if (size >= kHugeFrom) advise_huge(p, size);
  count(p, true);
  return p;
}

void* allocate_aligned(std::size_t size, std::align_val_t al) {
  const auto align = static_cast<std::size_t>(al);
  const std::size_t rounded = (std::max<std::size_t>(size, 1) + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded);
  if (!p) throw std::bad_alloc();
  count(p, true);
  return p;
}

void release(void* p) noexcept {
  count(p, false);
  std::free(p);
}

}  // namespace

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t size, std::align_val_t al) { return allocate_aligned(size, al); }
void* operator new[](std::size_t size, std::align_val_t al) { return allocate_aligned(size, al); }
void* operator new(std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  try {
    return allocate_aligned(size, al);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  try {
    return allocate_aligned(size, al);
  } catch (...) {
    return nullptr;
  }
}

void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
