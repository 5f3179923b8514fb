// Source text -> AST. PEGTL builds a parse tree of one statement at a time (the grammar is in
// Grammar.hpp, its messages in ErrorMessages.hpp); the builder below turns that tree into
// the AST of Ast.hpp, with a Where on every node.
#include "lang/Parser.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include <tao/pegtl/contrib/parse_tree.hpp>

#include "lang/ErrorMessages.hpp"
#include "lang/Grammar.hpp"
#include "lang/ParseRepair.hpp"
#include "lang/Statements.hpp"
#include "runtime/Error.hpp"
#include "runtime/Memory.hpp"

namespace grundy::lang {

namespace pegtl = tao::pegtl;
namespace pt = tao::pegtl::parse_tree;
using namespace grammar;

namespace {

struct ParseTooLarge {
  const char* at;  // where in the text the parse was
  std::uint64_t max_memory;
};

template <typename Rule>
using selector = pt::selector<
    Rule,
    pt::store_content::on<int_lit, str_lit, true_lit, false_lit, name_ref, name_decl, state_name, param_name,
                          let_name, game_name, def_name, module_name, graph_label, pow_op, neg_op, mul_op,
                          add_op, xor_op, range_op, mod_op, cmp_op, not_op, and_op, or_op, tuple_comma>,
    pt::fold_one::on<or_expr, and_expr, not_expr, cmp_expr, mod_expr, range_expr, xor_expr, add_expr,
                     mul_expr, unary_expr, power_expr, postfix_expr>,
    pt::remove_content::on<loopy_mark, call_suffix, index_suffix, paren_expr, list_expr, set_expr, if_expr,
                           for_clause, if_clause, game_stmt, game_body, game_params, state_item, state_tuple,
                           let_item, move_item, split_item, value_item, split_parts, octal_form,
                           subtraction_form, graph_form, graph_entry, alias_form, def_stmt, let_stmt,
                           assert_stmt, import_stmt, expr_stmt>>;

// The heap a parse may hold (--max-memory): a statement of megabytes makes millions of
// parse-tree nodes, so the heap is looked at every 1024 of them.
struct ParseBudget {
  std::uint64_t max_memory;
  const std::atomic<bool>* interrupt;  // Ctrl-C, looked at as often as the heap
  std::uint64_t nodes = 0;
};

struct Node : pt::basic_node<Node> {
  template <typename Rule, typename ParseInput>
  void start(const ParseInput& in, ParseBudget& budget) {
    pt::basic_node<Node>::template start<Rule>(in);
    if ((++budget.nodes & 0x3FF) == 0) {
      check_interrupt(budget.interrupt);
      if (heap_over(budget.max_memory)) parse_memory_exceeded(budget, in);
    }
  }
  template <typename ParseInput>
  [[noreturn]] static void parse_memory_exceeded(const ParseBudget& budget, const ParseInput& in) {
    throw ParseTooLarge{in.current(), budget.max_memory};
  }
};

std::string trimmed(const Node& n) {
  std::string_view s = n.string_view();
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return std::string(s);
}

// A syntax error found while building the AST (a literal out of range).
struct BuildError {
  Where where;
  std::string message;
  std::string hint;
};

class Builder {
 public:
  Builder(int file, std::uint32_t base) : file_(file), base_(base) {}

  Where at(const Node& n) const { return Where{file_, base_ + static_cast<std::uint32_t>(n.begin().byte)}; }

  Stmt statement(const Node& n) {
    Stmt s;
    s.where = at(n);
    if (n.is_type<game_stmt>()) {
      s.kind = Stmt::Kind::Game;
      s.game = game(n);
      s.name = s.game->name;
    } else if (n.is_type<def_stmt>()) {
      s.kind = Stmt::Kind::Def;
      s.def = def(n);
      s.name = s.def->name;
    } else if (n.is_type<let_stmt>()) {
      s.kind = Stmt::Kind::Let;
      s.name = trimmed(*n.children.at(0));
      s.expr = expr(*n.children.at(1));
    } else if (n.is_type<assert_stmt>()) {
      s.kind = Stmt::Kind::Assert;
      s.expr = expr(*n.children.at(0));
    } else if (n.is_type<import_stmt>()) {
      s.kind = Stmt::Kind::Import;
      const Node& t = *n.children.at(0);
      s.where = at(t);
      if (t.is_type<str_lit>()) {
        s.import_path = true;
        s.name = unquote(t);
      } else {
        s.name = trimmed(t);
      }
    } else {
      s.kind = Stmt::Kind::Expr;
      s.expr = expr(*n.children.at(0));
    }
    return s;
  }

