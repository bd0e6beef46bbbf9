#!/usr/bin/env bash
# The portable binary (-DHG_STATIC=ON, docs/install.md): BUILD_DIR's hardguard needs no library
# but glibc's, and runs in a bare root that holds nothing else — the binary, the glibc files it
# names (copied from this machine: the dynamic loader, libc, libm) and the bundled example tree; no
# /usr/share/hardguard, no libtree-sitter, pcre2, libyaml or jansson, no shell. There it must give
# the same audit, byte for byte, as the build-test/ binary gives here, and the same exit status.
# chroot needs root; as another user the bare-root checks run under `unshare -r` (a user
# namespace), and are skipped when neither works. Prints one "ok" or "FAIL" line per check ("skip"
# lines are not checks); exits 1 when any failed.
#
# usage: check_static.sh BUILD_DIR SOURCE_DIR REFERENCE_HARDGUARD
set -uo pipefail
build=$(realpath "$1") src=$(realpath "$2") ref=$(realpath "$3")
hg=$build/hardguard
status=0
ok() { echo "ok   static: $*"; }
fail() { echo "FAIL static: $*"; status=1; }

if [ ! -x "$hg" ]; then
  fail "no $hg"
  exit 1
fi

# 1. What the dynamic section asks for: glibc's libraries only.
glibc_libs='libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|ld-linux[-a-z0-9_.]*\.so\.[0-9]'
needed=$(readelf -d "$hg" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u)
others=$(grep -vxE "$glibc_libs" <<<"$needed")
if [ -n "$needed" ] && [ -z "$others" ]; then
  ok "needs only glibc: $(tr '\n' ' ' <<<"$needed")"
else
  fail "needs libraries beyond glibc: $(tr '\n' ' ' <<<"${others:-nothing at all?}")"
fi
# The newest glibc symbol version it uses: the oldest glibc it runs on (docs/install.md).
glibc=$(objdump -T "$hg" | grep -oE 'GLIBC_[0-9]+(\.[0-9]+)+' | sort -t. -k2,2n -k3,3n -u | tail -1)
echo "     static: runs on glibc >= ${glibc#GLIBC_} ($(uname -m))"

# 2. The bare root: glibc's files only, whatever else the binary asks for.
root=$(mktemp -d "${TMPDIR:-/tmp}/hardguard-bare.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/tmp" "$root/work"
cp "$hg" "$root/bin/hardguard"
interp=$(readelf -l "$hg" | sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p')
copy() { # the file and the path it is named by (a merged /usr: /lib64 -> usr/lib64)
  local f=$1 dir
  dir=$(dirname "$f")
  mkdir -p "$root$dir"
  cp -L "$f" "$root$f"
}
[ -n "$interp" ] && copy "$interp"
while read -r lib; do
  path=$(ldd "$hg" | awk -v l="$lib" '$1 == l {print $3}')
  if [ -z "$path" ]; then
    fail "ldd does not resolve $lib"
  else
    copy "$path"
  fi
done < <(grep -xE "$glibc_libs" <<<"$needed")
cp -r "$src/fixtures/python/real/fail-backend" "$root/work/fail-backend"
echo "     static: the bare root holds $(cd "$root" && find . -type f | grep -v '^./work/' | sort | tr '\n' ' ')"

chroot=$(command -v chroot || echo /usr/sbin/chroot)
unshare=$(command -v unshare || echo /usr/bin/unshare)
run_bare() {
  if [ "$(id -u)" = 0 ]; then
    (cd / && env -i PATH=/bin "$chroot" "$root" /bin/hardguard "$@")
  else
    (cd / && env -i PATH=/bin "$unshare" -r "$chroot" "$root" /bin/hardguard "$@")
  fi
}
if ! run_bare --version >"$root/tmp/version" 2>&1; then
  if [ "$(id -u)" != 0 ] && ! unshare -r true 2>/dev/null; then
    echo "skip static: not root and no user namespaces: the bare-root run needs chroot"
    exit $status
  fi
  fail "hardguard --version in the bare root: $(cat "$root/tmp/version")"
  exit 1
fi
if grep -qxF "$("$ref" --version)" "$root/tmp/version"; then
  ok "runs in the bare root: $(cat "$root/tmp/version")"
else
  fail "--version in the bare root: $(cat "$root/tmp/version"), expected $("$ref" --version)"
fi

# 3. The audit of the example tree, as the reference build gives it (same relative paths).
rc=0
(cd / && run_bare --audit --color never work/fail-backend) >"$root/tmp/bare.out" 2>&1 || rc=$?
want_rc=0
(cd "$root" && "$ref" --audit --color never work/fail-backend) >"$root/tmp/want.out" 2>&1 || want_rc=$?
if [ $rc = $want_rc ] && cmp -s "$root/tmp/bare.out" "$root/tmp/want.out" && [ -s "$root/tmp/want.out" ]; then
  ok "the audit of the example tree in the bare root is the reference build's (exit $rc, $(wc -l <"$root/tmp/want.out") lines)"
else
  fail "the audit in the bare root (exit $rc, expected $want_rc) differs from the reference build's:"
  diff "$root/tmp/want.out" "$root/tmp/bare.out" | head -20
fi
# Every surface's grammar and the rules are built in: a file of each surface is read.
mkdir -p "$root/work/all/.github/workflows"
printf 'import docker\ndocker.from_env().containers.run("img")\n' >"$root/work/all/a.py"
printf 'docker run --rm img true\n' >"$root/work/all/run.sh"
printf 'all:\n\tdocker run --rm img true\n' >"$root/work/all/Makefile"
printf 'services:\n  app:\n    image: img\n' >"$root/work/all/compose.yml"
printf 'package main\nimport "os/exec"\nfunc main() { exec.Command("docker", "run", "img").Run() }\n' >"$root/work/all/main.go"
printf 'const { execFileSync } = require("child_process");\nexecFileSync("docker", ["run", "img"]);\n' >"$root/work/all/run.js"
printf 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: docker run --rm img true\n' \
  >"$root/work/all/.github/workflows/ci.yml"
rc=0 want_rc=0
(cd / && run_bare --format json work/all) >"$root/tmp/bare.json" 2>&1 || rc=$?
(cd "$root" && "$ref" --format json work/all) >"$root/tmp/want.json" 2>&1 || want_rc=$?
kinds=$(grep -c '"kind":' "$root/tmp/want.json")
if [ $rc = $want_rc ] && cmp -s "$root/tmp/bare.json" "$root/tmp/want.json" && [ "$kinds" -ge 7 ]; then
  ok "a file of every surface is read in the bare root as by the reference build ($kinds sites)"
else
  fail "the surfaces in the bare root (exit $rc, expected $want_rc; $kinds sites):"
  diff "$root/tmp/want.json" "$root/tmp/bare.json" | head -20
fi
exit $status
