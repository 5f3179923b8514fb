// Values and texts inside messages, of a bounded size: a diagnostic about a position whose
// state is a list of 100,000 elements names it in a line, not in 700 KB.
#pragma once

#include <string>

#include "runtime/Value.hpp"

namespace grundy {

// `text` itself when it has at most `max` bytes; else its start and its end around " ... ",
// `max` bytes in all, not cutting a UTF-8 character.
inline std::string elide(std::string text, std::size_t max) {
  constexpr std::string_view kGap = " ... ";
  if (text.size() <= max || max < kGap.size() + 2) return text;
  const auto cont = [&](std::size_t i) { return (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80; };
  std::size_t head = (max - kGap.size()) * 3 / 4;
  std::size_t tail = text.size() - (max - kGap.size() - head);
  while (head > 0 && cont(head)) --head;
  while (tail < text.size() && cont(tail)) ++tail;
  return text.substr(0, head) + std::string(kGap) + text.substr(tail);
}

// The most a value (or a position) takes inside a message.
inline constexpr std::size_t kShownValue = 200;

// How a value or a position is named in a message: as it prints, at most `max` bytes.
template <typename T>
std::string shown(const T& x, std::size_t max = kShownValue) {
  return elide(to_string(x), max);
}

}  // namespace grundy