 private:
  std::unique_ptr<GameDecl> game(const Node& n) {
    auto g = std::make_unique<GameDecl>();
    std::size_t first = 0;
    if (n.children.at(0)->is_type<loopy_mark>()) {
      g->loopy = true;
      first = 1;
    }
    const Node& name = *n.children.at(first);
    g->name = trimmed(name);
    g->where = at(name);
    const Node& rest = *n.children.at(first + 1);
    if (rest.is_type<game_body>()) {
      g->form = GameDecl::Form::Rules;
      for (const auto& c : rest.children) {
        if (c->is_type<game_params>()) {
          for (const auto& p : c->children) {
            g->params.push_back(trimmed(*p));
            g->param_wheres.push_back(at(*p));
          }
        } else {
          g->items.push_back(item(*c));
        }
      }
    } else if (rest.is_type<octal_form>()) {
      g->form = GameDecl::Form::Octal;
      g->code = unquote(*rest.children.at(0));
      g->code_where = at(*rest.children.at(0));
    } else if (rest.is_type<subtraction_form>()) {
      g->form = GameDecl::Form::Subtraction;
      g->expr = expr(*rest.children.at(0));
    } else if (rest.is_type<graph_form>()) {
      g->form = GameDecl::Form::Graph;
      for (const auto& e : rest.children) g->edges.push_back(edge(*e));
    } else {
      g->form = GameDecl::Form::Alias;
      g->expr = expr(*rest.children.at(0));
    }
    return g;
  }

  Label label(const Node& n) {
    std::string s = trimmed(n);
    if (!s.empty() && s[0] >= '0' && s[0] <= '9') return Label{true, integer(n, s), {}};
    return Label{false, 0, s};
  }

  GraphEdge edge(const Node& n) {
    GraphEdge e;
    e.where = at(*n.children.at(0));
    e.from = label(*n.children.at(0));
    for (std::size_t i = 1; i < n.children.size(); ++i) {
      e.to.push_back(label(*n.children[i]));
      e.to_wheres.push_back(at(*n.children[i]));
    }
    return e;
  }

  GameItem item(const Node& n) {
    GameItem it;
    it.where = at(n);
    if (n.is_type<state_item>()) {
      it.kind = GameItem::Kind::State;
      const Node& p = *n.children.at(0);
      if (p.is_type<state_tuple>()) {
        it.tuple_pattern = true;
        for (const auto& c : p.children) {
          it.names.push_back(trimmed(*c));
          it.name_wheres.push_back(at(*c));
        }
      } else {
        it.names.push_back(trimmed(p));
        it.name_wheres.push_back(at(p));
      }
      if (n.children.size() > 1) it.clauses.push_back(clause(*n.children[1]));  // the guard
    } else if (n.is_type<value_item>()) {
      it.kind = GameItem::Kind::Formula;
      it.exprs.push_back(expr(*n.children.at(0)));
    } else if (n.is_type<let_item>()) {
      it.kind = GameItem::Kind::Let;
      it.names.push_back(trimmed(*n.children.at(0)));
      it.name_wheres.push_back(at(*n.children.at(0)));
      it.exprs.push_back(expr(*n.children.at(1)));
    } else {
      it.kind = n.is_type<move_item>() ? GameItem::Kind::Move : GameItem::Kind::Split;
      for (const auto& c : n.children) {
        if (c->is_type<for_clause>() || c->is_type<if_clause>()) {
          it.clauses.push_back(clause(*c));
        } else if (c->is_type<split_parts>()) {
          auto parts = make(ExprKind::List, *c);
          elements(*parts, *c, 0);
          if (parts->clauses.empty()) {
            for (auto& a : parts->args) it.exprs.push_back(std::move(a));
          } else {
            it.spread = true;  // the parts are the elements of a comprehension
            it.exprs.push_back(std::move(parts));
          }
        } else {
          it.exprs.push_back(expr(*c));
        }
      }
    }
    return it;
  }

  std::unique_ptr<DefDecl> def(const Node& n) {
    auto d = std::make_unique<DefDecl>();
    d->name = trimmed(*n.children.at(0));
    d->where = at(*n.children.at(0));
    for (std::size_t i = 1; i + 1 < n.children.size(); ++i) {
      d->params.push_back(trimmed(*n.children[i]));
      d->param_wheres.push_back(at(*n.children[i]));
    }
    d->body = expr(*n.children.back());
    return d;
  }

  Clause clause(const Node& n) {
    Clause c;
    c.where = at(n);
    if (n.is_type<for_clause>()) {
      c.kind = Clause::Kind::For;
      for (std::size_t i = 0; i + 1 < n.children.size(); ++i) {
        c.names.push_back(trimmed(*n.children[i]));
        c.name_wheres.push_back(at(*n.children[i]));
      }
    } else {
      c.kind = Clause::Kind::If;
    }
    c.expr = expr(*n.children.back());
    return c;
  }

