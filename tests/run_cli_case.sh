#!/usr/bin/env bash
# A CLI case (ctags Tmain style): fixtures/cli/<case>/cmd is a bash snippet run in a scratch copy
# of the case directory with $HG set to the binary and $HG_FAILIO to the I/O-failure library
# (tests/inject/failio.c); its stdout, stderr and exit status are compared with stdout.txt,
# stderr.txt (when present) and exit.txt.
set -u
hg=$1 case=$2 actual=$3 failio=${4:-}
rm -rf "$actual" && mkdir -p "$actual/work"
cp -a "$case/." "$actual/work/"
cd "$actual/work" || exit 2
HG=$hg HG_FAILIO=$failio bash ./cmd >"$actual/stdout.txt" 2>"$actual/stderr.txt"
code=$?
if [ -n "${HG_UPDATE_GOLDEN:-}" ]; then
  cp "$actual/stdout.txt" "$case/stdout.txt"
  [ -f "$case/stderr.txt" ] && cp "$actual/stderr.txt" "$case/stderr.txt"
  echo "$code" >"$case/exit.txt"
  exit 0
fi
status=0
if ! diff -u "$case/stdout.txt" "$actual/stdout.txt"; then echo "stdout differs"; status=1; fi
if [ -f "$case/stderr.txt" ] && ! diff -u "$case/stderr.txt" "$actual/stderr.txt"; then echo "stderr differs"; status=1; fi
want=$(cat "$case/exit.txt")
if [ "$code" != "$want" ]; then echo "exit status $code, expected $want"; cat "$actual/stderr.txt"; status=1; fi
exit $status
