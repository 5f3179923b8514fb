// Recursion the language allows (functions calling themselves, queries inside rules) runs on
// the C++ stack. Before it could overflow, a guard turns it into an ordinary limit error.
#pragma once

namespace grundy {

// Throws Error(Limit) when less than a safety margin of the current thread's stack is left.
void check_stack();

}  // namespace grundy
