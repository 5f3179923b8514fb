// The fast paths must not change a single value. Native kernels (subtraction, take-and-break
// with the plain loop and with the sparse-space algorithm under any mask) are checked against
// the general memoized search on the same games and against independent brute force, and
// against published sequences (Kayles, Dawson's Kayles, Grundy's game).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "runtime/CrossCheck.hpp"
#include "runtime/Dense.hpp"
#include "runtime/Evaluator.hpp"
#include "runtime/Kernels.hpp"
#include "runtime/Period.hpp"
#include "runtime/Shorthands.hpp"
#include "runtime/Witness.hpp"
#include "tests/unit/almost_subtraction.hpp"
#include "tests/unit/brute_force.hpp"
#include "tests/unit/support.hpp"

namespace {

using grundy::DenseTable;
using grundy::Evaluator;
using grundy::GameInstance;
using grundy::GameRegistry;
using grundy::HeapKernel;
using grundy::HeapSpec;
using grundy::Limits;
using grundy::Plan;
using grundy::Position;
using grundy::Ruleset;
using grundy::Value;
using grundy::brute::Values;
using grundy::test::check_same;

// Values of heaps 0..max through the evaluator: with its fast paths (the kernel or the
// formula of a run, as the code's plan says), or with none, so that every value comes from
// the general memoized search.
template <typename Code>
Values evaluate(const std::shared_ptr<const Code>& rules, int max, bool general) {
  GameRegistry games;
  const Limits limits;
  Evaluator ev(games, limits);
  const GameInstance* g = games.instance(
      rules, Value::tuple({}), [&](const GameInstance&) { return general ? Plan{} : rules->plan(); });
  Values out;
  for (int n = 0; n <= max; ++n) out.push_back(ev.grundy(Position{g, Value::integer(n)}));
  INFO(rules->name());
  const bool fast = g->fast->template as<grundy::KernelPath>() || g->fast->template as<grundy::RunPath>();
  CHECK(fast != general);
  return out;
}

Values kernel_values(const HeapSpec& spec, std::size_t count, std::uint32_t mask, bool plain) {
  HeapKernel k(spec);
  if (plain) k.force_plain(true);
  if (mask) k.force_mask(mask);
  DenseTable t;
  k.extend(t, count, nullptr);
  Values out;
  for (std::size_t i = 0; i < t.size(); ++i) out.push_back(t.get(i));
  return out;
}

HeapSpec spec_of(const std::string& code) { return *grundy::TakeAndBreakRuleset("G", code).plan().code; }

std::vector<std::string> some_codes() {
  std::vector<std::string> codes = {"0.77",  "0.07",   "0.137", "0.6",   "0.16",  "4.7",   "0.51",
                                    "0.333", "0.7777", "0.8",   "0.f",   "0.48",  "4.0",   "8.0",
                                    "c.1",   "0.1",    "0.2",   "0.3",   "0.4",   "0.04",  "0.056",
                                    "0.165", "0.35",   "4.333", "0.106", "0.644", "0.454", "0.9"};
  std::mt19937 rng(20240607);
  const char* hex = "0123456789abcdef";
  for (int i = 0; i < 40; ++i) {
    char c[8] = {"048c"[rng() % 4], '.', 0, 0, 0, 0, 0, 0};
    const int len = 1 + static_cast<int>(rng() % 4);
    for (int j = 0; j < len; ++j) {
      c[2 + j] = j + 1 == len ? hex[1 + rng() % 15] : hex[rng() % 16];  // last digit non-zero
    }
    codes.emplace_back(c);
  }
  return codes;
}

}  // namespace

TEST_CASE("take-and-break kernels give the general search's values", "[fast][kernels]") {
  for (const std::string& code : some_codes()) {
    INFO("code " << code);
    auto rules = std::make_shared<const grundy::TakeAndBreakRuleset>("G", code);
    const bool three = code.find_first_of("89abcdef") != std::string::npos;
    const int max = three ? 70 : 160;
    const Values fast = evaluate(rules, max, false);
    check_same(fast, evaluate(rules, max, true), "kernel against the general search");
    check_same(fast, grundy::brute::octal(code, max), "kernel against brute force");
  }
}

