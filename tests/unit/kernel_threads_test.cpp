// --threads for the sparse-space kernel (runtime/KernelThreads.cpp) and the plain loop
// (runtime/PlainThreads.cpp): any number of threads
// gives the one-thread values, on Grundy's game and on the octal codes of the kernel's own
// tests (tests/unit/kernels_agree_test.cpp), across the widening of the table past a byte, in
// pieces, and after a poll stops it; and the poll sees only finished heaps. Three threads as
// well as two, so that nothing leans on pairs.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "runtime/Dense.hpp"
#include "runtime/Kernels.hpp"
#include "runtime/Shorthands.hpp"
#include "tests/unit/brute_force.hpp"
#include "tests/unit/support.hpp"

namespace {

using grundy::DenseTable;
using grundy::HeapKernel;
using grundy::HeapSpec;
using grundy::brute::Values;
using grundy::test::check_same;

Values values_of(const DenseTable& t) {
  Values out;
  for (std::size_t i = 0; i < t.size(); ++i) out.push_back(t.get(i));
  return out;
}

// The values of heaps 0..count-1 on `threads` threads; `threaded`, if given, says how many of
// them the threads computed.
Values threaded_values(const HeapSpec& spec, std::size_t count, unsigned threads, std::uint32_t mask = 0,
                       std::size_t* threaded = nullptr) {
  HeapKernel k(spec);
  if (mask) k.force_mask(mask);
  k.set_threads(threads);
  DenseTable t;
  k.extend(t, count, nullptr);
  if (threaded) *threaded = k.threaded_heaps();
  return values_of(t);
}

HeapSpec spec_of(const std::string& code) { return *grundy::TakeAndBreakRuleset("G", code).plan().code; }

HeapSpec grundys_game() {
  HeapSpec s;
  s.digits = {HeapSpec::kTwo | HeapSpec::kUnequal};
  return s;
}

}  // namespace

