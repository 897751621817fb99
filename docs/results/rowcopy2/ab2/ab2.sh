#!/bin/bash
# hold (HEAD 301cbba) against base (copies without awaiting a seed: the deferral build with DBG_AWAIT=0)
cd /tmp/s40
for round in 1 2 3; do
for mode in hold base; do
  if [ $((round % 2)) = 0 ]; then mode=$([ $mode = hold ] && echo base || echo hold); fi
  d=/tmp/s40/ab2_${mode}_$round; rm -rf $d
  if [ $mode = hold ]; then bin=./dbx_hold; else bin="env DBG_AWAIT=0 ./dbx_toggle"; fi
  $bin --preset=quick --configs=C,C-dict --workloads=access16 --queries=latest --readers=1 --measure_seconds=0.2 --warmup_seconds=0.1 --db=$d --keep_db --report_dir=$d/report > $d.out 2> $d.err
  for c in C C-dict; do echo "$mode $round $c $(python3 /work/main/docs/results/rowcopy1/compaction_cpu.py --each $d/access16-$c/LOG | tr '\n' ' ')"; done
  grep -o '"bytes_per_row": [0-9.]*' $d/report/results.json | tr '\n' ' '; echo
  rm -rf $d/access16-*/*.sst
done; done
