#!/usr/bin/env bash
# Builds the seed corpora of the libFuzzer harnesses from the repository's fixtures and rules:
#   OUT/file    every fixtures/**/*.py, and the Python files the CLI cases write (fuzz_file)
#   OUT/config  every .hardguard.yml, policy.yml and *.yml under fixtures/ and rules/, and a few
#               handwritten configs (fuzz_config)
#   OUT/cli     the hardguard command lines of fixtures/cli/*/cmd, and a few handwritten argv
#               lists, NUL-separated (fuzz_cli)
#   OUT/surface every shell script, Makefile (included ones too) and CI file under fixtures/, and
#               the compose files known by content, after the byte that picks its surface
#               (fuzz_surface)
#   OUT/query   each rules/python/*.scm (with the import facts), a NUL byte and a fixture of its
#               kind (fuzz_query)
#   OUT/compose every compose file under fixtures/, and a few handwritten ones (fuzz_compose)
# Each directory is emptied first, seeds are named after where they come from and kept once, so the
# same tree gives the same seeds. Starting a process costs milliseconds on some machines, so files are
# copied by one tar each and generated seeds written by shell built-ins where bash can.
# usage: tests/fuzz/seed.sh OUT
set -euo pipefail
out=${1:?usage: seed.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
harnesses=(file config cli query surface compose)
for h in "${harnesses[@]}"; do rm -rf "${out:?}/$h"; done
for h in "${harnesses[@]}"; do mkdir -p "$out/$h"; done

# copy DIR 'TOP...' FIND-ARGS...: the files find selects under the repository's TOP directories,
# named by their path relative to the repository with '/' as '%'.
copy() {
  local dir=$1 tops=$2
  shift 2
  # shellcheck disable=SC2086 # TOP... is a list of directory names
  (cd "$root" && find $tops "$@" -type f -print0 | LC_ALL=C sort -z) |
    tar -C "$root" --null -T - -cf - | tar -C "$dir" --transform 's|/|%|g' -xf -
}
copy "$out/file" fixtures -name '*.py'
# The Python files the CLI cases write with here-documents (<<'PY' ... PY).
awk -v dir="$out/file" '/<<.PY.?$/ {on=1; n++; next} /^PY$/ {on=0; next} on {print > (dir "/cli-heredoc-" n ".py")}' \
  "$root"/fixtures/cli/*/cmd

# fuzz_surface: byte 0 picks the file name (0 shell, 1 Makefile, 2 workflow, 3 GitLab CI,
# 4 a compose file by content, 5 devcontainer.json, 6 a Quadlet unit, 7 a Go file, 8 a
# JavaScript/TypeScript module).
while IFS= read -r -d '' f; do
  case "$f" in
  *.sh | */tools/launch) b='\000' ;;
  */Makefile | */GNUmakefile | *.mk | *.makefile | *.inc) b='\001' ;;
  */.github/workflows/*) b='\002' ;;
  */compose-service/*by-content/*) b='\004' ;;
  *devcontainer.json) b='\005' ;;
  *.container) b='\006' ;;
  *.go) b='\007' ;;
  */javascript/*) b='\010' ;;
  *) b='\003' ;;
  esac
  rel=${f#"$root"/}
  { printf "$b"; cat "$f"; } >"$out/surface/${rel//\//%}"
done < <(find "$root/fixtures" \( -name '*.sh' -o -path '*/tools/launch' -o -name Makefile -o -name GNUmakefile \
  -o -name '*.mk' -o -name '*.makefile' -o -path '*/make/*.inc' -o -path '*/.github/workflows/*' -o -name .gitlab-ci.yml -o -name action.yml \
  -o -path '*/compose-service/*by-content/*.y*ml' -o -name devcontainer.json -o -name .devcontainer.json -o -name '*.container' -o -name '*.go' \
  -o -path '*/javascript/*' \( -name '*.js' -o -name '*.mjs' -o -name '*.cjs' -o -name '*.ts' \) \) -type f -print0 |
  LC_ALL=C sort -z)

copy "$out/config" "fixtures rules" \( -name '.hardguard.yml' -o -name 'policy.yml' -o -name '*.yml' \)
n=0
for yml in 'exclude: ["tests/**", "*_test.py", "vendor/[a-z]*/**"]\n' \
  'builders:\n  - {module: a.b, callables: [f, C.m]}\nexclude: [x]\n' 'builders: []\n' \
  'builders:\n  - module: hardening\n    callables:\n      - hardening_kwargs\n'; do
  printf "$yml" >"$out/config/handwritten-$((++n)).yml"
