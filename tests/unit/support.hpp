// Helpers for tests that run programs through grundy::Session and read what they print.
#pragma once

#include <charconv>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <catch2/catch.hpp>

#include "lang/Session.hpp"
#include "runtime/StackGuard.hpp"

namespace grundy::test {

struct RunResult {
  int code = -1;
  std::string out;
  std::string err;
};

inline std::ostream& operator<<(std::ostream& os, const RunResult& r) {
  return os << "exit " << r.code << "\n--- stdout ---\n" << r.out << "--- stderr ---\n" << r.err;
}

// Runs `source` as a file named test.game in a fresh Session, on a stack of its own as the
// command line does (cli/main.cpp): source nested 256 deep needs more than the 8 MB of the
// main thread in the sanitizer build. 64 MB, not the command line's 1 GB: the tests of
// --max-memory cap the address space.
// A whole file's bytes (empty when it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline RunResult run_source(std::string_view source, SessionOptions options = {}) {
  std::ostringstream out;
  std::ostringstream err;
  RunResult r;
  run_on_stack(std::size_t{64} << 20, [&] {
    Session session(out, err, options);
    r.code = session.run_source(source, "test.game");
    return 0;
  });
  r.out = out.str();
  r.err = err.str();
  return r;
}

// A program's stdout and what --explain said about it.
struct Explained {
  std::string out;
  std::string explain;
};

// Runs a program that must succeed, with --explain.
inline Explained run_explained(std::string_view source, SessionOptions options = {}) {
  std::ostringstream why;
  options.limits.explain = &why;
  const RunResult r = run_source(source, options);
  INFO(source << "\n" << r);
  REQUIRE(r.code == 0);
  return {r.out, why.str()};
}

// Runs a program that must succeed silently on stderr; returns its stdout.
inline std::string run_ok(std::string_view source, SessionOptions options = {}) {
  const RunResult r = run_source(source, options);
  INFO("program:\n" << source << "\n" << r);
  REQUIRE(r.code == 0);
  REQUIRE(r.err.empty());
  return r.out;
}

// The lines of a program's stdout (each must end in a newline).
inline std::vector<std::string> lines_of(const std::string& out) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < out.size()) {
    const std::size_t nl = out.find('\n', start);
    INFO("stdout:\n" << out);
    REQUIRE(nl != std::string::npos);  // every printed line ends in a newline
    lines.push_back(out.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// Runs a program that must succeed and print exactly `count` lines.
inline std::vector<std::string> run_lines(std::string_view source, std::size_t count,
                                          SessionOptions options = {}) {
  const std::string out = run_ok(source, options);
  std::vector<std::string> lines = lines_of(out);
  INFO("program:\n" << source << "\nstdout:\n" << out);
  REQUIRE(lines.size() == count);
  return lines;
}

// Runs a program that must succeed and print exactly one line; returns it.
inline std::string run_line(std::string_view source, SessionOptions options = {}) {
  return run_lines(source, 1, options).front();
}

// The elements of a printed flat list "[a, b, c]" as strings (no nesting).
inline std::vector<std::string> list_atoms(const std::string& line) {
  INFO("printed: " << line);
  REQUIRE(line.size() >= 2);
  REQUIRE(line.front() == '[');
  REQUIRE(line.back() == ']');
  std::vector<std::string> atoms;
  const std::string body = line.substr(1, line.size() - 2);
  if (body.empty()) return atoms;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = body.find(", ", start);
    atoms.push_back(body.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 2;
  }
  return atoms;
}

// A printed flat list of integers "[0, 1, 2]".
inline std::vector<std::int64_t> list_ints(const std::string& line) {
  std::vector<std::int64_t> values;
  for (const std::string& a : list_atoms(line)) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(a.data(), a.data() + a.size(), v);
    INFO("printed: " << line << "\nelement: '" << a << "'");
    REQUIRE(ec == std::errc{});
    REQUIRE(end == a.data() + a.size());
    values.push_back(v);
  }
  return values;
}

// A printed flat list of booleans "[true, false]".
inline std::vector<bool> list_bools(const std::string& line) {
  std::vector<bool> values;
  for (const std::string& a : list_atoms(line)) {
    INFO("printed: " << line << "\nelement: '" << a << "'");
    REQUIRE((a == "true" || a == "false"));
    values.push_back(a == "true");
  }
  return values;
}

// How a list prints in the language: "[0, 1, 2]".
template <typename T>
std::string list_text(const std::vector<T>& values) {
  std::ostringstream os;
  os << '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) os << ", ";
    if constexpr (std::is_same_v<T, bool>) os << (values[i] ? "true" : "false");
    else os << values[i];
  }
  os << ']';
  return os.str();
}

// Compares two sequences, naming the first index where they differ.
template <typename T>
void check_same(const std::vector<T>& actual, const std::vector<T>& expected, const std::string& what) {
  std::size_t i = 0;
  while (i < actual.size() && i < expected.size() && actual[i] == expected[i]) ++i;
  std::ostringstream where;
  where << what << ": ";
  if (i < actual.size() && i < expected.size()) {
    where << "first difference at index " << i << ": got " << actual[i] << ", expected " << expected[i];
  } else if (actual.size() != expected.size()) {
    where << "lengths differ: got " << actual.size() << ", expected " << expected.size();
  } else {
    where << "equal";
  }
  INFO(where.str());
  CHECK(actual == expected);
}

inline bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace grundy::test
