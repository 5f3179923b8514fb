#include "runtime/Evaluator.hpp"

#include <algorithm>
#include <deque>
#include <ostream>

#include <absl/container/flat_hash_set.h>

#include "runtime/Cycle.hpp"
#include "runtime/Error.hpp"
#include "runtime/Mex.hpp"
#include "runtime/Nim.hpp"
#include "runtime/Progress.hpp"
#include "runtime/Runaway.hpp"
#include "runtime/Show.hpp"
#include "runtime/StackGuard.hpp"
#include "runtime/WorkAhead.hpp"

namespace grundy {

namespace {

struct Frame {
  Position pos;
  std::unique_ptr<OptionCursor> cursor;
  Option pending;
  bool has_pending = false;
  SeenValues seen;
};

// A deque: a search a few million positions deep does not copy its frames as it grows, nor
// hold the old and the new array at once.
using SearchStack = std::deque<Frame>;

[[noreturn]] void throw_too_many(std::uint64_t states) {
  Error e(ErrorKind::Limit, "too many states: the memo holds " + std::to_string(states) + " positions (the limit)",
          "raise the limit with --max-states N");
  e.too_many_states = true;
  throw e;
}

// A table that would have to grow past the cap at once: say how far it was asked to go.
[[noreturn]] void throw_too_many(std::uint64_t states, std::uint64_t more, std::uint64_t max) {
  Error e(ErrorKind::Limit,
          "too many states: this needs " + std::to_string(more) + " more positions, and the memo, which holds " +
              std::to_string(states) + ", may hold " + std::to_string(max),
          "raise the limit with --max-states N; a heap this far is answered at once only through a "
          "proven period (period(G) tells whether one is known)");
  e.too_many_states = true;
  throw e;
}

// The value of a state when a fast path already has it.
std::optional<std::uint64_t> known_value(const Strategy& s, const Value& state) {
  if (const auto* b = s.as<BoxPath>()) {
    Coords c{};
    if (!coords_of(state, b->box->arity(), c, b->program->packing)) return std::nullopt;
    if (b->hashed) return b->hashed->known(c.data());
    return b->box->known(c.data());
  }
  if (state.is(Kind::Int)) return s.known(state.as_int());
  return std::nullopt;
}

}  // namespace

// ---- what the paths share ----

void Evaluator::explain(const GameInstance& g, const std::string& line) const {
  // A game whose parameter is a set of 316 squares is named, and its code described, in a
  // line of bounded size.
  if (limits_.explain) {
    *limits_.explain << "explain: " << elide(g.display_name(), kShownValue) << ": " << elide(line, 1000) << '\n';
  }
}

BoxHooks Evaluator::box_hooks(BoxCall& call) {
  BoxHooks hooks;
  BoxCall* c = &call;
  hooks.poll = [c] { c->ev->poll(*c->g, c->done, c->total); };
  hooks.reserve = [c](std::uint64_t n) { c->ev->reserve_states(n); };
  hooks.room = limits_.max_states > games_.states ? limits_.max_states - games_.states : 0;
  // A box holds up to 4 bytes a cell and is copied when it grows: keep it within --max-memory.
  hooks.max_cells =
      std::min<std::uint64_t>(hooks.max_cells, std::max<std::uint64_t>(limits_.max_memory / 8, 1024));
  hooks.max_stack_bytes = limits_.max_memory / 4;
  hooks.max_outcome_bytes = limits_.max_memory / 2;
  const std::uint64_t search_share = heap_budget(limits_.max_memory) / 4 * 3;
  hooks.max_search_bytes = search_share;
  hooks.deep = [c](std::size_t depth, const std::function<Coords(std::size_t)>& at) {
    const int arity = c->g->rules().state_arity();
    check_runaway(depth, [&](std::size_t i) {
      return Position{c->g, state_of(at(i).data(), arity, c->g->plan().packing())};
    });
  };
  hooks.exhausted = [c, search_share](const Coords& root, std::uint64_t path, BoxHooks::Limit limit) {
    const Position from{c->g, state_of(root.data(), c->g->rules().state_arity(), c->g->plan().packing())};
    const std::string path_text = path == 0 ? "before the search from " + to_string(from) + " could start"
                                            : std::to_string(path) + " of them on the path of the search from " +
                                                  to_string(from) + " (each waiting for the next)";
    if (limit == BoxHooks::Limit::States) {
      Error e(ErrorKind::Limit,
              "too many states: the memo holds " + std::to_string(c->ev->games_.states + path) +
                  " positions (the limit), " + path_text,
              "raise the limit with --max-states N");
      e.too_many_states = true;
      throw e;
    }
    Error e(ErrorKind::Limit,
            "out of memory: the search holds " + std::to_string(c->done + path) + " positions, " + path_text +
                ", past the share of --max-memory a search may hold (" +
                std::to_string(search_share >> 20) + " of " +
                std::to_string(c->ev->limits_.max_memory >> 20) + " MB)",
            "raise the limit with --max-memory MB");
    e.out_of_memory = true;
    throw e;
  };
  hooks.looked = [c](std::uint64_t eighths) {
    c->looked += eighths;
    const std::uint64_t steps = c->looked / 8;
    c->looked %= 8;
    const Limits& l = c->ev->limits_;
    if (steps > l.max_steps - std::min(l.steps, l.max_steps)) {
      throw Error(ErrorKind::Limit,
                  "more than " + std::to_string(l.max_steps) +
                      " steps in one statement: the outcome search of " + c->g->display_name() +
                      " looked at more options of its compiled rules than that allows (8 options to a step "
                      "while its table is dense, 1 once it is a hash map)",
                  "raise the limit with --max-steps N; rules that list the moves likely to win first (the "
                  "largest take first) let the search stop sooner");
    }
    l.charge(steps);
  };
  hooks.computed = [c](std::uint64_t n) {
    c->done += n;
    c->ev->games_.states += n;
    c->g->dense_states += n;
  };
  return hooks;
}

void Evaluator::reserve_states(std::uint64_t more) {
  if (more > limits_.max_states || games_.states > limits_.max_states - more) {
    if (more == 1) throw_too_many(games_.states);
    throw_too_many(games_.states, more, limits_.max_states);
  }
}

void Evaluator::poll(const GameInstance& g, std::uint64_t done, std::uint64_t total) {
  if (limits_.interrupt && limits_.interrupt->load(std::memory_order_relaxed)) {
    throw Error(ErrorKind::Interrupted, "interrupted");
  }
  (void)g;
  if (limits_.progress) limits_.progress->update(done, total);
}

// ---- the general search ----

bool Evaluator::release_earlier() {
  if (released_at_ == query_) return false;  // once per query: what remains is its own
  released_at_ = query_;
  games_.clear_memos([](const GameInstance& g) {
    return g.fast->as<KernelPath>() != nullptr || g.fast->as<RunPath>() != nullptr;
  });
  loopy_.clear();
  filled_.clear();
  return true;
}

bool Evaluator::give_back_tables(const Error& e) {
  if (!e.too_many_states) return false;
  std::vector<std::pair<DensePath*, const std::pair<const GameInstance*, std::size_t>*>> grown;
  for (const auto& f : filled_) {
    DensePath* d = strategy(*f.first).as<DensePath>();
    if (d && d->table.size() > f.second) grown.emplace_back(d, &f);
  }
  if (grown.size() < 2) return false;
  for (const auto& [d, f] : grown) {
    const auto& [g, before] = *f;
    const std::size_t added = d->table.size() - before;
    d->table.truncate(before);
    games_.states -= std::min<std::uint64_t>(added, games_.states);
    g->dense_states -= std::min<std::uint64_t>(added, g->dense_states);
    d->stopped = true;
    explain(*g, "the dense table stops at state " + std::to_string(before) + ": with the tables of the " +
                    std::to_string(grown.size()) +
                    " games this query filled, it would pass --max-states; memoized search from there");
  }
  filled_.clear();
  return true;
}

std::uint64_t Evaluator::grundy(const Position& root) {
  if (root.game->rules().loopy()) {
    const LoopyValue v = loopy_.value(root);
    if (v.finite) return v.value;
    throw Error(ErrorKind::Runtime,
                to_string(root) + " has no nim-value: its value is " + to_string(Value::loopy(v.escapes)) +
                    " (play from it may go on for ever)",
                "grundy(X) of the position itself gives inf{...}; outcome(X) says N, P or D");
  }
  return query([&] { return search(root); });
}

// A position of a loopy game met as (a part of) an option of an ordinary position: its
// finite value counts as any nim-value does. An infinite one would make the ordinary position
// infinite too, which only a loopy game's labelling says: an error that says so, not a
// search of the loopy game's rules as if they ended.
std::uint64_t Evaluator::finite_loopy_part(const Position& from, const Position& part) {
  const LoopyValue v = loopy_.value(part);
  if (v.finite) return v.value;
  throw Error(ErrorKind::Runtime,
              to_string(from) + " has an option with " + to_string(part) + ", whose value is " +
                  to_string(Value::loopy(v.escapes)) + " (play from it may go on for ever): " +
                  from.game->display_name() + " is not a loopy game, and its values are nim-values",
              "a loopy game's infinite positions mix with others in sums (" + to_string(part) +
                  " + ...), not as the options of an ordinary game; outcome(" + to_string(part) +
                  ") says N, P or D");
}

LoopyValue Evaluator::loopy_value(const Sum& sum) {
  std::vector<LoopyValue> parts;
  for (const Position& p : sum) {
    if (p.game->rules().loopy()) parts.push_back(loopy_.value(p));
    else parts.push_back(LoopyValue{true, grundy(p), {}});
  }
  return loopy_sum(parts);
}

char Evaluator::loopy_outcome(const Sum& sum) {
  if (sum.size() == 1 && sum[0].game->rules().loopy()) return loopy_.outcome(sum[0]);
  return loopy_value(sum).outcome();
}

std::uint64_t Evaluator::search(const Position& root) {
  if (root.game->rules().is_nim()) return nim_value(root);
  if (root.game->rules().has_formula()) return root.game->rules().formula(*root.game, root.state);
  check_stack();  // a query inside a rule re-enters here
  {
    auto it = root.game->memo.find(root.state);
    if (it != root.game->memo.end() && it->second != kInProgress) return it->second;
    if (it != root.game->memo.end()) {
      // A query inside the rules asks for a value still being computed further out.
      fail_loop("the rules loop: computing " + to_string(root) + " needs the value of " + to_string(root) +
                    " itself",
                "a rule may ask about other positions, not about the position it moves from "
                "or one that leads back to it");
    }
  }
  if (auto v = fast_value(root)) return *v;
  check_work_ahead(root);
  SearchStack stack;
  std::uint64_t ticks = 0, entered = 0;
  // The bar counts positions entered; how many the search needs is not known ahead.
  ProgressScope bar(limits_.progress, [&root] { return root.game->display_name(); });
  auto enter = [&](const Position& p) {
    reserve_states(1);
    auto cursor = p.game->rules().options(*p.game, p.state);
    enter_state(p, p.game->memo, kInProgress, stack.size() + 1);
    ++entered;
    stack.push_back(Frame{p, std::move(cursor), {}, false, {}});
    check_runaway_of(stack);
  };
  try {
    enter(root);
    while (!stack.empty()) {
      if ((++ticks & 0xFFF) == 0) poll(*root.game, entered, 0);
      Frame& f = stack.back();
      if (!f.has_pending) {
        if (!f.cursor->next(f.pending)) {
          f.pos.game->memo[f.pos.state] = f.seen.mex();
          stack.pop_back();
          continue;
        }
        f.has_pending = true;
      }
      std::uint64_t x = 0;
      bool ready = true;
      for (const Position& part : f.pending) {
        if (part.game->rules().is_nim()) {
          x ^= nim_value(part);
          continue;
        }
        if (part.game->rules().has_formula()) {
          x ^= part.game->rules().formula(*part.game, part.state);
          continue;
        }
        if (part.game->rules().loopy()) {  // Smith's value, from the loopy game's own labelling
          x ^= finite_loopy_part(f.pos, part);
          continue;
        }
        if (part.game->fast) {
          if (auto v = known_value(*part.game->fast, part.state)) {
            x ^= *v;
            continue;
          }
        }
        auto it = part.game->memo.find(part.state);
        if (it == part.game->memo.end()) {
          // A kernel or a dense table may have it without a search.
          if (auto v = fast_value(part)) {
            x ^= *v;
            continue;
          }
          ready = false;
          enter(part);  // invalidates f
          break;
        }
        if (it->second == kInProgress) fail_stack_loop(stack, part);
        x ^= it->second;
      }
      if (!ready) continue;
      f.seen.add(x);
      f.has_pending = false;
    }
  } catch (...) {
    for (const Frame& f : stack) leave_state(f.pos, f.pos.game->memo);
    throw;
  }
  return root.game->memo.at(root.state);
}

void Evaluator::check_work_ahead(const Position& root) {
  const std::shared_ptr<const IntProgram>& program = root.game->plan().program;
  const int arity = root.game->rules().state_arity();
  Coords c{};
  if (!program || program->arity != arity || arity > kMaxBoxArity ||
      !coords_of(root.state, arity, c, program->packing))
    return;
  const std::uint64_t left = limits_.max_steps - std::min(limits_.steps, limits_.max_steps);
  const BoxPath* box = strategy(*root.game).as<BoxPath>();
  const auto known = [&](const std::int64_t* x) {
    if (box && box->box->known(x)) return true;
    return root.game->memo.contains(state_of(x, arity, program->packing));
  };
  const std::uint64_t ahead = steps_ahead(*program, c.data(), arity, known, left);
  if (ahead <= left) return;
  // Neither the count nor how far past the limit it got: the count stops at a budget of
  // listing work (or, for loops that list nothing, at a clock's backstop), not at the total.
  const std::string how_many = "more than the " + std::to_string(left) + " steps left to the statement";
  throw Error(ErrorKind::Limit,
              to_string(root) + " needs " + how_many +
                  ": the search lists every option of every position it reaches, and the options of its "
                  "options alone are that many (--max-steps is " +
                  std::to_string(limits_.max_steps) + ")",
              "raise the limit with --max-steps N, or ask about a smaller position; wins() and outcome() "
              "may know the answer by a theorem");
}

std::uint64_t Evaluator::grundy(const Sum& sum) {
  if (any_loopy(sum)) {
    const LoopyValue v = loopy_value(sum);
    if (v.finite) return v.value;
    throw Error(ErrorKind::Runtime,
                "this sum has no nim-value: its value is " + to_string(Value::loopy(v.escapes)),
                "outcome(X) says N, P or D");
  }
  std::uint64_t x = 0;
  for (const Position& p : sum) x ^= grundy(p);
  return x;
}

bool Evaluator::wins(const Sum& sum) {
  if (any_loopy(sum)) return loopy_outcome(sum) == 'N';
  if (sum.size() != 1 || sum[0].game->rules().is_nim()) return grundy(sum) != 0;
  const Position& p = sum[0];
  Coords c{};
  const int arity = p.game->rules().state_arity();
  if (arity <= kMaxBoxArity && coords_of(p.state, arity, c, p.game->plan().packing())) {
    if (auto w = table_wins(*p.game, c.data(), arity)) return *w;
  }
  // The outcome alone (a table or a formula when the game has one), searched until the
  // first lost option.
  return position_wins(p, false, [this](const Sum& s) { return grundy(s) != 0; });
}

namespace {
// Options equal as multisets are one option.
class MultisetFilter {
 public:
  bool first_time(const Option& o) {
    Option key = o;  // the states are shared, not copied
    std::sort(key.begin(), key.end());
    return seen_.insert(std::move(key)).second;
  }

