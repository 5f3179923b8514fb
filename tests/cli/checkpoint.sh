#!/usr/bin/env bash
# Long runs people can leave: --checkpoint writes a kernel's table as it fills and when the run
# is stopped, and a later run resumes from it to the values a run from heap 0 gives;
# --save-values and --load-values write and read the same file; a file of other values, or
# none at all, is refused with a message.
#
#   tests/cli/checkpoint.sh <path to grundy>
. "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

gg='game GG { state n  split [a, n - a] for a in 1..n if 2 * a < n }'
want=$("$G" eval "$gg" 'sum(grundy(GG(n)) for n in 0..600000)')

# Stopped by Ctrl-C part-way: the checkpoint holds the heaps done (written every 0 s, i.e. at
# every poll, and when the run stops).
"$G" eval --checkpoint "$tmp/ck" --checkpoint-every 0 "$gg" 'grundy(GG(100000000))' >/dev/null 2>"$tmp/err" &
pid=$!
# Ctrl-C once the checkpoint holds some heaps (a loaded machine, a sanitizer build: later).
for ((i = 0; i < 200; i++)); do
  sleep 0.1
  h=$(grep -a -m1 '^heaps ' "$tmp/ck" 2>/dev/null | cut -d' ' -f2)
  [[ -n $h && $h -gt 20000 ]] && break
done
kill -INT "$pid" 2>/dev/null
wait "$pid"
code=$?
heaps=$(grep -a -m1 '^heaps ' "$tmp/ck" 2>/dev/null | cut -d' ' -f2)
[[ $code == 70 && -n $heaps && $heaps -gt 10000 ]] && grep -q "interrupted" "$tmp/err"
verdict "Ctrl-C leaves a checkpoint" $? "exit $code, heaps in the checkpoint: ${heaps:-none}, stderr:" "$tmp/err"

# Resumed: the same values as a run from heap 0, and --explain says where it went on from.
got=$("$G" eval --explain --checkpoint "$tmp/ck" "$gg" 'sum(grundy(GG(n)) for n in 0..600000)' 2>"$tmp/err")
[[ $got == "$want" ]] && grep -q "goes on from heap $heaps" "$tmp/err"
verdict "a run resumed from the checkpoint gives the values of a fresh run" $? "got $got, want $want, stderr:" "$tmp/err"

# --save-values, then --load-values.
"$G" eval --save-values "$tmp/vals" "$gg" 'grundy(GG(300000))' >/dev/null 2>"$tmp/err"
got=$("$G" eval --load-values "$tmp/vals" "$gg" 'sum(grundy(GG(n)) for n in 0..600000)' 2>"$tmp/err")
[[ $got == "$want" ]] && head -1 "$tmp/vals" | grep -qx "grundy-values 1"
verdict "--save-values then --load-values" $? "got $got, want $want, stderr:" "$tmp/err"

# Errors: no such file to load (74), not a file of values (74), another game's values (70).
"$G" eval --load-values "$tmp/none" "$gg" 'grundy(GG(10))' >/dev/null 2>"$tmp/err"
code=$?
expect "a missing file to load" 74 "cannot read $tmp/none"
printf 'hello\n' >"$tmp/junk"
"$G" eval --load-values "$tmp/junk" "$gg" 'grundy(GG(10))' >/dev/null 2>"$tmp/err"
code=$?
expect "not a file of values" 74 "is not a file of values"
sed 's/^key 14$/key 000707/' "$tmp/vals" >"$tmp/other"
"$G" eval --load-values "$tmp/other" 'game K = octal "0.77"' 'grundy(K(100))' >/dev/null 2>"$tmp/err"
code=$?
expect "another game's values" 70 "are not its values"
"$G" eval --checkpoint "$tmp/ck" --save-values "$tmp/x" "$gg" 'grundy(GG(10))' >/dev/null 2>"$tmp/err"
code=$?
expect "--checkpoint with --save-values" 64 "excludes"

finish
