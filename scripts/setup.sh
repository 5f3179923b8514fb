#!/usr/bin/env bash
# Installs what building and testing Grundy needs on Debian (12 "bookworm" or later).
# Harmless to re-run: when every package is already installed it does nothing.
# Runs as root directly, or through sudo when it is available; never asks questions.
set -euo pipefail

packages=(
  build-essential     # g++ (C++20), make
  cmake               # >= 3.20
  tao-pegtl-dev       # PEGTL 3.2: the parser
  libfmt-dev          # fmt 9: formatting
  catch2              # Catch2 2.13: unit tests
  libcli11-dev        # CLI11: command line
  libabsl-dev         # Abseil: flat_hash_map for the memos
  libedit-dev         # libedit: line editing at the REPL
  nlohmann-json3-dev  # JSON output
  graphviz            # dot: the tests render the graphs of dot(X)
  help2man            # the man page, from --help
  libcairo2-dev       # cairo: plot() draws SVG and PNG
  emscripten          # the playground (web/): the interpreter as WebAssembly
  chromium            # the playground's tests run the page in a headless Chromium
  curl                # web/build.sh fetches abseil's source from Debian's archive
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = installed ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "setup: need root to install: ${missing[*]} (run as root, or install sudo)" >&2
  exit 1
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends "${missing[@]}"
