#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, -DHG_FUZZ=ON), seeds their corpora from fixtures/ and
# rules/ (seed.sh), replays the crash inputs kept in tests/fuzz/regressions/<harness>/, then fuzzes.
# Two ways:
#
# usage: tests/fuzz/run.sh [SECONDS] [BUILD_DIR] [HARNESS...]
#   For the developer: fuzzes each harness for SECONDS (default 60), from a corpus kept between
#   runs. Prints, per harness, the executions, the coverage (cov and ft of libFuzzer's last stats
#   line), the corpus size and whether it crashed; exits 1 when any did.
#   BUILD_DIR   default: build-fuzz in the repository. Corpora, logs and crash artifacts go to
#               BUILD_DIR/fuzz-work/{corpus,seeds,logs,artifacts}/<harness>.
#   HARNESS     file, config, cli, query, surface, compose (default: all of tests/fuzz/fuzz_*.c)
#   HG_FUZZ_FLAGS adds libFuzzer flags, e.g. "-fork=1 -ignore_crashes=1" for a long run that keeps
#   going after a crash.
#
# usage: tests/fuzz/run.sh --fixed [BUILD_DIR] [HARNESS...]
#   The test command's stage (.ci/test): the same work on every run and every machine. Per harness,
#   replays the regression inputs and the seeds, each once, then fuzzes from the seeds alone (a
#   fresh corpus) with -seed=1 and the fixed number of runs in FIXED_RUNS below. Prints one line per
#   check, "ok   <harness> ..." or "FAIL <harness> ...", and exits 1 when any failed. Work goes to
#   BUILD_DIR/fuzz-fixed/, emptied first.
#
# HG_FUZZ_PARALLEL=N runs N harnesses at a time (default 1). Exit status 2: the build failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
fixed=no
if [ "${1:-}" = --fixed ]; then
  fixed=yes
  shift
  seconds=
