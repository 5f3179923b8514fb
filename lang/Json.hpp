// Values as JSON for other programs (`--format json`, LANGUAGE.md section 12): integers and
// booleans as themselves, outcomes and strings as strings, tuples, lists and sets as arrays,
// a position as {"position": "Kayles(10)", "game": "Kayles", "params": [], "state": 10}, a sum
// as {"sum": [...]}, a loopy value as {"inf": [0, 2]}, a period as {"start": 71, "period": 12,
// "proven": true}.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "runtime/Value.hpp"

namespace grundy::lang {

nlohmann::ordered_json to_json(const Value& v);
// One line of JSON Lines: the value, without a newline.
std::string json_line(const Value& v);

}  // namespace grundy::lang
