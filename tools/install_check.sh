#!/usr/bin/env bash
# `pip install .` into a fresh virtualenv, then the installed package is used from outside the
# source tree (tools/check_installed.py). The wheel's CMake build lives in build-wheel/ under the
# checkout and compiles through ccache with the checkout as base directory, so that it reuses
# the objects `make build` compiled (same relative paths, same flags). Prints how long the
# installation took.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
export CCACHE_NOHASHDIR=true
# ccache keys on the compiler's name too: call it by the name CMake finds for `make build`.
export CXX="${CXX:-c++}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" -m venv "$work/venv"
started=$(date +%s)
"$work/venv/bin/python" -m pip install -q \
  -C build-dir="$root/build-wheel" \
  -C cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache \
  "$root"
echo "pip install . took $(($(date +%s) - started)) s"
cd "$work"
"$work/venv/bin/python" - "$work/venv" < "$root/tools/check_installed.py"
