#!/usr/bin/env bash
# `cmake --install` of a build, into a scratch prefix: the binary (which runs and scans the bundled
# example tree), the man page where man looks for it, and the rules, which work as a --rules
# directory.
#
# usage: check_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "cmake --install failed"; }
hg=$tmp/prefix/bin/hardguard
[ -x "$hg" ] || fail "no bin/hardguard"
page=$(ls "$tmp"/prefix/share/man/man1/hardguard.1* 2>/dev/null) || fail "no share/man/man1/hardguard.1[.gz]"
[ -f "$tmp/prefix/share/hardguard/rules/policy.yml" ] || fail "no share/hardguard/rules/policy.yml"
if command -v man >/dev/null 2>&1; then
  found=$(MANPATH=$tmp/prefix/share/man man -w hardguard 2>&1) || fail "man -w hardguard: $found"
  [ "$found" = "$page" ] || fail "man -w hardguard found $found, not $page"
fi

code=0
"$hg" "$src/fixtures/python/real/fail-backend" >"$tmp/out" 2>&1 || code=$?
[ "$code" = 1 ] || { cat "$tmp/out"; fail "the installed hardguard exited $code on the example tree, not 1"; }
grep -q 'error\[unhardened-site\]' "$tmp/out" || fail "the installed hardguard reported no unhardened-site"
code=0
"$hg" --rules "$tmp/prefix/share/hardguard/rules" "$src/fixtures/python/real/fail-backend" >"$tmp/out-rules" 2>&1 || code=$?
[ "$code" = 1 ] && cmp -s "$tmp/out" "$tmp/out-rules" ||
  fail "--rules with the installed rules does not give the built-in rules' output (exit $code)"
echo "installed: $(cd "$tmp/prefix" && find . -type f | grep -v /rules/ | sort | tr '\n' ' ')and $(find "$tmp/prefix/share/hardguard/rules" -type f | wc -l) rule files"
