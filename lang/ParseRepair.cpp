// Syntax errors made precise: the parser stops where the grammar fails and PEGTL says what the
// rule there expected; this looks at the statement around that point to say what went wrong
// in the writer's terms (a stray character, a keyword used as a name, a misspelt rule, a
// chained comparison, a bracket never closed, two statements on a line, an unknown
// shorthand, a bad escape), with a hint, and puts the caret where it helps.
#include "lang/ParseRepair.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "lang/ErrorMessages.hpp"
#include "lang/Grammar.hpp"
#include "lang/Suggest.hpp"

namespace grundy::lang {

namespace {

bool is_keyword(std::string_view w) {
  static constexpr std::string_view kWords[] = {
      "game", "state", "let", "move", "split",  "for",   "in",     "if",     "then", "else", "def",
      "and",  "or",    "not", "xor",  "misere", "every", "assert", "import", "true", "false"};
  for (std::string_view k : kWords) {
    if (w == k) return true;
  }
  return false;
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A character no token starts with (after comments were blanked out).
bool is_stray(char c) {
  if (is_word_char(c) || c == ' ' || c == '\t' || c == '\r' || c == '\n') return false;
  return std::string_view("()[]{},;=+-*/%^<>!.\"").find(c) == std::string_view::npos;
}

// How a stray byte is shown: itself when printable, a whole UTF-8 character, else \xNN.
std::string show_char(std::string_view text, std::size_t at) {
  const auto c = static_cast<unsigned char>(text[at]);
  if (c >= 0x20 && c < 0x7F) return std::string(1, static_cast<char>(c));
  std::size_t len = c >= 0xF0 && c < 0xF8 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (c >= 0xF8) len = 0;
  if (len > 0 && at + len <= text.size()) {
    bool ok = true;
    for (std::size_t i = 1; i < len; ++i) {
      ok = ok && (static_cast<unsigned char>(text[at + i]) & 0xC0) == 0x80;
    }
    if (ok) return std::string(text.substr(at, len));
  }
  static const char* kHex = "0123456789abcdef";
  return std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
}

// The opening bracket that a message asks to close ("expected ',' or ')'" closes a '('), or 0.
char opener_wanted(std::string_view message) {
  if (message.rfind("expected", 0) != 0) return 0;
  if (message.ends_with("')'")) return '(';
  if (message.ends_with("']'")) return '[';
  if (message.ends_with("'}'")) return '{';
  return 0;
}

bool is_statement_keyword(std::string_view w) {
  return w == "game" || w == "def" || w == "let" || w == "assert" || w == "import";
}

// The tokens of `text` before offset `to`, as (offset, token) pairs: words, strings, and
// any other character that is not a blank on its own.
std::vector<std::pair<std::size_t, std::string_view>> tokens(std::string_view text, std::size_t to) {
  std::vector<std::pair<std::size_t, std::string_view>> out;
  std::size_t i = 0;
  while (i < to) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::size_t e = i + 1;
    if (is_word_char(text[i])) {
      while (e < to && is_word_char(text[e])) ++e;
    } else if (text[i] == '"') {
      while (e < to && text[e] != '"') e += text[e] == '\\' ? 2 : 1;
      e = std::min(e + 1, to);
    }
    out.emplace_back(i, text.substr(i, e - i));
    i = e;
  }
  return out;
}

// Whether the statement that was read completely before `at` is one that no operator can
// continue: an import, a game with a body in braces, or an octal or graph shorthand.
bool ends_for_good(std::string_view stmt, std::size_t at) {
  const auto t = tokens(stmt, at);
  if (t.empty()) return false;
  if (t[0].second == "import") return true;
  if (t[0].second != "game" || t.size() < 3) return false;
  if (t[2].second == "{" || t[2].second == "(") return true;
  return t[2].second == "=" && t.size() > 3 && (t[3].second == "octal" || t[3].second == "graph");
}

// A syntax error made more precise by looking at the token where the parse stopped: a
// stray character, a keyword used as a name, a misspelt rule, a chained comparison, a
// closing bracket with nothing to close, a second statement on the line, an unknown
// shorthand, a bad escape. `keep` says the caret stays on that token; `caret`, when set,
// moves it to another offset of the statement.
struct Refined {
  std::string message;
  std::string hint;
  bool keep = false;
  std::optional<std::size_t> caret;
};

Refined refine(std::string_view stmt, std::size_t at, std::string_view message) {
  Refined r{std::string(message), {}, false, {}};
  auto is = [&](const char* rule_message) { return message == rule_message; };
  if (is(error_message<grammar::escape_code>)) {
    // The backslash was read; what follows it is not an escape (or the text ends there).
    if (at >= stmt.size() || stmt[at] == '\n' || stmt[at] == '\r') {
      r.message = error_message<grammar::str_close>;
      return r;
    }
    std::string shown = show_char(stmt, at);
    r = {"unknown escape \\" + shown + " in a string (known: \\\" \\\\ \\n \\t)",
         "to write a backslash itself, double it: \\\\", true, at - 1};
    return r;
  }
  if (at >= stmt.size()) return r;
  std::size_t end = at;
  while (end < stmt.size() && is_word_char(stmt[end])) ++end;
  const std::string_view word = stmt.substr(at, end - at);
  if (is_stray(stmt[at])) {
    // A NUL byte is where reading stops (lang/SourceText.hpp): no text holds one.
    r = {"unexpected character '" + show_char(stmt, at) + "'",
         stmt[at] == '\0' ? "a .game file is text, and this one holds a NUL byte: is it a binary file?"
                           : "names are letters, digits and _; see docs/language.md for the operators",
         true,
         {}};
    return r;
  }
  // '=' where no name is being defined: a comparison was meant (`if n = 1`).
  // Only where an expression could have gone on: `def f = ...` and `let = 3` miss
  // something else, which the grammar's own message names.
  const bool could_go_on = is(error_message<grammar::statement_end>) || is(error_message<grammar::body_close>) ||
                           opener_wanted(message) != 0;
  if (could_go_on && stmt[at] == '=' && (at + 1 >= stmt.size() || stmt[at + 1] != '=') &&
      (at == 0 || std::string_view("<>!=").find(stmt[at - 1]) == std::string_view::npos)) {
    r = {"'=' cannot stand here: equality is tested with '=='",
         "write e.g. if n == 1; a single '=' only names things (let x = 1, game G = ...)", true, {}};
    const auto t = tokens(stmt, at);
    if (t.size() == 1 && is_word_char(t[0].second[0]) && !is_keyword(t[0].second)) {  // `x = 1` as a statement
      r.message = "a name is given a value with let";
      r.hint = "write let " + std::string(t[0].second) + " = ...";
    } else if (t.size() >= 4 && is_word_char(t[0].second[0]) && t[1].second == "[" && t.back().second == "]") {
      r.message = "a list cannot be changed in place";
      r.hint = "make a new one: let ys = update(" + std::string(t[0].second) + ", i, v)";
    }
    return r;
  }
  // `game G { state n; move ... }`: ';' separates statements, never rules in braces.
  if (stmt[at] == ';' && is(error_message<grammar::body_close>)) {
    r = {"';' does not separate the rules inside a game's braces",
         "write the rules one after another, with a space or a new line between them: "
         "game G { state n  move n - 1 if n > 0 }",
         true,
         {}};
    return r;
  }
  // A keyword that may come next anyway (`for in`, `state move`) means the name is missing.
  const bool follows = (is(error_message<grammar::for_target>) && word == "in") ||
                       (is(error_message<grammar::state_pattern>) &&
                        (word == "let" || word == "move" || word == "split" || word == "state"));
  if (!word.empty() && is_keyword(word) && !follows &&
      (is(error_message<grammar::let_name>) || is(error_message<grammar::game_name>) ||
       is(error_message<grammar::def_name>) || is(error_message<grammar::for_target>) ||
       is(error_message<grammar::state_pattern>) || is(error_message<grammar::state_names>) ||
       is(error_message<grammar::param_list>) || is(error_message<grammar::param_name>))) {
    r = {"'" + std::string(word) + "' is a keyword, not a name",
         "pick another name, e.g. " + std::string(word) + "_",
         true,
         {}};
    return r;
  }
  if (!word.empty() && is(error_message<grammar::body_close>)) {
    std::string hint = did_you_mean(word, {"state", "let", "move", "split", "value"});
    if (hint.empty()) hint = "a game's body holds rules that start with state, let, move, split or value";
    r = {"unknown rule '" + std::string(word) + "' in a game's body", hint, true, {}};
    return r;
  }
  const bool at_end = is(error_message<grammar::statement_end>);
  if (!at_end && opener_wanted(message) == 0) return r;
  const std::string_view rest = stmt.substr(at);
  for (std::string_view op : {"==", "!=", "<=", ">=", "<", ">"}) {
    if (rest.substr(0, op.size()) != op) continue;
    const std::string_view before = stmt.substr(0, at);
    if (before.find_first_of("<>") != std::string_view::npos || before.find("==") != std::string_view::npos ||
        before.find("!=") != std::string_view::npos) {
      r = {"comparisons do not chain", "write a < b and b < c", true, {}};
    }
    return r;
  }
  if (!at_end) return r;
  if (rest[0] == ')' || rest[0] == ']' || rest[0] == '}') {
    r = {std::string("unmatched '") + rest[0] + "'", "there is no bracket open for it to close", true, {}};
    return r;
  }
  // game NAME = WORD "..." or game NAME = WORD {...}: WORD was meant as a shorthand.
  const auto t = tokens(stmt, at);
  if (t.size() == 4 && t[0].second == "game" && t[2].second == "=" && is_word_char(t[3].second[0]) &&
      !std::isdigit(static_cast<unsigned char>(t[3].second[0])) && (rest[0] == '"' || rest[0] == '{')) {
    const std::string_view w = t[3].second;
    std::string hint =
        "a shorthand is octal \"...\", subtraction {...} or graph {...}; "
        "an instance of a game is written e.g. game B3 = Bash[3]";
    if (w.rfind("hex", 0) == 0) {
      hint = "hexadecimal codes are written with octal too, e.g. octal \"0.f\"";
    } else if (std::string near = did_you_mean(w, {"octal", "subtraction", "graph"}); !near.empty()) {
      hint = near;
    }
    r = {"unknown shorthand '" + std::string(w) +
             "': after '=' comes octal, subtraction, graph or a game instance",
         hint, true, t[3].first};
    return r;
  }
  // A second statement on the line: no operator can follow what was read, or what follows
  // can only start a statement.
  if (is_statement_keyword(word) || ends_for_good(stmt, at)) {
    r = {"a statement ends before this: the next one must start on a new line or after ';'",
         "one statement per line, or several separated by ';'",
         true,
         {}};
    return r;
  }
  return r;
}

}  // namespace

SyntaxError explain_syntax_error(const Sources& sources, int file, const StatementSplit& split,
                                 const StatementSpan& span, std::uint32_t at, std::string_view message) {
  const SourceFile& f = sources.file(file);

  // A construct missing at the end of a line is reported just after the last token read,
  // not at the start of the next line.
  std::uint32_t back = at;
  bool newline = false;
  while (back > span.begin && std::isspace(static_cast<unsigned char>(split.text[back - 1]))) {
    if (f.text[back - 1] == '\n') newline = true;
    --back;
  }
  const std::string_view stmt(split.text.data() + span.begin, span.end - span.begin);
  Refined refined = refine(stmt, at - span.begin, message);
  const std::uint32_t stopped = at;  // where the parse stopped, before the caret moves
  if (!refined.keep && (newline || at >= span.end)) at = back;
  if (refined.caret) at = span.begin + static_cast<std::uint32_t>(*refined.caret);
  std::string hint = refined.hint;
  // Which closer the parser wanted, when the message says so: a different bracket left
  // open is not the one to blame.
  // (Not for an empty list of parameters: `def f(3)` wants a name there, not a ')'.)
  const char wanted = message == error_message<grammar::param_list> ? 0 : opener_wanted(message);
  // A rule that is not a rule, on a later line than a '{' never closed: the '}' of the
  // game before it is missing, and the rest of the file was read as its body.
  if (message == error_message<grammar::body_close> && !split.unclosed.empty() && span.end == f.text.size()) {
    for (auto ob = split.unclosed.rbegin(); ob != split.unclosed.rend(); ++ob) {
      if (ob->bracket != '{' || ob->offset < span.begin || ob->offset >= stopped) continue;
      const LineCol open = sources.locate(Where{file, ob->offset});
      if (sources.locate(Where{file, stopped}).line > open.line) {
        hint = "the '{' at line " + std::to_string(open.line) + ", column " + std::to_string(open.column) +
               " is never closed: is a '}' missing before this line?";
      }
      break;
    }
  }
  if (hint.empty() && !split.unclosed.empty() && span.end == f.text.size() &&
      split.unclosed.back().offset >= span.begin &&
      (wanted == 0 || wanted == split.unclosed.back().bracket)) {
    const OpenBracket& ob = split.unclosed.back();
    const LineCol lc = sources.locate(Where{file, ob.offset});
    hint = std::string("the '") + ob.bracket + "' opened at line " + std::to_string(lc.line) + ", column " +
           std::to_string(lc.column) + " is never closed";
  } else if (hint.empty() && wanted != 0) {
    // The innermost bracket still open where the parse stopped.
    std::vector<std::uint32_t> open;
    for (std::uint32_t i = span.begin; i < at && i < span.end; ++i) {
      const char c = split.text[i];
      if (c == '"') {
        for (++i; i < span.end && split.text[i] != '"'; ++i) {
          if (split.text[i] == '\\') ++i;
        }
      } else if (c == '(' || c == '[' || c == '{') {
        open.push_back(i);
      } else if ((c == ')' || c == ']' || c == '}') && !open.empty()) {
        open.pop_back();
      }
    }
    if (!open.empty() && split.text[open.back()] == wanted) {
      const LineCol lc = sources.locate(Where{file, open.back()});
      hint = std::string("to close the '") + wanted + "' at line " + std::to_string(lc.line) + ", column " +
             std::to_string(lc.column);
    }
  }
  if (message == error_message<grammar::too_deep>) {
    hint = "give a part of it a name with let, or write a function";
  }
  return SyntaxError{Where{file, at}, refined.message, hint};
}

}  // namespace grundy::lang
