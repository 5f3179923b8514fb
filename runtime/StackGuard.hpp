// Recursion the language allows (functions calling themselves, queries inside rules) runs on
// the C++ stack. Before it could overflow, a guard turns it into an ordinary limit error.
#pragma once

#include <cstddef>
#include <functional>

namespace grundy {

// Runs `work` on a thread of its own with a stack of `bytes`, so that the limits, not the
// operating system's 8 MB, decide how deep recursion may go; runs it here when no thread
// can be made. With `sigint_to_worker`, SIGINT is blocked here while it runs and taken by
// the worker (a signal that lands on a thread blocked in read() makes the read return,
// which is how the REPL's prompt notices Ctrl-C).
int run_on_stack(std::size_t bytes, const std::function<int()>& work, bool sigint_to_worker = false);

// Throws Error(Limit) when less than a safety margin of the current thread's stack is left.
void check_stack();

}  // namespace grundy