  std::int64_t integer(const Node& n, const std::string& s) {
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) {
      throw BuildError{at(n), "integer literal " + s + " is out of the 64-bit range",
                       "integers are 64-bit: the largest is 9223372036854775807"};
    }
    return v;
  }

  std::string unquote(const Node& n) {
    std::string raw = trimmed(n);
    std::string out;
    for (std::size_t i = 1; i + 1 < raw.size(); ++i) {
      char c = raw[i];
      if (c == '\\' && i + 2 < raw.size()) {
        c = raw[++i];
        if (c == 'n') c = '\n';
        else if (c == 't') c = '\t';
      }
      out += c;
    }
    return out;
  }

  ExprPtr make(ExprKind k, const Node& n) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->where = at(n);
    return e;
  }

  // Children of ( ), [ ], { } and call/index suffixes: elements, or one element and clauses.
  void elements(Expr& e, const Node& n, std::size_t from, bool* trailing_comma = nullptr) {
    for (std::size_t i = from; i < n.children.size(); ++i) {
      const Node& c = *n.children[i];
      if (c.is_type<tuple_comma>()) {
        if (trailing_comma) *trailing_comma = true;
      } else if (c.is_type<for_clause>() || c.is_type<if_clause>()) {
        e.clauses.push_back(clause(c));
      } else {
        e.args.push_back(expr(c));
      }
    }
  }

  ExprPtr binary_chain(const Node& n) {
    // operand (op operand)*, left-associative
    ExprPtr left = expr(*n.children.at(0));
    for (std::size_t i = 1; i + 1 < n.children.size(); i += 2) {
      const Node& op = *n.children[i];
      auto e = make(ExprKind::Binary, op);
      e->text = trimmed(op);
      if (op.is_type<range_op>()) e->kind = ExprKind::Range;
      if (op.is_type<cmp_op>() && e->text.rfind("not", 0) == 0) e->text = "not in";
      e->op = bin_op(e->text);
      e->args.push_back(std::move(left));
      e->args.push_back(expr(*n.children[i + 1]));
      deepen(*e);
      left = std::move(e);
    }
    return left;
  }

  // Sets e.depth from its children's; a chain of operators a million long is a tree a
  // million deep, which the recursive passes after the parser could not walk.
  static void deepen(Expr& e) {
    std::uint32_t d = 0;
    for (const ExprPtr& a : e.args) d = std::max(d, a->depth);
    for (const Clause& c : e.clauses) d = std::max(d, c.expr ? c.expr->depth : 0u);
    e.depth = d + 1;
    if (e.depth > kMaxExprDepth) {
      throw BuildError{
          e.where,
          "expression too deep: more than " + std::to_string(kMaxExprDepth) + " operations inside each other",
          "split it up with let, or build it with a comprehension such as "
          "sum([...])"};
    }
  }

 public:
  ExprPtr expr(const Node& n) {
    ExprPtr e = build(n);
    deepen(*e);
    return e;
  }

 private:
  ExprPtr build(const Node& n) {
    if (n.is_type<int_lit>()) {
      auto e = make(ExprKind::Int, n);
      e->ival = integer(n, trimmed(n));
      return e;
    }
    if (n.is_type<str_lit>()) {
      auto e = make(ExprKind::Str, n);
      e->text = unquote(n);
      return e;
    }
    if (n.is_type<true_lit>() || n.is_type<false_lit>()) {
      auto e = make(ExprKind::Bool, n);
      e->ival = n.is_type<true_lit>() ? 1 : 0;
      return e;
    }
    if (n.is_type<name_ref>()) {
      auto e = make(ExprKind::Name, n);
      e->text = trimmed(n);
      return e;
    }
    if (n.is_type<paren_expr>()) {
      bool comma = false;
      auto e = make(ExprKind::Tuple, n);
      elements(*e, n, 0, &comma);
      if (e->args.size() == 1 && !comma && e->clauses.empty()) {
        if (e->args[0]->grouped < 255) ++e->args[0]->grouped;
        return std::move(e->args[0]);
      }
      if (!e->clauses.empty()) {
        throw BuildError{e->where, "a comprehension needs [ ] or { }",
                         "write [e for x in xs] for a list or {e for x in xs} for a set"};
      }
      return e;
    }
    if (n.is_type<list_expr>() || n.is_type<set_expr>()) {
      auto e = make(n.is_type<list_expr>() ? ExprKind::List : ExprKind::Set, n);
      elements(*e, n, 0);
      return e;
    }
    if (n.is_type<if_expr>()) {
      auto e = make(ExprKind::If, n);
      for (const auto& c : n.children) e->args.push_back(expr(*c));
      return e;
    }
    if (n.is_type<postfix_expr>()) {
      ExprPtr base = expr(*n.children.at(0));
      for (std::size_t i = 1; i < n.children.size(); ++i) {
        const Node& s = *n.children[i];
        auto e = make(s.is_type<call_suffix>() ? ExprKind::Call : ExprKind::Index, s);
        e->where = base->where;
        e->args.push_back(std::move(base));
        elements(*e, s, 0);
        deepen(*e);
        base = std::move(e);
      }
      return base;
    }
    if (n.is_type<power_expr>()) {
      auto e = make(ExprKind::Binary, *n.children.at(1));
      e->text = "^";
      e->op = BinOp::Pow;
      e->args.push_back(expr(*n.children.at(0)));
      e->args.push_back(expr(*n.children.at(2)));
      return e;
    }
    if (n.is_type<unary_expr>() || n.is_type<not_expr>()) {
      auto e = make(ExprKind::Unary, *n.children.at(0));
      e->text = n.is_type<unary_expr>() ? "-" : "not";
      e->prefix = n.is_type<unary_expr>() ? PrefixOp::Neg : PrefixOp::Not;
      e->args.push_back(expr(*n.children.at(1)));
      return e;
    }
    if (n.is_type<mod_expr>()) {
      auto e = make(ExprKind::Modifier, *n.children.at(0));
      e->text = trimmed(*n.children.at(0));
      e->prefix = e->text == "every" ? PrefixOp::Every : PrefixOp::Misere;
      e->args.push_back(expr(*n.children.at(1)));
      return e;
    }
    // or_expr, and_expr, cmp_expr, range_expr, xor_expr, add_expr, mul_expr
    return binary_chain(n);
  }

