#!/usr/bin/env bash
# Findings do not depend on where tree-sitter's blocks come from (docs/hardguard.1, HG_SLAB): the
# JSON report of every fixture, with the slab (the default, where it is on) and with HG_SLAB=off
# (malloc's blocks), byte for byte, on two workers and on one.
#
# usage: check_slab_off.sh HARDGUARD FIXTURES
set -euo pipefail
hg=$1 fixtures=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for j in 2 1; do
  "$hg" -q -j "$j" --format json "$fixtures" >"$tmp/slab.json" 2>"$tmp/slab.err" && rc=0 || rc=$?
  HG_SLAB=off "$hg" -q -j "$j" --format json "$fixtures" >"$tmp/off.json" 2>"$tmp/off.err" && rc_off=0 || rc_off=$?
  [ "$rc" = "$rc_off" ] || { echo "FAIL: -j $j: exit $rc with the slab, $rc_off with HG_SLAB=off"; exit 1; }
  [ "$rc" -le 1 ] || { echo "FAIL: -j $j: exit $rc"; cat "$tmp/slab.err"; exit 1; }
  grep -q '"sites": \[$' "$tmp/slab.json" || { echo "FAIL: -j $j: no sites in the report"; exit 1; }
  cmp -s "$tmp/slab.json" "$tmp/off.json" || {
    echo "FAIL: -j $j: the reports differ"
    diff "$tmp/slab.json" "$tmp/off.json" | head -20
    exit 1
  }
  echo "ok: -j $j, $(wc -c <"$tmp/slab.json") bytes alike"
done
