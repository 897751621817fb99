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
failed=()
runs=()
if [ -n "${FUZZ_RUNS:-}" ]; then runs=(-runs="$FUZZ_RUNS"); fi
printf '%-18s %12s %10s %8s %8s %s\n' target executions exec/s seconds cov result
for t in "${targets[@]}"; do
  work="$build/fuzz-corpus/$t"
  mkdir -p "$work"
  log="$build/fuzz-logs/$t.log"
  started=$(date +%s)
  # Leak checking is off: RocksDB keeps process-wide singletons (Env, thread pools).
  ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build/tests/fuzz/${t}_fuzzer" -max_total_time="$seconds" "${runs[@]}" -print_final_stats=1 \
      -timeout=30 -rss_limit_mb=3072 -max_len=65536 \
      -artifact_prefix="$build/fuzz-artifacts/$t-" "$work" "$here/tests/fuzz/corpus/$t" \
      >"$log" 2>&1
  rc=$?
  elapsed=$(($(date +%s) - started))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  result=ok
  if [ $rc -ne 0 ]; then
    result="CRASH (exit $rc, see $log)"
    failed+=("$t")
  fi
  printf '%-18s %12s %10s %8s %8s %s\n' "$t" "${execs:-?}" "${speed:-?}" "$elapsed" "${cov:-?}" \
    "$result"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: crashes in ${failed[*]}; reproducers in $build/fuzz-artifacts/" >&2
  exit 1
fi
