#include "lang/MoveOrigin.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "lang/Analysis.hpp"
#include "runtime/Show.hpp"

namespace grundy::lang {

namespace {

// The end of a rule's text that no later item or clause marks: the end of its line, or the
// brace that closes the game's body.
std::uint32_t end_of_rule(std::string_view text, std::uint32_t from) {
  int depth = 0;
  for (std::uint32_t i = from; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) return i;
      --depth;
    }
    if (c == '\n' && depth == 0) return i;
  }
  return static_cast<std::uint32_t>(text.size());
}

bool is_local(const Expr& e, int slot) {
  return e.kind == ExprKind::Name && e.binding.to == Binding::To::Local && e.binding.index == slot;
}

}  // namespace

std::string guard_text(const Sources& sources, const GameDecl& decl, const GameItem& state) {
  if (state.clauses.empty() || !state.where.known()) return {};
  const std::string_view text = sources.file(state.where.file).text;
  std::uint32_t end = end_of_rule(text, state.where.offset);
  for (std::size_t i = 0; i + 1 < decl.items.size(); ++i) {
    if (&decl.items[i] == &state && decl.items[i + 1].where.file == state.where.file) {
      end = std::min(end, decl.items[i + 1].where.offset);
    }
  }
  // Up to a comment on the line, if any (a '#' outside a string).
  const std::uint32_t from = text_start(*state.clauses[0].expr);
  bool quoted = false;
  for (std::uint32_t i = from; i < end; ++i) {
    if (text[i] == '"' && (i == 0 || text[i - 1] != '\\')) quoted = !quoted;
    if (text[i] == '#' && !quoted) end = i;
  }
  return source_slice(text, from, end);
}

OptionOrigin origin_of(const Sources& sources, const GameDecl& decl, std::size_t item, const Frame& frame) {
  OptionOrigin o;
  if (item >= decl.items.size()) return o;
  const GameItem& it = decl.items[item];
  if (it.exprs.empty() || !it.where.known()) return o;
  const std::string_view text = sources.file(it.where.file).text;
  const std::uint32_t end = item + 1 < decl.items.size() && decl.items[item + 1].where.file == it.where.file
                                ? decl.items[item + 1].where.offset
                                : end_of_rule(text, it.where.offset);
  const std::uint32_t rule_end = it.clauses.empty() ? end : it.clauses[0].where.offset;
  o.rule = source_slice(text, text_start(*it.exprs[0]), rule_end);
  // The locals that change with the position: the state's names, and the game's `let`s that
  // read them (`let m = 300000 - n`), in order.
  std::vector<int> state_slots;
  for (const GameItem& s : decl.items) {
    if (s.kind == GameItem::Kind::State) state_slots.insert(state_slots.end(), s.slots.begin(), s.slots.end());
    if (s.kind == GameItem::Kind::Let && !s.exprs.empty() &&
        std::any_of(state_slots.begin(), state_slots.end(), [&](int slot) { return mentions(*s.exprs[0], slot); }))
      state_slots.insert(state_slots.end(), s.slots.begin(), s.slots.end());
  }
  for (const Clause& c : it.clauses) {
    if (c.kind == Clause::Kind::If) o.conditional = true;
    if (c.kind != Clause::Kind::For) continue;
    // A loop over a range the position bounds (`for k in 1..min(1, N - n)`) is a condition
    // too: the rule may stop where the position says.
    if (c.expr && std::any_of(state_slots.begin(), state_slots.end(),
                              [&](int slot) { return mentions(*c.expr, slot); }))
      o.conditional = true;
    for (std::size_t i = 0; i < c.names.size() && i < c.slots.size(); ++i) {
      const auto slot = static_cast<std::size_t>(c.slots[i]);
      if (slot >= frame.size()) continue;
      o.bindings += (o.bindings.empty() ? "" : ", ") + c.names[i] + " = " + shown(frame[slot]);
    }
  }
  // `move n - k for k in A..B` with n the state: k may pass n. The fix bounds it by n.
  const GameItem* state = nullptr;
  for (const GameItem& s : decl.items) {
    if (s.kind == GameItem::Kind::State && !s.tuple_pattern && !s.slots.empty()) state = &s;
  }
  const Expr& e = *it.exprs[0];
  if (state && it.kind == GameItem::Kind::Move && it.exprs.size() == 1 && e.kind == ExprKind::Binary &&
      e.op == BinOp::Sub && is_local(*e.args[0], state->slots[0])) {
    for (std::size_t ci = 0; ci < it.clauses.size(); ++ci) {
      const Clause& c = it.clauses[ci];
      if (c.kind != Clause::Kind::For || c.slots.size() != 1 || !is_local(*e.args[1], c.slots[0]) ||
          c.expr->kind != ExprKind::Range) {
        continue;
      }
      const std::uint32_t clause_end = ci + 1 < it.clauses.size() ? it.clauses[ci + 1].where.offset : end;
      const std::string written = source_slice(text, c.where.offset, clause_end);
      const std::size_t dots = written.rfind("..");
      if (dots == std::string::npos) break;
      o.fix = written.substr(0, dots + 2) + "min(" + written.substr(dots + 2) + ", " + state->names[0] + ")";
      break;
    }
  }
  return o;
}

}  // namespace grundy::lang
