#!/usr/bin/env bash
# Every expected finding of every fixture reads as a user-facing message (issue 28): no fix line is
# empty (`= fix:` with nothing after it), and no internal placeholder of an embedded string's
# unknown part (`${python_expression}`, `${js_expression}`: the parts are named by their
# expression, `${image}`, or their place, `${python_2}`) stands in a message.
#   tests/check_messages.sh REPO
set -euo pipefail
root=${1:?usage: check_messages.sh REPO}
bad=0
while IFS= read -r -d '' f; do
  if grep -nE '= fix: *$' "$f" >/dev/null; then
    grep -nE '= fix: *$' "$f" | sed "s|^|$f: empty fix line: |" >&2
    bad=1
  fi
  if grep -nE '\$\{(python|js|javascript)_expression\}' "$f" >/dev/null; then
    grep -nE '\$\{(python|js|javascript)_expression\}' "$f" | sed "s|^|$f: internal placeholder: |" >&2
    bad=1
  fi
done < <(find "$root/fixtures" \( -name expected.txt -o -name stdout.txt \) -print0)
[ "$bad" = 0 ] && echo "messages: every fixture's findings read without an empty fix or a placeholder"
exit "$bad"
