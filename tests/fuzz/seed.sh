#!/usr/bin/env bash
# Builds the seed corpora of the libFuzzer harnesses from the repository's fixtures and rules:
#   OUT/file    every fixtures/**/*.py (fuzz_file)
#   OUT/config  every .hardguard.yml, policy.yml under fixtures/ and rules/policy.yml (fuzz_config)
#   OUT/cli     the hardguard command lines of fixtures/cli/*/cmd, and a few handwritten argv
#               lists, NUL-separated (fuzz_cli)
#   OUT/surface every shell script, Makefile and CI file under fixtures/, after the byte that
#               picks its surface (fuzz_surface)
#   OUT/query   each rules/python/*.scm (with the import facts), a NUL byte and a fixture of its
#               kind (fuzz_query)
#   OUT/compose every compose file under fixtures/, and a few handwritten ones (fuzz_compose)
# Seeds are named by their content hash, so running it again adds nothing twice.
# usage: tests/fuzz/seed.sh OUT
set -euo pipefail
out=${1:?usage: seed.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"/{file,config,cli,query,surface,compose}

# seed DIR < bytes: stores stdin under its SHA-1.
seed() {
  local tmp
  tmp=$(mktemp)
  cat >"$tmp"
  mv "$tmp" "$1/$(sha1sum <"$tmp" | cut -c1-40)"
}

while IFS= read -r -d '' f; do seed "$out/file" <"$f"; done < <(find "$root/fixtures" -name '*.py' -print0)
# fuzz_surface: byte 0 picks the file name (0 shell, 1 Makefile, 2 workflow, 3 GitLab CI).
while IFS= read -r -d '' f; do
  case "$f" in
    *.sh | */tools/launch) b='\000' ;;
    */Makefile | */GNUmakefile | *.mk) b='\001' ;;
    */.github/workflows/*) b='\002' ;;
    *) b='\003' ;;
  esac
  { printf "$b"; cat "$f"; } | seed "$out/surface"
done < <(find "$root/fixtures" \( -name '*.sh' -o -path '*/tools/launch' -o -name Makefile -o -name GNUmakefile \
  -o -name '*.mk' -o -path '*/.github/workflows/*' -o -name .gitlab-ci.yml -o -name action.yml \) -type f -print0)
# The Python files the CLI cases write with here-documents (<<'PY' ... PY).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v dir="$tmp" '/<<.PY.?$/ {on=1; n++; next} /^PY$/ {on=0; next} on {print > (dir "/" n ".py")}' \
  "$root"/fixtures/cli/*/cmd
for f in "$tmp"/*.py; do [ -e "$f" ] && seed "$out/file" <"$f"; done

while IFS= read -r -d '' f; do seed "$out/config" <"$f"; done \
  < <(find "$root/fixtures" "$root/rules" \( -name '.hardguard.yml' -o -name 'policy.yml' -o -name '*.yml' \) -print0)

for yml in 'exclude: ["tests/**", "*_test.py", "vendor/[a-z]*/**"]\n' \
  'builders:\n  - {module: a.b, callables: [f, C.m]}\nexclude: [x]\n' 'builders: []\n' \
  'builders:\n  - module: hardening\n    callables:\n      - hardening_kwargs\n'; do
  printf "$yml" | seed "$out/config"
done

while IFS= read -r -d '' f; do seed "$out/compose" <"$f"; done \
  < <(find "$root/fixtures" \( -name 'compose*.y*ml' -o -name 'docker-compose*.y*ml' \) -print0)
for yml in 'services:\n  app:\n    image: x\n    security_opt: ["no-new-privileges:true"]\n    cap_drop: [ALL]\n    network_mode: none\n    read_only: true\n    mem_limit: ${MEM:-512m}\n    cpus: 0.5\n    pids_limit: 64\n' \
  'x-h: &h\n  read_only: true\n  deploy: {resources: {limits: {memory: 1g, cpus: "1", pids: 64}}}\nservices:\n  a:\n    <<: *h\n    read_only: false\n  b:\n    <<: [*h, {privileged: true}]\n' \
  'services:\n  dind:\n    privileged: true\n    volumes:\n      - /var/run/docker.sock:/var/run/docker.sock\n      - {type: bind, source: /, target: /host}\n    security_opt: [seccomp:unconfined, "label=disable"]\n    pid: host\n'; do
  printf "$yml" | seed "$out/compose"
done

# Command lines: the words after "$HG" up to a shell operator, split as the shell would.
grep -h '"\$HG"' "$root"/fixtures/cli/*/cmd | sed 's/.*"\$HG"//; s/[;|&>)].*//' |
  while IFS= read -r line; do
    case $line in *'$'* | *'`'*) continue ;; esac  # needs the case's shell variables
    eval "set -- $line" 2>/dev/null || continue
    [ $# -gt 0 ] || continue
    printf '%s\0' "$@" | head -c -1 | seed "$out/cli"
  done
for argv in '--format|json|.' '--format=sarif|-q|a.py|b.py' '-j|2|--color|always|src' '-qj4|--audit|.' \
  '--explain|unhardened-site' '--list-rules' '--diff|HEAD~1|--baseline|b.txt|.' '--write-baseline|b.txt' \
  '--rules|rules|--config|.hardguard.yml|--|-weird.py' '--changed-since=main|--format|github' '--help' \
  '--version' '-j' '--jobs=0' '--color' '--diff=-x' '--write-baseline|x|--diff|y' '--form|text' '-x'; do
  printf '%s' "$argv" | tr '|' '\0' | seed "$out/cli"
done

for scm in "$root"/rules/python/*.scm "$root"/rules/python/facts/markers.scm; do
  kind=$(basename "$scm" .scm)
  n=0
  while IFS= read -r -d '' py; do
    { cat "$scm" "$root/rules/python/facts/imports.scm"; printf '\0'; cat "$py"; } | seed "$out/query"
    n=$((n + 1))
    [ $n -lt 6 ] || break
  done < <(find "$root/fixtures/$kind" "$root/fixtures/suppression" -name '*.py' -print0 2>/dev/null | sort -z)
  # The pattern file alone, with a small snippet.
  { cat "$scm"; printf '\0import docker\ndocker.from_env().containers.run("x", privileged=True)\n'; } | seed "$out/query"
done
echo "seeds: file $(ls "$out/file" | wc -l), surface $(ls "$out/surface" | wc -l), config $(ls "$out/config" | wc -l), cli $(ls "$out/cli" | wc -l), query $(ls "$out/query" | wc -l)"
