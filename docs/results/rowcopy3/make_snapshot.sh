#!/bin/bash
# The input of a quick C load's final full compaction (access16 unless WORKLOAD is given): the
# load runs until its LOG shows the manual compaction starting, is killed at once, and the column
# family's directory is copied (its WAL and L0 files recovered by the next open).
# Usage: make_snapshot.sh DB_BENCH_EXT DIR [WORKLOAD]
set -e
bin=$1; dir=$2; workload=${3:-access16}
query=latest; [ "$workload" = devops ] && query=lastpoint
rm -rf "$dir/db" "$dir/snap"; mkdir -p "$dir"
"$bin" --preset=quick --configs=C --workloads="$workload" --queries=$query --readers=1 \
  --measure_seconds=0.2 --warmup_seconds=0.1 --keep_db --db="$dir/db" > "$dir/run.out" 2> "$dir/run.err" &
pid=$!
for i in $(seq 1 3000); do
  sleep 0.1
  if grep -q "ManualCompaction" "$dir/db/$workload-C/LOG" 2>/dev/null; then kill -9 $pid; break; fi
done
wait $pid 2>/dev/null || true
cp -r "$dir/db/$workload-C" "$dir/snap"
grep -o '"event": "compaction_started".*' "$dir/snap/LOG" | tail -1 | cut -c1-200
