#!/usr/bin/env bash
# Golden test of one fixture case: runs hardguard in the case directory on "." and compares the
# text output with expected.txt (and the JSON output with expected.json when present). The exit
# status must be 1 when expected.txt holds a finding, 0 otherwise (or what exit.txt says).
# HG_UPDATE_GOLDEN=1 rewrites the expected files for review in git diff.
set -u
hg=$1 case=$2 actual=$3
mkdir -p "$actual"
cd "$case" || exit 2
status=0
"$hg" --color never . >"$actual/actual.txt" 2>"$actual/stderr.txt"
code=$?
if [ -n "${HG_UPDATE_GOLDEN:-}" ]; then
  cp "$actual/actual.txt" expected.txt
  [ -f expected.json ] && "$hg" --format json . >expected.json 2>/dev/null
  exit 0
fi
if ! diff -u expected.txt "$actual/actual.txt" >"$actual/diff.txt"; then
  echo "text output differs from $case/expected.txt:"; cat "$actual/diff.txt"; status=1
fi
if [ -f exit.txt ]; then want=$(cat exit.txt)
elif grep -q '^[^ ].*: error\[' expected.txt; then want=1
else want=0; fi
if [ "$code" != "$want" ]; then
  echo "exit status $code, expected $want"; cat "$actual/stderr.txt"; status=1
fi
if [ -f expected.json ]; then
  "$hg" --format json . >"$actual/actual.json" 2>/dev/null
  if ! diff -u expected.json "$actual/actual.json"; then echo "JSON output differs"; status=1; fi
fi
exit $status
