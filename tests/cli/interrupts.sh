#!/usr/bin/env bash
# Ctrl-C stops grundy where it is, with "interrupted" (exit 70), in every phase: while it
# parses a large program and while it follows a long chain of imports, not only while it
# evaluates (it used to finish parsing first, seconds later).
#
#   tests/cli/interrupts.sh <path to grundy>
. "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

# interrupt NAME FILE: SIGINT 0.3 s into `grundy run FILE`; it must stop within a
# second of that, with exit 70 and the message.
interrupt() {
  local name=$1 file=$2
  "$G" run "$file" >/dev/null 2>"$tmp/err" &
  local pid=$!
  sleep 0.3
  kill -INT "$pid" 2>/dev/null
  local start=$SECONDS
  wait "$pid"
  local code=$?
  [[ $code == 70 ]] && grep -q "interrupted" "$tmp/err" && ((SECONDS - start <= 2))
  verdict "$name" $? "exit $code, stderr:" "$tmp/err"
}

# A program of one list of 3 million numbers: seconds to parse.
{ printf 'len(['; seq -s, 0 3000000; printf '])\n'; } >"$tmp/big.game"
interrupt "Ctrl-C while parsing" "$tmp/big.game"

# A chain of 50,000 imports, each a little program.
mkdir -p "$tmp/chain"
for ((i = 0; i < 50000; i++)); do
  printf 'import "m%d.game"\nlet v%d = [%d, %d, %d]\n' $((i + 1)) "$i" "$i" "$i" "$i" >"$tmp/chain/m$i.game"
done
printf 'let v50000 = 0\n' >"$tmp/chain/m50000.game"
printf 'import "m0.game"\nv0\n' >"$tmp/chain/main.game"
interrupt "Ctrl-C while importing" "$tmp/chain/main.game"

# stopped_after SECONDS INPUT ARGS...: grundy ARGS with INPUT on stdin, SIGINT after SECONDS;
# its exit code in `code`, its output in $tmp/out and $tmp/err.
stopped_after() {
  local seconds=$1 input=$2
  shift 2
  "$G" "$@" <"$input" >"$tmp/out" 2>"$tmp/err" &
  local pid=$!
  sleep "$seconds"
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
  code=$?
}

# A native kernel (three-heap splits: hours to heap 100000) is bounded by memory, not by
# steps; Ctrl-C stops it and says how far its table got and how long the rest would take.
printf 'game K = octal "0.ff"\ngrundy(K(100000))\n' >"$tmp/kernel.game"
stopped_after 1 /dev/null run "$tmp/kernel.game"
[[ $code == 70 ]] && grep -q "interrupted; the table reached heap [0-9]* of the 100001 asked for, after" "$tmp/err" &&
  grep -q "the rest would take about" "$tmp/err"
verdict "Ctrl-C while a kernel fills its table" $? "exit $code, stderr:" "$tmp/err"

# A piped REPL: the error names the statement it stopped (<stdin>:1:1, the line shown),
# and the statements after it are not run.
printf 'import wythoff\ngrundy(Wythoff(3000, 3000))\n"after"\n' >"$tmp/pipe.in"
stopped_after 1 "$tmp/pipe.in" repl
[[ $code == 70 ]] && grep -q "^<stdin>:1:1: error: interrupted" "$tmp/err" &&
  grep -q "^grundy(Wythoff(3000, 3000))" "$tmp/err" && ! grep -q after "$tmp/out"
verdict "Ctrl-C in a piped REPL" $? "exit $code, stdout and stderr:" "$tmp/out" "$tmp/err"

finish
