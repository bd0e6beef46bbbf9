#!/usr/bin/env bash
# Corpus C of the benchmark: real code that creates containers, as Debian ships it —
# docker-compose 1.29 (Python, full of create_container and host configs), buildbot (its Docker
# latent workers), buildbot-worker, python3-docker (the SDK itself) and ansible's
# community.docker collection (docker_container and friends). Rebuildable anywhere apt can
# download; never committed.
#   tests/bench/corpus_c.sh DIR      → DIR/debs/*.deb, DIR/C/<package>/...
set -euo pipefail
out=${1:?usage: corpus_c.sh DIR}
# Absolute: the extraction below runs from DIR/debs.
mkdir -p "$out" && out=$(cd "$out" && pwd)
packages=(docker-compose buildbot buildbot-worker python3-docker ansible)
. "$(dirname "$0")/debs.sh"
fetch_debs "$out" "${packages[@]}"
mkdir -p "$out/C"
cd "$out/debs"
for p in docker-compose buildbot buildbot-worker python3-docker; do
  [ -d "$out/C/$p" ] || dpkg -x "$(compgen -G "${p}_*.deb" | head -1)" "$out/C/$p"
done
# Of ansible, only the community.docker collection.
if [ ! -d "$out/C/community.docker" ]; then
  tmp=$(mktemp -d)
  dpkg -x "$(compgen -G "ansible_*.deb" | head -1)" "$tmp"
  src=$(find "$tmp" -type d -path '*/ansible_collections/community/docker' | head -1)
  [ -n "$src" ] || { echo "corpus_c: no community.docker in the ansible package" >&2; rm -rf "$tmp"; exit 2; }
  cp -r "$src" "$out/C/community.docker"
  rm -rf "$tmp"
fi
