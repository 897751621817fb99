#!/bin/bash
# metrics C snapshot, ldb compact: max_subcompactions 1 vs 3 (the OPTIONS file edited).
cd /tmp/sub2
for i in 1 2 3; do
  for v in 1 3; do
    rm -rf c_$v; cp -r snap c_$v
    sed -i "s/max_subcompactions=.*/max_subcompactions=$v/" c_$v/OPTIONS-000069
    LD_PRELOAD=/work/main/build/plugin/libcolumnar_table.so perf stat -e task-clock -o perf_${v}_$i.txt ldb --db=c_$v --try_load_options --column_family=metrics.v2metrics5 compact > ldb_${v}_$i.out 2>&1
    rc=$?
    echo "sub $v round $i rc $rc files $(ls c_$v/*.sst | wc -l) $(grep -h '"event": "compaction_finished"' c_$v/LOG | grep -o '"compaction_time_micros": [0-9]*\|"compaction_time_cpu_micros": [0-9]*\|"num_subcompactions": [0-9]*' | tr -dc '0-9 \n' | paste -s) task-clock $(grep task-clock perf_${v}_$i.txt | awk '{print $1}') ms bytes $(du -b c_$v/*.sst | awk '{s+=$1} END {print s}')"
  done
done
