#!/usr/bin/env bash
# The man page against the program: every option `hardguard --help` lists has an entry under
# OPTIONS in the page, every entry there is an option --help lists, and .TH names the version
# `hardguard --version` prints. When groff is installed (.ci/test installs groff-base), the page is
# also rendered with every warning on (-ww), and a warning fails the test.
#
# usage: check_man.sh HARDGUARD MANPAGE
set -euo pipefail
hg=$1 page=$2
status=0
fail() { echo "FAIL: $*"; status=1; }

# --help: the option words of the "options:" section (up to its blank line), e.g. "-j, --jobs N",
# "alias --changed-since REF", "--version, -h/--help".
help_opts=$("$hg" --help | awk '/^options:/ {on=1; next} on && /^$/ {exit} on' |
  grep -oE '(^|[ ,/])--?[A-Za-z][-A-Za-z]*' | sed 's/^[ ,/]//' | sort -u)
[ -n "$help_opts" ] || fail "no options found in hardguard --help"

# The page: the tag line after each .TP under .SH OPTIONS, with roff's \- read as -.
page_opts=$(awk '/^\.SH / {on = ($2 == "OPTIONS"); next} on && tag {print; tag=0} on && /^\.TP/ {tag=1}' "$page" |
  sed 's/\\-/-/g; s/\\f[BIRP]//g' | grep -oE '(^|[ ,"])--?[A-Za-z][-A-Za-z]*' | sed 's/^[ ,"]//' | sort -u)

while IFS= read -r o; do
  grep -qxF -- "$o" <<<"$page_opts" || fail "$o is in hardguard --help but has no entry under OPTIONS in $page"
done <<<"$help_opts"
while IFS= read -r o; do
  grep -qxF -- "$o" <<<"$help_opts" || fail "$o has an entry in $page but is not in hardguard --help"
done <<<"$page_opts"

version=$("$hg" --version | awk '{print $2}')
grep -qE "^\.TH HARDGUARD 1 \"[^\"]*\" \"hardguard $version\"" "$page" ||
  fail ".TH in $page does not name hardguard $version (hardguard --version)"

if command -v groff >/dev/null 2>&1; then
  warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1) || fail "groff failed on $page"
  [ -z "$warnings" ] || fail "groff -ww warns about $page:"$'\n'"$warnings"
else
  echo "groff is not installed: the page was not rendered (apt-get install groff-base)"
fi
[ $status = 0 ] && echo "man page: $(wc -l <<<"$help_opts") options of --help described, version $version"
exit $status
