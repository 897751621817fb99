#!/usr/bin/env bash
# db_bench_ext --keep_db, then --use_existing_db --query_rounds: the kept databases are measured
# again without a load (in rounds, reported as such), kept afterwards, and databases loaded
# otherwise (other sizes, another day, none at all) are refused with a clear error.
#   run_existing_db.sh <db_bench_ext> <work dir>
set -euo pipefail
binary=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
common=(--preset=smoke --workloads=metrics --configs=A,C --series=25 --queries=latest
        --readers=1 --warmup_seconds=0 --measure_seconds=0.05 --verification_draws=5
        --db="$work/db")
fail() { echo "FAIL: $*"; exit 1; }

"$binary" "${common[@]}" --keep_db --report_dir="$work/load" > /dev/null 2> "$work/load.log" ||
  { tail -n 20 "$work/load.log"; fail "the loading run failed"; }
[ -s "$work/db/metrics-C/DB_BENCH_EXT_LOAD" ] || fail "no load record kept"

"$binary" "${common[@]}" --use_existing_db --query_rounds=2 --report_dir="$work/reuse" \
  > "$work/reuse.md" 2> "$work/reuse.log" ||
  { tail -n 20 "$work/reuse.log"; fail "the run on the existing databases failed"; }
grep -q "load metrics" "$work/reuse.log" && fail "the existing databases were loaded again"
grep -q "query round 2 of 2" "$work/reuse.log" || fail "no second round"
grep -q '"loaded": false' "$work/reuse/results.json" || fail "results.json does not say loaded=false"
grep -q '"qps_rounds"' "$work/reuse/results.json" || fail "results.json lacks the rounds"
grep -q "n/a (existing database)" "$work/reuse.md" || fail "the report shows load figures"
# Both configurations returned the same rows in every round (the correctness gate passed) and
# the row count is the load's.
grep -q "Correctness:\*\* every query returned identical rows" "$work/reuse.md" ||
  fail "correctness gate"
[ -s "$work/db/metrics-A/DB_BENCH_EXT_LOAD" ] || fail "the databases were not kept"

expect_refusal() {  # <what> <expected message> <flags...>
  local what=$1 message=$2
  shift 2
  if "$binary" "$@" --report_dir="$work/refused" > /dev/null 2> "$work/refused.log"; then
    fail "$what: accepted"
  fi
  grep -q -- "$message" "$work/refused.log" ||
    { cat "$work/refused.log"; fail "$what: expected '$message'"; }
}
expect_refusal "other sizes" "loaded with series 25, this run asks for 50" \
  "${common[@]}" --use_existing_db --series=50
expect_refusal "no database" "no load record" \
  "${common[@]}" --use_existing_db --db="$work/none"
sed -i 's/^end_time_s .*/end_time_s 86400/' "$work/db/metrics-C/DB_BENCH_EXT_LOAD"
expect_refusal "another day" "were loaded on different days" "${common[@]}" --use_existing_db
echo "db_bench_ext existing databases: OK"