 private:
  absl::flat_hash_set<Option> seen_;
};
}  // namespace

std::vector<Option> Evaluator::options(const Position& p) {
  std::vector<Option> out;
  MultisetFilter filter;
  auto cursor = p.game->rules().options(*p.game, p.state);
  Option o;
  std::uint64_t bytes = 0;
  while (cursor->next(o)) {
    limits_.charge(1);  // --max-steps: the searches of misere and every list options
    if (!filter.first_time(o)) continue;
    // An option and its key in the filter take a few hundred bytes, and its states what
    // they hold (a move that rewrites a list of n cells makes n of them): a heap with 10^8
    // options, or 10^4 options of 10^4 cells, must stop at --max-memory, not at the
    // operating system's OOM killer.
    std::uint64_t b = kBytesPerOption;
    for (const Position& part : o) b += part.state.bytes();
    bytes += b;
    out.push_back(o);
    if ((out.size() & 0xFFF) == 0 || b > kBytesPerOption + 4096) {
      check_memory(limits_, held_bytes() + bytes, "the list of options");
    }
  }
  return out;
}

std::vector<Sum> sum_options(Evaluator& ev, const Sum& sum) {
  std::vector<Sum> out;
  MultisetFilter filter;
  std::uint64_t bytes = 0;  // each option of n parts, and its key in the filter: 2n positions
  for (std::size_t i = 0; i < sum.size(); ++i) {
    for (Option& o : ev.options(sum[i])) {
      Sum next(std::vector<Position>(sum.begin(), sum.begin() + static_cast<std::ptrdiff_t>(i)));
      next.parts.insert(next.parts.end(), o.begin(), o.end());
      next.parts.insert(next.parts.end(), sum.begin() + static_cast<std::ptrdiff_t>(i) + 1, sum.end());
      if (!filter.first_time(next.parts)) continue;
      bytes += 2 * (sizeof(Sum) + next.size() * sizeof(Position)) + 32;
      for (const Position& part : o) bytes += part.state.bytes();  // the moved part's new states
      check_memory(ev.limits(), ev.held_bytes() + bytes, "the list of options");
      out.push_back(std::move(next));
    }
  }
  return out;
}

}  // namespace grundy
