#!/usr/bin/env bash
# Builds hardguard from the action's own sources ($GITHUB_ACTION_PATH) into $HG_DIR, the directory
# actions/cache saves: bin/hardguard, the portable binary (-DHG_STATIC=ON: libtree-sitter, pcre2,
# libyaml and jansson linked from their static archives, so that a restored build needs no apt).
# What the build needs and lacks is installed with apt-get (with sudo when not root): the package
# list of .ci/deps.sh without the test suite's. apt's and CMake's output go to a log file, its end
# shown on failure.
#
# env: HG_DIR, GITHUB_ACTION_PATH, RUNNER_TEMP
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

src=${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set} dir=${HG_DIR:?HG_DIR is not set}
case $dir in /?*) ;; *) hg_die "HG_DIR '$dir' is not an absolute path below /" ;; esac
tmp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
log="$tmp/hardguard-action-build.log"
build="$tmp/hardguard-action-build"
: >"$log"

fail() {
  echo "::group::the end of $log"
  tail -n 40 "$log"
  echo "::endgroup::"
  hg_die "$*"
}

# quietly COMMAND...: COMMAND's output to the log.
quietly() {
  printf '+ %s\n' "$*" >>"$log"
  "$@" >>"$log" 2>&1
}

sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo -n)
want=(gcc make pkg-config libtree-sitter-dev libpcre2-dev libyaml-dev libjansson-dev)
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
# Any cmake (3.25 or newer) and any npm (which fetches the pinned grammars) on PATH will do: GitHub's
# images have their own, not Debian's packages.
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  hg_note "installing with apt-get: ${missing[*]} (log: $log)"
  quietly "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
    fail "apt-get update failed"
  quietly "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
    fail "apt-get install ${missing[*]} failed"
fi

hg_note "building hardguard from $src (log: $log)"
rm -rf "$build" "$dir"
quietly cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHG_TESTS=OFF -DHG_STATIC=ON ||
  fail "cmake could not configure the build"
quietly cmake --build "$build" -j"$(nproc)" || fail "the build failed"
quietly cmake --install "$build" --prefix "$dir" --strip || fail "cmake --install failed"
rm -rf "$build"
hg_note "built $("$dir/bin/hardguard" --version) into $dir"
