#!/bin/bash
# metrics C snapshot, ldb compact with one subcompaction: the plugin before (old) and after (new)
# the size check ahead of the key comparison in CompactionInputs::GroupStartingWith.
cd /tmp/sub2
for i in 1 2 3; do
  for v in old new; do
    rm -rf k_$v; cp -r snap k_$v
    sed -i "s/max_subcompactions=.*/max_subcompactions=1/" k_$v/OPTIONS-000069
    LD_PRELOAD=/tmp/$v.so perf stat -e task-clock -o kperf_${v}_$i.txt ldb --db=k_$v --try_load_options --column_family=metrics.v2metrics5 compact > /dev/null 2>&1
    echo "$v round $i $(grep -h '"event": "compaction_finished"' k_$v/LOG | grep -o '"compaction_time_micros": [0-9]*\|"compaction_time_cpu_micros": [0-9]*' | tr -dc '0-9 \n' | paste -s) task-clock $(grep task-clock kperf_${v}_$i.txt | awk '{print $1}') bytes $(du -b k_$v/*.sst | awk '{s+=$1} END {print s}')"
  done
done
