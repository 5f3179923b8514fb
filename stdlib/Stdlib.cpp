#include "stdlib/Stdlib.hpp"

#include "stdlib/Modules.hpp"

namespace grundy::stdlib {

const std::string_view* find_module(std::string_view name) {
  for (std::size_t i = 0; i < detail::kModuleCount; ++i) {
    if (detail::kModules[i].name == name) return &detail::kModules[i].source;
  }
  return nullptr;
}

std::vector<std::string_view> module_names() {
  std::vector<std::string_view> names;
  names.reserve(detail::kModuleCount);
  for (std::size_t i = 0; i < detail::kModuleCount; ++i) names.push_back(detail::kModules[i].name);
  return names;
}

}  // namespace grundy::stdlib
