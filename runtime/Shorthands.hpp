// Rulesets for the families everybody knows, written natively rather than in the language:
// subtraction games, take-and-break (octal and hexadecimal codes) and games on an explicit DAG.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "runtime/Game.hpp"
#include "runtime/Kernels.hpp"

namespace grundy {

// One heap; remove s tokens for any s in the set.
class SubtractionRuleset : public Ruleset {
 public:
  SubtractionRuleset(std::string name, std::vector<std::int64_t> set);
  const std::string& name() const override { return name_; }
  std::unique_ptr<OptionCursor> options(const GameInstance& g, const Value& state) const override;
  std::string check_state(const Value& state) const override;
  const std::vector<std::int64_t>& set() const { return set_; }
  // The code is the rules, one digit per possible removal up to the largest: a set whose
  // largest element passes kMaxSpecDigit has no code and stays with the search.
  Plan plan() const;

 private:
  std::string name_;
  std::vector<std::int64_t> set_;  // ascending, positive
};

// Conway's code d0.d1d2...: digit dk says what removing k tokens from a heap may leave
// (bit 1: nothing; 2: one heap; 4: two heaps; 8: three heaps). Digits above 7 are hexadecimal.
class TakeAndBreakRuleset : public Ruleset {
 public:
  // Throws grundy::Error if the code is malformed.
  TakeAndBreakRuleset(std::string name, const std::string& code);
  const std::string& name() const override { return name_; }
  std::unique_ptr<OptionCursor> options(const GameInstance& g, const Value& state) const override;
  std::string check_state(const Value& state) const override;
  const std::vector<int>& digits() const { return digits_; }
  Plan plan() const;  // the code is the rules

 private:
  std::string name_;
  std::vector<int> digits_;  // digits_[k] for removing k tokens
};

// Tokens on an explicit DAG; the state is a node label (an int or a name).
class GraphRuleset : public Ruleset {
 public:
  struct Node {
    Value label;
    std::vector<std::size_t> successors;
  };
  GraphRuleset(std::string name, std::vector<Node> nodes, bool loopy = false);
  const std::string& name() const override { return name_; }
  bool loopy() const override { return loopy_; }
  std::unique_ptr<OptionCursor> options(const GameInstance& g, const Value& state) const override;
  std::string check_state(const Value& state) const override;
  void append_state(std::string& out, const Value& state) const override;
  // The labels along a cycle (first repeated at the end), or empty if the graph is acyclic.
  std::vector<Value> find_cycle() const;
  // The memoized search over the nodes (no table, no period: the states are labels).
  static Plan plan();

 private:
  std::size_t index_of(const Value& label) const;
  std::string name_;
  std::vector<Node> nodes_;
  bool loopy_ = false;
  absl::flat_hash_map<Value, std::size_t> index_;  // a label's node: 40,000 nodes were 10 s
};

}  // namespace grundy
