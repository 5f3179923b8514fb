// Reading a program's text, whole, from a file or a descriptor (standard input), with the
// reason when it cannot be read: a read error is an I/O error (exit 74), never an empty
// program. A stream that never ends (/dev/zero, `yes |`) stops: at its first NUL byte,
// which no program holds and the parser then reports where it is, or past `max_bytes`.
#pragma once

#include <atomic>
#include <cstdint>
#include <algorithm>
#include <optional>
#include <string>

namespace grundy::lang {

struct SourceRead {
  std::optional<std::string> text;  // nothing: `why` says what failed
  std::string why;                  // e.g. "Is a directory", "Input/output error"
};

SourceRead read_source(int fd, std::uint64_t max_bytes, const std::atomic<bool>* interrupt = nullptr);
// Opens `path` first; a directory is refused before any read.
SourceRead read_source_file(const std::string& path, std::uint64_t max_bytes,
                            const std::atomic<bool>* interrupt = nullptr);

// The most source text read, from --max-memory: the text is held twice (as read, and split
// into statements) beside the parse tree, which the parser holds to the limit itself.
inline std::uint64_t max_source_bytes(std::uint64_t max_memory) {
  return std::max<std::uint64_t>(max_memory / 4, 1 << 20);
}

}  // namespace grundy::lang
