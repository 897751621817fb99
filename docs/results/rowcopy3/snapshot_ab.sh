#!/bin/bash
# Same input (snap: the state before a quick access16 C load's final full compaction), `ldb compact`:
# base = neither rule (NO_CLOSE=1 NO_TAIL=1), close = outputs close at another input file only
# (NO_TAIL=1), both = close + tails held back for the next file.
cd "${DIR:-/tmp/p45}"
for i in 1 2 3; do
  for v in base close both; do
    rm -rf c_$v; cp -r snap c_$v
    unset NO_CLOSE NO_TAIL
    [ $v = base ] && export NO_CLOSE=1 NO_TAIL=1
    [ $v = close ] && export NO_TAIL=1
    LD_PRELOAD=/work/main/build/plugin/libcolumnar_table.so perf stat -e task-clock -o perf3_${v}_$i.txt ldb --db=c_$v --try_load_options --column_family=logs.access16 compact > ldb3_${v}_$i.out 2>&1
    rc=$?
    copied=0; groups=0
    for f in c_$v/*.sst; do
      g=$(/work/main/build/tools/columnar_sst_dump $f 2>/dev/null | grep -E "^  row groups:" | awk '{print $3}')
      c=$(/work/main/build/tools/columnar_sst_dump $f 2>/dev/null | grep copied_row_groups | tr -dc 0-9)
      groups=$((groups + ${g:-0})); copied=$((copied + ${c:-0}))
    done
    echo "$v $i rc $rc files $(ls c_$v/*.sst | wc -l) copied $copied of $groups; $(python3 /work/main/docs/results/rowcopy1/compaction_cpu.py --each c_$v/LOG | tail -1); task-clock $(grep task-clock perf3_${v}_$i.txt | awk '{print $1}') ms; bytes $(du -b c_$v/*.sst | awk '{s+=$1} END {print s}')"
  done
done
