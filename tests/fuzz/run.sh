#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, -DHG_FUZZ=ON), seeds their corpora from fixtures/ and
# rules/, replays the crash inputs kept in tests/fuzz/regressions/<harness>/, then fuzzes each
# harness for SECONDS (default 60). Prints, per harness, the executions, the coverage (cov and ft
# of libFuzzer's last stats line), the corpus size and whether it crashed; exits 1 when any did.
#
# usage: tests/fuzz/run.sh [SECONDS] [BUILD_DIR] [HARNESS...]
#   BUILD_DIR   default: build-fuzz in the repository. Corpora, logs and crash artifacts go to
#               BUILD_DIR/fuzz-work/{corpus,seeds,logs,artifacts}/<harness>; the corpus is kept
#               between runs.
#   HARNESS     file, config, cli, query, compose (default: all of tests/fuzz/fuzz_*.c)
# HG_FUZZ_PARALLEL=N runs N harnesses at a time (default 1). HG_FUZZ_FLAGS adds libFuzzer flags,
# e.g. "-fork=1 -ignore_crashes=1" for a long run that keeps going after a crash.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-60}
build=${2:-$root/build-fuzz}
shift $(($# > 2 ? 2 : $#))
parallel=${HG_FUZZ_PARALLEL:-1}
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  for f in "$root"/tests/fuzz/fuzz_*.c; do h=$(basename "$f" .c); harnesses+=("${h#fuzz_}"); done
fi

cc=${HG_FUZZ_CC:-clang}
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$cc" -DHG_FUZZ=ON -DHG_TESTS=OFF >/dev/null || exit 2
cmake --build "$build" -j"$(nproc)" >/dev/null || { cmake --build "$build" -j1; exit 2; }

work=$build/fuzz-work
bash "$root/tests/fuzz/seed.sh" "$work/seeds" || exit 2
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# one HARNESS: replays the regressions, then fuzzes; writes the summary line to logs/<h>.summary.
one() {
  local h=$1 bin=$build/tests/fuzz/fuzz_$1
  local corpus=$work/corpus/$h artifacts=$work/artifacts/$h/ log=$work/logs/$h.log
  mkdir -p "$corpus" "$artifacts" "$work/logs"
  local crashed=no status=0
  # libtree-sitter 0.20.7 (Debian's) leaks a few bytes in ts_query_new on some invalid queries,
  # which only the query harness feeds it (see lsan.supp).
  local lsan=${LSAN_OPTIONS:-}
  [ "$h" = query ] && lsan="suppressions=$root/tests/fuzz/lsan.supp:print_suppressions=0${lsan:+:$lsan}"
  local dict=()
  [ -f "$root/tests/fuzz/$h.dict" ] && dict=(-dict="$root/tests/fuzz/$h.dict")
  local regressions=("$root"/tests/fuzz/regressions/"$h"/*)
  if [ -e "${regressions[0]}" ]; then
    if ! LSAN_OPTIONS=$lsan "$bin" -rss_limit_mb=2048 -timeout=10 "${regressions[@]}" >"$work/logs/$h.replay.log" 2>&1; then
      crashed="yes (a regression input: $work/logs/$h.replay.log)"
      status=1
    fi
  fi
  LSAN_OPTIONS=$lsan "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$artifacts" "${dict[@]}" ${HG_FUZZ_FLAGS:-} "$corpus" "$work/seeds/$h" >"$log" 2>&1 || {
    crashed="yes: $(ls -t "$artifacts" | head -1 | sed "s|^|$artifacts|") (log: $log)"
    status=1
  }
  local execs stats
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  stats=$(grep -E '^#[0-9]+' "$log" | tail -1)
  # -fork mode prints no final stats; its status lines start with the total executions.
  [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$stats")
  # A crash, timeout or leak in -fork mode with -ignore_*: the run goes on, the artifact stays.
  if [ "$crashed" = no ] && [ -n "$(ls -A "$artifacts")" ]; then
    crashed="yes: $(ls "$artifacts" | sed "s|^|$artifacts|" | tr '\n' ' ')"
    status=1
  fi
  # -fork mode counts coverage its own way: measure the corpus as a plain run would.
  case " ${HG_FUZZ_FLAGS:-} " in
  *" -fork="*)
    stats=$(LSAN_OPTIONS=$lsan "$bin" -runs=0 -rss_limit_mb=2048 -timeout=10 "$corpus" 2>&1 | grep -E '^#[0-9]+' | tail -1) ;;
  esac
  local cov ft
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$stats")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$stats")
  printf '%-7s executions %-10s cov %-6s ft %-7s corpus %-6s crashed %s\n' "$h" "${execs:-?}" "${cov:-?}" \
    "${ft:-?}" "$(ls "$corpus" | wc -l)" "$crashed" >"$work/logs/$h.summary"
  return $status
}

echo "fuzzing ${harnesses[*]} for ${seconds}s each, $parallel at a time (work: $work)"
status=0
pids=()
for h in "${harnesses[@]}"; do
  [ -x "$build/tests/fuzz/fuzz_$h" ] || { echo "no harness fuzz_$h"; status=1; continue; }
  one "$h" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$parallel" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
for h in "${harnesses[@]}"; do cat "$work/logs/$h.summary" 2>/dev/null; done
exit $status
