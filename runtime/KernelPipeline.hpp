// The threads of a kernel whose units of work (blocks of heaps, or single heaps) must be
// finished in order, each needing what the units before it found: a unit's work is split in
// two phases. Phase 1 ("ahead") reads only units finished before it started, and may run on
// any thread as soon as its unit lies within `ahead` units of the last one finished; phase 2
// ("in turn") finishes the unit, on thread 0 (the caller's), in order. So thread 0 waits only
// for a phase 1 that another thread has taken, never for a thread the machine put aside, and
// anything that must happen on the caller's thread (polls, the table's growth) happens there.
// The kernels say what each phase does (runtime/KernelThreads.cpp, runtime/PlainThreads.cpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace grundy {

class KernelPipeline {
 public:
  KernelPipeline(unsigned threads, std::size_t units, std::size_t ahead)
      : threads_(std::max(1u, threads)), units_(units), ahead_(ahead), claims_(new Claim[ahead + 1]) {}

  // Unit j's data may live in slot(j): the unit that held it before is finished by the time
  // j's phase 1 starts.
  std::size_t slots() const { return ahead_ + 1; }
  std::size_t slot(std::size_t j) const { return j % (ahead_ + 1); }

  // Runs units 0..units-1: ahead(thread, j, finished) on whichever thread takes unit j, where
  // `finished` is how many units were finished when it started (at least j - ahead); then
  // in_turn(j) on thread 0, in order, which returns false to stop after unit j. False when no
  // thread could be started (a WebAssembly build, a process limit): then nothing ran.
  // Rethrows what a phase threw, after every thread has stopped.
  template <class Ahead, class InTurn>
  bool run(Ahead&& ahead, InTurn&& in_turn) {
    std::vector<std::thread> others;
    try {
      for (unsigned t = 1; t < threads_; ++t) others.emplace_back([this, t, &ahead] { help(t, ahead); });
    } catch (const std::system_error&) {
      stop();
      for (std::thread& t : others) t.join();
      return false;
    }
    chain(ahead, in_turn);
    for (std::thread& t : others) t.join();
    if (error_) std::rethrow_exception(error_);
    return true;
  }

 private:
  static constexpr std::size_t kStopped = std::numeric_limits<std::size_t>::max();
  // Each unit's flags on a cache line of its own: a line that two cores write costs more
  // than a unit's work.
  struct alignas(64) Claim {
    std::atomic<std::size_t> claimed{0};  // j + 1 once a thread has taken phase 1 of unit j
    std::atomic<std::size_t> ready{0};    // j + 1 once it is done
  };

  template <class Ahead, class InTurn>
  void chain(Ahead& ahead, InTurn& in_turn) {
    try {
      for (std::size_t j = 0; j < units_; ++j) {
        if (claim(j)) {
          ahead_of(0, j, ahead);
        } else {
          Claim& c = claims_[slot(j)];
          while (true) {  // another thread has it
            const std::uint32_t ev = event_.load(std::memory_order_acquire);
            if (c.ready.load(std::memory_order_acquire) == j + 1) break;
            if (done_.load(std::memory_order_acquire) == kStopped) return;
            event_.wait(ev, std::memory_order_acquire);
          }
        }
        const bool go_on = in_turn(j);
        if (!go_on) break;
        std::size_t expected = j;
        if (!done_.compare_exchange_strong(expected, j + 1, std::memory_order_release)) return;  // stopped
        signal();
      }
    } catch (...) {
      keep(std::current_exception());
    }
    stop();
  }

  // A helper takes the unit furthest ahead that it may (the newest in the window), so that
  // thread 0 meets it `ahead` units later, finished unless the helper was put aside that
  // long; thread 0 takes the units in between that no helper took.
  template <class Ahead>
  void help(unsigned t, Ahead& ahead) {
    try {
      while (true) {
        const std::uint32_t ev = event_.load(std::memory_order_acquire);
        const std::size_t d = done_.load(std::memory_order_acquire);
        if (d == kStopped || d >= units_) return;
        bool took = false;
        for (std::size_t j = std::min(d + ahead_, units_ - 1); j > d && !took; --j) {
          if (claim(j)) {
            ahead_of(t, j, ahead);
            took = true;
          }
        }
        if (!took) event_.wait(ev, std::memory_order_acquire);
      }
    } catch (...) {
      keep(std::current_exception());
      stop();
    }
  }

  // Phase 1 of unit j to this thread, unless another has it. Its slot last held unit
  // j - ahead - 1, finished (the window ends `ahead` units past the last one finished).
  bool claim(std::size_t j) {
    std::size_t expected = j >= ahead_ + 1 ? j - ahead_ : 0;
    return claims_[slot(j)].claimed.compare_exchange_strong(expected, j + 1, std::memory_order_acq_rel);
  }
  template <class Ahead>
  void ahead_of(unsigned t, std::size_t j, Ahead& ahead) {
    const std::size_t d = done_.load(std::memory_order_acquire);
    if (d != kStopped) ahead(t, j, d);  // else no one reads it
    claims_[slot(j)].ready.store(j + 1, std::memory_order_release);
    signal();
  }
  void signal() {
    event_.fetch_add(1, std::memory_order_release);
    event_.notify_all();
  }
  void stop() {
    done_.store(kStopped, std::memory_order_release);
    signal();
  }
  void keep(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(error_mutex_);
    if (!error_) error_ = std::move(e);
  }

  const unsigned threads_;
  const std::size_t units_, ahead_;
  std::unique_ptr<Claim[]> claims_;
  alignas(64) std::atomic<std::size_t> done_{0};  // units finished, or kStopped
  std::atomic<std::uint32_t> event_{0};  // bumped at each unit finished or made ready: what threads wait on
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

}  // namespace grundy
