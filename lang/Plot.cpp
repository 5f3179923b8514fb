// plot(FILE, EXPR for n in A..B) and plot(FILE, EXPR for a in A for b in B): the generator's
// values as a picture (LANGUAGE.md section 12), drawn by lang/PlotDraw.cpp. A sequence
// `grundy(G(n))` of a game with a proven period has it marked.
#include <algorithm>

#include "lang/Faults.hpp"
#include "lang/Interpreter.hpp"
#include "lang/PlotDraw.hpp"
#include "lang/Queries.hpp"
#include "runtime/Error.hpp"
#include "runtime/Memory.hpp"
#include "runtime/Period.hpp"
#include "runtime/Progress.hpp"

namespace grundy::lang {

namespace {

// The expression's text as written (up to its first clause), for the picture's labels.
std::string written(const Sources& sources, const Expr& e, const Clause& first) {
  if (e.where.file < 0 || first.where.file != e.where.file) return "value";
  const std::string out = source_slice(sources.file(e.where.file).text, text_start(e), first.where.offset);
  return out.empty() ? "value" : out;
}

// A value as a number of the picture: integers, booleans (0, 1) and outcomes (P 0, N 1, D 2).
std::int64_t plotted(const Value& v, PlotScale& scale, bool first, const Expr& where) {
  const PlotScale want = v.is(Kind::Outcome) ? PlotScale::Outcomes : PlotScale::Numbers;
  if (!v.is(Kind::Int) && !v.is(Kind::Bool) && !v.is(Kind::Outcome)) {
    fail_at(where.where, "plot draws integers, booleans and outcomes, got " + describe(v),
            "plot grundy(...), wins(...) or outcome(...) of the positions");
  }
  if (first) scale = want;
  if (scale != want) fail_at(where.where, "plot draws one kind of value: outcomes and numbers are mixed");
  if (v.is(Kind::Outcome)) return v.as_outcome() == 'P' ? 0 : v.as_outcome() == 'N' ? 1 : 2;
  return v.is(Kind::Bool) ? (v.as_bool() ? 1 : 0) : v.as_int();
}

// The game G when the element is grundy(G(n)) of the loop's variable alone.
const GameInstance* sequence_game(Interpreter& in, const Expr& e, const Clause& loop, Frame& frame) {
  if (e.kind != ExprKind::Call || e.args.size() != 2 || !e.clauses.empty()) return nullptr;
  const Expr& callee = *e.args[0];
  if (callee.binding.to != Binding::To::Builtin || callee.binding.index != static_cast<int>(Builtin::Grundy))
    return nullptr;
  const Expr& pos = *e.args[1];
  if (pos.kind != ExprKind::Call || pos.args.size() != 2 || loop.slots.size() != 1) return nullptr;
  const Expr& arg = *pos.args[1];
  if (arg.kind != ExprKind::Name || arg.binding.to != Binding::To::Local || arg.binding.index != loop.slots[0])
    return nullptr;
  try {
    const Value v = in.eval(pos, frame);  // at the loop variable's value (query_plot sets it)
    return v.is(Kind::Position) && v.modifier() == Modifier::Normal ? v.game() : nullptr;
  } catch (const Error&) {
    return nullptr;  // no period to mark, and no error that the plot itself did not meet
  }
}

}  // namespace

Value query_plot(BuiltinCall& call) {
  Interpreter& in = call.in;
  const Expr& e = *call.e;
  Frame& frame = *call.frame;
  const Limits& limits = in.world().limits;
  const Value file = in.eval(*e.args[1], frame);
  if (!file.is(Kind::Str)) {
    fail_at(e.args[1]->where, "plot's first argument is the file to write, got " + describe(file),
            "write plot(\"values.svg\", ...) or plot(\"values.png\", ...)");
  }
  const std::string path = file.as_str();
  std::vector<const Clause*> fors;
  for (const Clause& c : e.clauses) {
    if (c.kind == Clause::Kind::For) fors.push_back(&c);
  }
  if (fors.size() > 2) fail_at(e.where, "plot takes one 'for' (a sequence) or two (a grid)");
  if (!can_draw()) fail_at(e.where, why_cannot_draw());
  const Expr& element = *e.args[2];
  auto key = [&](const Clause& c) {
    const Value& k = frame[static_cast<std::size_t>(c.slots[0])];
    if (c.slots.size() != 1 || !k.is(Kind::Int)) {
      fail_at(c.where, "plot's loops run over integers (the picture's axes)",
              "write for n in A..B, or for n in a list of integers");
    }
    return k.as_int();
  };
  std::vector<std::int64_t> xs, ys, vs;
  PlotScale scale = PlotScale::Numbers;
  ProgressScope bar(limits.progress, "plot");
  if (e.shortcut.prefetch) in.prefetch(e, frame);
  in.each(e.clauses, 0, frame, [&] {
    if (vs.size() == vs.capacity()) {  // the next value doubles the vectors
      const std::uint64_t more = std::max<std::size_t>(vs.capacity(), 1) * 2 * 3 * sizeof(std::int64_t);
      if (heap_over(limits.max_memory, more)) limits.memory_exceeded("the plot");
    }
    xs.push_back(key(*fors[0]));
    if (fors.size() == 2) ys.push_back(key(*fors[1]));
    vs.push_back(plotted(in.eval(element, frame), scale, vs.empty(), element));
    if (limits.progress) limits.progress->update(vs.size(), 0);
    // A picture thins its points: it may take more values than a table prints (16 times --max-rows).
    if (vs.size() / 16 > limits.max_rows) {
      throw Error(ErrorKind::Limit,
                  "the plot has more than " + std::to_string(limits.max_rows * 16) + " values (16 x --max-rows)",
                  "raise the limit with --max-rows N", e.where);
    }
  });
  if (vs.empty()) fail_at(e.where, "plot has nothing to draw: the generator gave no values");
  const std::string what = written(in.world().sources, element, e.clauses.front());
  std::string error;
  if (fors.size() == 1) {
    SequencePicture pic;
    pic.title = what;
    pic.x_label = fors[0]->names[0];
    pic.y_label = scale == PlotScale::Outcomes ? "outcome" : "value";
    pic.scale = scale;
    if (fors[0]->slots.size() == 1) frame[static_cast<std::size_t>(fors[0]->slots[0])] = Value::integer(xs.back());
    if (const GameInstance* g = sequence_game(in, element, *fors[0], frame)) {
      // Marked only when proven; a game without a period shows up as none.
      try {
        // Looked for past the plot's end where that is cheap: Kayles' period, proven from heap
        // 156 on, is marked on a plot to 100 too.
        const std::int64_t most = *std::max_element(xs.begin(), xs.end());
        const PeriodInfo p = in.evaluator().period(
            *g, most > kPeriodLimitRules ? std::optional<std::int64_t>(most) : std::nullopt);
        if (p.proven) pic.period = SequencePicture::Period{p.n0, p.p};
      } catch (const Error&) {
      }
    }
    pic.x = std::move(xs);
    pic.y = std::move(vs);
    error = draw_sequence(pic, path);
    if (error.empty()) {
      return Value::string(path + ": " + std::to_string(pic.x.size()) + (pic.x.size() == 1 ? " value of " : " values of ") +
                           what);
    }
  } else {
    GridPicture pic;
    pic.title = what;
    pic.x_label = fors[0]->names[0];
    pic.y_label = fors[1]->names[0];
    pic.scale = scale;
    pic.xs = xs;
    pic.ys = ys;
    for (auto* axis : {&pic.xs, &pic.ys}) {
      std::sort(axis->begin(), axis->end());
      axis->erase(std::unique(axis->begin(), axis->end()), axis->end());
    }
    const std::size_t cells = pic.xs.size() * pic.ys.size();
    if (cells / 16 > limits.max_rows) {
      throw Error(ErrorKind::Limit,
                  "the plot's grid has " + std::to_string(cells) + " cells, more than 16 x --max-rows",
                  "raise the limit with --max-rows N", e.where);
    }
    if (pic.xs.size() > kMaxGridSide || pic.ys.size() > kMaxGridSide) {
      fail_at(e.where, "the plot's grid is " + std::to_string(pic.xs.size()) + " x " + std::to_string(pic.ys.size()) +
                           ": a heat map draws at most " + std::to_string(kMaxGridSide) + " values a side");
    }
    pic.values.assign(cells, 0);
    pic.present.assign(cells, 0);
    auto index = [](const std::vector<std::int64_t>& axis, std::int64_t v) {
      return static_cast<std::size_t>(std::lower_bound(axis.begin(), axis.end(), v) - axis.begin());
    };
    for (std::size_t k = 0; k < vs.size(); ++k) {
      const std::size_t at = index(pic.xs, xs[k]) * pic.ys.size() + index(pic.ys, ys[k]);
      pic.values[at] = vs[k];
      pic.present[at] = 1;
    }
    error = draw_grid(pic, path);
    if (error.empty()) {
      return Value::string(path + ": " + std::to_string(pic.xs.size()) + " x " + std::to_string(pic.ys.size()) +
                           " values of " + what);
    }
  }
  fail_at(e.args[1]->where, error);
}

}  // namespace grundy::lang
