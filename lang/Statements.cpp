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

void StatementScanner::end_statement(std::uint32_t at) {
  // Keep the span only if it holds something other than blanks.
  const std::string& t = out_.text;
  for (std::uint32_t i = stmt_begin_; i < at; ++i) {
    if (!std::isspace(static_cast<unsigned char>(t[i]))) {
      out_.statements.push_back({stmt_begin_, at});
      break;
    }
  }
  stmt_begin_ = at + 1;
}

bool StatementScanner::line_continues() const {
  if (last_sig_ < 0) return false;
  const std::string& t = out_.text;
  const char c = t[static_cast<std::size_t>(last_sig_)];
  // `)` `]` `}` and literals end a statement; a lone operator character does not.
  if (continues_line(c)) return true;
  if (!is_word_char(c)) return false;
  std::int64_t b = last_sig_;
  while (b > 0 && is_word_char(t[static_cast<std::size_t>(b - 1)])) --b;
  return continues_line(
      std::string_view(t).substr(static_cast<std::size_t>(b), static_cast<std::size_t>(last_sig_ - b + 1)));
}

void StatementScanner::feed(std::string_view more) {
  std::string& t = out_.text;
  t.append(more);
  const auto n = static_cast<std::uint32_t>(t.size());
  for (std::uint32_t i = scanned_; i < n; ++i) {
    const char c = t[i];
    if (c == '"') {
      last_sig_ = i;
      ++i;
      while (i < n && t[i] != '"' && t[i] != '\n') {
        if (t[i] == '\\' && i + 1 < n && t[i + 1] != '\n') ++i;
        ++i;
      }
      if (i < n && t[i] == '"') last_sig_ = i;
      else if (i < n) --i;  // an unterminated string: let the newline be seen
      continue;
    }
    if (c == '#') {
      while (i < n && t[i] != '\n') t[i++] = ' ';
      --i;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      out_.unclosed.push_back({i, c});
    } else if (c == ')' || c == ']' || c == '}') {
      if (!out_.unclosed.empty()) out_.unclosed.pop_back();
    } else if (c == ';' && out_.unclosed.empty()) {
      t[i] = ' ';
      end_statement(i);
      last_sig_ = -1;
      continue;
    } else if (c == '\n') {
      if (!out_.unclosed.empty() || line_continues()) {
        t[i] = ' ';
      } else {
        end_statement(i);
        last_sig_ = -1;
      }
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(c))) last_sig_ = i;
  }
  scanned_ = n;
}

StatementSplit StatementScanner::finish() {
  out_.trailing_operator = line_continues();
  end_statement(static_cast<std::uint32_t>(out_.text.size()));
  return std::move(out_);
}

StatementSplit split_statements(std::string_view src) {
  StatementScanner scanner;
  scanner.feed(src);
  return scanner.finish();
}

}  // namespace grundy::lang
