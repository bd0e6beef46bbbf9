#!/usr/bin/env bash
# Every rule file of every surface has fixtures (fixtures/README.md):
#  - a kind file, rules/<surface>/<kind>.scm or .yml (any file directly under rules/<surface>/),
#    has a passing and a failing case, fixtures/<surface>/<kind>/pass-* and fail-* (ast-grep's
#    valid/invalid pair);
#  - a facts file, rules/<surface>/facts/<name>.scm, never reports anything itself, so it has no
#    pass or fail: it needs a case of its surface whose input holds what it matches (the table
#    below). A facts file the table does not know fails until a line here says what exercises it;
#  - every folder fixtures/<surface>/ (but cli/ and fix/) names a surface of rules/, so a case
#    filed under a misspelt surface cannot hide from this check.
set -u
root=$1 status=0
fail() { echo "$1"; status=1; }

# fact_exercised SURFACE NAME: whether a golden case of SURFACE holds input that facts/NAME.scm matches.
fact_exercised() {
  local dir=$root/fixtures/$1 re
  case $2 in
  markers) re='hardguard: *(ignore|allow)\[' ;;   # the named exceptions the surface reads
  imports) re='^[[:space:]]*(import|from)[[:space:]]' ;;
  *) return 2 ;;
  esac
  [ -d "$dir" ] && grep -rqE --exclude='expected.*' --exclude=exit.txt "$re" "$dir"
}

surfaces=0
for sdir in "$root"/rules/*/; do
  surface=$(basename "$sdir")
  surfaces=$((surfaces + 1))
  kinds=0
  for rule in "$sdir"*; do
    [ -f "$rule" ] || continue
    name=$(basename "$rule") kinds=$((kinds + 1))
    kind=${name%.*}
    for verdict in pass fail; do
      compgen -G "$root/fixtures/$surface/$kind/$verdict-*/" >/dev/null ||
        fail "rules/$surface/$name has no fixtures/$surface/$kind/$verdict-* case"
    done
  done
  [ "$kinds" -gt 0 ] || fail "rules/$surface/ holds no rule file"
  for fact in "$sdir"facts/*; do
    [ -e "$fact" ] || continue
    name=$(basename "$fact")
    fact_exercised "$surface" "${name%.*}"
    case $? in
    0) ;;
    2) fail "rules/$surface/facts/$name: tests/check_coverage.sh does not say which input exercises it" ;;
    *) fail "rules/$surface/facts/$name: no case under fixtures/$surface/ holds input it matches" ;;
    esac
  done
done
[ "$surfaces" -gt 0 ] || fail "no rules/<surface>/ folder under $root/rules"

for fdir in "$root"/fixtures/*/; do
  surface=$(basename "$fdir")
  case $surface in cli | fix) continue ;; esac
  [ -d "$root/rules/$surface" ] || fail "fixtures/$surface/ names no surface (there is no rules/$surface/)"
done
exit $status
