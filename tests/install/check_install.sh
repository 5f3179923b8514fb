#!/usr/bin/env bash
# What `cmake --install` and `cpack -G DEB` make of a build: grundy runs from the installed
# prefix, with its man page, bash completion, examples and docs beside it, and a program that
# embeds the library (tests/install/consumer) builds against it and runs; the .deb holds them
# and names its library dependencies. On CI (CI=true, as root, on a clean machine) the .deb is
# also installed with dpkg, run from /usr/bin, and removed again.
set -euo pipefail
build="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/usr" > /dev/null
out=$("$tmp/usr/bin/grundy" eval 'import octal' 'grundy(Kayles(10))')
[ "$out" = 2 ] || { echo "installed grundy printed '$out', not 2" >&2; exit 1; }
for f in share/bash-completion/completions/grundy share/doc/grundy/README.md \
         share/doc/grundy/language.md share/doc/grundy/examples/kayles.game \
         share/doc/grundy/pictures/wythoff.png share/doc/grundy/editors/grundy.tmLanguage.json \
         share/vim/vimfiles/syntax/grundy.vim share/vim/vimfiles/ftdetect/grundy.vim; do
  [ -f "$tmp/usr/$f" ] || { echo "not installed: $f" >&2; exit 1; }
done
if command -v help2man > /dev/null; then
  [ -f "$tmp/usr/share/man/man1/grundy.1" ] || { echo "no man page" >&2; exit 1; }
fi
bash -n "$tmp/usr/share/bash-completion/completions/grundy"

# The library: a program of someone else's finds it with find_package(grundy) and runs.
cmake -S "$(dirname "$0")/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/usr" > /dev/null
cmake --build "$tmp/consumer" > /dev/null
"$tmp/consumer/consumer"

(cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" > /dev/null)
deb=$(ls "$tmp"/pkg/grundy_*.deb)
contents=$(dpkg-deb --contents "$deb")  # whole, not into grep -q (pipefail sees its SIGPIPE)
grep -q '\./usr/bin/grundy$' <<< "$contents" || { echo "the .deb has no /usr/bin/grundy" >&2; exit 1; }
if grep -q 'libgrundy' <<< "$contents"; then echo "the .deb holds the library's archives" >&2; exit 1; fi
depends=$(dpkg-deb -f "$deb" Depends)
grep -q 'libc6' <<< "$depends" || { echo "the .deb names no dependencies: '$depends'" >&2; exit 1; }

# grundy-dev: the library, its archives stripped of debug information; the consumer builds
# against its files as dpkg would place them.
dev=$(ls "$tmp"/pkg/grundy-dev_*.deb)
grep -q 'libabsl-dev' <<< "$(dpkg-deb -f "$dev" Depends)" || { echo "grundy-dev names no -dev packages" >&2; exit 1; }
dpkg-deb -x "$dev" "$tmp/dev"
cmake -S "$(dirname "$0")/consumer" -B "$tmp/consumer-dev" -DCMAKE_PREFIX_PATH="$tmp/dev/usr" > /dev/null
cmake --build "$tmp/consumer-dev" > /dev/null
"$tmp/consumer-dev/consumer"

if [ "${CI:-}" = true ] && [ "$(id -u)" -eq 0 ] && ! dpkg -s grundy > /dev/null 2>&1; then
  dpkg -i "$deb" > /dev/null
  out=$(/usr/bin/grundy eval 'import octal' 'grundy(Kayles(10))')
  dpkg -r grundy > /dev/null
  [ "$out" = 2 ] || { echo "grundy from the .deb printed '$out', not 2" >&2; exit 1; }
fi
echo "install and package: ok"
