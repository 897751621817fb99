#!/usr/bin/env bash
# Sorts ThreadSanitizer reports (TSAN_OPTIONS=log_path=...) into ours and RocksDB's, and fails
# when any report has a frame of our code.
#
# Debian's librocksdb.so is neither built with -fsanitize=thread nor has symbols: TSan sees its
# memory accesses only through libc interceptors (memcmp, memcpy, operator delete) and not its
# atomics, so it reports races between accesses RocksDB orders with atomics (memtable skip
# list and arena, memory freed and reused). Those reports have no frame of ours except the test
# thread that called into RocksDB. A suppression file cannot tell them apart from real races:
# the library's frames are <null>, and a module-wide `race:librocksdb.so` would also hide races
# in our code, which runs on RocksDB's threads (builders, readers, compaction filters). So
# reports are classified here instead: one with a frame in plugin/, table_format/, filter/ or
# table_api/ (not tests/) fails the run and is printed whole; the others are counted.
#
#   scripts/check_tsan_reports.sh <tsan log file>...
set -uo pipefail
if [ $# -eq 0 ]; then
  echo "tsan: no reports"
  exit 0
fi
awk '
  /WARNING: ThreadSanitizer:/ { inside = 1; ours = 0; text = ""; total++ }
  inside { text = text $0 "\n" }
  inside && / \.\.\/\.\.\/(plugin|table_format|filter|table_api)\// { ours = 1 }
  inside && /^SUMMARY: ThreadSanitizer/ {
    inside = 0
    if (ours) { bad++; printf "%s\n", text } else { rocksdb++ }
  }
  END {
    printf "tsan: %d report(s): %d with a frame of our code, %d inside librocksdb only\n",
           total, bad, rocksdb
    exit bad > 0 ? 1 : 0
  }' "$@"
