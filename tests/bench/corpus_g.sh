#!/usr/bin/env bash
# Corpus G of the benchmark: Go code that creates containers, as Debian ships it — the moby
# sources of golang-github-docker-docker-dev (Docker's Go SDK and daemon, whose integration code
# calls ContainerCreate and runs docker through os/exec). Rebuildable anywhere apt can download;
# never committed.
#   tests/bench/corpus_g.sh DIR      → DIR/debs/*.deb, DIR/G/<package>/...
set -euo pipefail
out=${1:?usage: corpus_g.sh DIR}
packages=(golang-github-docker-docker-dev)
. "$(dirname "$0")/debs.sh"
fetch_debs "$out" "${packages[@]}"
mkdir -p "$out/G"
cd "$out/debs"
for p in "${packages[@]}"; do
  [ -d "$out/G/$p" ] || dpkg -x "$(compgen -G "${p}_*.deb" | head -1)" "$out/G/$p"
done
