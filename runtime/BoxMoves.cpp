#include "runtime/BoxMoves.hpp"

#include <algorithm>

namespace grundy {

namespace {

// One rule of the shape, as found in the program: by the coordinate of the state they read,
// its tests (and whether only their failure matters) and the option's coordinates made of it;
// the option's coordinates of no coordinate, with their values.
struct RuleShape {
  std::array<std::vector<std::pair<std::int32_t, bool>>, kMaxBoxArity> tests;
  std::array<std::vector<int>, kMaxBoxArity> made_of;
  std::vector<std::pair<int, std::int64_t>> constants;
  bool never = false;  // a test of no coordinate says no: the rule gives no option
};

// A node of no coordinate: its one value, or nothing where it fails.
std::optional<std::int64_t> constant(const IntProgram& rules, std::int32_t node) {
  std::int64_t v = 0;
  std::uint8_t fine = 0;
  rules.tabulate(node, -1, 1, &v, &fine);
  if (!fine) return std::nullopt;
  return v;
}

std::optional<std::vector<RuleShape>> shape_of(const IntProgram& rules) {
  const int ar = rules.arity;
  if (rules.packing.any() || ar < 1 || ar > kMaxBoxArity || rules.items.empty()) return std::nullopt;
  const auto coordinate_of = [&](std::int64_t reg) -> int {
    const auto at = std::find(rules.state_slots.begin(), rules.state_slots.end(), reg);
    return at == rules.state_slots.end() ? -1 : static_cast<int>(at - rules.state_slots.begin());
  };
  std::vector<RuleShape> shapes;
  for (const IntProgram::Item& it : rules.items) {
    if (it.let || it.parts != 1 || it.coords.size() != static_cast<std::size_t>(ar)) return std::nullopt;
    RuleShape r;
    const auto conjuncts = [&](const auto& self, std::int32_t q, bool checked) -> bool {
      const IntProgram::Node& n = rules.nodes[static_cast<std::size_t>(q)];
      if (n.op == IntProgram::Op::And && !checked) return self(self, n.a, false) && self(self, n.b, false);
      // An inlined function's argument evaluated first for its failure (lang/Compile.cpp, inlined).
      if (n.op == IntProgram::Op::If && n.b == n.c && !checked) return self(self, n.a, true) && self(self, n.b, false);
      const auto reg = rules.sole_register(q);
      if (!reg) return false;
      if (*reg < 0) {
        const auto v = constant(rules, q);
        if (!v) return false;
        r.never = r.never || (*v == 0 && !checked);
        return true;
      }
      const int s = coordinate_of(*reg);
      if (s < 0) return false;
      r.tests[static_cast<std::size_t>(s)].emplace_back(q, checked);
      return true;
    };
    for (const IntProgram::Clause& c : it.clauses) {
      if (c.kind != IntProgram::Clause::Kind::If || !conjuncts(conjuncts, c.lo, false)) return std::nullopt;
    }
    for (int q = 0; q < ar; ++q) {
      const std::int32_t node = it.coords[static_cast<std::size_t>(q)];
      const auto reg = rules.sole_register(node);
      if (!reg) return std::nullopt;
      if (*reg >= 0) {
        const int s = coordinate_of(*reg);
        if (s < 0) return std::nullopt;
        r.made_of[static_cast<std::size_t>(s)].push_back(q);
        continue;
      }
      const auto v = constant(rules, node);
      if (!v) return std::nullopt;
      r.constants.emplace_back(q, *v);
    }
    shapes.push_back(std::move(r));
  }
  return shapes;
}

}  // namespace

bool BoxMoves::applies(const IntProgram& rules) { return shape_of(rules).has_value(); }

std::shared_ptr<const BoxMoves> BoxMoves::plan(const IntProgram& rules, const BoxTable& memo) {
  const int ar = memo.arity();
  if (ar != rules.arity || memo.cells() == 0) return nullptr;
  const auto shapes = shape_of(rules);
  if (!shapes) return nullptr;
  auto m = std::make_shared<BoxMoves>();
  m->arity_ = ar;
  m->dims_ = memo.dims();
  const auto& dims = memo.dims();
  const auto& strides = memo.strides();
  for (int s = 0; s < ar; ++s) {
    m->from_[static_cast<std::size_t>(s)] = m->per_rule_;
    m->per_rule_ += static_cast<std::size_t>(dims[static_cast<std::size_t>(s)]);
  }
  if (m->per_rule_ > kMaxEntries / shapes->size()) return nullptr;
  std::vector<std::int64_t> values(m->per_rule_);
  std::vector<std::uint8_t> ok(m->per_rule_);
  for (std::size_t k = 0; k < shapes->size(); ++k) {
    const RuleShape& r = (*shapes)[k];
    const IntProgram::Item& it = rules.items[k];
    std::int64_t base = 0;
    for (const auto& [q, v] : r.constants) {
      if (v < 0 || v >= dims[static_cast<std::size_t>(q)]) return nullptr;  // every cell would ask
      base += v * strides[static_cast<std::size_t>(q)];
    }
    if (r.never) continue;
    const std::size_t at = m->at_.size();
    m->at_.resize(at + m->per_rule_, 0);
    for (int s = 0; s < ar; ++s) {
      const auto u = static_cast<std::size_t>(s);
      const std::int64_t n = dims[u];
      std::int64_t* entry = m->at_.data() + at + m->from_[u];
      const std::int64_t slot = rules.state_slots[u];
      // A failed test asks the rules whatever the other tests say: the rules as written may
      // meet it before a test that says no.
      for (const auto& [q, checked] : r.tests[u]) {
        rules.tabulate(q, slot, n, values.data(), ok.data());
        for (std::int64_t x = 0; x < n; ++x) {
          if (!ok[static_cast<std::size_t>(x)]) entry[x] = kAsk;
          else if (!checked && values[static_cast<std::size_t>(x)] == 0 && entry[x] != kAsk) entry[x] = kNo;
        }
      }
      for (const int q : r.made_of[u]) {
        const auto v = static_cast<std::size_t>(q);
        rules.tabulate(it.coords[v], slot, n, values.data(), ok.data());
        for (std::int64_t x = 0; x < n; ++x) {
          if (entry[x] < 0) continue;
          const std::int64_t y = values[static_cast<std::size_t>(x)];
          if (!ok[static_cast<std::size_t>(x)] || y < 0 || y >= dims[v]) entry[x] = kAsk;
          else entry[x] += y * strides[v];
        }
      }
    }
    m->base_.push_back(base);
    ++m->rules_;
  }
  return m;
}

std::int64_t BoxMoves::fill_diagonal(BoxTable& memo, const std::int64_t* c, std::int64_t count,
                                     std::uint64_t& set) const {
  const int u = arity_ - 2;
  if (u < 0 || count <= 0) return 0;
  const auto a = static_cast<std::size_t>(u), b = a + 1;
  // Per rule, what its coordinates before the last two come to, the same along the run.
  std::int64_t few[32];
  std::vector<std::int64_t> many(rules_ > 32 ? rules_ : 0);
  std::int64_t* fixed = rules_ > 32 ? many.data() : few;
  for (std::size_t k = 0; k < rules_; ++k) {
    std::int64_t sum = base_[k];
    for (std::size_t s = 0; s < a; ++s) {
      const std::int64_t e = at_[k * per_rule_ + from_[s] + static_cast<std::size_t>(c[s])];
      if (e == kAsk) return 0;
      if (e == kNo || sum == kNo) sum = kNo;
      else sum += e;
    }
    fixed[k] = sum;
  }
  const std::int64_t step = memo.strides()[a] - memo.strides()[b];
  const std::int64_t first = memo.index(c);
  const std::int64_t* along = at_.data() + from_[a] + c[u];     // + t
  const std::int64_t* against = at_.data() + from_[b] + c[u + 1];  // - t
  const std::uint32_t unknown = memo.unknown();
  for (std::int64_t t = 0; t < count; ++t) {
    const std::int64_t i = first + t * step;
    if (memo.get(i) != unknown) continue;
    std::uint64_t seen = 0;
    for (std::size_t k = 0; k < rules_; ++k) {
      const std::int64_t f = fixed[k];
      const std::int64_t x = along[k * per_rule_ + static_cast<std::size_t>(t)];
      const std::int64_t y = against[static_cast<std::ptrdiff_t>(k * per_rule_) - t];
      if ((f | x | y) < 0) {  // one of them says no, or ask
        if (x == kAsk || y == kAsk) return t;
        continue;
      }
      const std::uint32_t v = memo.get(f + x + y);  // unknown: 255 or more
      if (v >= 64) return t;
      seen |= std::uint64_t{1} << v;
    }
    memo.set(i, static_cast<std::uint32_t>(std::countr_one(seen)));
    ++set;
  }
  return count;
}

}  // namespace grundy
