#!/usr/bin/env python3
"""table.py OUTPUT RESULTS_JSON: ratios to A per workload/config from a db_bench_ext run.

OUTPUT is db_bench_ext's stderr (its per-config lines: "W/C: R rows/s, CPU ... full compaction
S s" and "W/C: N rows, B SST bytes (X per row)")."""
import json, re, sys
err = open(sys.argv[1]).read()
load = re.compile(r"^\s+(\w+)/([\w-]+): (\d+) rows/s, CPU ([\d.]+) s/M rows, write p99.9 (\d+) us, "
                  r"final flush ([\d.e+-]+) s, full compaction ([\d.e+-]+) s", re.M)
size = re.compile(r"^\s+(\w+)/([\w-]+): \d+ (?:rows|points), \d+ SST bytes \(([\d.]+) per", re.M)
rows = {}
for m in load.finditer(err):
    rows[(m.group(1), m.group(2))] = dict(ingest=float(m.group(3)), cpu=float(m.group(4)),
                                          p999=float(m.group(5)),
                                          fc=float(m.group(6)) + float(m.group(7)))
for m in size.finditer(err):
    rows.setdefault((m.group(1), m.group(2)), {})['bpr'] = float(m.group(3))
d = json.load(open(sys.argv[2]))
qps = {}
for w in d['workloads']:
    for c in w['configs']:
        for q in c['queries']:
            if q['name'] in ('latest', 'lastpoint'):
                for k, v in sorted(q['qps'].items(), key=lambda kv: int(kv[0])):
                    qps.setdefault((w['workload'], c['config']), []).append((k, v))
print("| workload | config | ingestion x A | CPU/row x A | flush+full compaction x A | "
      "write p99.9 x A | latest/lastpoint qps x A (readers) | bytes/row |")
print("|---|---|---:|---:|---:|---:|---|---:|")
for (w, c), r in sorted(rows.items(), key=lambda kv: (kv[0][0], kv[0][1] != 'A', kv[0][1])):
    a = rows.get((w, 'A'))
    if a is None or 'ingest' not in r:
        continue
    q = qps.get((w, c), [])
    qa = dict(qps.get((w, 'A'), []))
    if c == 'A':
        print(f"| {w} | A | {r['ingest']/1000:.0f}k rows/s | {r['cpu']:.2f} s/M | {r['fc']:.1f} s | "
              f"{r['p999']/1000:.1f} ms | " + ", ".join(f"{v/1000:.0f}k ({k})" for k, v in q) +
              f" | {r.get('bpr', 0):.2f} |")
    else:
        print(f"| {w} | {c} | {r['ingest']/a['ingest']:.2f} | {r['cpu']/a['cpu']:.2f} | "
              f"{r['fc']/a['fc']:.2f} | {r['p999']/a['p999']:.2f} | " +
              ", ".join(f"{v/qa[k]:.2f} ({k})" for k, v in q if k in qa) +
              f" | {r.get('bpr', 0):.4f} |")
