#!/usr/bin/env bash
# Corpus T of the benchmark: JavaScript and TypeScript that start containers, from the npm registry
# as published — testcontainers (testcontainers-node: GenericContainer and its dockerode calls),
# dockerode and docker-modem, and the Dev Containers CLI (@devcontainers/cli, which spawns docker
# run) — each pinned by version and unpacked. Rebuildable anywhere npm can download; never
# committed.
#   tests/bench/corpus_t.sh DIR      → DIR/npm/*.tgz, DIR/T/<package>/...
set -euo pipefail
out=${1:?usage: corpus_t.sh DIR}
packages=(testcontainers@12.2.0 dockerode@5.0.1 docker-modem@5.0.7 @devcontainers/cli@0.89.0)
mkdir -p "$out/npm" "$out/T"
cd "$out/npm"
for p in "${packages[@]}"; do
  name=${p%@*} name=${name#@} name=${name//\//-}
  [ -d "$out/T/$name" ] && continue
  tgz=$(npm pack --silent "$p" 2>/dev/null | tail -1) || { echo "corpus_t: npm pack $p failed" >&2; exit 2; }
  mkdir -p "$out/T/$name" && tar -xzf "$tgz" -C "$out/T/$name"
done
