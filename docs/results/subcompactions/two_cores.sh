#!/bin/bash
cd /tmp/sub2
for v in x y; do rm -rf s_$v; cp -r snap s_$v; sed -i "s/max_subcompactions=.*/max_subcompactions=1/" s_$v/OPTIONS-000069; done
for v in x y; do
LD_PRELOAD=/work/main/build/plugin/libcolumnar_table.so perf stat -e task-clock -o smt_$v.txt ldb --db=s_$v --try_load_options --column_family=metrics.v2metrics5 compact > /dev/null 2>&1 &
done
wait
for v in x y; do echo "$v $(grep -h '"event": "compaction_finished"' s_$v/LOG | grep -o '"compaction_time_micros": [0-9]*\|"compaction_time_cpu_micros": [0-9]*' | tr -dc '0-9 \n' | paste -s) task-clock $(grep task-clock smt_$v.txt | awk '{print $1}')"; done
