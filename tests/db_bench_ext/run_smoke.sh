#!/usr/bin/env bash
# Runs db_bench_ext's smoke preset on every workload and configuration, then checks that it
# passed the correctness gate (exit status) and wrote complete reports.
#   run_smoke.sh <db_bench_ext> <work dir> [configurations, default: all seven] [flags...]
# Further arguments go to db_bench_ext after the preset's (the sanitizer builds pass smaller
# sizes and measurement windows); with --workloads=a,b among them, the reports must hold those
# workloads (default: all five).
set -euo pipefail
binary=$1
work=$2
configs=${3:-A,A-dict,B,C,C-dict,D,T}
shift $(($# < 3 ? $# : 3))
workloads=metrics,access4,access8,access16,devops
for arg in "$@"; do
  case $arg in --workloads=*) workloads=${arg#--workloads=} ;; esac
done
rm -rf "$work"
mkdir -p "$work"
"$binary" --preset=smoke --configs="$configs" --db="$work/db" \
  --report_dir="$work/report" --verification_draws=5 "$@" > "$work/stdout.md" 2> "$work/stderr.log" || {
  echo "db_bench_ext failed:"; tail -n 30 "$work/stderr.log"; exit 1; }
for f in results.json results.md index.html; do
  [ -s "$work/report/$f" ] || { echo "missing report file $f"; exit 1; }
done
charts=$(find "$work/report/charts" -name '*.svg' | wc -l)
[ "$charts" -ge 10 ] || { echo "expected charts, found $charts"; exit 1; }
for workload in ${workloads//,/ }; do
  grep -q "\"workload\": *\"$workload\"" "$work/report/results.json" ||
    { echo "results.json lacks $workload"; exit 1; }
done
for config in ${configs//,/ }; do
  grep -q "\"config\": *\"$config\"" "$work/report/results.json" ||
    { echo "results.json lacks configuration $config"; exit 1; }
done
if grep -q "MISMATCH" "$work/stderr.log"; then echo "correctness gate failed"; exit 1; fi
echo "db_bench_ext smoke: OK ($charts charts)"
