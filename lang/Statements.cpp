#include "lang/Statements.hpp"

#include <cctype>

namespace grundy::lang {

namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Words that cannot end a statement: an operator or a construct that needs what follows.
bool continues_line(std::string_view word) {
  static constexpr std::string_view kWords[] = {"and", "or", "xor",  "not",  "misere", "every",
                                                "in",  "if", "then", "else", "for"};
  for (std::string_view w : kWords) {
    if (word == w) return true;
  }
  return false;
}

bool continues_line(char c) {
  switch (c) {
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
    case '^':
    case ',':
    case '=':
    case '<':
    case '>':
    case '!':
    case '.': return true;
    default: return false;
  }
}

}  // namespace

StatementSplit split_statements(std::string_view src) {
  StatementSplit out;
  out.text.assign(src);
  std::string& t = out.text;
  const auto n = static_cast<std::uint32_t>(src.size());
  std::uint32_t stmt_begin = 0;
  std::int64_t last_sig = -1;  // offset of the last significant character
  auto end_statement = [&](std::uint32_t at) {
    // Keep the span only if it holds something other than blanks.
    for (std::uint32_t i = stmt_begin; i < at; ++i) {
      if (!std::isspace(static_cast<unsigned char>(t[i]))) {
        out.statements.push_back({stmt_begin, at});
        break;
      }
    }
    stmt_begin = at + 1;
  };
  auto line_continues = [&]() {
    if (last_sig < 0) return false;
    const char c = t[static_cast<std::size_t>(last_sig)];
    if (continues_line(c)) {
      // `)` `]` `}` and literals end a statement; a lone operator character does not.
      return true;
    }
    if (!is_word_char(c)) return false;
    std::int64_t b = last_sig;
    while (b > 0 && is_word_char(t[static_cast<std::size_t>(b - 1)])) --b;
    return continues_line(
        std::string_view(t).substr(static_cast<std::size_t>(b), static_cast<std::size_t>(last_sig - b + 1)));
  };

  for (std::uint32_t i = 0; i < n; ++i) {
    const char c = t[i];
    if (c == '"') {
      last_sig = i;
      ++i;
      while (i < n && t[i] != '"' && t[i] != '\n') {
        if (t[i] == '\\' && i + 1 < n && t[i + 1] != '\n') ++i;
        ++i;
      }
      if (i < n && t[i] == '"') last_sig = i;
      else if (i < n) --i;  // an unterminated string: let the newline be seen
      continue;
    }
    if (c == '#') {
      while (i < n && t[i] != '\n') t[i++] = ' ';
      --i;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      out.unclosed.push_back({i, c});
    } else if (c == ')' || c == ']' || c == '}') {
      if (!out.unclosed.empty()) out.unclosed.pop_back();
    } else if (c == ';' && out.unclosed.empty()) {
      t[i] = ' ';
      end_statement(i);
      last_sig = -1;
      continue;
    } else if (c == '\n') {
      if (!out.unclosed.empty() || line_continues()) {
        t[i] = ' ';
      } else {
        end_statement(i);
        last_sig = -1;
      }
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(c))) last_sig = i;
  }
  out.trailing_operator = line_continues();
  end_statement(n);
  return out;
}

}  // namespace grundy::lang
