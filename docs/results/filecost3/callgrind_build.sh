#!/bin/bash
# Instructions of flush + compaction jobs only (callgrind), one db_bench_ext load.
# Usage: callgrind_build.sh BINARY CONFIG WORKLOAD OUTDIR [extra db_bench_ext flags]
#   e.g. callgrind_build.sh build/db_bench_ext/db_bench_ext C-dict access16 /tmp/cg_new
# access16/metrics: --instances=2 --days=1 (34,560 rows for access16); devops: --hosts.
set -euo pipefail
bin=$1 config=$2 workload=$3 out=$4
shift 4
rm -rf "$out" && mkdir -p "$out/db" "$out/report"
valgrind --tool=callgrind --collect-atstart=no \
  --toggle-collect='rocksdb::CompactionJob::Run()' --toggle-collect='rocksdb::FlushJob::Run(*' \
  --callgrind-out-file="$out/callgrind.out" \
  "$bin" --preset=quick --configs="$config" --workloads="$workload" \
  --readers=1 --days=1 --measure_seconds=0 --warmup_seconds=0 \
  --verification_draws=1 --db="$out/db" --report_dir="$out/report" "$@" >"$out/stdout" 2>"$out/stderr"
callgrind_annotate "$out/callgrind.out" 2>/dev/null | sed -n '1,40p' >"$out/flat.txt"
callgrind_annotate --inclusive=yes "$out/callgrind.out" 2>/dev/null | sed -n '1,60p' >"$out/inclusive.txt"
grep -m1 "PROGRAM TOTALS" "$out/flat.txt" || true
