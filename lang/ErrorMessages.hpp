// Every must<> point of the grammar and what the user is told when it fails, in one table
// (the json_errors.hpp idiom). A must<> point without a message does not compile.
#pragma once

#include "lang/Grammar.hpp"

namespace grundy::lang {

template <typename>
inline constexpr const char* error_message = nullptr;

#define GRUNDY_MESSAGE(rule, text) \
  template <>                      \
  inline constexpr const char* error_message<grammar::rule> = text

GRUNDY_MESSAGE(statement_body, "expected a statement: a game, def, let, assert, import or an expression");
GRUNDY_MESSAGE(statement_end, "expected an operator or the end of the statement");
GRUNDY_MESSAGE(str_close, "unterminated string: expected '\"'");
GRUNDY_MESSAGE(escape_code, "unknown escape in a string (known: \\\" \\\\ \\n \\t)");
GRUNDY_MESSAGE(for_target, "expected a name (or a tuple of names) after 'for'");
GRUNDY_MESSAGE(in_keyword, "expected 'in' after the loop variable");
GRUNDY_MESSAGE(clause_expr, "expected an expression in the clause");
GRUNDY_MESSAGE(for_name, "expected a name");
GRUNDY_MESSAGE(for_name_list, "expected a name");
GRUNDY_MESSAGE(close_paren, "expected ',' or ')'");
GRUNDY_MESSAGE(close_bracket, "expected ',' or ']'");
GRUNDY_MESSAGE(close_brace, "expected ',' or '}'");
GRUNDY_MESSAGE(elements_to<grammar::close_paren>, "expected an expression or ')'");
GRUNDY_MESSAGE(elements_to<grammar::close_bracket>, "expected an expression or ']'");
GRUNDY_MESSAGE(elements_to<grammar::close_brace>, "expected an expression or '}'");
GRUNDY_MESSAGE(arguments_to<grammar::close_paren>, "expected an expression or ')'");
GRUNDY_MESSAGE(after_elem<grammar::close_paren>, "expected ',' or ')'");
GRUNDY_MESSAGE(after_elem<grammar::close_bracket>, "expected ',' or ']'");
GRUNDY_MESSAGE(after_elem<grammar::close_brace>, "expected ',' or '}'");
GRUNDY_MESSAGE(after_comma<grammar::close_paren>, "expected an expression or ')'");
GRUNDY_MESSAGE(after_comma<grammar::close_bracket>, "expected an expression or ']'");
GRUNDY_MESSAGE(after_comma<grammar::close_brace>, "expected an expression or '}'");
GRUNDY_MESSAGE(after_clauses<grammar::close_paren>, "expected 'for', 'if' or ')'");
GRUNDY_MESSAGE(after_clauses<grammar::close_bracket>, "expected 'for', 'if' or ']'");
GRUNDY_MESSAGE(after_clauses<grammar::close_brace>, "expected 'for', 'if' or '}'");
GRUNDY_MESSAGE(if_cond, "expected a condition after 'if'");
GRUNDY_MESSAGE(then_keyword, "expected 'then' after the condition of 'if'");
GRUNDY_MESSAGE(if_then, "expected an expression after 'then'");
GRUNDY_MESSAGE(else_keyword, "expected 'else': an 'if' expression needs both branches");
GRUNDY_MESSAGE(if_else, "expected an expression after 'else'");
GRUNDY_MESSAGE(pow_rhs, "expected an exponent after '^'");
GRUNDY_MESSAGE(neg_operand, "expected an expression after '-'");
GRUNDY_MESSAGE(mul_rhs, "expected an expression after the operator");
GRUNDY_MESSAGE(add_rhs, "expected an expression after the operator");
GRUNDY_MESSAGE(xor_rhs, "expected an expression after 'xor'");
GRUNDY_MESSAGE(range_rhs, "expected the upper bound of the range after '..'");
GRUNDY_MESSAGE(mod_operand, "expected a position or sum after the modifier");
GRUNDY_MESSAGE(cmp_rhs, "expected an expression after the comparison");
GRUNDY_MESSAGE(not_operand, "expected an expression after 'not'");
GRUNDY_MESSAGE(and_rhs, "expected an expression after 'and'");
GRUNDY_MESSAGE(or_rhs, "expected an expression after 'or'");
GRUNDY_MESSAGE(param_list, "expected a name or ')'");
GRUNDY_MESSAGE(param_name, "expected a name");
GRUNDY_MESSAGE(params_end, "expected ',' or ')'");
GRUNDY_MESSAGE(state_pattern, "expected a state pattern after 'state': a name like n, or (a, b)");
GRUNDY_MESSAGE(state_names, "expected the names of the state, e.g. (a, b)");
GRUNDY_MESSAGE(state_name, "expected a name");
GRUNDY_MESSAGE(let_name, "expected a name after 'let'");
GRUNDY_MESSAGE(equals, "expected '='");
GRUNDY_MESSAGE(let_value, "expected an expression after '='");
GRUNDY_MESSAGE(move_value, "expected the position to move to after 'move'");
GRUNDY_MESSAGE(rule_clauses, "expected 'for' or 'if' clauses");
GRUNDY_MESSAGE(split_parts, "expected '[' after 'split': a split lists its parts, e.g. split [a, n - a]");
GRUNDY_MESSAGE(body_open, "expected '{' to start the game's rules, or '=' for a shorthand");
GRUNDY_MESSAGE(body_close, "expected a rule (state, let, move, split, value) or '}'");
GRUNDY_MESSAGE(value_expr, "expected the state's nim-value after 'value', e.g. value n % 3");
GRUNDY_MESSAGE(octal_code, "expected the code as a string, e.g. octal \"0.77\"");
GRUNDY_MESSAGE(subtraction_set, "expected the subtraction set, e.g. subtraction {1, 3, 4}");
GRUNDY_MESSAGE(graph_open, "expected '{' after 'graph'");
GRUNDY_MESSAGE(graph_entries, "expected graph edges, e.g. 0 -> 1, 2; 1 -> 3");
GRUNDY_MESSAGE(graph_targets, "expected the nodes this node moves to after '->'");
GRUNDY_MESSAGE(graph_close, "expected a node label, '->' or '}' in the graph");
GRUNDY_MESSAGE(game_form,
               "expected octal \"...\", subtraction {...}, graph {...} or a game instance after '='");
GRUNDY_MESSAGE(game_name, "expected a game name after 'game'");
GRUNDY_MESSAGE(game_rest, "expected '{', '(' or '=' after the game name");
GRUNDY_MESSAGE(def_name, "expected a function name after 'def'");
GRUNDY_MESSAGE(def_params, "expected '(' and the parameters of the function");
GRUNDY_MESSAGE(def_equals, "expected '=' before the body of the function");
GRUNDY_MESSAGE(def_body, "expected the function's body after '='");
GRUNDY_MESSAGE(assert_cond, "expected a condition after 'assert'");
GRUNDY_MESSAGE(too_deep, "nested too deeply: more than 256 levels of brackets and operators");
GRUNDY_MESSAGE(import_target, "expected a module name or a \"path\" after 'import'");

#undef GRUNDY_MESSAGE

struct grammar_errors {
  template <typename Rule>
  static constexpr const char* message = error_message<Rule>;
  // Only must<> points raise; a failed alternative backtracks.
  template <typename Rule>
  static constexpr bool raise_on_failure = false;
};

template <typename Rule>
using grammar_control = tao::pegtl::must_if<grammar_errors>::control<Rule>;

}  // namespace grundy::lang
