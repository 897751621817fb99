#!/usr/bin/env python3
"""table.py STDERR RESULTS_JSON: ratios to A per workload/config from a db_bench_ext run."""
import json, re, sys
err = open(sys.argv[1]).read()
pat = re.compile(r"^\s+(\w+)/([\w-]+): (\d+) (?:rows|points), (\d+) SST bytes \(([\d.]+) per (?:row|point)\), (\d+) rows/s, CPU ([\d.]+) s/M rows, write p99.9 (\d+) us, final flush ([\d.e+-]+) s, full compaction ([\d.e+-]+) s", re.M)
rows = {}
for m in pat.finditer(err):
    w, c = m.group(1), m.group(2)
    rows[(w, c)] = dict(ingest=float(m.group(6)), cpu=float(m.group(7)), p999=float(m.group(8)),
                        fc=float(m.group(9)) + float(m.group(10)), bpr=float(m.group(5)))
d = json.load(open(sys.argv[2]))
qps = {}
for w in d['workloads']:
    for c in w['configs']:
        for q in c['queries']:
            if q['name'] in ('latest', 'lastpoint'):
                for k, v in sorted(q['qps'].items(), key=lambda kv: int(kv[0])):
                    qps.setdefault((w['workload'], c['config']), []).append((k, v))
print("| workload | config | ingestion x A | CPU/row x A | flush+full compaction x A | write p99.9 x A | latest/lastpoint qps x A (readers) | bytes/row |")
print("|---|---|---:|---:|---:|---:|---|---:|")
for (w, c), r in sorted(rows.items(), key=lambda kv: (kv[0][0], kv[0][1] != 'A', kv[0][1])):
    a = rows.get((w, 'A'))
    if a is None and c != 'A':
        continue
    q = qps.get((w, c), [])
    qa = dict((k, v) for k, v in qps.get((w, 'A'), []))
    if c == 'A':
        print(f"| {w} | A | {r['ingest']/1000:.0f}k rows/s | {r['cpu']:.2f} s/M | {r['fc']:.1f} s | {r['p999']/1000:.1f} ms | " +
              ", ".join(f"{v/1000:.0f}k ({k})" for k, v in q) + f" | {r['bpr']:.2f} |")
    else:
        print(f"| {w} | {c} | {r['ingest']/a['ingest']:.2f} | {r['cpu']/a['cpu']:.2f} | {r['fc']/a['fc']:.2f} | {r['p999']/a['p999']:.2f} | " +
              ", ".join(f"{v/qa[k]:.2f} ({k})" for k, v in q if k in qa) + f" | {r['bpr']:.2f} |")
