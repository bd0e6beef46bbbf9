#!/usr/bin/env bash
# Step "prepare" of action.yml: where this action's hardguard lives and the key its build is cached
# under. The key names the runner (OS, architecture, and the image GitHub sets in ImageOS and
# ImageVersion, else /etc/os-release's ID and VERSION_ID: a build links against the image's
# libraries) and the sources (hg_source_hash: the action is a tarball without .git, so a content
# hash stands for the commit).
#
# env: GITHUB_ACTION_PATH, RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, ImageOS, ImageVersion
# outputs: dir (the directory actions/cache restores and saves), hardguard (the binary in it), key
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

src=${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}
hash=$(hg_source_hash "$src")
image=${ImageOS:-}
if [ -z "$image" ] && [ -r /etc/os-release ]; then
  image=$(. /etc/os-release && printf '%s%s' "${ID:-linux}" "${VERSION_ID:-}")
fi
key="hardguard-build-v1-${RUNNER_OS:-$(uname -s)}-${RUNNER_ARCH:-$(uname -m)}-${image:-unknown}-${ImageVersion:-none}-$hash"
# A key is a word: anything else (a comma, a space from a self-hosted runner's names) becomes _.
key=${key//[^A-Za-z0-9._-]/_}
dir="${RUNNER_TEMP:?RUNNER_TEMP is not set}/hardguard-action/$hash"

hg_note "sources $hash, cache key $key"
hg_output dir "$dir"
hg_output hardguard "$dir/bin/hardguard"
hg_output key "$key"
