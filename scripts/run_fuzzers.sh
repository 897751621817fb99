#!/usr/bin/env bash
# Runs every libFuzzer target of a COLUMNAR_FUZZ build for a fixed time each, starting from the
# committed seed corpora (tests/fuzz/corpus/<target>, read only) plus the build's own working
# corpus (<build>/fuzz-corpus/<target>, where new inputs go). Prints libFuzzer's final stats
# per target and fails when any target found a crash (the reproducer is in
# <build>/fuzz-artifacts/).
#
#   scripts/run_fuzzers.sh <build dir> <seconds per target> [target ...]
#
# FUZZ_RUNS=N (environment) also stops each target after N executions, whichever comes first:
# the long run of the issue is FUZZ_RUNS=10000000 with 7200 seconds per target.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$1
seconds=$2
shift 2
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$here"/tests/fuzz/*_fuzzer.cc; do targets+=("$(basename "$f" _fuzzer.cc)"); done
fi

mkdir -p "$build/fuzz-artifacts" "$build/fuzz-logs"
runs=()
if [ -n "${FUZZ_RUNS:-}" ]; then runs=(-runs="$FUZZ_RUNS"); fi
# libFuzzer runs one thread: FUZZ_JOBS targets (default: one per core) run at the same time,
# each for its full FUZZ_SECONDS, so a short run of all targets takes 1/FUZZ_JOBS of the time.
jobs=${FUZZ_JOBS:-$(nproc)}

# One target; writes its table line to <build>/fuzz-logs/<target>.result, exits 1 on a crash.
run_target() {
  local t=$1
  local work="$build/fuzz-corpus/$t"
  mkdir -p "$work"
  local log="$build/fuzz-logs/$t.log"
  local started=$(date +%s)
  # Leak checking is off: RocksDB keeps process-wide singletons (Env, thread pools).
  ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build/tests/fuzz/${t}_fuzzer" -max_total_time="$seconds" "${runs[@]}" -print_final_stats=1 \
      -timeout=30 -rss_limit_mb=3072 -max_len=65536 \
      -artifact_prefix="$build/fuzz-artifacts/$t-" "$work" "$here/tests/fuzz/corpus/$t" \
      >"$log" 2>&1
  local rc=$?
  local elapsed=$(($(date +%s) - started))
  local execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  local speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  local cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  local result=ok
  [ $rc -eq 0 ] || result="CRASH (exit $rc, see $log)"
  printf '%-18s %12s %10s %8s %8s %s\n' "$t" "${execs:-?}" "${speed:-?}" "$elapsed" "${cov:-?}" \
    "$result" > "$build/fuzz-logs/$t.result"
  [ $rc -eq 0 ]
}

for t in "${targets[@]}"; do rm -f "$build/fuzz-logs/$t.result"; done
running=0
for t in "${targets[@]}"; do
  if [ $running -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
  run_target "$t" &
  running=$((running + 1))
done
wait

failed=()
printf '%-18s %12s %10s %8s %8s %s\n' target executions exec/s seconds cov result
for t in "${targets[@]}"; do
  if [ -s "$build/fuzz-logs/$t.result" ]; then
    cat "$build/fuzz-logs/$t.result"
    grep -q ' ok$' "$build/fuzz-logs/$t.result" || failed+=("$t")
  else
    printf '%-18s did not report (see %s)\n' "$t" "$build/fuzz-logs/$t.log"
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: crashes in ${failed[*]}; reproducers in $build/fuzz-artifacts/" >&2
  exit 1
fi