TEST_CASE("subtraction kernels give the general search's values", "[fast][kernels]") {
  std::mt19937 rng(7);
  std::vector<std::vector<int>> sets = {{1}, {2}, {1, 2}, {1, 3, 4}, {2, 5}, {3, 7, 8}, {1, 2, 4, 8, 16}};
  for (int i = 0; i < 30; ++i) {
    std::vector<int> s;
    const int size = 1 + static_cast<int>(rng() % 6);
    for (int j = 0; j < size; ++j) s.push_back(1 + static_cast<int>(rng() % 20));
    sets.push_back(s);
  }
  // Sets of 63 elements and more, past the one-word kernel (the plain loop takes them).
  for (int i = 0; i < 4; ++i) {
    std::vector<int> s;
    for (int j = 0; j < 63 + 20 * i; ++j) s.push_back(1 + static_cast<int>(rng() % 350));
    sets.push_back(s);
  }
  std::vector<int> triangular;
  for (int k = 1; k * (k + 1) / 2 <= 400; ++k) triangular.push_back(k * (k + 1) / 2);
  sets.push_back(triangular);
  for (const auto& set : sets) {
    std::vector<std::int64_t> s64(set.begin(), set.end());
    auto rules = std::make_shared<const grundy::SubtractionRuleset>("S", s64);
    INFO("subtraction set of size " << set.size() << ", first " << set.front());
    const Values fast = evaluate(rules, 400, false);
    check_same(fast, evaluate(rules, 400, true), "kernel against the general search");
    check_same(fast, grundy::brute::subtraction(set, 400), "kernel against brute force");
  }
}

TEST_CASE("the sparse-space algorithm gives the plain loop's values under any mask",
          "[fast][kernels][sparse]") {
  HeapSpec grundys;
  grundys.digits = {HeapSpec::kTwo | HeapSpec::kUnequal};
  std::vector<std::pair<std::string, HeapSpec>> specs = {
      {"Grundy's game", grundys},  {"0.6", spec_of("0.6")},    {"0.16", spec_of("0.16")},
      {"0.77", spec_of("0.77")},   {"4.7", spec_of("4.7")},    {"0.106", spec_of("0.106")},
      {"0.644", spec_of("0.644")}, {"4.333", spec_of("4.333")}};
  for (const auto& [name, spec] : specs) {
    INFO(name);
    const Values plain = kernel_values(spec, 4000, 0, true);
    for (std::uint32_t mask : {1u, 2u, 3u, 6u, 0xfeu, 0x55u, 0xffu, 0x13u}) {
      INFO("mask " << mask);
      check_same(kernel_values(spec, 4000, mask, false), plain, "sparse against plain");
    }
  }
  // Long enough for the automatic choice to switch to the sparse space.
  HeapKernel automatic(grundys);
  DenseTable t;
  automatic.extend(t, 40000, nullptr);
  CHECK(automatic.mode() == HeapKernel::Mode::Sparse);
  const Values plain = kernel_values(grundys, 40000, 0, true);
  Values got;
  for (std::size_t i = 0; i < t.size(); ++i) got.push_back(t.get(i));
  check_same(got, plain, "Grundy's game, automatic mode against plain, to 40000");
  check_same(Values(got.begin(), got.begin() + 1001), grundy::brute::grundys_game(1000),
             "Grundy's game against brute force");
  // The same table built in pieces of odd sizes (the rare heaps and their values carry over
  // from one extend to the next, and across the automatic switch to the sparse space).
  HeapKernel pieces(grundys);
  DenseTable tp;
  for (std::size_t upto : {1u, 2u, 3u, 100u, 2047u, 2049u, 4999u, 17000u, 40000u})
    pieces.extend(tp, upto, nullptr);
  CHECK(pieces.mode() == HeapKernel::Mode::Sparse);
  Values got_pieces;
  for (std::size_t i = 0; i < tp.size(); ++i) got_pieces.push_back(tp.get(i));
  check_same(got_pieces, plain, "Grundy's game in pieces against plain, to 40000");
  // Unequal and any splits together: split into unequal heaps, or remove 1 and split.
  HeapSpec mixed;
  mixed.digits = {HeapSpec::kTwo | HeapSpec::kUnequal, HeapSpec::kTwo};
  const Values mixed_plain = kernel_values(mixed, 3000, 0, true);
  for (std::uint32_t mask : {1u, 2u, 6u, 0xfeu, 0x13u}) {
    INFO("mixed, mask " << mask);
    check_same(kernel_values(mixed, 3000, mask, false), mixed_plain, "sparse against plain");
  }
}

