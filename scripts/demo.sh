#!/usr/bin/env bash
# The main job: the quick preset of db_bench_ext (every workload; BlockBasedTable A and
# A-dict against ColumnarTable C and C-dict in one run), printing the Markdown tables.
# More: db_bench_ext --help (configurations B, D, T, and the seed preset at the source
# documents' scale).
set -euo pipefail
build_dir=${1:-build}
report_dir=${2:-report-demo}
if [ -x "$build_dir/db_bench_ext/db_bench_ext" ]; then
  exec "$build_dir/db_bench_ext/db_bench_ext" --preset=quick --configs=A,A-dict,C,C-dict \
    --report_dir="$report_dir"
fi
echo "demo.sh: $build_dir/db_bench_ext/db_bench_ext is missing (run make build first)" >&2
exit 1
