#!/usr/bin/env bash
# The walk-through of docs/adopting.md, step by step, on a scratch copy of the example
# tree fixtures/fix/adopt/input: runs the steps before STEP quietly, then STEP with its output
# (standard error too, as a terminal shows it). Run from the source directory with hardguard on
# PATH (tests/readme/check_readme.py runs it so).
set -u
step=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp -a fixtures/fix/adopt/input/. "$dir/"
cd "$dir" || exit 2
steps=(audit init show fix baseline)
for s in "${steps[@]}"; do
  quiet=true
  [ "$s" = "$step" ] && quiet=false
  case $s in
    audit) cmd=(hardguard .) ;;
    init) cmd=(hardguard init) ;;
    show) cmd=(hardguard --fix --show-fixes .) ;;
    fix) cmd=(hardguard --fix .) ;;
    baseline) cmd=(sh -c 'hardguard --write-baseline hardguard-baseline.txt . && hardguard --baseline hardguard-baseline.txt .') ;;
  esac
  if $quiet; then
    "${cmd[@]}" >/dev/null 2>&1
  else
    "${cmd[@]}" 2>&1
    exit $?
  fi
done
echo "no step '$step' (one of: ${steps[*]})" >&2
exit 2
