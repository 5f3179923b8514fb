#!/usr/bin/env bash
# Builds the playground into DIR (default web/dist): the interpreter as WebAssembly with
# Debian's emscripten, and the page bundled with esbuild (npm; versions pinned in
# web/package-lock.json). Serve it with `node web/serve.mjs DIR`. Installs what it needs
# through scripts/setup.sh when something is missing. Environment: GRUNDY_WEB_BUILD, the
# WebAssembly build tree (default build-web).
set -euo pipefail
web="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$web")"
dist="$(realpath -m "${1:-$web/dist}")"
build="$(realpath -m "${GRUNDY_WEB_BUILD:-$root/build-web}")"

if ! command -v emcmake > /dev/null || ! command -v npm > /dev/null; then
  bash "$root/scripts/setup.sh"
fi

# abseil's source, the version Debian installs (libabsl-dev), from Debian's archive:
# flat_hash_map has compiled parts, and Debian's are built for this machine, not for wasm.
absl_version=20220623.1
absl_sha256=abfe2897f3a30edaa74bc34365afe3c2a3cd012091a97dc7e008f7016adcd5fe
deps="$build/deps"
absl="$deps/abseil-$absl_version"
if [ ! -f "$absl/CMakeLists.txt" ]; then
  mkdir -p "$deps"
  tarball="$deps/abseil_$absl_version.orig.tar.gz"
  curl -fsSL --retry 3 -o "$tarball" "http://deb.debian.org/debian/pool/main/a/abseil/abseil_$absl_version.orig.tar.gz"
  echo "$absl_sha256  $tarball" | sha256sum -c --quiet
  tar xzf "$tarball" -C "$deps"
fi

# Emscripten's libraries: Debian ships them prebuilt in a frozen cache, without the variant
# for WebAssembly's own exceptions (-fwasm-exceptions, much faster than emulating them in
# JavaScript); a copy of the cache that emcc may add it to.
export EM_CACHE="$build/em-cache" EM_FROZEN_CACHE=0
if [ ! -f "$EM_CACHE/sysroot_install.stamp" ]; then
  mkdir -p "$build"
  cp -r /usr/share/emscripten/cache "$EM_CACHE.tmp" && mv "$EM_CACHE.tmp" "$EM_CACHE"
fi
# emcc's JavaScript optimizer needs acorn, which Debian installs for its own Node.js path.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

mkdir -p "$build"
if ! emcmake cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGRUNDY_ABSL_SOURCE="$absl" > "$build/configure.log" 2>&1; then
  cat "$build/configure.log"
  exit 1
fi
cmake --build "$build" --target grundy_web -j"$(nproc)"

cd "$web"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
mkdir -p "$dist"
cp "$build/web/grundy.js" "$build/web/grundy.wasm" "$dist/"
node build-page.mjs "$dist"
echo "playground built into $dist; serve it with: node web/serve.mjs $dist"