TEST_CASE("tables widen past 255 and 65535 without changing values", "[fast][dense]") {
  // Lasker's Nim: value n or n +- 1, so the table needs 2 and then 4 bytes.
  HeapSpec lasker;
  lasker.digits = {HeapSpec::kTwo};
  lasker.tail = HeapSpec::kNone | HeapSpec::kOne;
  HeapKernel k(lasker);
  DenseTable t;
  k.extend(t, 70000, nullptr);
  CHECK(t.width() == 4);
  for (std::int64_t n = 1; n < 70000; ++n) {
    const std::int64_t want = n % 4 == 3 ? n + 1 : n % 4 == 0 ? n - 1 : n;
    if (static_cast<std::int64_t>(t.get(static_cast<std::size_t>(n))) != want) {
      FAIL("Lasker's Nim at " << n << ": " << t.get(static_cast<std::size_t>(n)) << ", want " << want);
    }
  }
  check_same(kernel_values(lasker, 301, 0, true), grundy::brute::lasker(300), "Lasker against brute force");
}

TEST_CASE("the sparse space crosses values 255/256 and 65535/65536 under any mask",
          "[fast][kernels][sparse][dense]") {
  // A value of 256 or more has no witness among the splits of a table of bytes (two bytes
  // XOR below 256): it must be reported missing, never confused with its low byte (Grundy's
  // game printed 258 for 256 at heap 7,250,049 so). These codes reach 256 within a few
  // hundred heaps, with 0 and 1 common among their splits; the plain loop says the values.
  auto code = [](std::vector<std::uint8_t> digits, std::uint8_t tail) {
    HeapSpec s;
    s.digits = std::move(digits);
    s.tail = tail;
    return s;
  };
  constexpr std::uint8_t two = HeapSpec::kTwo, none = HeapSpec::kNone, one = HeapSpec::kOne;
  const std::vector<std::pair<std::string, HeapSpec>> specs = {
      {"4.4 unequal, then 3s", code({two | HeapSpec::kUnequal, two}, none | one)},
      {"0.5, then 3s", code({0, none | two}, none | one)},
      {"4.14, then 2s", code({two, none, two}, one)},
      {"Lasker's Nim", code({two}, none | one)}};
  for (const auto& [name, spec] : specs) {
    INFO(name);
    const Values plain = kernel_values(spec, 1200, 0, true);
    CHECK(*std::max_element(plain.begin(), plain.end()) >= 300);
    for (std::uint32_t mask : {0xfeu, 0x1feu, 0xffu, 1u, 2u, 0x100u, 0x13u}) {
      INFO("mask " << mask);
      check_same(kernel_values(spec, 1200, mask, false), plain, "sparse against plain");
    }
  }
  // Lasker's Nim (value n or n +- 1) reaches 65536 at heap 65535: a table of 2 bytes widens.
  const HeapSpec lasker = specs.back().second;
  auto want = [](std::int64_t n) { return n % 4 == 3 ? n + 1 : n % 4 == 0 ? n - 1 : n; };
  for (std::uint32_t mask : {0xfeu}) {  // 65536 is rare under it, as 256 is
    INFO("mask " << mask);
    const Values got = kernel_values(lasker, 66000, mask, false);
    for (std::size_t n = 65000; n < got.size(); ++n) {
      if (static_cast<std::int64_t>(got[n]) != want(static_cast<std::int64_t>(n))) {
        FAIL("Lasker's Nim at " << n << ": " << got[n] << ", want " << want(static_cast<std::int64_t>(n)));
      }
    }
  }
}

