// Turns fuzz bytes into a small program that parses: games written with rules (one integer
// or a pair as the state, moves and splits with clauses), shorthands (octal, subtraction,
// graph), functions, lets and queries of every kind, over expressions that mix small numbers
// with the edges of the 64-bit range. Mutating raw text mostly finds syntax errors; these
// programs reach the resolver's checks, the evaluators, the misere and every solvers, the
// native kernels and the limits. Each byte read is one choice; past the end, choices are 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace grundy::fuzz {

class Generator {
 public:
  Generator(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::string program() {
    std::string out;
    if (pick(4) == 0) out += "import " + one_of({"nim", "octal", "wythoff", "coins", "fibonacci"}) + "\n";
    const int games = 1 + pick(3);
    for (int g = 0; g < games; ++g) out += game(g) + "\n";
    out += "def f(x, y) = " + expr(2, {"x", "y"}) + "\n";
    const int statements = 1 + pick(6);
    for (int s = 0; s < statements && pos_ < size_; ++s) out += statement(games) + "\n";
    return out;
  }

 private:
  int pick(int n) {
    if (n <= 1) return 0;
    const int b = pos_ < size_ ? data_[pos_] : 0;
    ++pos_;
    return b % n;
  }

  std::string one_of(std::initializer_list<const char*> xs) {
    const int i = pick(static_cast<int>(xs.size()));
    return *(xs.begin() + i);
  }

  std::string number() {
    switch (pick(8)) {
      case 0:
        return one_of({"9223372036854775807", "(-9223372036854775807 - 1)", "10^18", "2^62", "4294967296",
                       "-1", "1000000"});
      case 1: return std::to_string(pick(256));
      default: return std::to_string(pick(8));
    }
  }

  std::string name(const std::vector<std::string>& vars) {
    if (vars.empty() || pick(4) == 0) return number();
    return vars[static_cast<std::size_t>(pick(static_cast<int>(vars.size())))];
  }

  std::string expr(int depth, const std::vector<std::string>& vars) {
    if (depth <= 0) return name(vars);
    const std::string a = expr(depth - 1, vars);
    switch (pick(16)) {
      case 0:
      case 1:
      case 2: return a + " " + one_of({"+", "-", "*", "/", "%", "xor", "^"}) + " " + expr(depth - 1, vars);
      case 3: return "(" + a + ")";
      case 4: return "-" + a;
      case 5: return one_of({"min", "max"}) + "(" + a + ", " + expr(depth - 1, vars) + ")";
      case 6: return "abs(" + a + ")";
      case 7: return "if " + cond(depth - 1, vars) + " then " + a + " else " + expr(depth - 1, vars);
      case 8: return "len(" + collection(depth - 1, vars) + ")";
      case 9: return "sum(" + collection(depth - 1, vars) + ")";
      case 10: return "mex(" + collection(depth - 1, vars) + ")";
      case 11: return collection(depth - 1, vars) + "[" + a + "]";
      case 12: return "f(" + a + ", " + expr(depth - 1, vars) + ")";
      default: return a;
    }
  }

  std::string cond(int depth, const std::vector<std::string>& vars) {
    if (depth <= 0) return expr(0, vars) + " > 0";
    switch (pick(6)) {
      case 0:
        return expr(depth, vars) + " " + one_of({"<", "<=", ">", ">=", "==", "!="}) + " " + expr(depth, vars);
      case 1: return expr(depth, vars) + " in " + collection(depth, vars);
      case 2: return "not " + cond(depth - 1, vars);
      case 3: return cond(depth - 1, vars) + " " + one_of({"and", "or"}) + " " + cond(depth - 1, vars);
      case 4: return one_of({"true", "false", "1"});
      default: return expr(depth, vars) + " > 0";
    }
  }

  std::string collection(int depth, const std::vector<std::string>& vars) {
    switch (pick(6)) {
      case 0: return expr(depth, vars) + ".." + expr(depth, vars);
      case 1: return "[" + expr(depth, vars) + ", " + expr(depth, vars) + "]";
      case 2: return "{" + expr(depth, vars) + ", " + expr(depth, vars) + ", " + expr(depth, vars) + "}";
      case 3: {
        std::vector<std::string> inner = vars;
        inner.push_back("i");
        return "[" + expr(depth, inner) + " for i in " + expr(depth, vars) + ".." + expr(depth, vars) +
               (pick(2) ? " if " + cond(depth, inner) : "") + "]";
      }
      case 4: return "(" + expr(depth, vars) + ", " + expr(depth, vars) + ")";
      default: return "0.." + name(vars);
    }
  }

  // `for k in LO..HI` clauses and `if` filters over the state's names.
  std::string clauses(std::vector<std::string>& vars) {
    std::string out;
    const int n = pick(3);
    for (int i = 0; i < n; ++i) {
      if (pick(3) == 0) {
        out += " if " + cond(1, vars);
      } else {
        const std::string k = "k" + std::to_string(i);
        out += " for " + k + " in " + one_of({"1..", "0..", "2.."}) + expr(1, vars);
        vars.push_back(k);
      }
    }
    return out;
  }

  std::string game(int index) {
    const std::string g = "G" + std::to_string(index);
    switch (pick(8)) {
      case 0: {
        std::string code = one_of({"0.", "4.", "8.", "c."});
        const int digits = 1 + pick(5);
        for (int i = 0; i < digits; ++i) code += "0123456789abcdef"[pick(16)];
        return "game " + g + " = octal \"" + code + "\"";
      }
      case 1:
        return "game " + g + " = subtraction {" + std::to_string(pick(6)) + ", " +
               std::to_string(1 + pick(9)) + "}";
      case 2:
        return "game " + g + " = graph { 0 -> 1, 2; 1 -> " + std::to_string(pick(4)) + "; 2 -> 3; a -> b }";
      default: break;
    }
    const bool pair = pick(3) == 0;
    std::vector<std::string> vars = pair ? std::vector<std::string>{"a", "b"} : std::vector<std::string>{"n"};
    std::string body = "game " + g + " {\n  state " + std::string(pair ? "(a, b)" : "n") + "\n";
    if (pick(4) == 0) {
      body += "  let t = " + expr(1, vars) + "\n";
      vars.push_back("t");
    }
    const int rules = 1 + pick(3);
    for (int r = 0; r < rules; ++r) {
      std::vector<std::string> scope = vars;
      std::string cl = clauses(scope);
      const std::string s = pair ? "(" + expr(1, scope) + ", " + expr(1, scope) + ")" : expr(1, scope);
      if (pick(3) == 0) {
        const std::string other = pair ? "(" + expr(1, scope) + ", " + expr(1, scope) + ")" : expr(1, scope);
        body += "  split [" + s + ", " + other + "]" + cl + "\n";
      } else {
        body += "  move " + s + cl + "\n";
      }
    }
    return body + "}";
  }

  std::string position(int games) {
    std::string g = "G" + std::to_string(pick(games));
    std::string p = g + "(" + number() + (pick(3) == 0 ? ", " + number() : "") + ")";
    if (pick(3) == 0) p += " + G" + std::to_string(pick(games)) + "(" + number() + ")";
    return p;
  }

  std::string statement(int games) {
    switch (pick(12)) {
      case 0:
      case 1: return "grundy(" + position(games) + ")";
      case 2: return one_of({"outcome", "wins", "options", "winning"}) + "(" + position(games) + ")";
      case 3: return one_of({"wins", "outcome", "winning", "options"}) + "(misere (" + position(games) + "))";
      case 4: return one_of({"wins", "steps", "winning"}) + "(every (" + position(games) + "))";
      case 5: return "genus(" + position(games) + ")";
      case 6: return "period(G" + std::to_string(pick(games)) + (pick(2) ? ", 200)" : ")");
      case 7: return "table(grundy(G" + std::to_string(pick(games)) + "(n)) for n in 0.." + number() + ")";
      case 8: return "[grundy(G" + std::to_string(pick(games)) + "(n)) for n in " + collection(1, {}) + "]";
      case 9: return "assert " + cond(2, {});
      case 10: return "let v = " + expr(3, {});
      default: return expr(3, {});
    }
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace grundy::fuzz
