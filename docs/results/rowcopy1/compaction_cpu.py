#!/usr/bin/env python3
"""Compaction CPU of a RocksDB database's LOG: the sum of every compaction_finished event's
compaction_time_cpu_micros, the input records, and their ratio (CPU per thousand input
records). With --each, also every compaction's output level, CPU seconds, wall seconds and
input records, in the LOG's order. Usage: compaction_cpu.py [--each] DB_DIR/LOG [...]"""
import json
import sys


def compactions(path):
    with open(path, errors="replace") as log:
        for line in log:
            at = line.find("EVENT_LOG_v1 ")
            if at < 0:
                continue
            event = json.loads(line[at + len("EVENT_LOG_v1 "):])
            if event.get("event") == "compaction_finished":
                yield event


def summarize(path, each):
    cpu_micros = count = input_records = 0
    listed = []
    for event in compactions(path):
        count += 1
        cpu_micros += event.get("compaction_time_cpu_micros", 0)
        input_records += event.get("num_input_records", 0)
        listed.append(f"L{event.get('output_level')} {event.get('compaction_time_cpu_micros', 0) / 1e6:.1f} "
                      f"CPU s {event.get('compaction_time_micros', 0) / 1e6:.1f} s "
                      f"{event.get('num_input_records', 0) // 1000}k")
    per_thousand = cpu_micros / input_records * 1000 if input_records else 0
    print(f"{path}: {count} compactions, {cpu_micros / 1e6:.2f} CPU s, "
          f"{input_records} input records, {per_thousand:.0f} us per thousand")
    if each:
        print("  " + "; ".join(listed))


arguments = sys.argv[1:]
each = "--each" in arguments
for argument in arguments:
    if argument != "--each":
        summarize(argument, each)
