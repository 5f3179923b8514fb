// The query builtins, for the table of lang/Builtins.cpp (defined in lang/Queries.cpp).
#pragma once

#include "lang/BuiltinTable.hpp"
#include "runtime/Game.hpp"

namespace grundy::lang {

Value query_grundy(BuiltinCall& c);
Value query_play(BuiltinCall& c);   // outcome, wins, options, winning
Value query_loopy(BuiltinCall& c);  // draws, drawing, remoteness (lang/LoopyQueries.cpp)
// grundy, outcome, wins, options and winning of a sum with a loopy part.
Value loopy_query(BuiltinCall& c, const Sum& s);
Value query_steps(BuiltinCall& c);
Value query_genus(BuiltinCall& c);
Value query_period(BuiltinCall& c);
Value query_table(BuiltinCall& c);
Value query_dot(BuiltinCall& c);  // lang/Dot.cpp
Value query_plot(BuiltinCall& c);  // lang/Plot.cpp
// lang/Quotients.cpp
Value query_quotient(BuiltinCall& c);
Value query_quotient_part(BuiltinCall& c);  // size, psize, tame, presentation, phi
Value quotient_period(BuiltinCall& c);

}  // namespace grundy::lang
