#!/usr/bin/env bash
# The main job: the quick side-by-side benchmark. Until db_bench_ext exists this runs the
# encoding micro-benchmark and prints its table.
set -euo pipefail
build_dir=${1:-build}
report_dir=${2:-report-demo}
if [ -x "$build_dir/db_bench_ext/db_bench_ext" ]; then
  exec "$build_dir/db_bench_ext/db_bench_ext" --preset=quick --configs=A,A-dict,C,C-dict \
    --report_dir="$report_dir"
fi
exec "$build_dir/db_bench_ext/micro/encoding_bench" --benchmark_min_time=0.05
