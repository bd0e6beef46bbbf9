#!/usr/bin/env bash
# Builds the seed corpora of the libFuzzer harnesses from the repository's fixtures and rules:
#   OUT/file    every fixtures/**/*.py, and the Python files the CLI cases write (fuzz_file)
#   OUT/config  every .hardguard.yml, policy.yml and *.yml under fixtures/ and rules/, and a few
#               handwritten configs (fuzz_config)
#   OUT/cli     the hardguard command lines of fixtures/cli/*/cmd, and a few handwritten argv
#               lists, NUL-separated (fuzz_cli)
#   OUT/query   each rules/python/*.scm (with the import facts), a NUL byte and a fixture of its
#               kind (fuzz_query)
# Each directory is emptied first, seeds are named after where they come from and kept once, so the
# same tree gives the same seeds. Starting a process costs milliseconds on some machines, so files are
# copied by one tar each and generated seeds written by shell built-ins where bash can.
# usage: tests/fuzz/seed.sh OUT
set -euo pipefail
out=${1:?usage: seed.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
for h in file config cli query; do rm -rf "${out:?}/$h"; done
mkdir -p "$out"/{file,config,cli,query}

# copy DIR FIND-ARGS...: the files find selects under fixtures/ and rules/, named by their path
# relative to the repository with '/' as '%'.
copy() {
  local dir=$1
  shift
  (cd "$root" && find fixtures rules "$@" -type f -print0 | LC_ALL=C sort -z) |
    tar -C "$root" --null -T - -cf - | tar -C "$dir" --transform 's|/|%|g' -xf -
}
copy "$out/file" -name '*.py'
# The Python files the CLI cases write with here-documents (<<'PY' ... PY).
awk -v dir="$out/file" '/<<.PY.?$/ {on=1; n++; next} /^PY$/ {on=0; next} on {print > (dir "/cli-heredoc-" n ".py")}' \
  "$root"/fixtures/cli/*/cmd

copy "$out/config" \( -name '.hardguard.yml' -o -name 'policy.yml' -o -name '*.yml' \)
n=0
for yml in 'exclude: ["tests/**", "*_test.py", "vendor/[a-z]*/**"]\n' \
  'builders:\n  - {module: a.b, callables: [f, C.m]}\nexclude: [x]\n' 'builders: []\n' \
  'builders:\n  - module: hardening\n    callables:\n      - hardening_kwargs\n'; do
  printf "$yml" >"$out/config/handwritten-$((++n)).yml"
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
  done < <(find "$root/fixtures/$kind" "$root/fixtures/suppression" -name '*.py' -print0 2>/dev/null | LC_ALL=C sort -z)
  # The pattern file alone, with a small snippet.
  cat "$scm" "$out/query/.snippet" >"$out/query/$kind-alone"
done
rm "$out/query/.nul" "$out/query/.snippet"
# Identical seeds once: of each content, the first name in name order stays.
for h in file config cli query; do
  (cd "$out/$h" && sha1sum -- * | LC_ALL=C sort -k2 | awk 'seen[$1]++ { print $2 }' | xargs -r rm --)
done
echo "seeds: file $(ls "$out/file" | wc -l), config $(ls "$out/config" | wc -l), cli $(ls "$out/cli" | wc -l), query $(ls "$out/query" | wc -l)"
