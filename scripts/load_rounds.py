#!/usr/bin/env python3
"""Load figures of db_bench_ext over several runs, the configurations in a rotated order each run.

One db_bench_ext run loads its configurations one after the other, and on a shared 2-core VM a
configuration's place in that order moves its figures: the same binary measured access16's A at
123k rows/s loaded first and 89k loaded last, C-dict's metrics ingestion at 0.71x A loaded last
and 0.90x loaded first (docs/results/wall12). This runs db_bench_ext --rounds times, round r
with the configuration list rotated by r places (A,C,C-dict; C,C-dict,A; C-dict,A,C; ...), so
that every configuration takes every place, and prints each load figure's ratio to A of the same
run as the median and the range over the runs (A's own row: its absolute figures).

  scripts/load_rounds.py --rounds=3 --work=/tmp/rounds -- --preset=quick \\
      --configs=A,C,C-dict --workloads=metrics,access16,devops --queries=latest \\
      --readers=1 --measure_seconds=0.3 --warmup_seconds=0.1

When db_bench_ext printed the machine probe's time around each load (db_bench_ext/machine_probe.h),
two more columns: the probe's time against A's load (the machine's drift between the loads) and
the CPU per row counted in probe times, whose ratio to A sets that drift aside.

Every flag after "--" (written --name=value) goes to db_bench_ext unchanged, except --configs
(rotated; A must be one) and --db / --report_dir (under --work, one report per run). Exits non-zero when a run fails
(its correctness gate included).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

LOAD_LINE = re.compile(
    r"^\s+(\w+)/([\w-]+): (\d+) rows/s, CPU ([\d.]+) s/M rows, write p99.9 (\d+) us, "
    r"final flush ([\d.e+-]+) s(?:, full compaction ([\d.e+-]+) s)?"
    r"(?:, probe ([\d.e+-]+)/([\d.e+-]+) ms)?", re.M)

# (key, heading, unit of A's absolute figure)
# With the machine probe (db_bench_ext/machine_probe.h): its time around each load, and the CPU
# per row in probe times (CPU / row divided by the probe's mean time around that load), which
# sets aside the machine's speed drifting between the loads compared.
FIGURES = [("ingest", "ingestion", "k rows/s"), ("cpu", "CPU / row", "s/M rows"),
           ("finish", "flush + full compaction", "s"), ("p999", "write p99.9", "ms")]
PROBE_FIGURES = [("probe", "probe time", "ms"),
                 ("cpu_probe", "CPU / row in probe times", "probes / M rows")]


def parse_loads(text):
    """{(workload, config): {figure: value}} from db_bench_ext's stderr."""
    loads = {}
    for m in LOAD_LINE.finditer(text):
        loads[(m.group(1), m.group(2))] = {
            "ingest": float(m.group(3)) / 1000, "cpu": float(m.group(4)),
            "p999": float(m.group(5)) / 1000,
            "finish": float(m.group(6)) + float(m.group(7) or 0)}
        if m.group(8) is not None:
            probe = (float(m.group(8)) + float(m.group(9))) / 2
            loads[(m.group(1), m.group(2))].update(
                {"probe": probe, "cpu_probe": float(m.group(4)) / probe * 1000})
    return loads


def rotated(configs, r):
    r %= len(configs)
    return configs[r:] + configs[:r]


def split_flags(flags):
    """db_bench_ext's flags without --configs / --db / --report_dir, and the configurations."""
    configs = ["A", "C", "C-dict"]
    kept = []
    for flag in flags:
        name = flag.split("=", 1)[0]
        if name == "--configs":
            configs = flag.split("=", 1)[1].split(",")
        elif name not in ("--db", "--report_dir"):
            kept.append(flag)
    return kept, configs


def summarize(values):
    """median [min-max] of a list of ratios."""
    if len(values) == 1:
        return f"{values[0]:.2f}"
    return f"{statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]"


def table(rounds, configs):
    """A markdown table of every (workload, config) over the runs."""
    figures = FIGURES
    if all("probe" in load for loads in rounds for load in loads.values()):
        figures = FIGURES + PROBE_FIGURES
    lines = ["| workload | config | " + " | ".join(h + " x A" for _, h, _ in figures) + " |",
             "|---|---|" + "---:|" * len(figures)]
    workloads = sorted({w for loads in rounds for (w, _) in loads})
    for w in workloads:
        for c in configs:
            cells = []
            for key, _, unit in figures:
                if c == "A":
                    values = [loads[(w, "A")][key] for loads in rounds if (w, "A") in loads]
                    cells.append(f"{statistics.median(values):.2f} {unit} "
                                 f"[{min(values):.2f}-{max(values):.2f}]" if values else "")
                else:
                    ratios = [loads[(w, c)][key] / loads[(w, "A")][key] for loads in rounds
                              if (w, c) in loads and (w, "A") in loads and
                              loads[(w, "A")][key] > 0]
                    cells.append(summarize(ratios) if ratios else "")
            lines.append(f"| {w} | {c} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", required=True, help="directory for the databases and reports")
    parser.add_argument("--db_bench_ext", default="build/db_bench_ext/db_bench_ext")
    parser.add_argument("flags", nargs="*", help="db_bench_ext flags (after --)")
    args = parser.parse_args()
    flags, configs = split_flags(args.flags)
    if "A" not in configs:
        sys.exit("load_rounds.py: --configs must include A (the ratios are to A)")
    if args.rounds < 1:
        sys.exit("load_rounds.py: --rounds must be at least 1")
    os.makedirs(args.work, exist_ok=True)
    rounds = []
    for r in range(args.rounds):
        order = rotated(configs, r)
        stderr_path = os.path.join(args.work, f"round{r + 1}.stderr")
        command = [args.db_bench_ext, *flags, "--configs=" + ",".join(order),
                   "--db=" + os.path.join(args.work, "db"),
                   "--report_dir=" + os.path.join(args.work, f"report{r + 1}")]
        print(f"round {r + 1}/{args.rounds}: --configs={','.join(order)}", file=sys.stderr)
        with open(stderr_path, "w") as err, open(os.devnull, "w") as out:
            status = subprocess.run(command, stdout=out, stderr=err).returncode
        if status != 0:
            sys.exit(f"load_rounds.py: round {r + 1} failed (exit {status}); see {stderr_path}")
        with open(stderr_path) as err:
            rounds.append(parse_loads(err.read()))
    print(f"{args.rounds} runs, configurations rotated; ratio to A of the same run, "
          "median [range]; A: its own figures, median [range]\n")
    print(table(rounds, configs))


if __name__ == "__main__":
    main()
