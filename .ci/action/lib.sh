# shellcheck shell=bash
# Sourced by the GitHub Action's step scripts (.ci/action/*.sh, called from action.yml). Their
# inputs come through the environment (the steps' env:), never spliced into shell text.
set -euo pipefail

# hg_note MESSAGE...: a line of the action's log.
hg_note() { printf 'hardguard-action: %s\n' "$*"; }

# hg_warn MESSAGE...: a warning annotation on the run (a workflow command: %, CR and LF escaped).
hg_warn() { printf '::warning title=hardguard action::%s\n' "$(hg_escape "$*")"; }

# hg_die MESSAGE...: an error annotation, then exit 2 (could not check, as hardguard's own status).
hg_die() {
  printf '::error title=hardguard action::%s\n' "$(hg_escape "$*")"
  exit 2
}

hg_escape() {
  local s=${1//'%'/'%25'}
  s=${s//$'\r'/'%0D'}
  printf '%s' "${s//$'\n'/'%0A'}"
}

# hg_output NAME VALUE: a step output (to $GITHUB_OUTPUT). A value is one line, so it cannot forge
# another output.
hg_output() {
  case $2 in *$'\n'* | *$'\r'*) hg_die "output $1: a value with a line break" ;; esac
  printf '%s=%s\n' "$1" "$2" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set (not run by GitHub Actions?)}"
}

# hg_bool VAR NAME VALUE: sets VAR to VALUE of input NAME as true or false (true/false, yes/no,
# on/off, 1/0); another value stops the step.
hg_bool() {
  case ${3,,} in
    true | yes | on | 1) printf -v "$1" true ;;
    false | no | off | 0) printf -v "$1" false ;;
    *) hg_die "input $2: '$3' is neither true nor false" ;;
  esac
}

# hg_source_hash DIR: 16 hex digits of a SHA-256 over the sources a build of hardguard is made of,
# each file's path and contents (the action arrives as a tarball without .git: no commit to name).
hg_source_hash() {
  (
    cd "$1"
    local parts=()
    for p in CMakeLists.txt src rules grammars tools .ci/action/build.sh; do
      [ -e "$p" ] && parts+=("$p")
    done
    find "${parts[@]}" -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
  ) | sha256sum | cut -c1-16
}
