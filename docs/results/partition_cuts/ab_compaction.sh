#!/bin/bash
# The same final compaction (a quick load's snapshot, docs/results/rowcopy3/make_snapshot.sh)
# run by Debian's ldb with the plugin before (OLD_SO) and after (NEW_SO) partition-aligned row
# groups, one subcompaction, ROUNDS rounds alternating: compaction CPU, wall and output bytes
# (from the LOG's compaction_finished event).
# Usage: ab_compaction.sh SNAP_DIR COLUMN_FAMILY OLD_SO NEW_SO [ROUNDS]
snap=$1; cf=$2; old=$3; new=$4; rounds=${5:-3}
work=$(mktemp -d /tmp/ab-XXXXXX)
options=$(ls "$snap"/OPTIONS-* | sort | tail -1 | xargs basename)
for i in $(seq 1 "$rounds"); do
  for v in old new; do
    so=$old; [ $v = new ] && so=$new
    rm -rf "$work/db"; cp -r "$snap" "$work/db"
    sed -i "s/max_subcompactions=.*/max_subcompactions=1/" "$work/db/$options"
    LD_PRELOAD=$so ldb --db="$work/db" --try_load_options --column_family="$cf" compact \
      > "$work/ldb.out" 2>&1 || { echo "ldb failed"; cat "$work/ldb.out"; exit 1; }
    finished=$(grep -h '"event": "compaction_finished"' "$work/db/LOG" | tail -1)
    cpu=$(echo "$finished" | grep -o '"compaction_time_cpu_micros": [0-9]*' | tr -dc '0-9')
    wall=$(echo "$finished" | grep -o '"compaction_time_micros": [0-9]*' | tr -dc '0-9')
    bytes=$(echo "$finished" | grep -o '"total_output_size": [0-9]*' | tr -dc '0-9')
    echo "$v round $i compaction_cpu_ms $((cpu / 1000)) wall_ms $((wall / 1000)) bytes $bytes"
  done
done
rm -rf "$work"
