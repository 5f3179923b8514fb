// Rules compiled to code over unboxed integers (lang/Compile.cpp), for games whose state is
// one integer or a tuple of integers and whose options are states of the same game. The
// evaluator drives them into dense tables (runtime/Tuples.hpp) without building a Value, a
// Position or an Option per option, and without walking the syntax tree.
#pragma once

#include <cstdint>
#include <memory>

namespace grundy {

class GameInstance;

// Receives the options of one state. A part is `arity` integers; an option is `parts` parts.
class OptionSink {
 public:
  virtual ~OptionSink() = default;
  // One option; coords holds parts * arity integers. False: stop (the sink cannot use it).
  virtual bool option(const std::int64_t* coords, int parts) = 0;
  // `count` options: the k-th (k = 0 .. count-1) has coordinates first[i] + k * slope[i].
  // Both ends are valid states (checked by the compiled code's arithmetic). False: stop.
  virtual bool run(const std::int64_t* first, const std::int64_t* slope, int parts, std::int64_t count) = 0;
  // Called every few thousand loop steps, so that one state with millions of options still
  // notices Ctrl-C; may throw (an interrupt).
  virtual void pulse() {}
};

class IntRules {
 public:
  virtual ~IntRules() = default;
  virtual int arity() const = 0;
  // The most parts an option has (1: moves only, so outcomes follow from outcomes).
  virtual int max_parts() const = 0;
  // Sends every option of `state` (arity integers) to `sink`, in rule order. Returns false
  // when the compiled code cannot go on (an overflow, a division by zero, a value that is
  // not an integer) or the sink said stop; the evaluator then falls back to the rules
  // themselves, which meet the same error only if the query needs that state.
  virtual bool options(const std::int64_t* state, OptionSink& sink) const = 0;
};

// Implemented by rulesets that can be compiled (RuleGame).
class IntRulesSource {
 public:
  virtual ~IntRulesSource() = default;
  // Null when the rules use something the compiler does not handle.
  virtual std::shared_ptr<const IntRules> int_rules(const GameInstance& game) const = 0;
};

}  // namespace grundy
