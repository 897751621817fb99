#!/bin/bash
# Instructions of the same compaction (a snapshot from docs/results/rowcopy3/make_snapshot.sh)
# with the plugin before (OLD_SO) and after (NEW_SO), one subcompaction, under callgrind: this
# VM has no hardware counters, and its timings move by 40% between runs.
# Usage: callgrind_compaction.sh SNAP_DIR COLUMN_FAMILY OLD_SO NEW_SO OUT_DIR
snap=$1; cf=$2; old=$3; new=$4; out=$5
mkdir -p "$out"
for v in old new; do
  so=$old; [ $v = new ] && so=$new
  rm -rf "$out/db"; cp -r "$snap" "$out/db"
  options=$(ls "$out"/db/OPTIONS-* | sort | tail -1)
  sed -i "s/max_subcompactions=.*/max_subcompactions=1/" "$options"
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$out/cg_$v.%p.out" \
    env LD_PRELOAD="$so" ldb --db="$out/db" --try_load_options --column_family="$cf" compact \
    > "$out/valgrind_$v.log" 2>&1
  profile=$(ls -S "$out"/cg_$v.*.out | head -1)
  echo "$v total $(grep -h 'Collected' "$out/valgrind_$v.log" | awk '{print $4}' | tail -1)"
  callgrind_annotate --inclusive=yes "$profile" 2>/dev/null |
    grep -E "ProcessKeyValueCompaction|ColumnarTableBuilder::(Add|WriteBufferedGroup|FollowInputGroups)\(" |
    awk -v v=$v '{print v, $1, $3}'
done
rm -rf "$out/db"