TEST_CASE("published values: Kayles, Dawson's Kayles, Grundy's game", "[fast][kernels][known]") {
  // OEIS A002186 (Kayles), A002187 (Dawson's Kayles, as 0.07 from heap 1), A002188.
  const Values kayles = {0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8,
                         5, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2,
                         1, 4, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7};
  const Values dawson = {0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2,
                         1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2};
  const Values grundys = {0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0,
                          4, 1, 2, 3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0,
                          2, 1, 5, 2, 1, 3, 2, 1, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5,
                          2, 4, 5, 2, 4, 3, 7, 4, 3, 7, 4, 3, 7, 4, 3, 5, 2, 3, 5, 2, 3, 5, 2, 3};
  const auto k = kernel_values(spec_of("0.77"), kayles.size(), 0, false);
  check_same(k, kayles, "Kayles");
  const auto d = kernel_values(spec_of("0.07"), dawson.size(), 0, false);
  check_same(d, dawson, "Dawson's Kayles");
  HeapSpec gg;
  gg.digits = {HeapSpec::kTwo | HeapSpec::kUnequal};
  check_same(kernel_values(gg, grundys.size(), 0, true), grundys, "Grundy's game, plain");
  check_same(kernel_values(gg, grundys.size(), 0xfe, false), grundys, "Grundy's game, sparse");
  // Flammenkamp's list of the rare values of Grundy's game (mask ...11110) up to 231: the
  // heaps whose value has an even number of 1s above the lowest bit, and those values.
  const std::vector<std::pair<int, int>> rare = {
      {0, 0},    {1, 0},   {2, 0},   {3, 1},   {4, 0},    {6, 1},    {7, 0},    {9, 1},    {10, 0},  {12, 1},
      {15, 1},   {20, 0},  {23, 0},  {26, 0},  {28, 1},   {31, 1},   {34, 1},   {37, 1},   {40, 1},  {43, 1},
      {46, 1},   {49, 1},  {50, 0},  {52, 1},  {53, 0},   {55, 1},   {58, 1},   {61, 1},   {87, 7},  {90, 7},
      {93, 7},   {146, 6}, {149, 6}, {152, 6}, {158, 11}, {161, 11}, {164, 11}, {167, 11}, {176, 7}, {179, 7},
      {181, 12}, {182, 7}, {185, 7}, {188, 7}, {190, 12}, {193, 12}, {196, 10}, {231, 10}};
  const auto g = kernel_values(gg, 232, 0xfe, false);
  std::vector<std::pair<int, int>> seen;
  for (int n = 0; n <= 231; ++n) {
    const auto v = static_cast<std::uint32_t>(g[static_cast<std::size_t>(n)]);
    if (__builtin_popcount(v & 0xfeu) % 2 == 0) seen.push_back({n, static_cast<int>(v)});
  }
  CHECK(seen == rare);
}

namespace {
// The smallest p whose run from the end of g starts at n0 with n0 + 3p < L / 2, by a scan
// back from the end for each p (the definition of observed_period).
std::optional<std::pair<std::int64_t, std::int64_t>> naive_observed(const Values& g) {
  const auto L = static_cast<std::int64_t>(g.size());
  for (std::int64_t p = 1; 3 * p < L / 2; ++p) {
    std::int64_t n0 = L - p;
    while (n0 > 0 && g[static_cast<std::size_t>(n0 - 1)] == g[static_cast<std::size_t>(n0 - 1 + p)]) --n0;
    if (n0 + 3 * p < L / 2) return std::make_pair(n0, p);
  }
  return std::nullopt;
}

// The same for proven_period: the smallest p with bound(n0, p) <= L - p.
std::optional<std::pair<std::int64_t, std::int64_t>> naive_proven(const Values& g, const HeapSpec& spec) {
  const auto L = static_cast<std::int64_t>(g.size());
  for (std::int64_t p = 1; p < L; ++p) {
    if (spec.proof_bound(0, p) > L - p) break;
    std::int64_t n0 = L - p;
    while (n0 > 0 && g[static_cast<std::size_t>(n0 - 1)] == g[static_cast<std::size_t>(n0 - 1 + p)]) --n0;
    if (n0 < L - p && spec.proof_bound(n0, p) <= L - p) return std::make_pair(n0, p);
  }
  return std::nullopt;
}
}  // namespace

TEST_CASE("periods found in one pass agree with a scan from the end for each period", "[fast][period]") {
  std::mt19937 rng(7);
  HeapSpec sub;  // subtraction {1, 4}: proof bound n0 + 4
  sub.digits = {0, HeapSpec::kNone | HeapSpec::kOne, 0, 0, HeapSpec::kNone | HeapSpec::kOne};
  HeapSpec kayles = spec_of("0.77");
  for (int round = 0; round < 400; ++round) {
    // A preperiod of noise, then a period with a few values, some long constant stretches.
    const int pre = static_cast<int>(rng() % 60), p = 1 + static_cast<int>(rng() % 25);
    const int len = pre + p * (3 + static_cast<int>(rng() % 30)) + static_cast<int>(rng() % 7);
    const int alphabet = 1 + static_cast<int>(rng() % 4);
    Values cycle;
    for (int i = 0; i < p; ++i) cycle.push_back(rng() % static_cast<unsigned>(alphabet));
    Values g;
    for (int i = 0; i < len; ++i) {
      g.push_back(i < pre ? rng() % static_cast<unsigned>(alphabet + 1)
                          : cycle[static_cast<std::size_t>((i - pre) % p)]);
    }
    if (round % 5 == 0) {  // a break near the end: no period may be claimed across it
      g[g.size() - 1 - rng() % std::min<std::size_t>(g.size(), 5)] += 1;
    }
    DenseTable t;
    for (auto v : g) t.push(static_cast<std::uint32_t>(v));
    INFO("round " << round << ", " << g.size() << " values");
    const auto seen = grundy::observed_period(t);
    const auto want = naive_observed(g);
    REQUIRE(seen.has_value() == want.has_value());
    if (seen) CHECK(std::make_pair(seen->n0, seen->p) == *want);
    for (const HeapSpec* spec : {&sub, &kayles}) {
      const auto proven = grundy::proven_period(t, *spec);
      const auto want_proven = naive_proven(g, *spec);
      REQUIRE(proven.has_value() == want_proven.has_value());
      if (proven) CHECK(std::make_pair(proven->n0, proven->p) == *want_proven);
    }
  }
}

