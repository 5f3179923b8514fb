// "Did you mean ...?": the candidate nearest to a misspelt word, when it is near enough to be a
// typo. One definition of near for every hint: names (the resolver), modules (imports), the
// rules of a game's body and the shorthands (the parser), the REPL's commands and names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace grundy::lang {

// Letters changed, added or removed, and two neighbours swapped, each counting 1 (the
// optimal string alignment distance).
std::size_t typo_distance(std::string_view a, std::string_view b);

// The first of `candidates` (give them in the order to prefer on a tie) nearest to `word`,
// at most one typo away for a word of up to five letters and two for a longer one; "" when
// none is, and never `word` itself.
std::string nearest(std::string_view word, const std::vector<std::string_view>& candidates);

// "did you mean 'x'?" for the nearest candidate, or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace grundy::lang
