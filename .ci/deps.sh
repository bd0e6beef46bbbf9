# Sourced by .ci/setup and .ci/test: installs, with apt-get, whatever of hardguard's build and
# test dependencies this Debian machine lacks. Nothing is installed when everything is present.
hg_install_deps() {
  local want=(gcc make cmake pkg-config libtree-sitter-dev libpcre2-dev libcmocka-dev libyaml-dev
              libjansson-dev diffutils util-linux "$@")
  local missing=()
  for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  # The grammar is fetched with npm; any npm on PATH will do (Debian's package, or nodejs's own).
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}"
  local sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# hg_install_optional PACKAGE...: installs what it can of packages that only some tests use (they
# skip with a message when theirs is missing); a package the archive lacks is a warning, not a
# failure of the run.
hg_install_optional() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing (optional): ${missing[*]}"
  local sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq || true
  for p in "${missing[@]}"; do
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p" ||
      echo "warning: could not install $p; the tests that need it are skipped"
  done
  return 0
}