TEST_CASE("a kernel reports the splits it looks at, and stops when its poll throws",
          "[fast][kernels][limits]") {
  // 0.ff: removing 1 or 2 tokens may leave up to three heaps; heap n has about n^2 / 12
  // splits into three.
  const HeapSpec ff = spec_of("0.ff");
  std::uint64_t splits = 0;  // into two and three non-empty heaps, of r = n - 1 and n - 2
  for (std::int64_t n = 0; n < 300; ++n) {
    for (std::int64_t r : {n - 1, n - 2}) {
      if (r >= 2) splits += static_cast<std::uint64_t>(r / 2);
      for (std::int64_t a = 1; 3 * a <= r; ++a) splits += static_cast<std::uint64_t>((r - a) / 2 - a + 1);
    }
  }
  HeapKernel k(ff);
  DenseTable t;
  std::uint64_t reported = 0;
  k.extend(t, 300, [&](std::size_t, std::size_t, std::uint64_t work) { reported += work; });
  CHECK(reported >= splits);
  CHECK(reported <= splits + 300 * 10);  // and little besides (takes, a step per heap)
  const Values plain = kernel_values(ff, 300, 0, true);
  // A poll that throws past a budget (as --max-steps does) stops the kernel within a heap;
  // what it computed stays right, and it goes on from there.
  HeapKernel limited(ff);
  DenseTable part;
  std::uint64_t spent = 0;
  auto budget = [&](std::size_t, std::size_t, std::uint64_t work) {
    spent += work;
    if (spent > 2'000'000) throw std::runtime_error("budget");
  };
  CHECK_THROWS(limited.extend(part, 3000, budget));
  CHECK(part.size() < 3000);
  CHECK(spent < 2'000'000 + (std::uint64_t{1} << 21));
  limited.extend(part, 300, nullptr);
  Values again;
  for (std::size_t i = 0; i < 300; ++i) again.push_back(part.get(i));
  check_same(again, plain, "after a stop");
}

TEST_CASE("a code that the rules leave at some heap is used below it", "[fast][kernels]") {
  auto rules = std::make_shared<grundy::test::AlmostSubtraction>(30);
  const auto general = [&] {
    GameRegistry games;
    const Limits limits;
    Evaluator ev(games, limits);
    const GameInstance* g = games.instance(rules, Value::tuple({}));  // no plan: the search only
    Values out;
    for (int n = 0; n <= 120; ++n) out.push_back(ev.grundy(Position{g, Value::integer(n)}));
    return out;
  }();
  // Heap 10 first: the kernel is used, up to heap 10 only; then heap 120 meets heap 30,
  // where the rules take over (and the values still are the rules').
  GameRegistry games;
  const Limits limits;
  Evaluator ev(games, limits);
  const GameInstance* g =
      games.instance(rules, Value::tuple({}), [&](const GameInstance& inst) { return rules->plan(inst); });
  CHECK(g->plan().code_below == 30);
  CHECK(ev.grundy(Position{g, Value::integer(10)}) == static_cast<std::uint64_t>(general[10]));
  CHECK(ev.strategy(*g).as<grundy::KernelPath>() != nullptr);
  CHECK(ev.strategy(*g).table()->size() < 30);
  Values fast;
  for (int n = 120; n >= 0; --n) fast.insert(fast.begin(), ev.grundy(Position{g, Value::integer(n)}));
  CHECK(ev.strategy(*g).as<grundy::DensePath>() != nullptr);
  check_same(fast, general, "against the general search");
  CHECK(general[30] == 2);  // not 30 mod 2: the extra move counts
}

