#!/usr/bin/env bash
# Control characters typed by the user (an escape sequence in an argument, a file name, a
# REPL command) are shown escaped (\x1b) in messages, never sent raw to the terminal, where
# they could recolour it or move the cursor.
#
#   tests/cli/control_chars.sh <path to grundy>
. "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
esc=$'\x1b'

# check NAME STDERR-SUBSTRING: the last run's stderr holds the text and no raw ESC or BEL.
check() {
  local name=$1 text=$2
  grep -qF -- "$text" "$tmp/err" && ! grep -q $'[\x1b\x07]' "$tmp/err"
  verdict "$name" $? "stderr:" "$tmp/err" "(want it to contain: $text, and no raw control character)"
}
"$G" --max-states "1${esc}[31mX" 2>"$tmp/err"
check "a usage error" "got '1\\x1b[31mX'"
"$G" run "$tmp/a${esc}[31mb.game" 2>"$tmp/err"
check "a file that cannot be opened" "a\\x1b[31mb.game': No such file"
printf ':load \x1b[31mzz\n:zz\x07\n' | "$G" repl 2>"$tmp/err" >/dev/null
check "a REPL command's file name" "cannot open '\\x1b[31mzz'"
check "an unknown REPL command" "unknown command ':zz\\x07'"

finish
