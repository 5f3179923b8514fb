#include "runtime/Progress.hpp"

namespace grundy {

void TerminalProgress::begin(const std::string& what) {
  if (what_.empty()) {
    start_ = Clock::now();
    shown_ = false;
  }
  what_.push_back(what);
}

void TerminalProgress::end() {
  if (what_.empty()) return;
  what_.pop_back();
  if (what_.empty() && shown_) {
    std::fputs("\r\033[K", out_);
    std::fflush(out_);
    shown_ = false;
  }
}

void TerminalProgress::update(std::uint64_t done, std::uint64_t total) {
  if (what_.empty()) return;
  const auto now = Clock::now();
  if (std::chrono::duration<double>(now - start_).count() < delay_) return;
  if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  shown_ = true;
  constexpr int kWidth = 30;
  std::string line = "\r";
  for (std::size_t i = 0; i < what_.size(); ++i) {
    if (i) line += " > ";
    line += what_[i];
  }
  line += ' ';
  if (total > 0) {
    const double frac = done >= total ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
    const int filled = static_cast<int>(frac * kWidth);
    line += '[';
    line.append(static_cast<std::size_t>(filled), '#');
    line.append(static_cast<std::size_t>(kWidth - filled), '.');
    line += "] ";
    char pct[32];
    std::snprintf(pct, sizeof pct, "%3d%% ", static_cast<int>(frac * 100));
    line += pct;
  }
  line += std::to_string(done);
  if (total > 0) {
    line += '/';
    line += std::to_string(total);
  }
  const double secs = std::chrono::duration<double>(now - start_).count();
  char t[64];
  std::snprintf(t, sizeof t, "  %.1fs", secs);
  line += t;
  // The rate, for a long run whose pace changes (a kernel's heaps get dearer as they grow).
  if (done > 0 && secs > 0) {
    const double rate = static_cast<double>(done) / secs;
    if (rate >= 1e6) std::snprintf(t, sizeof t, ", %.1fM/s", rate / 1e6);
    else if (rate >= 1e3) std::snprintf(t, sizeof t, ", %.1fk/s", rate / 1e3);
    else std::snprintf(t, sizeof t, ", %.0f/s", rate);
    line += t;
  }
  // The time left, at the rate so far, once there is a rate to go by.
  if (total > 0 && done > 0 && done < total) {
    const double left = secs * static_cast<double>(total - done) / static_cast<double>(done);
    if (left < 3600) std::snprintf(t, sizeof t, ", about %.0fs left", left + 0.5);
    else std::snprintf(t, sizeof t, ", about %.1fh left", left / 3600);
    line += t;
  }
  line += "\033[K";
  std::fputs(line.c_str(), out_);
  std::fflush(out_);
}

}  // namespace grundy
