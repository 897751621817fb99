#!/bin/bash
# Instructions of the flush jobs of one small db_bench_ext load of configuration C (callgrind,
# counting rocksdb::FlushJob::Run alone; no full compaction, so the load ends with its flushes).
# Usage: callgrind_flush.sh DB_BENCH_EXT OUTDIR WORKLOAD [db_bench_ext flags]
#   access16: callgrind_flush.sh build/db_bench_ext/db_bench_ext /tmp/f access16 --instances=4
#   devops:   QUERY=lastpoint callgrind_flush.sh ... devops --hosts=20
# Prints the instruction count and the files' bytes (flush files' bytes depend a little on when
# the memtables were cut, which the writers' timing decides: about 0.01% between runs).
set -euo pipefail
bin=$1 out=$2 workload=$3
shift 3
rm -rf "$out" && mkdir -p "$out/db" "$out/report"
valgrind --tool=callgrind --collect-atstart=no --toggle-collect='rocksdb::FlushJob::Run(*' \
  --callgrind-out-file="$out/callgrind.out" \
  "$bin" --preset=quick --configs=C --workloads="$workload" --readers=1 --days=1 \
  --measure_seconds=0 --warmup_seconds=0 --verification_draws=1 --full_compaction=false \
  --queries="${QUERY:-latest}" --db="$out/db" --report_dir="$out/report" "$@" >"$out/stdout" 2>&1
grep -E "I   refs" "$out/stdout" || true
grep -E "SST bytes" "$out/stdout" || true
