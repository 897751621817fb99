#!/usr/bin/env python3
"""Compaction CPU of a RocksDB database's LOG: the sum of every compaction_finished event's
compaction_time_cpu_micros, the input records, and their ratio (CPU per thousand input
records). Usage: compaction_cpu.py DB_DIR/LOG [...]"""
import json
import sys


def summarize(path):
    cpu_micros = compactions = input_records = 0
    with open(path, errors="replace") as log:
        for line in log:
            at = line.find("EVENT_LOG_v1 ")
            if at < 0:
                continue
            event = json.loads(line[at + len("EVENT_LOG_v1 "):])
            if event.get("event") != "compaction_finished":
                continue
            compactions += 1
            cpu_micros += event.get("compaction_time_cpu_micros", 0)
            input_records += event.get("num_input_records", 0)
    per_thousand = cpu_micros / input_records * 1000 if input_records else 0
    print(f"{path}: {compactions} compactions, {cpu_micros / 1e6:.2f} CPU s, "
          f"{input_records} input records, {per_thousand:.0f} us per thousand")


for argument in sys.argv[1:]:
    summarize(argument)