done

copy "$out/compose" fixtures \( -name 'compose*.y*ml' -o -name 'docker-compose*.y*ml' \)
n=0
for yml in 'services:\n  app:\n    image: x\n    security_opt: ["no-new-privileges:true"]\n    cap_drop: [ALL]\n    network_mode: none\n    read_only: true\n    mem_limit: ${MEM:-512m}\n    cpus: 0.5\n    pids_limit: 64\n' \
  'x-h: &h\n  read_only: true\n  deploy: {resources: {limits: {memory: 1g, cpus: "1", pids: 64}}}\nservices:\n  a:\n    <<: *h\n    read_only: false\n  b:\n    <<: [*h, {privileged: true}]\n' \
  'services:\n  dind:\n    privileged: true\n    volumes:\n      - /var/run/docker.sock:/var/run/docker.sock\n      - {type: bind, source: /, target: /host}\n    security_opt: [seccomp:unconfined, "label=disable"]\n    pid: host\n'; do
  printf "$yml" >"$out/compose/handwritten-$((++n)).yml"
done

# argv FILE ARG...: the arguments, NUL-separated, with no NUL after the last.
argv() {
  local f=$1
  shift
  {
    printf '%s' "$1"
    shift
    [ $# -eq 0 ] || printf '\0%s' "$@"
  } >"$f"
}
# Command lines: the words after "$HG" up to a shell operator, split as the shell would.
n=0
while IFS= read -r line; do
  case $line in *'$'* | *'`'*) continue ;; esac  # needs the case's shell variables
  eval "set -- $line" 2>/dev/null || continue
  [ $# -gt 0 ] || continue
  argv "$out/cli/cmd-$((++n))" "$@"
done < <(grep -h '"\$HG"' "$root"/fixtures/cli/*/cmd | sed 's/.*"\$HG"//; s/[;|&>)].*//')
n=0
for line in '--format|json|.' '--format=sarif|-q|a.py|b.py' '-j|2|--color|always|src' '-qj4|--audit|.' \
  '--explain|unhardened-site' '--list-rules' '--diff|HEAD~1|--baseline|b.txt|.' '--write-baseline|b.txt' \
  '--rules|rules|--config|.hardguard.yml|--|-weird.py' '--changed-since=main|--format|github' '--help' \
  '--version' '-j' '--jobs=0' '--color' '--diff=-x' '--write-baseline|x|--diff|y' '--form|text' '-x'; do
  IFS='|' read -ra words <<<"$line"
  argv "$out/cli/handwritten-$((++n))" "${words[@]}"
done

printf '\0' >"$out/query/.nul"
printf '\0import docker\ndocker.from_env().containers.run("x", privileged=True)\n' >"$out/query/.snippet"
for scm in "$root"/rules/python/*.scm "$root"/rules/python/facts/markers.scm; do
  kind=$(basename "$scm" .scm)
  n=0
  while IFS= read -r -d '' py; do
    n=$((n + 1))
    cat "$scm" "$root/rules/python/facts/imports.scm" "$out/query/.nul" "$py" >"$out/query/$kind-$n"
    [ $n -lt 6 ] || break
  done < <(find "$root/fixtures/python/$kind" "$root/fixtures/python/suppression" -name '*.py' -print0 2>/dev/null |
    LC_ALL=C sort -z)
  # The pattern file alone, with a small snippet.
  cat "$scm" "$out/query/.snippet" >"$out/query/$kind-alone"
done
rm "$out/query/.nul" "$out/query/.snippet"
# Identical seeds once: of each content, the first name in name order stays.
for h in "${harnesses[@]}"; do
  [ -n "$(ls -A "$out/$h")" ] || continue
  (cd "$out/$h" && sha1sum -- * | LC_ALL=C sort -k2 | awk 'seen[$1]++ { print $2 }' | xargs -r rm --)
done
echo "seeds: $(for h in "${harnesses[@]}"; do printf '%s %s, ' "$h" "$(ls "$out/$h" | wc -l)"; done | sed 's/, $//')"
