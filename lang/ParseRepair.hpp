// Syntax errors made precise (lang/ParseRepair.cpp): what a failed parse of one statement
// reports, in the writer's terms.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "lang/Source.hpp"
#include "lang/Statements.hpp"
#include "runtime/Error.hpp"

namespace grundy::lang {

struct SyntaxError {
  Where where;
  std::string message;
  std::string hint;
};

// The parse of the statement `span` of `split` (the text of `file`) stopped at offset `at`
// with PEGTL's `message` (what the grammar rule there expected).
SyntaxError explain_syntax_error(const Sources& sources, int file, const StatementSplit& split,
                                 const StatementSpan& span, std::uint32_t at, std::string_view message);

}  // namespace grundy::lang
