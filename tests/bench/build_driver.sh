#!/usr/bin/env bash
# Builds the parse-rate driver (parse_rate.c) into BUILD/bench/parse_rate, linking the
# tree-sitter-python grammar exactly as the hardguard build compiled it (BUILD/libhg_grammar_python.a
# with the allocator its scanner is built with, BUILD/libhg_grammar_alloc.a, which libtree-sitter is
# then handed as hardguard hands it; or its sources in BUILD/_grammar/python/package/src) and the
# system libtree-sitter.
#   tests/bench/build_driver.sh [BUILD]       (default: build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
out=$build/bench/parse_rate
mkdir -p "$build/bench"
if [ -f "$build/libhg_grammar_python.a" ]; then
  grammar=("$build/libhg_grammar_python.a")
  # libtree-sitter allocates through it too, as in hardguard (main.c): -DHG_LIBRARY_ALLOC.
  if [ -f "$build/libhg_grammar_alloc.a" ]; then grammar+=("$build/libhg_grammar_alloc.a" -DHG_LIBRARY_ALLOC); fi
else
  src=$build/_grammar/python/package/src
  [ -f "$src/parser.c" ] || { echo "build_driver: no grammar in $build (configure hardguard first)" >&2; exit 2; }
  grammar=("$src/parser.c" "$src/scanner.c" -I"$src")
fi
# shellcheck disable=SC2046
cc -O2 -std=gnu11 -Wall -Wextra -o "$out" "$here/parse_rate.c" "${grammar[@]}" \
  $(pkg-config --cflags --libs tree-sitter) -lpthread
echo "$out"
