// The standard library: modules written in the rule language itself (stdlib/*.game),
// compiled into the binary so that `import nim` works from any directory.
#pragma once

#include <string_view>
#include <vector>

namespace grundy::stdlib {

// The source of a standard module (`import nim`), or nullptr if there is none.
// The pointee lives as long as the program.
const std::string_view* find_module(std::string_view name);

// The names of all standard modules, sorted.
std::vector<std::string_view> module_names();

}  // namespace grundy::stdlib
