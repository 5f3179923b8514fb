// Progress of long computations (dense tables, kernels, the cells of a table), drawn on a
// terminal. Computations nest (a table whose cells fill a kernel's table): begin() and
// end() pair up, update() reports on the innermost. Nothing shows until the outermost has
// run for about a second, so short queries print nothing; end() of the outermost clears it.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace grundy {

class Progress {
 public:
  virtual ~Progress() = default;
  virtual void begin(const std::string& what) = 0;
  // `done` of `total` steps of the innermost computation are complete (total 0: unknown).
  virtual void update(std::uint64_t done, std::uint64_t total) = 0;
  virtual void end() = 0;
};

// Pairs begin() and end() for a scope; does nothing without a Progress.
class ProgressScope {
 public:
  ProgressScope(Progress* p, const std::string& what) : p_(p) {
    if (p_) p_->begin(what);
  }
  // `what()` is called only when there is a Progress: a query in a loop does not build the
  // name of its game for nothing.
  template <typename F, typename = std::enable_if_t<std::is_invocable_r_v<std::string, F>>>
  ProgressScope(Progress* p, F&& what) : p_(p) {
    if (p_) p_->begin(what());
  }
  ~ProgressScope() {
    if (p_) p_->end();
  }
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;

 private:
  Progress* p_;
};

// A one-line bar on `out` (stderr), redrawn at most ten times a second.
class TerminalProgress : public Progress {
 public:
  explicit TerminalProgress(std::FILE* out, double delay_seconds = 1.0) : out_(out), delay_(delay_seconds) {}
  void begin(const std::string& what) override;
  void update(std::uint64_t done, std::uint64_t total) override;
  void end() override;

 private:
  using Clock = std::chrono::steady_clock;
  std::FILE* out_;
  double delay_;
  std::vector<std::string> what_;
  bool shown_ = false;
  Clock::time_point start_{};
  Clock::time_point last_{};
};

}  // namespace grundy
