# Sourced by .ci/setup and .ci/test: installs, with apt-get, whatever of hardguard's build and
# test dependencies this Debian machine lacks. Nothing is installed when everything is present.
# apt's and dpkg's own output (thousands of lines on a bare machine) goes to a log file it names;
# on failure the end of that log is shown.
hg_apt_log=${HG_APT_LOG:-${TMPDIR:-/tmp}/hardguard-apt.log}

# hg_apt ARGS...: apt-get ARGS, its output appended to $hg_apt_log (shown, the end of it, on failure).
hg_apt() {
  local sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@" >>"$hg_apt_log" 2>&1; then
    echo "apt-get $* failed; the end of $hg_apt_log:" >&2
    tail -n 30 "$hg_apt_log" >&2
    return 1
  fi
}
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
  echo "installing: ${missing[*]} (apt-get; its log: $hg_apt_log)"
  hg_apt update -qq && hg_apt install -y -qq --no-install-recommends "${missing[@]}" && echo "installed: ${#missing[@]} packages"
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
  echo "installing (optional): ${missing[*]} (apt-get; its log: $hg_apt_log)"
  hg_apt update -qq || true
  for p in "${missing[@]}"; do
    hg_apt install -y -qq --no-install-recommends "$p" 2>/dev/null ||
      echo "warning: could not install $p; the tests that need it are skipped"
  done
  return 0
}
