#!/usr/bin/env bash
# A --fix case: fixtures/fix/<case>/input/ is a tree, copied to a scratch directory, which gets the
# builder `hardguard init` writes unless it has a .hardguard.yml of its own or the case has a file
# `no-init`; then `cmd` (a bash snippet, default `$HG --fix --color never .`) runs there with $HG
# set to the binary. Compared: the tree afterwards with the tree before, in which the files of
# expected/ replace or join theirs (expected/ holds what the run changes or adds; absent: nothing
# changes), stdout with stdout.txt, stderr with stderr.txt, the exit status with exit.txt. Then
# every .py file of the tree must compile (python3 -m py_compile; but for one that did not
# before), and, for the default
# command, a second --fix must change nothing (idempotence). HG_UPDATE_GOLDEN=1 rewrites the
# expected files for review in git diff.
set -u
hg=$1 case=$2 actual=$3
rm -rf "$actual" && mkdir -p "$actual/work"
cp -a "$case/input/." "$actual/work/"
if [ ! -f "$case/input/.hardguard.yml" ] && [ ! -f "$case/no-init" ]; then
  (cd "$actual/work" && "$hg" init . >/dev/null) || { echo "hardguard init failed"; exit 1; }
fi
cp -a "$actual/work" "$actual/before"
cmd='$HG --fix --color never .'
[ -f "$case/cmd" ] && cmd=$(cat "$case/cmd")
(cd "$actual/work" && HG=$hg bash -c "$cmd" >"$actual/stdout.txt" 2>"$actual/stderr.txt")
code=$?
# Leftovers a run must not leave: temporary files of an interrupted rewrite.
leftover=$(find "$actual/work" -name '.*.hardguard-*')
if [ -n "${HG_UPDATE_GOLDEN:-}" ]; then
  cp "$actual/stdout.txt" "$case/stdout.txt"
  cp "$actual/stderr.txt" "$case/stderr.txt"
  echo "$code" >"$case/exit.txt"
  rm -rf "$case/expected"
  (cd "$actual/work" && find . \( -type f -o -type l \) -print) | while read -r f; do
    new=false
    [ -e "$actual/before/$f" ] || [ -L "$actual/before/$f" ] || new=true
    if $new || ! cmp -s "$actual/before/$f" "$actual/work/$f"; then
      mkdir -p "$(dirname "$case/expected/$f")" && cp -a "$actual/work/$f" "$case/expected/$f"
    fi
  done
  exit 0
fi
status=0
cp -a "$actual/before" "$actual/want"
[ -d "$case/expected" ] && cp -a "$case/expected/." "$actual/want/"
if ! diff -ru --no-dereference "$actual/want" "$actual/work"; then echo "tree differs from the expected one"; status=1; fi
# Modes are kept (an executable script stays executable).
modes() { (cd "$1" && find . -type f -printf '%P %m\n' | sort); }
if ! diff -u <(modes "$actual/want") <(modes "$actual/work"); then echo "file modes differ"; status=1; fi
if ! diff -u "$case/stdout.txt" "$actual/stdout.txt"; then echo "stdout differs"; status=1; fi
if ! diff -u "$case/stderr.txt" "$actual/stderr.txt"; then echo "stderr differs"; status=1; fi
want=$(cat "$case/exit.txt")
if [ "$code" != "$want" ]; then echo "exit status $code, expected $want"; status=1; fi
if [ -n "$leftover" ]; then echo "temporary files left behind: $leftover"; status=1; fi
# The fixed tree is still Python: every .py file compiles, but for those that did not before.
compiles() { PYTHONPYCACHEPREFIX="$actual/pycache" python3 -m py_compile "$1" 2>/dev/null; }
while read -r f; do
  if [ -f "$actual/before/$f" ] && ! compiles "$actual/before/$f"; then continue; fi
  if ! compiles "$actual/work/$f"; then echo "$f does not compile"; status=1; fi
done < <(cd "$actual/work" && find . -name '*.py' -type f | sort)
# Idempotence: fixing the fixed tree again changes nothing.
if [ ! -f "$case/cmd" ]; then
  cp -a "$actual/work" "$actual/again"
  (cd "$actual/again" && "$hg" --fix --color never . >"$actual/again.stdout" 2>"$actual/again.stderr")
  if ! diff -r --no-dereference "$actual/work" "$actual/again"; then echo "a second --fix changed the tree"; status=1; fi
  if ! grep -q '^hardguard: fixed 0 sites in 0 files' "$actual/again.stderr"; then
    echo "a second --fix fixed something:"; cat "$actual/again.stderr"; status=1
  fi
fi
exit $status