TEST_CASE("the wide witness scan finds exactly the XORs of the splits in its range",
          "[fast][kernels][sparse]") {
  // Against the definition, on random tables and sets: every value of the set that some
  // split (a, r - a), lo <= a <= hi, makes is removed, and nothing else. Ranges shorter and
  // longer than a 32-split block, and ends near r / 2 and near the table's start.
  std::mt19937 rng(7);
  std::vector<std::uint8_t> g(5000);
  for (auto& x : g) x = static_cast<std::uint8_t>(rng() % 200);
  for (int trial = 0; trial < 400; ++trial) {
    const std::int64_t r = 2 + static_cast<std::int64_t>(rng() % 4990);
    const std::int64_t lo = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint32_t>(r / 2 + 1));
    const std::int64_t hi = std::min<std::int64_t>((r - 1) / 2, lo + static_cast<std::int64_t>(rng() % 300));
    grundy::ByteSet set;
    std::vector<int> in;
    for (int k = 0; k < 32; ++k) {
      const auto v = static_cast<std::uint8_t>(rng() % 256);
      set.add(v);
      in.push_back(v);
    }
    std::vector<bool> made(256, false);
    for (std::int64_t a = lo; a <= hi; ++a)
      made[static_cast<std::uint8_t>(g[static_cast<std::size_t>(a)] ^ g[static_cast<std::size_t>(r - a)])] =
          true;
    const std::int64_t looked = grundy::witness_scan(g.data(), r, lo, hi, set);
    INFO("r " << r << " a in " << lo << ".." << hi);
    CHECK(looked <= std::max<std::int64_t>(0, hi - lo + 1));
    bool all_made = true;
    for (int v : in) {
      all_made = all_made && made[static_cast<std::size_t>(v)];
      CHECK(set.contains(static_cast<std::uint8_t>(v)) == !made[static_cast<std::size_t>(v)]);
    }
    CHECK(set.empty() == all_made);
  }
}

namespace {
// What an independent sparse-space solver reports of a nim-sequence value(0..n-1): its
// largest value and the first heap holding it, and the rare heaps under a mask (value v is
// rare when v & mask has an even number of ones): how many, and the last.
struct SequenceFacts {
  std::uint32_t largest = 0;
  std::size_t largest_at = 0;
  std::size_t rare = 0;
  std::size_t last_rare = 0;
};
SequenceFacts facts_of(const HeapSpec& spec, std::size_t n, std::uint32_t mask) {
  HeapKernel k(spec);
  DenseTable t;
  k.extend(t, n, nullptr);
  SequenceFacts f;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::uint32_t v = t.get(i);
    if (v > f.largest) {
      f.largest = v;
      f.largest_at = i;
    }
    if (std::popcount(v & mask) % 2 == 0) {
      ++f.rare;
      f.last_rare = i;
    }
  }
  return f;
}
}  // namespace

// Hidden from the default run (Catch's "." tag): ctest runs it as long.published_sequences.
TEST_CASE("published facts of long sequences that cross value widths", "[.long]") {
  // tczajka/octal-games, UnsolvedGames.md (its `analyze`, a sparse-space solver of its own):
  // Grundy's game and 0.6 to 2^21, 0.04 and 0.06 to 2^17. 0.6 passes 256 (a table of two
  // bytes) and 0.04 and 0.06 pass 1024.
  HeapSpec gg;
  gg.digits = {HeapSpec::kTwo | HeapSpec::kUnequal};
  struct Row {
    std::string name;
    HeapSpec spec;
    std::size_t n;
    std::uint32_t mask;
    SequenceFacts want;
  };
  const std::vector<Row> rows = {
      {"Grundy's game", gg, std::size_t{1} << 21, 0xfe, {231, 763622, 1274, 82860}},
      {"0.6", spec_of("0.6"), std::size_t{1} << 21, 0x1ee, {319, 1274955, 1584, 20627}},
      {"0.04", spec_of("0.04"), std::size_t{1} << 17, 0x7b8, {1024, 109363, 18860, 131003}},
      {"0.06", spec_of("0.06"), std::size_t{1} << 17, 0x5a0, {1045, 127083, 52923, 131070}}};
  for (const Row& r : rows) {
    INFO(r.name);
    const SequenceFacts got = facts_of(r.spec, r.n, r.mask);
    CHECK(got.largest == r.want.largest);
    CHECK(got.largest_at == r.want.largest_at);
    CHECK(got.rare == r.want.rare);
    CHECK(got.last_rare == r.want.last_rare);
  }
}
