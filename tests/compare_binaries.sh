#!/usr/bin/env bash
# Behaviour frozen across a move of code: two hardguard binaries (before and after) must print
# byte-identical text, JSON and SARIF, and exit alike, on every fixture case directory
# (fixtures/<surface>/<kind>/<case>) and the folders directly in it, on the whole fixtures tree, on
# --help and --list-rules, and on any extra trees named (the benchmark's corpora A and C:
# tests/bench/corpus_a.sh, corpus_c.sh).
#   tests/compare_binaries.sh OLD NEW [TREE ...]
# Prints one line per difference and "compare: N runs, M differ"; exits 1 when any differs.
set -u
old=$(realpath "${1:?usage: compare_binaries.sh OLD NEW [TREE ...]}")
new=$(realpath "${2:?usage: compare_binaries.sh OLD NEW [TREE ...]}")
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=0 differ=0

# same DIR ARGS...: runs both binaries in DIR with ARGS and compares stdout, stderr and status.
same() {
  local dir=$1
  shift
  runs=$((runs + 1))
  (cd "$dir" && "$old" "$@" >"$tmp/o.out" 2>"$tmp/o.err"; echo $? >"$tmp/o.rc")
  (cd "$dir" && "$new" "$@" >"$tmp/n.out" 2>"$tmp/n.err"; echo $? >"$tmp/n.rc")
  # The binary's own path appears in some messages: compare with it written as "hardguard".
  sed -i "s#$old#hardguard#g" "$tmp/o.out" "$tmp/o.err"
  sed -i "s#$new#hardguard#g" "$tmp/n.out" "$tmp/n.err"
  local what
  for what in out err rc; do
    if ! cmp -s "$tmp/o.$what" "$tmp/n.$what"; then
      differ=$((differ + 1))
      echo "differs ($what): (cd $dir && hardguard $*)"
      diff "$tmp/o.$what" "$tmp/n.$what" | head -5
      return
    fi
  done
}

same "$root" --help
same "$root" --list-rules
same "$root" --version
while IFS= read -r case; do
  for fmt in text json sarif; do
    same "$case" --color never --format "$fmt" .
  done
  same "$case" --audit --color never .
done < <(find "$root/fixtures" -mindepth 3 -maxdepth 4 -type d ! -path "$root/fixtures/cli/*" \
  ! -path "$root/fixtures/fix/*" | sort)
for fmt in text json sarif; do
  same "$root/fixtures" --color never --format "$fmt" .
done
for tree in "$@"; do
  for fmt in text json sarif; do
    same "$tree" --color never --jobs 2 --format "$fmt" .
  done
done
echo "compare: $runs runs, $differ differ"
[ "$differ" -eq 0 ]