 private:
  int file_;
  std::uint32_t base_;
};

// What a statement that failed to parse would have defined, so that its uses are not
// reported again as unknown names.
std::string defined_name(std::string_view text) {
  auto skip = [&](std::size_t i) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
    return i;
  };
  std::size_t i = skip(0);
  for (std::string_view kw : {"game", "def", "let"}) {
    if (text.substr(i, kw.size()) == kw && i + kw.size() < text.size() &&
        (text[i + kw.size()] == ' ' || text[i + kw.size()] == '\t')) {
      std::size_t b = skip(i + kw.size());
      std::size_t e = b;
      while (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_')) ++e;
      return std::string(text.substr(b, e - b));
    }
  }
  return {};
}

}  // namespace

Program parse_program(const Sources& sources, int file, Diagnostics& diags, std::uint32_t from,
                      std::uint64_t max_memory, const std::atomic<bool>* interrupt) {
  const SourceFile& f = sources.file(file);
  std::string text = f.text;
  std::fill(text.begin(), text.begin() + std::min<std::size_t>(from, text.size()), ' ');
  const StatementSplit split = split_statements(text);
  Program program;
  program.file = file;
  for (const StatementSpan& span : split.statements) {
    const char* begin = split.text.data() + span.begin;
    pegtl::memory_input<> in(begin, span.end - span.begin, f.name);
    try {
      check_interrupt(interrupt);  // between statements too: most are small
      ParseBudget budget{max_memory, interrupt};
      auto root = pt::parse<grammar::statement, Node, selector, pegtl::nothing, grammar_control>(in, budget);
      if (!root || root->children.empty()) continue;
      Builder b(file, span.begin);
      program.stmts.push_back(b.statement(*root->children.front()));
      if (heap_over(max_memory)) throw ParseTooLarge{split.text.data() + span.end, max_memory};
    } catch (Error& e) {  // Ctrl-C: where the parse was
      if (!e.where.known()) e.where = Where{file, span.begin};
      throw;
    } catch (const ParseTooLarge& e) {
      // A limit, not a syntax error: the run stops here (exit 70), as a statement would.
      Error limit(ErrorKind::Limit,
                  "out of memory: parsing takes the process to the limit of " +
                      std::to_string(e.max_memory >> 20) + " MB",
                  "raise the limit with --max-memory MB, or split the program into smaller files",
                  Where{file, static_cast<std::uint32_t>(e.at - split.text.data())});
      throw limit;
    } catch (const pegtl::parse_error& e) {
      const auto& pos = e.positions().front();
      const SyntaxError r = explain_syntax_error(
          sources, file, split, span, span.begin + static_cast<std::uint32_t>(pos.byte), e.message());
      diags.error(r.where, r.message, r.hint);
      std::string name = defined_name(std::string_view(begin, span.end - span.begin));
      if (!name.empty()) program.broken_names.push_back(name);
    } catch (const BuildError& e) {
      diags.error(e.where, e.message, e.hint);
    }
  }
  return program;
}

}  // namespace grundy::lang
