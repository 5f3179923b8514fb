#!/usr/bin/env bash
# Read and write errors are I/O errors (exit 74) with a message, never an empty program or
# a death by signal; a stream that never ends stops. Each check needs a shell: a closed
# descriptor, a directory or a device as standard input, a reader that goes away.
#
#   tests/cli/io_errors.sh <path to grundy>
. "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

"$G" run - <&- 2>"$tmp/err"; code=$?
expect "run - with standard input closed" 74 "error: cannot read standard input: Bad file descriptor"

"$G" run - <"$tmp" 2>"$tmp/err"; code=$?
expect "run - with a directory as standard input" 74 "error: cannot read standard input: it is a directory"

"$G" repl <&- 2>"$tmp/err"; code=$?
expect "repl with standard input closed" 74 "error: cannot read standard input: Bad file descriptor"

"$G" <"$tmp" 2>"$tmp/err"; code=$?
expect "the REPL with a directory as standard input" 74 "error: cannot read standard input: it is a directory"

# Reading /proc/self/mem from its start fails with EIO.
if [[ -r /proc/self/mem ]]; then
  echo 'import "/proc/self/mem"' >"$tmp/eio.game"
  "$G" run "$tmp/eio.game" 2>"$tmp/err"; code=$?
  expect "an import whose read fails" 74 "eio.game:1:8: error: cannot read '/proc/self/mem': Input/output error"
  "$G" run /proc/self/mem 2>"$tmp/err"; code=$?
  expect "a file whose read fails" 74 "error: cannot read '/proc/self/mem': Input/output error"
fi

timeout 10 "$G" run /dev/zero 2>"$tmp/err"; code=$?
expect "a stream of NUL bytes stops at the first" 65 "hint: a .game file is text, and this one holds a NUL byte"

yes 2>/dev/null | timeout 20 "$G" --max-memory 8 run - 2>"$tmp/err"; code=$?
expect "text without end stops at the size --max-memory allows" 74 \
  "error: cannot read standard input: it holds more than 2 MB of text"

"$G" eval '[n for n in 0..1000000]' 2>"$tmp/err" | head -c1 >/dev/null; code=${PIPESTATUS[0]}
expect "a closed output pipe (run)" 74 "error: cannot write the output"

printf '1\n[n for n in 0..100000]\n[n for n in 0..100000]\n' | "$G" repl 2>"$tmp/err" | head -c1 >/dev/null
code=${PIPESTATUS[1]}
expect "a closed output pipe (repl)" 74 "error: cannot write the output"
[[ $(grep -c "cannot write" "$tmp/err") == 1 ]]
verdict "the REPL says once that its output is gone" $? "$tmp/err"

# A loop of symbolic links is not "No such file or directory".
ln -s "$tmp/loop2" "$tmp/loop1" && ln -s "$tmp/loop1" "$tmp/loop2"
echo 'import "loop1"' >"$tmp/loops.game"
"$G" run "$tmp/loops.game" 2>"$tmp/err"; code=$?
expect "an import of a symbolic link loop" 65 "cannot open 'loop1': Too many levels of symbolic links"
"$G" run "$tmp/loop1" 2>"$tmp/err"; code=$?
expect "run of a symbolic link loop" 74 "Too many levels of symbolic links"

finish
