#!/usr/bin/env python3
"""Prints workload, config and the exact SST bytes after the full compaction (results.json)."""
import json
import sys

for path in sys.argv[1:]:
    d = json.load(open(path))
    for w in d['workloads']:
        for c in w['configs']:
            print(f"{w['workload']}\t{c['config']}\t{c['sst_bytes']}\t{path}")
