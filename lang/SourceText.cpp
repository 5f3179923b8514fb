#include "lang/SourceText.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace grundy::lang {

SourceRead read_source(int fd, std::uint64_t max_bytes, const std::atomic<bool>* interrupt) {
  SourceRead r;
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    r.why = std::strerror(errno);  // a closed descriptor: Bad file descriptor
    return r;
  }
  if (S_ISDIR(st.st_mode)) {
    r.why = "it is a directory, not a .game file";
    return r;
  }
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR && !(interrupt && interrupt->load())) continue;
      r.why = errno == EINTR ? "interrupted" : std::strerror(errno);
      return r;
    }
    if (n == 0) break;
    const auto got = static_cast<std::size_t>(n);
    if (const void* nul = std::memchr(chunk, '\0', got)) {
      text.append(chunk, static_cast<std::size_t>(static_cast<const char*>(nul) - chunk) + 1);
      break;
    }
    if (text.size() + got > max_bytes) {
      r.why = "it holds more than " + std::to_string(max_bytes >> 20) +
              " MB of text (the most --max-memory lets the parser hold)";
      return r;
    }
    text.append(chunk, got);
  }
  r.text = std::move(text);
  return r;
}

SourceRead read_source_file(const std::string& path, std::uint64_t max_bytes, const std::atomic<bool>* interrupt) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    SourceRead r;
    r.why = std::strerror(errno);
    return r;
  }
  SourceRead r = read_source(fd, max_bytes, interrupt);
  ::close(fd);
  return r;
}

}  // namespace grundy::lang
