#!/usr/bin/env bash
# Step "install" of action.yml: makes $HG_BINARY a hardguard that runs, the first way that works:
#   1. the build actions/cache restored (HG_CACHE_HIT=true), if it runs;
#   2. at a release tag (vX.Y.Z, the ref the workflow's `uses:` names), the release's portable
#      binary hardguard-linux-$(uname -m) from HG_RELEASE_URL/<tag>/, if its SHA-256 matches the
#      release's hardguard-linux-$(uname -m).sha256 (a mismatch is refused: a warning, then 3.);
#   3. a build from the action's own sources (build.sh; HG_BUILD_SCRIPT names another script, for
#      the tests, which cannot reach apt and npm).
# Then puts the binary's directory on PATH for the job's later steps.
#
# env: HG_BINARY, HG_DIR (prepare's outputs), HG_CACHE_HIT (actions/cache's cache-hit),
#      HG_ACTION_REF (github.action_ref; empty in some runners, then the action directory's name,
#      which is the ref), HG_RELEASE_URL, HG_BUILD_SCRIPT, GITHUB_ACTION_PATH, GITHUB_PATH, RUNNER_TEMP
# outputs: source (cache, release or build), version (hardguard --version)
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bin=${HG_BINARY:?HG_BINARY is not set} dir=${HG_DIR:?HG_DIR is not set}
case $dir in /?*) ;; *) hg_die "HG_DIR '$dir' is not an absolute path below /" ;; esac
case $bin in "$dir"/*) ;; *) hg_die "the binary $bin is not in the cached directory $dir" ;; esac

runs() { [ -f "$1" ] && [ -x "$1" ] && "$1" --version >/dev/null 2>&1; }

# fetch_release TAG: the release's binary into $bin, or status 1 (said why).
fetch_release() {
  local tag=$1 asset base url tmp want got
  asset="hardguard-linux-$(uname -m)"
  base=${HG_RELEASE_URL:-https://github.com/hardguard/hardguard/releases/download}
  url="${base%/}/$tag/$asset"
  tmp=$(mktemp -d "${RUNNER_TEMP:-/tmp}/hardguard-release.XXXXXX")
  # https (and file, for a mirror on disk); a redirect only to https.
  if ! curl -fsSL --proto '=https,file' --proto-redir '=https' --retry 3 --connect-timeout 20 \
         -o "$tmp/$asset" "$url" ||
     ! curl -fsSL --proto '=https,file' --proto-redir '=https' --retry 3 --connect-timeout 20 \
         -o "$tmp/$asset.sha256" "$url.sha256"; then
    hg_note "no release binary at $url (or no $asset.sha256 beside it); building from source"
    rm -rf "$tmp"
    return 1
  fi
  want=$(awk 'NR == 1 { print tolower($1) }' "$tmp/$asset.sha256")
  got=$(sha256sum "$tmp/$asset" | cut -d' ' -f1)
  if ! [[ $want =~ ^[0-9a-f]{64}$ ]] || [ "$got" != "$want" ]; then
    hg_warn "$url: SHA-256 $got, but $asset.sha256 says '${want:0:64}': refused, building from source instead"
    rm -rf "$tmp"
    return 1
  fi
  chmod +x "$tmp/$asset"
  if ! runs "$tmp/$asset"; then
    hg_warn "$url: the release binary does not run here ($(uname -m)); building from source instead"
    rm -rf "$tmp"
    return 1
  fi
  mkdir -p "$(dirname "$bin")"
  mv -f "$tmp/$asset" "$bin"
  rm -rf "$tmp"
  hg_note "release binary $url (SHA-256 $got)"
}

source=""
if [ "${HG_CACHE_HIT:-}" = true ]; then
  if runs "$bin"; then
    source=cache
  else
    hg_warn "the cached build at $dir does not run; building again"
    rm -rf "$dir"
  fi
fi
if [ -z "$source" ]; then
  ref=${HG_ACTION_REF:-}
  [ -n "$ref" ] || ref=$(basename "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}")
  if [[ $ref =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] && fetch_release "$ref"; then
    source=release
  fi
fi
if [ -z "$source" ]; then
  HG_DIR=$dir bash "${HG_BUILD_SCRIPT:-$(dirname "${BASH_SOURCE[0]}")/build.sh}" || hg_die "could not build hardguard"
  source=build
fi
runs "$bin" || hg_die "$bin does not run after the $source step"

version=$("$bin" --version)
hg_note "$version ($source): $bin"
printf '%s\n' "$(dirname "$bin")" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
hg_output source "$source"
hg_output version "$version"
