// The grammar of one statement, rules only (actions live in Parser.cpp, messages in
// ErrorMessages.hpp). Statement boundaries and comments were settled by split_statements,
// so inside a statement every blank, newline included, is white space.
// Every token rule eats the blanks after it (`tok<R>`), so a node's position is its token's.
// A rule named for its place (add_rhs, if_cond) wraps its operand in seq<> so that the
// operand's own node is still built in the parse tree and must<> gets its own message.
#pragma once

#include <tao/pegtl.hpp>

namespace grundy::lang::grammar {

namespace pegtl = tao::pegtl;
using namespace tao::pegtl;

struct sp : star<one<' ', '\t', '\r', '\n'>> {};
template <typename R>
struct tok : seq<R, sp> {};

struct ident_first : ranges<'a', 'z', 'A', 'Z', '_'> {};
struct ident_other : ranges<'a', 'z', 'A', 'Z', '0', '9', '_'> {};
template <typename S>
struct key : seq<S, not_at<ident_other>> {};

// keywords: game state let move split for in if then else def and or not xor misere every
// assert import true false
struct kw_game : key<TAO_PEGTL_STRING("game")> {};
struct kw_state : key<TAO_PEGTL_STRING("state")> {};
struct kw_let : key<TAO_PEGTL_STRING("let")> {};
struct kw_move : key<TAO_PEGTL_STRING("move")> {};
struct kw_split : key<TAO_PEGTL_STRING("split")> {};
struct kw_for : key<TAO_PEGTL_STRING("for")> {};
struct kw_in : key<TAO_PEGTL_STRING("in")> {};
struct kw_if : key<TAO_PEGTL_STRING("if")> {};
struct kw_then : key<TAO_PEGTL_STRING("then")> {};
struct kw_else : key<TAO_PEGTL_STRING("else")> {};
struct kw_def : key<TAO_PEGTL_STRING("def")> {};
struct kw_and : key<TAO_PEGTL_STRING("and")> {};
struct kw_or : key<TAO_PEGTL_STRING("or")> {};
struct kw_not : key<TAO_PEGTL_STRING("not")> {};
struct kw_xor : key<TAO_PEGTL_STRING("xor")> {};
struct kw_misere : key<TAO_PEGTL_STRING("misere")> {};
struct kw_every : key<TAO_PEGTL_STRING("every")> {};
struct kw_assert : key<TAO_PEGTL_STRING("assert")> {};
struct kw_import : key<TAO_PEGTL_STRING("import")> {};
struct kw_true : key<TAO_PEGTL_STRING("true")> {};
struct kw_false : key<TAO_PEGTL_STRING("false")> {};
// A keyword only at the start of a rule in a game's body (elsewhere a name like any other).
struct kw_value : key<TAO_PEGTL_STRING("value")> {};
// Keywords only after `game NAME =`.
struct kw_octal : key<TAO_PEGTL_STRING("octal")> {};
struct kw_subtraction : key<TAO_PEGTL_STRING("subtraction")> {};
struct kw_graph : key<TAO_PEGTL_STRING("graph")> {};
// A keyword only right before `game` (elsewhere a name like any other).
struct kw_loopy : key<TAO_PEGTL_STRING("loopy")> {};

struct keyword
    : sor<kw_game, kw_state, kw_let, kw_move, kw_split, kw_for, kw_in, kw_if, kw_then, kw_else, kw_def,
          kw_and, kw_or, kw_not, kw_xor, kw_misere, kw_every, kw_assert, kw_import, kw_true, kw_false> {};
struct identifier : seq<not_at<keyword>, ident_first, star<ident_other>> {};

// punctuation
struct comma : tok<one<','>> {};
struct open_paren : tok<one<'('>> {};
struct close_paren : tok<one<')'>> {};
struct open_bracket : tok<one<'['>> {};
struct close_bracket : tok<one<']'>> {};
struct open_brace : tok<one<'{'>> {};
struct close_brace : tok<one<'}'>> {};
struct equals : tok<seq<one<'='>, not_at<one<'='>>>> {};

// ---- expressions, lowest precedence first ----
// expr -> or_expr
// or_expr -> and_expr ('or' and_expr)*
// and_expr -> not_expr ('and' not_expr)*
// not_expr -> 'not' not_expr | cmp_expr
// cmp_expr -> mod_expr (cmp_op mod_expr)?            (no chaining)
// mod_expr -> ('misere' | 'every') mod_expr | range_expr
// range_expr -> xor_expr ('..' xor_expr)?
// xor_expr -> add_expr ('xor' add_expr)*
// add_expr -> mul_expr (('+' | '-') mul_expr)*
// mul_expr -> unary_expr (('*' | '/' | '%') unary_expr)*
// unary_expr -> '-' unary_expr | power_expr
// power_expr -> postfix_expr ('^' unary_expr)?       (right-associative)
// postfix_expr -> primary (call_suffix | index_suffix)*
struct expr;

// Nesting. Every level of brackets, prefix operators (- not misere every, and ^ on its right)
// and if/then/else re-enters one of the rules wrapped in nest<>; past kMaxNesting levels the
// parse stops with a compile error (too_deep) long before the C++ stack could overflow.
inline constexpr std::size_t kMaxNesting = 256;
struct too_deep : failure {};
template <typename Rule>
struct nest {
  using rule_t = nest;
  using subs_t = type_list<Rule>;
  template <apply_mode A, rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename ParseInput, typename... States>
  [[nodiscard]] static bool match(ParseInput& in, States&&... st) {
    // The top-level expression is level 0, so 256 nested brackets are still accepted.
    if (in.private_depth > kMaxNesting) Control<too_deep>::raise(in, st...);
    ++in.private_depth;
    struct Leave {
      std::size_t& depth;
      ~Leave() { --depth; }
    } leave{in.private_depth};
    return Control<Rule>::template match<A, M, Action, Control>(in, st...);
  }
};

struct int_lit : seq<plus<digit>, not_at<ident_other>> {};
// An escape is \" \\ \n or \t; a backslash before anything else is an error at once.
struct escape_code : one<'"', '\\', 'n', 't'> {};
struct str_escape : if_must<one<'\\'>, escape_code> {};
struct str_char : sor<str_escape, not_one<'"', '\\', '\n', '\r'>> {};
struct str_close : one<'"'> {};
struct str_lit : seq<one<'"'>, star<str_char>, must<str_close>> {};
struct true_lit : kw_true {};
struct false_lit : kw_false {};
struct name_ref : identifier {};

// clause -> 'for' target 'in' expr | 'if' expr
// target -> NAME | '(' NAME (',' NAME)* ')'
// In every list of names (this one, parameters, a state tuple) a comma must be followed by a
// name: `(x, 3)` is "expected a name" at the 3, not a complaint about the comma.
struct name_decl : identifier {};
struct for_name : tok<name_decl> {};
struct for_name_list : list_must<for_name, comma> {};
struct for_names : if_must<open_paren, for_name_list, close_paren> {};
struct for_target : sor<tok<name_decl>, for_names> {};
struct in_keyword : tok<kw_in> {};
struct clause_expr : seq<expr> {};
struct for_clause : if_must<tok<kw_for>, for_target, in_keyword, clause_expr> {};
struct if_clause : if_must<tok<kw_if>, clause_expr> {};
struct clause : sor<for_clause, if_clause> {};
struct clauses : plus<clause> {};

// Elements of ( ), [ ], { } and their closing bracket: nothing, a comprehension, or
// expressions separated by commas (a trailing comma allowed). Each place the closing bracket
// may come has its own must<> point, so that the message says what could come there:
// elements_to<Close> itself (nothing read yet: an expression or the bracket),
// after_elem<Close> (',' or the bracket), after_comma<Close> (an expression or the bracket)
// and after_clauses<Close> (another clause or the bracket).
struct elem : seq<expr> {};
struct tuple_comma : comma {};
template <typename Close>
struct after_elem : Close {};
template <typename Close>
struct after_comma : Close {};
template <typename Close>
struct after_clauses : Close {};
template <typename Close>
struct elements_to
    : sor<Close, seq<elem, sor<seq<clauses, must<after_clauses<Close>>>,
                               seq<star<tuple_comma, elem>, sor<seq<tuple_comma, must<after_comma<Close>>>,
                                                                must<after_elem<Close>>>>>>> {};

struct paren_expr : if_must<open_paren, elements_to<close_paren>> {};
struct list_expr : if_must<open_bracket, elements_to<close_bracket>> {};
struct set_expr : if_must<open_brace, elements_to<close_brace>> {};

struct then_keyword : tok<kw_then> {};
struct else_keyword : tok<kw_else> {};
struct if_cond : seq<expr> {};
struct if_then : seq<expr> {};
struct if_else : seq<expr> {};
// if_expr -> 'if' expr 'then' expr 'else' expr
struct if_expr : if_must<tok<kw_if>, if_cond, then_keyword, if_then, else_keyword, if_else> {};

struct primary : sor<tok<int_lit>, tok<str_lit>, tok<true_lit>, tok<false_lit>, if_expr, paren_expr,
                     list_expr, set_expr, tok<name_ref>> {};

// A call's arguments are elements, and the last may be a generator: `plot(FILE, E for n in
// A..B)` (`sum(E for x in S)` is the case of one argument).
template <typename Close>
struct arguments_to
    : sor<Close, seq<elem, sor<seq<clauses, must<after_clauses<Close>>>,
                               seq<star<tuple_comma, elem>,
                                   sor<seq<tuple_comma, must<after_comma<Close>>>,
                                       seq<clauses, must<after_clauses<Close>>>, must<after_elem<Close>>>>>>> {};
struct call_suffix : if_must<open_paren, arguments_to<close_paren>> {};
struct index_suffix : if_must<open_bracket, elements_to<close_bracket>> {};
struct postfix_expr : seq<primary, star<sor<call_suffix, index_suffix>>> {};

struct unary_expr;
struct pow_op : tok<one<'^'>> {};
struct pow_rhs : nest<unary_expr> {};
struct power_expr : seq<postfix_expr, opt<if_must<pow_op, pow_rhs>>> {};

struct neg_op : tok<one<'-'>> {};
struct neg_operand : nest<unary_expr> {};
struct unary_expr : sor<if_must<neg_op, neg_operand>, power_expr> {};

struct mul_op : tok<one<'*', '/', '%'>> {};
struct mul_rhs : seq<unary_expr> {};
struct mul_expr : seq<unary_expr, star<if_must<mul_op, mul_rhs>>> {};

struct add_op : tok<sor<one<'+'>, seq<one<'-'>, not_at<one<'>'>>>>> {};
struct add_rhs : seq<mul_expr> {};
struct add_expr : seq<mul_expr, star<if_must<add_op, add_rhs>>> {};

struct xor_op : tok<kw_xor> {};
struct xor_rhs : seq<add_expr> {};
struct xor_expr : seq<add_expr, star<if_must<xor_op, xor_rhs>>> {};

struct range_op : tok<TAO_PEGTL_STRING("..")> {};
struct range_rhs : seq<xor_expr> {};
struct range_expr : seq<xor_expr, opt<if_must<range_op, range_rhs>>> {};

struct mod_expr;
struct mod_op : tok<sor<kw_misere, kw_every>> {};
struct mod_operand : nest<mod_expr> {};
struct mod_expr : sor<if_must<mod_op, mod_operand>, range_expr> {};

struct not_in : seq<kw_not, sp, kw_in> {};
struct cmp_op : tok<sor<TAO_PEGTL_STRING("=="), TAO_PEGTL_STRING("!="), TAO_PEGTL_STRING("<="),
                        TAO_PEGTL_STRING(">="), one<'<'>, one<'>'>, kw_in, not_in>> {};
struct cmp_rhs : seq<mod_expr> {};
struct cmp_expr : seq<mod_expr, opt<if_must<cmp_op, cmp_rhs>>> {};

struct not_expr;
struct not_op : tok<kw_not> {};
struct not_operand : nest<not_expr> {};
struct not_expr : sor<if_must<not_op, not_operand>, cmp_expr> {};

struct and_op : tok<kw_and> {};
struct and_rhs : seq<not_expr> {};
struct and_expr : seq<not_expr, star<if_must<and_op, and_rhs>>> {};

struct or_op : tok<kw_or> {};
struct or_rhs : seq<and_expr> {};
struct or_expr : seq<and_expr, star<if_must<or_op, or_rhs>>> {};

struct expr : nest<or_expr> {};

// ---- games ----
// game -> 'loopy'? 'game' NAME ( '=' shorthand | params? '{' item* '}' )
struct game_name : tok<identifier> {};
// params -> '(' ')' | '(' NAME (',' NAME)* ')'
struct param_name : tok<identifier> {};
struct params_end : close_paren {};
struct param_list : sor<close_paren, seq<list_must<param_name, comma>, must<params_end>>> {};
struct game_params : if_must<open_paren, param_list> {};

struct state_name : tok<identifier> {};
struct state_names : list_must<state_name, comma> {};
struct state_tuple : if_must<open_paren, state_names, close_paren> {};
struct state_pattern : sor<state_name, state_tuple> {};
// state PATTERN if COND: the positions written G(...) must satisfy COND (a precondition).
struct state_head : if_must<tok<kw_state>, state_pattern> {};
struct state_item : seq<state_head, opt<if_clause>> {};

struct let_name : tok<identifier> {};
struct let_value : seq<expr> {};
struct let_item : if_must<tok<kw_let>, let_name, equals, let_value> {};

struct move_value : seq<expr> {};
struct rule_clauses : opt<clauses> {};
struct move_item : if_must<tok<kw_move>, move_value, rule_clauses> {};

// split [a, n - a] lists its parts; split [e for x in xs] computes them (any number).
struct split_parts : seq<open_bracket, must<elements_to<close_bracket>>> {};
struct split_item : if_must<tok<kw_split>, split_parts, rule_clauses> {};

// value EXPR: the state's nim-value by a formula, used for normal play instead of a search.
struct value_expr : seq<expr> {};
struct value_item : if_must<tok<kw_value>, value_expr> {};

struct game_item : sor<state_item, let_item, move_item, split_item, value_item> {};
struct body_close : close_brace {};
struct body_open : open_brace {};
struct game_body : seq<opt<game_params>, must<body_open>, star<game_item>, must<body_close>> {};

struct octal_code : tok<str_lit> {};
struct octal_form : if_must<tok<kw_octal>, octal_code> {};
struct subtraction_set : seq<expr> {};
struct subtraction_form : if_must<tok<kw_subtraction>, subtraction_set> {};

// graph -> 'graph' '{' (label ('->' label (',' label)*)? ';'?)* '}'
struct graph_label : tok<sor<int_lit, identifier>> {};
struct arrow : tok<TAO_PEGTL_STRING("->")> {};
struct graph_targets : list<graph_label, comma> {};
struct graph_entry : seq<graph_label, opt<if_must<arrow, graph_targets>>, opt<tok<one<';'>>>> {};
struct graph_close : close_brace {};
struct graph_open : open_brace {};
struct graph_entries : star<graph_entry> {};
struct graph_form : if_must<tok<kw_graph>, graph_open, graph_entries, graph_close> {};

struct alias_form : seq<expr> {};
struct game_form : sor<octal_form, subtraction_form, graph_form, alias_form> {};
struct game_shorthand : if_must<equals, game_form> {};
struct game_rest : sor<game_shorthand, game_body> {};
// 'loopy' game ...: play may go on for ever (a draw).
struct loopy_mark : seq<tok<kw_loopy>, at<kw_game>> {};
struct game_stmt : seq<opt<loopy_mark>, if_must<tok<kw_game>, game_name, game_rest>> {};

// def -> 'def' NAME '(' params ')' '=' expr
struct def_name : tok<identifier> {};
struct def_params : if_must<open_paren, param_list> {};
struct def_equals : equals {};
struct def_body : seq<expr> {};
struct def_stmt : if_must<tok<kw_def>, def_name, def_params, def_equals, def_body> {};

struct let_stmt : if_must<tok<kw_let>, let_name, equals, let_value> {};
struct assert_cond : seq<expr> {};
struct assert_stmt : if_must<tok<kw_assert>, assert_cond> {};
struct module_name : tok<identifier> {};
struct import_path : tok<str_lit> {};
struct import_target : sor<import_path, module_name> {};
struct import_stmt : if_must<tok<kw_import>, import_target> {};
struct expr_stmt : seq<expr> {};

struct statement_end : eof {};
struct statement_body : sor<game_stmt, def_stmt, let_stmt, assert_stmt, import_stmt, expr_stmt> {};
struct statement : seq<sp, must<statement_body>, must<statement_end>> {};

}  // namespace grundy::lang::grammar
