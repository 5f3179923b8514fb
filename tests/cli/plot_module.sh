#!/usr/bin/env bash
# plot()'s drawing module (lang/PlotDraw.cpp): a run that draws nothing does not load cairo
# (it was most of every run's start-up), a plot loads it and writes the picture, and a module
# that cannot be loaded is an error at the plot that says which and why.
#
#   tests/cli/plot_module.sh <path to grundy>
. "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
G=$(realpath "$G")  # the runs below are in $tmp

# Which shared objects the dynamic loader opened (glibc's LD_DEBUG=libs, on stderr).
LD_DEBUG=libs "$G" eval 1 >"$tmp/out" 2>"$tmp/libs"; code=$?
! grep -q 'libcairo' "$tmp/libs" && [[ $code == 0 ]] && grep -qx 1 "$tmp/out"
verdict "eval 1 loads no cairo" $? "exit $code" "$tmp/libs"

cat >"$tmp/p.game" <<'GAME'
game S { state n  move n - k for k in [1, 3, 4] if k <= n }
plot("p.svg", grundy(S(n)) for n in 0..30)
GAME
(cd "$tmp" && LD_DEBUG=libs "$G" run p.game >"$tmp/out" 2>"$tmp/libs"); code=$?
if grep -q 'built without cairo' "$tmp/libs"; then
  verdict "a build without cairo says so" 0
else
  grep -q 'grundy_plot.so' "$tmp/libs" && grep -q 'libcairo' "$tmp/libs" && [[ $code == 0 ]] &&
    grep -q '<svg' "$tmp/p.svg" && grep -qF 'p.svg: 31 values of grundy(S(n))' "$tmp/out"
  verdict "plot loads the module and writes the picture" $? "exit $code" "$tmp/out"

  echo 'not a module' >"$tmp/fake.so"
  (cd "$tmp" && GRUNDY_PLOT_MODULE="$tmp/fake.so" "$G" run p.game >"$tmp/out" 2>"$tmp/err"); code=$?
  expect "a module that cannot be loaded" 70 "p.game:2:1: error: cannot load the drawing module $tmp/fake.so:"
fi
finish
