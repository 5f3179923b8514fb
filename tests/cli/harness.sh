# Shared by the shell tests of tests/cli (sourced): `G` is the grundy under test (the first
# argument), `tmp` a folder removed at the end, and each check reports through `verdict`.
# A script ends with `finish`, which exits 1 when any check failed.
set -u
G="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# verdict NAME OK DETAIL...: prints "ok   NAME", or "FAIL NAME" and the details (files shown
# indented, other words as they are) when OK is not 0.
verdict() {
  local name=$1 ok=$2
  shift 2
  if [[ $ok == 0 ]]; then
    echo "ok   $name"
    return
  fi
  echo "FAIL $name"
  for d in "$@"; do
    if [[ -f $d ]]; then cat -v "$d" | sed 's/^/  | /'; else echo "  $d"; fi
  done
  failures=$((failures + 1))
}

# expect NAME CODE STDERR-SUBSTRING: the last run's exit code ($code) and its stderr.
expect() {
  local name=$1 want=$2 text=$3 ok=0
  [[ "$code" == "$want" ]] && grep -qF -- "$text" "$tmp/err" || ok=1
  verdict "$name" $ok "exit $code (want $want), stderr:" "$tmp/err" "(want it to contain: $text)"
}

finish() { exit $((failures > 0)); }
