// --cross-check: a guard on the fast paths, for sequences too long to check by hand. The
// values a native kernel puts in its table are recomputed at some heaps by the definition:
// the mex over the options the code lists, each option's value read from the table, in a
// naive loop that shares nothing with the kernel's modes, masks, blocks or witness scans;
// where a heap has few options, the rules as written are also checked to list exactly the
// code's options there. A cell of the compiled rules' box is recomputed from the options the
// rules as written list, and a run formula's value from its takes. A difference stops the
// query with ErrorKind::Internal: it is a fault in Grundy, never in the user's rules.
//
// Which heaps: every heap whose value is the first to need one more bit (1, 2, 4, ..., 256,
// 65536, ...: where faults of width live, as Grundy's game's first 256, at heap 7,250,049,
// once came out 258), the last heap of each fill, and heaps spread at random over the fill
// for as long as the checks cost under an eighth of the kernel's own work, so that a long
// sequence is checked across its whole range at a constant factor of its cost.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace grundy {

class IntProgram;

class DenseTable;
class GameInstance;
class BoxTable;
struct HeapSpec;
struct Position;

// Where the rules of `game` first list other options than the code's, among heaps from..upto:
// the heap and what differs; nothing when they agree. Options are compared as multisets of
// heap sizes, empty heaps left out. The language checks a code it recognised in written rules
// so before using it (lang/Lower.cpp), and --cross-check does again at sampled heaps.
struct CodeDifference {
  std::int64_t heap = 0;
  std::string why;
};
// With `program` (the rules compiled), heaps are listed by it, and by the rules as written
// only where it stops (an error, an option that is not a smaller heap, which they then name).
std::optional<CodeDifference> compare_with_code(const HeapSpec& spec, const GameInstance& game,
                                                std::int64_t from, std::int64_t upto,
                                                const IntProgram* program = nullptr);

// The options of heap n under `spec`, as sorted lists of non-empty heaps, each once.
std::vector<std::vector<std::int64_t>> spec_options(const HeapSpec& spec, std::int64_t n);

// The options plain_heap_value looks at for heap n (an upper bound), and the value by the
// definition: the mex over the options of heap n under `spec`, each the XOR of the values in
// `values` of the heaps it leaves (all below n, so the table must hold heaps 0..n-1).
std::uint64_t plain_heap_cost(const HeapSpec& spec, std::int64_t n);
std::uint32_t plain_heap_value(const HeapSpec& spec, const DenseTable& values, std::int64_t n);

// What the checks of one game's kernel remember from one fill to the next.
struct KernelAudit {
  int width = 0;  // bits of the largest value met so far
  std::uint64_t random = 0x9E3779B97F4A7C15u;
  std::uint64_t heaps = 0;  // heaps checked, for --explain
};

// Checks heaps from..to-1 of `values`, just filled by the kernel of `game` under `spec`,
// which looked at `work` options doing so. Throws Error(Internal) at a heap that differs.
void cross_check_kernel(const GameInstance& game, const HeapSpec& spec, const DenseTable& values,
                        std::size_t from, std::size_t to, std::uint64_t work, KernelAudit& audit);

// Checks the value of heap n of the run of takes a..b (runtime/Kernels.hpp, run_value) against
// the mex of its options' values by the same formula, when it has at most 2^20 options.
void cross_check_run(const GameInstance& game, std::int64_t a, std::int64_t b, std::int64_t n);

// Checks the value `v` of the state `c` of `game` in its box against the mex of the options
// the rules as written list (up to 2^16 of them): a part in the box by its cell there, others
// by `value_of` (the evaluator).
void cross_check_cell(const GameInstance& game, const BoxTable& box, const std::int64_t* c, std::uint32_t v,
                      const std::function<std::uint64_t(const Position&)>& value_of);

}  // namespace grundy