else
  seconds=${1:-60}
  [ $# -gt 0 ] && shift
fi
build=${1:-$root/build-fuzz}
[ $# -gt 0 ] && shift
parallel=${HG_FUZZ_PARALLEL:-1}
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  for f in "$root"/tests/fuzz/fuzz_*.c; do h=$(basename "$f" .c); harnesses+=("${h#fuzz_}"); done
fi

# --fixed: executions per harness after the seeds, chosen so that the whole stage takes about 40 s
# of CPU time, under 30 s on 2 idle cores (file parses and judges ~80 inputs/s with the
# instrumented grammar, surface ~100/s). A harness not listed gets DEFAULT_RUNS.
declare -A FIXED_RUNS=([file]=1000 [query]=3000 [surface]=600 [config]=3000 [compose]=2000 [cli]=20000)
DEFAULT_RUNS=1000
SEED=1
FIXED_LIMIT=600  # seconds for one harness's fixed run: only a hang comes near it
FIXED_DIR=/tmp/hardguard-fuzz-fixed

cc=${HG_FUZZ_CC:-clang}
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$cc" -DHG_FUZZ=ON -DHG_TESTS=OFF >/dev/null || exit 2
cmake --build "$build" -j"$(nproc)" >/dev/null || { cmake --build "$build" -j1; exit 2; }
build=$(cd "$build" && pwd)  # the fixed runs work in another directory

if [ $fixed = yes ]; then
  work=$build/fuzz-fixed
  rm -rf "$work"
else
  work=$build/fuzz-work
fi
mkdir -p "$work/logs"
bash "$root/tests/fuzz/seed.sh" "$work/seeds" || exit 2
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# Without address-space randomisation where the machine allows it (a container's seccomp profile
# may not): the harnesses are built at a fixed address (CMakeLists.txt), the libraries they call
# are not, and libFuzzer keys what it learns from comparisons on the caller's address.
norandom=()
setarch "$(uname -m)" -R true 2>/dev/null && norandom=(setarch "$(uname -m)" -R)

# lsan_for HARNESS: the LeakSanitizer options of a harness (none of its own: each runs as given).
lsan_for() {
  printf '%s' "${LSAN_OPTIONS:-}"
}

# open-ended HARNESS: replays the regressions, then fuzzes for SECONDS; writes the summary line to
# logs/<h>.summary.
open_ended() {
  local h=$1 bin=$build/tests/fuzz/fuzz_$1
  local corpus=$work/corpus/$h artifacts=$work/artifacts/$h/ log=$work/logs/$h.log
  mkdir -p "$corpus" "$artifacts" "$work/logs"
  local crashed=no status=0 lsan
  lsan=$(lsan_for "$h")
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

# fixed HARNESS: replays the regressions and the seeds, then fuzzes with -seed and -runs from the
# seeds alone; writes its ok/FAIL lines to logs/<h>.summary.
fixed() {
  local h=$1 bin=$build/tests/fuzz/fuzz_$1
  local corpus=$work/corpus/$h artifacts=$work/artifacts/$h/ log=$work/logs/$h.log out=$work/logs/$h.summary
  local runs=${FIXED_RUNS[$h]:-$DEFAULT_RUNS} status=0 lsan
  mkdir -p "$corpus" "$artifacts" "$work/logs"
  : >"$out"
  lsan=$(lsan_for "$h")
  local dict=()
  [ -f "$root/tests/fuzz/$h.dict" ] && dict=(-dict="$root/tests/fuzz/$h.dict")
  # In name order: libFuzzer keeps the order it is given among inputs of the same size, and a
  # directory would give them in the file system's order.
  local regressions=() seeds=()
  mapfile -t regressions < <(find "$root/tests/fuzz/regressions/$h" -type f 2>/dev/null | LC_ALL=C sort)
  mapfile -t seeds < <(find "$work/seeds/$h" -type f | LC_ALL=C sort)
  if LSAN_OPTIONS=$lsan "$bin" -rss_limit_mb=2048 -timeout=10 "${regressions[@]}" "${seeds[@]}" \
    >"$work/logs/$h.replay.log" 2>&1; then
    echo "ok   $h: replayed ${#regressions[@]} regression inputs and ${#seeds[@]} seeds" >>"$out"
  else
    echo "FAIL $h: an input of tests/fuzz/regressions/$h or a seed fails: $work/logs/$h.replay.log" >>"$out"
    status=1
  fi
  (IFS=,; printf '%s' "${seeds[*]}") >"$work/seeds/$h.list"
  # Nothing on a timer may steer the run: -reload=0 keeps libFuzzer from rereading the corpus every
  # second, -timeout=0 from interrupting a read with SIGALRM (a retry on EINTR would be
  # coverage); the regressions above are replayed with a timeout, this whole run gets one instead.
  # Nor where the checkout is: paths reach hardguard's code (the real path of the working directory
  # and of a config, fuzz_file's small project), so the harness runs in a directory of a fixed name,
  # FIXED_DIR/<harness>, and writes its project there, one run at a time on the machine (flock).
  local code=0 here=$FIXED_DIR/$h
  mkdir -p "$FIXED_DIR"
  (
    flock 9
    rm -rf "$here" && mkdir "$here" && cd "$here" || exit 2
    rc=0
    HG_FUZZ_PROJECT_DIR=$here/project LSAN_OPTIONS=$lsan timeout "$FIXED_LIMIT" "${norandom[@]}" "$bin" \
      -seed="$SEED" -runs="$runs" -reload=0 -timeout=0 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$artifacts" "${dict[@]}" -seed_inputs=@"$work/seeds/$h.list" "$corpus" || rc=$?
    cd / && rm -rf "$here"
    exit $rc
  ) 9>"$FIXED_DIR/$h.lock" >"$log" 2>&1 || code=$?
  if [ $code = 0 ]; then
    local stats
    stats=$(grep -E '^#[0-9]+.*DONE' "$log" | tail -1)
    echo "ok   $h: -seed=$SEED -runs=$runs: cov $(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$stats")," \
      "ft $(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$stats"), corpus $(ls "$corpus" | wc -l)" >>"$out"
  elif [ $code = 124 ]; then
    echo "FAIL $h: -seed=$SEED -runs=$runs did not finish in $FIXED_LIMIT s (log: $log)" >>"$out"
    status=1
  else
    echo "FAIL $h: -seed=$SEED -runs=$runs crashed: $(ls "$artifacts" | sed "s|^|$artifacts|" | tr '\n' ' ')(log: $log)" >>"$out"
    status=1
  fi
  return $status
}

if [ $fixed = yes ]; then
  echo "fuzzing ${harnesses[*]}: regressions and seeds replayed, then -seed=$SEED and a fixed -runs each," \
    "$parallel at a time${norandom[*]:+, without address-space randomisation} (work: $work)"
  run=fixed
else
  echo "fuzzing ${harnesses[*]} for ${seconds}s each, $parallel at a time (work: $work)"
  run=open_ended
fi
status=0
running=0
for h in "${harnesses[@]}"; do
  if ! [ -x "$build/tests/fuzz/fuzz_$h" ]; then
    echo "FAIL no harness fuzz_$h" >"$work/logs/$h.summary"
    status=1
    continue
  fi
  $run "$h" &
  running=$((running + 1))
  # A slot frees when any harness ends, not only the one started first.
  if [ $running -ge "$parallel" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
done
while [ $running -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
for h in "${harnesses[@]}"; do cat "$work/logs/$h.summary" 2>/dev/null; done
exit $status