TEST_CASE("threads give Grundy's game the values of one thread", "[fast][kernels][threads]") {
  const HeapSpec gg = grundys_game();
  const Values one = threaded_values(gg, 300'000, 1);
  check_same(Values(one.begin(), one.begin() + 1001), grundy::brute::grundys_game(1000),
             "one thread against brute force");
  for (unsigned threads : {2u, 3u}) {
    INFO(threads << " threads");
    std::size_t threaded = 0;
    check_same(threaded_values(gg, 300'000, threads, 0, &threaded), one, "threads against one thread");
    CHECK(threaded > 250'000);
  }
  // The same table built in pieces of odd sizes, the threads starting and stopping with each.
  HeapKernel pieces(gg);
  pieces.set_threads(2);
  DenseTable t;
  for (std::size_t upto : {3000u, 5001u, 9999u, 40000u, 40001u, 123457u, 300000u})
    pieces.extend(t, upto, nullptr);
  check_same(values_of(t), one, "two threads in pieces against one thread");
}

TEST_CASE("threads give the octal codes of the sparse space the values of one thread",
          "[fast][kernels][threads]") {
  // Automatic masks (the codes that turn sparse do so early), and forced ones, under which
  // the threads run from the first blocks on, over values both rare and common.
  HeapSpec mixed;  // split into unequal heaps, or remove 1 and split
  mixed.digits = {HeapSpec::kTwo | HeapSpec::kUnequal, HeapSpec::kTwo};
  const std::vector<std::pair<std::string, HeapSpec>> specs = {
      {"0.6", spec_of("0.6")},     {"0.16", spec_of("0.16")},   {"0.77", spec_of("0.77")},
      {"4.7", spec_of("4.7")},     {"0.106", spec_of("0.106")}, {"0.644", spec_of("0.644")},
      {"4.333", spec_of("4.333")}, {"0.07", spec_of("0.07")},   {"mixed", mixed}};
  std::size_t ran = 0;
  for (const auto& [name, spec] : specs) {
    INFO(name);
    for (std::uint32_t mask : {0u, 1u, 6u, 0xfeu, 0x13u}) {
      INFO("mask " << mask);
      const Values one = threaded_values(spec, 12'000, 1, mask);
      for (unsigned threads : {2u, 3u}) {
        INFO(threads << " threads");
        std::size_t threaded = 0;
        check_same(threaded_values(spec, 12'000, threads, mask, &threaded), one,
                   "threads against one thread");
        if (mask) CHECK(threaded > 5'000);  // sparse from the start
        ran += threaded;
      }
    }
  }
  CHECK(ran > 0);
}

TEST_CASE("threads widen the table past a byte with the values of one thread", "[fast][kernels][threads]") {
  // 0.04 and 0.06 pass 256 within 2^15 heaps (and 1024 by 2^17, tests' [.long]); under the
  // masks of their published runs they are in the sparse space from the start.
  for (const auto& [code, mask] : {std::pair<std::string, std::uint32_t>{"0.04", 0x7b8}, {"0.06", 0x5a0}}) {
    INFO(code);
    const HeapSpec spec = spec_of(code);
    const Values one = threaded_values(spec, 1 << 15, 1, mask);
    CHECK(*std::max_element(one.begin(), one.end()) >= 256);
    // The first value of 256 or more: the threads ran past it (a value too wide for the
    // table of bytes stops them; the kernel widens the table and starts them again).
    const auto wide = static_cast<std::size_t>(
        std::find_if(one.begin(), one.end(), [](auto v) { return v >= 256; }) - one.begin());
    CHECK(wide < (1u << 14));
    for (unsigned threads : {2u, 3u}) {
      INFO(threads << " threads");
      std::size_t threaded = 0;
      check_same(threaded_values(spec, 1 << 15, threads, mask, &threaded), one, "threads against one thread");
      CHECK(threaded > (1u << 14));
    }
  }
}

TEST_CASE("threads stop at a poll that throws, with finished heaps only",
          "[fast][kernels][threads][limits]") {
  const HeapSpec gg = grundys_game();
  const Values one = threaded_values(gg, 200'000, 1);
  for (unsigned threads : {2u, 3u}) {
    INFO(threads << " threads");
    HeapKernel k(gg);
    k.set_threads(threads);
    DenseTable t;
    std::uint64_t spent = 0;
    std::size_t polls = 0, wrong = 0, past = 0;
    // Each poll sees a table of finished heaps, as a checkpoint would save it.
    auto budget = [&](std::size_t done, std::size_t, std::uint64_t work) {
      ++polls;
      if (done != t.size()) ++past;
      for (std::size_t i = t.size() >= 64 ? t.size() - 64 : 0; i < t.size(); ++i) {
        if (t.get(i) != one[i]) ++wrong;
      }
      spent += work;
      if (spent > 150'000'000) throw std::runtime_error("budget");
    };
    CHECK_THROWS_AS(k.extend(t, 200'000, budget), std::runtime_error);
    CHECK(polls > 10);
    CHECK(past == 0);
    CHECK(wrong == 0);
    CHECK(t.size() > 20'000);
    CHECK(t.size() < 200'000);
    check_same(values_of(t), Values(one.begin(), one.begin() + static_cast<std::ptrdiff_t>(t.size())),
               "the heaps before the stop");
    k.extend(t, 200'000, nullptr);  // and it goes on from there
    check_same(values_of(t), one, "after the stop");
  }
}

namespace {

// Lasker's Nim: remove any number, or split a heap in two without removing (4.333...).
HeapSpec laskers_nim() {
  HeapSpec s;
  s.digits = {HeapSpec::kTwo};
  s.tail = HeapSpec::kNone | HeapSpec::kOne;
  return s;
}

// Its values by the theorem: 4k + 1 and 4k + 2 keep theirs, 4k + 3 and 4k + 4 swap.
std::uint32_t lasker_value(std::uint32_t n) {
  if (n == 0) return 0;
  const std::uint32_t r = n % 4;
  return r == 3 ? n + 1 : r == 0 ? n - 1 : n;
}

// The values of heaps 0..count-1 under the plain loop (never the sparse space) on `threads`
// threads, as threaded_values.
Values plain_values(const HeapSpec& spec, std::size_t count, unsigned threads, std::size_t* threaded) {
  HeapKernel k(spec);
  k.force_plain(true);
  k.set_threads(threads);
  DenseTable t;
  k.extend(t, count, nullptr);
  *threaded = k.threaded_heaps();
  return values_of(t);
}

}  // namespace

TEST_CASE("threads give the plain loop's codes the values of one thread", "[fast][kernels][threads]") {
  // Lasker's Nim, whose values grow with the heap (the table widens past a byte and past two
  // bytes while the threads run), against its theorem; and octal codes kept out of the sparse
  // space, against one thread.
  for (unsigned threads : {2u, 3u}) {
    INFO(threads << " threads");
    const std::size_t count = threads == 2 ? 66'000 : 20'000;
    std::size_t threaded = 0;
    const Values got = plain_values(laskers_nim(), count, threads, &threaded);
    Values want(count);
    for (std::size_t n = 0; n < count; ++n) want[n] = lasker_value(static_cast<std::uint32_t>(n));
    check_same(got, want, "Lasker's Nim on threads against its theorem");
    CHECK(threaded > count - 9000);  // from a heap of 4096 splits on
  }
  for (const std::string code : {"0.6", "4.7", "0.16", "0.77", "0.137", "4.06", "0.007"}) {
    INFO(code);
    std::size_t one_threaded = 0, threaded = 0;
    const Values one = plain_values(spec_of(code), 14'000, 1, &one_threaded);
    CHECK(one_threaded == 0);
    for (unsigned threads : {2u, 3u}) {
      INFO(threads << " threads");
      check_same(plain_values(spec_of(code), 14'000, threads, &threaded), one, "threads against one thread");
      CHECK(threaded > 5'000);
    }
  }
}

TEST_CASE("the plain loop's threads stop at a poll that throws, with finished heaps only",
          "[fast][kernels][threads][limits]") {
  for (unsigned threads : {2u, 3u}) {
    INFO(threads << " threads");
    HeapKernel k(laskers_nim());
    k.set_threads(threads);
    DenseTable t;
    std::uint64_t spent = 0;
    std::size_t polls = 0, wrong = 0, past = 0;
    auto budget = [&](std::size_t done, std::size_t, std::uint64_t work) {
      ++polls;
      if (done != t.size()) ++past;
      for (std::size_t i = t.size() >= 64 ? t.size() - 64 : 0; i < t.size(); ++i) {
        if (t.get(i) != lasker_value(static_cast<std::uint32_t>(i))) ++wrong;
      }
      spent += work;
      if (spent > 60'000'000) throw std::runtime_error("budget");
    };
    CHECK_THROWS_AS(k.extend(t, 40'000, budget), std::runtime_error);
    CHECK(polls > 10);
    CHECK(past == 0);
    CHECK(wrong == 0);
    // 60 million splits: about heap 15,500 (n^2 / 4 of them below n)
    CHECK(t.size() > 12'000);
    CHECK(t.size() < 20'000);
    CHECK(k.threaded_heaps() > 0);
    k.extend(t, 40'000, nullptr);  // and it goes on from there
    for (std::size_t n = 0; n < t.size(); ++n) {
      if (t.get(n) != lasker_value(static_cast<std::uint32_t>(n))) ++wrong;
    }
    CHECK(wrong == 0);
    CHECK(t.size() == 40'000);
  }
}
