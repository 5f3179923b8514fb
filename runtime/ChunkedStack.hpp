// A search's stack of frames in chunks of fixed size: it never moves its frames as it grows,
// so that a path millions of states deep is written once, never copied into an array twice as
// large while the old one is still held (a std::vector of 300-byte frames at 10 million deep
// held 7 GB for a moment, and paid for zeroing each page twice).
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace grundy {

template <class T>
class ChunkedStack {
 public:
  static constexpr std::size_t kChunk = 1024;

  ChunkedStack() = default;
  ChunkedStack(const ChunkedStack&) = delete;
  ChunkedStack& operator=(const ChunkedStack&) = delete;
  ~ChunkedStack() {
    while (size_ > 0) pop_back();
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The memory of the chunks held (a chunk emptied is kept for the next push).
  std::size_t bytes() const { return chunks_.size() * kChunk * sizeof(T); }

  T& operator[](std::size_t i) { return slot(i); }
  const T& operator[](std::size_t i) const { return const_cast<ChunkedStack*>(this)->slot(i); }
  T& front() { return slot(0); }
  T& back() { return slot(size_ - 1); }

  template <class... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == chunks_.size() * kChunk) chunks_.emplace_back(new Storage[kChunk]);  // not zeroed
    T* p = ::new (static_cast<void*>(&chunks_[size_ / kChunk][size_ % kChunk])) T(std::forward<Args>(args)...);
    ++size_;
    return *p;
  }
  void pop_back() {
    --size_;
    slot(size_).~T();
  }

 private:
  struct alignas(T) Storage {
    unsigned char bytes[sizeof(T)];
  };
  T& slot(std::size_t i) {
    return *std::launder(reinterpret_cast<T*>(&chunks_[i / kChunk][i % kChunk]));
  }

  std::vector<std::unique_ptr<Storage[]>> chunks_;
  std::size_t size_ = 0;
};

}  // namespace grundy
