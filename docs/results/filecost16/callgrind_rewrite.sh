#!/bin/bash
# Instructions of one full rewrite of a loaded database (compaction_bench under callgrind,
# counting rocksdb::CompactionJob::Run() alone). The input is copied first, so that every build
# rewrites the same files.
# Usage: callgrind_rewrite.sh COMPACTION_BENCH LOADED_DB WORKLOAD OUT [compaction_bench flags]
#   load once:  compaction_bench --workload=access16 --config=C --instances=10 --days=1 \
#                 --rewrites=0 --db=/tmp/cbs_load
#   then:       callgrind_rewrite.sh build/db_bench_ext/micro/compaction_bench /tmp/cbs_load \
#                 access16 /tmp/cg_new.out --instances=10 --days=1
set -euo pipefail
bin=$1 load=$2 workload=$3 out=$4
shift 4
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
cp -r "$load/." "$run"
valgrind --tool=callgrind --callgrind-out-file="$out" \
  --toggle-collect='rocksdb::CompactionJob::Run()' \
  "$bin" --workload="$workload" --config=C --reuse_db --rewrites=1 --db="$run" "$@" 2>&1 |
  grep -E "rewrite 1|Collected"
