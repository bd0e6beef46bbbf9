#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` in BUILD_DIR makes hardguard_<version>_<arch>.deb, which
# declares its runtime dependencies and holds the binary, the man page and the rules. Then, as
# root: apt-get installs it (waiting up to 2 minutes for a dpkg lock another apt holds),
# /usr/bin/hardguard scans the bundled example tree, man finds its page, and apt-get removes it
# again. A hardguard package already installed is never replaced: the install checks are skipped
# then, as they are for a user who is not root. Prints one "ok" or "FAIL" line per check ("skip"
# lines are not checks); exits 1 when any failed.
#
# usage: check_deb.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(realpath "$1") src=$(realpath "$2")
status=0
ok() { echo "ok   deb: $*"; }
fail() { echo "FAIL deb: $*"; status=1; }
log=$build/deb-check.log
: >"$log"

version=$("$build/hardguard" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
rm -f "$build"/hardguard_*.deb
if (cd "$build" && cpack -G DEB) >>"$log" 2>&1 && [ -f "$build/hardguard_${version}_${arch}.deb" ]; then
  ok "cpack -G DEB made hardguard_${version}_${arch}.deb"
else
  fail "cpack -G DEB did not make hardguard_${version}_${arch}.deb: $log"
  exit 1
fi
deb=$build/hardguard_${version}_${arch}.deb

depends=$(dpkg-deb -f "$deb" Depends)
missing=()
for p in libtree-sitter0 libpcre2-8-0 libyaml-0-2 libjansson4; do
  grep -qE "(^|, )$p( |,|$)" <<<"$depends" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then ok "Depends: $depends"; else fail "Depends lacks ${missing[*]}: $depends"; fi

contents=$(dpkg-deb -c "$deb" | awk '{print $NF}')
missing=()
for f in ./usr/bin/hardguard ./usr/share/man/man1/hardguard.1.gz ./usr/share/hardguard/rules/policy.yml; do
  grep -qxF "$f" <<<"$contents" || missing+=("$f")
done
if [ ${#missing[@]} -eq 0 ]; then ok "holds the binary, the man page and the rules"; else fail "does not hold ${missing[*]}"; fi

if [ "$(id -u)" != 0 ]; then
  echo "skip deb: apt-get install and remove need root"
  exit $status
fi
if dpkg-query -W -f='${Status}' hardguard 2>/dev/null | grep -q 'ok installed'; then
  echo "skip deb: a hardguard package is installed already and is left alone (apt-get remove hardguard to run these)"
  exit $status
fi
export DEBIAN_FRONTEND=noninteractive
if apt-get install -y -o DPkg::Lock::Timeout=120 "$deb" >>"$log" 2>&1; then
  ok "apt-get install -y ./$(basename "$deb")"
else
  fail "apt-get install -y ./$(basename "$deb"): $log"
  exit 1
fi
code=0
/usr/bin/hardguard "$src/fixtures/python/real/fail-backend" >"$build/deb-scan.txt" 2>&1 || code=$?
n=$(grep -c ': error\[' "$build/deb-scan.txt")
if [ "$code" = 1 ] && [ "$n" -gt 0 ]; then
  ok "/usr/bin/hardguard fixtures/python/real/fail-backend: exit 1, $n findings"
else
  fail "/usr/bin/hardguard fixtures/python/real/fail-backend: exit $code, $n findings: $build/deb-scan.txt"
fi
if ! command -v man >/dev/null 2>&1; then
  echo "skip deb: man is not installed (man-db)"
elif [ ! -e /usr/share/man/man1/hardguard.1.gz ] && grep -rqs 'path-exclude.*/usr/share/man' /etc/dpkg/dpkg.cfg.d/; then
  echo "skip deb: dpkg is configured here not to install man pages (/etc/dpkg/dpkg.cfg.d)"
elif page=$(man -aw hardguard 2>&1) && grep -qx /usr/share/man/man1/hardguard.1.gz <<<"$page"; then
  # -a: every page man finds (a `cmake --install` copy in /usr/local is found first, and is not
  # the package's to check)
  ok "man -aw hardguard: the package's /usr/share/man/man1/hardguard.1.gz"
else
  fail "man -w hardguard: $page"
fi
if apt-get remove -y -o DPkg::Lock::Timeout=120 hardguard >>"$log" 2>&1 && [ ! -e /usr/bin/hardguard ]; then
  ok "apt-get remove -y hardguard"
else
  fail "apt-get remove -y hardguard: $log"
fi
exit $status
