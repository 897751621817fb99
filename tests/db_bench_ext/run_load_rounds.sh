#!/usr/bin/env bash
# scripts/load_rounds.py on the smoke preset: two runs, the configurations rotated between them,
# every (workload, configuration) in the table with a figure, and a run's failure reported.
#   run_load_rounds.sh <db_bench_ext> <work dir>
set -euo pipefail
binary=$1
work=$2
script=$(dirname "$0")/../../scripts/load_rounds.py
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
flags=(--preset=smoke --workloads=devops --configs=A,C --hosts=3 --queries=lastpoint
       --readers=1 --warmup_seconds=0 --measure_seconds=0.05 --verification_draws=3)

python3 "$script" --rounds=2 --work="$work/ok" --db_bench_ext="$binary" -- "${flags[@]}" \
  > "$work/table.md" 2> "$work/progress.log" || { cat "$work/progress.log"; fail "the runs failed"; }
grep -q -- "round 1/2: --configs=A,C" "$work/progress.log" || fail "round 1 not in the given order"
grep -q -- "round 2/2: --configs=C,A" "$work/progress.log" || fail "round 2 not rotated"
grep -Eq "^\| devops \| A \| [0-9.]+ k rows/s \[" "$work/table.md" || fail "no A row: $(cat "$work/table.md")"
grep -Eq "^\| devops \| C \| [0-9.]+ \[[0-9.]+-[0-9.]+\] \| [0-9.]+ \[" "$work/table.md" ||
  fail "no C ratios over two runs: $(cat "$work/table.md")"

# A run that fails (an unknown workload) fails the script, naming the run.
if python3 "$script" --rounds=1 --work="$work/bad" --db_bench_ext="$binary" -- \
     --preset=smoke --workloads=nosuch --configs=A,C > /dev/null 2> "$work/bad.log"; then
  fail "a failed run was not reported"
fi
grep -q "round 1 failed" "$work/bad.log" || fail "the failure does not name the run"
# Without A there is nothing to take ratios to.
if python3 "$script" --rounds=1 --work="$work/noa" --db_bench_ext="$binary" -- --configs=C \
     > /dev/null 2> "$work/noa.log"; then
  fail "configurations without A were accepted"
fi
echo "load_rounds: OK"
