#!/usr/bin/env bash
# Corpus A of the benchmark: the Python files of four Debian packages, unpacked as they ship —
# ansible (with its collections: real docker SDK and `docker run` code), python3-sympy,
# python3-django and python3-docker (the SDK itself). Rebuildable anywhere apt can download
# (bookworm: 14,001 .py files, 255 MB, 7.0 M lines).
#   tests/bench/corpus_a.sh DIR      → DIR/debs/*.deb, DIR/A/<package>/...
set -euo pipefail
out=${1:?usage: corpus_a.sh DIR}
packages=(ansible python3-sympy python3-django python3-docker)
. "$(dirname "$0")/debs.sh"
fetch_debs "$out" "${packages[@]}"
mkdir -p "$out/A"
cd "$out/debs"
for p in "${packages[@]}"; do
  [ -d "$out/A/$p" ] || dpkg -x "$(compgen -G "${p}_*.deb" | head -1)" "$out/A/$p"
done
