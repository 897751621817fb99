#!/usr/bin/env python3
"""table.py LABEL=STDOUT:RESULTS_JSON ...: ratios to A of the same run, per workload/config.

Each argument is one db_bench_ext run (its stdout and results.json); runs with the same label
are summarised by the median of their ratios, with the range.
"""
import json
import re
import statistics
import sys

LOAD = re.compile(r"^\s+(\w+)/([\w-]+): (\d+) rows/s, CPU ([\d.]+) s/M rows, write p99\.9 (\d+) us, "
                  r"final flush ([\d.e+-]+) s, full compaction ([\d.e+-]+) s", re.M)
SIZE = re.compile(r"^\s+(\w+)/([\w-]+): \d+ (?:rows|points), \d+ SST bytes \(([\d.]+) per", re.M)


def run_figures(stdout, results):
    text = open(stdout).read()
    rows = {}
    for m in LOAD.finditer(text):
        rows[(m.group(1), m.group(2))] = dict(
            ingest=float(m.group(3)), cpu=float(m.group(4)), p999=float(m.group(5)),
            fc=float(m.group(6)) + float(m.group(7)))
    for m in SIZE.finditer(text):
        if (m.group(1), m.group(2)) in rows:
            rows[(m.group(1), m.group(2))]['bpr'] = float(m.group(3))
    for w in json.load(open(results))['workloads']:
        for c in w['configs']:
            for q in c['queries']:
                if q['name'] in ('latest', 'lastpoint') and (w['workload'], c['config']) in rows:
                    rows[(w['workload'], c['config'])]['qps'] = float(q['qps']['1'])
    return rows


def ratios(rows):
    out = {}
    for (w, c), r in rows.items():
        a = rows.get((w, 'A'))
        if c == 'A' or a is None:
            continue
        out[(w, c)] = {k: r[k] / a[k] for k in ('ingest', 'cpu', 'fc', 'p999', 'qps', 'bpr')
                       if k in r and k in a}
    return out


by_label = {}
for arg in sys.argv[1:]:
    label, files = arg.split('=', 1)
    stdout, results = files.split(':')
    by_label.setdefault(label, []).append(ratios(run_figures(stdout, results)))

print('| workload | config | build | runs | ingestion x A | CPU/row x A | write p99.9 x A | '
      'flush + full compaction x A | latest/lastpoint qps x A (1 reader) | bytes/row x A |')
print('|---|---|---|---:|---|---|---|---|---|---|')
keys = sorted({k for runs in by_label.values() for r in runs for k in r})
for w, c in keys:
    for label, runs in by_label.items():
        cells = []
        for field in ('ingest', 'cpu', 'p999', 'fc', 'qps', 'bpr'):
            values = [r[(w, c)][field] for r in runs if (w, c) in r and field in r[(w, c)]]
            if not values:
                cells.append('')
            elif len(values) == 1:
                cells.append(f'{values[0]:.2f}')
            else:
                cells.append(f'{statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]')
        print(f'| {w} | {c} | {label} | {len(runs)} | ' + ' | '.join(cells) + ' |')
