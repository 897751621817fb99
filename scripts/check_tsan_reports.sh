#!/usr/bin/env bash
# Sorts ThreadSanitizer reports (TSAN_OPTIONS=log_path=...) into ours and RocksDB's, and fails
# when any report has a frame of our code.
#
# Debian's librocksdb.so and libstdc++.so are not built with -fsanitize=thread: TSan sees their
# memory accesses only through libc interceptors (memcmp, memcpy, operator new/delete) and not
# their atomics, so it reports races between accesses RocksDB orders with atomics (group commit
# of write batches on the writers' stacks, memtable skip list and arena, reused memory). make
# tsan therefore runs with TSAN_OPTIONS=ignore_noninstrumented_modules=1: interceptor accesses
# made from uninstrumented libraries are ignored, while every access of our (instrumented) code
# and every lock are still checked. A suppression file cannot do this: the library's frames are
# mostly <null>, and a module-wide `race:librocksdb.so` would also hide races in our code, which
# runs on RocksDB's threads (builders, readers, compaction filters).
#
# This script fails when a report has a frame in plugin/, table_format/, filter/ or table_api/
# (not tests/), printing it whole, and counts the others (inside the libraries only).
#
#   scripts/check_tsan_reports.sh <tsan log file>...
set -uo pipefail
repo_root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
  echo "tsan: no reports"
  exit 0
fi
# A frame's file is relative to the build directory (../../plugin/x.cc) when the compiler was
# given relative paths (ccache with CCACHE_BASEDIR), absolute (<repo>/plugin/x.cc) otherwise.
awk -v root="$repo_root" '
  function has_our_frame(line,    layers, i) {
    if (line ~ / (\.\.\/)+(plugin|table_format|filter|table_api)\//) return 1
    split("plugin table_format filter table_api", layers, " ")
    for (i = 1; i <= 4; i++) if (index(line, " " root "/" layers[i] "/") > 0) return 1
    return 0
  }
  /WARNING: ThreadSanitizer:/ { inside = 1; ours = 0; text = ""; total++ }
  inside { text = text $0 "\n" }
  inside && has_our_frame($0) { ours = 1 }
  inside && /^SUMMARY: ThreadSanitizer/ {
    inside = 0
    if (ours) { bad++; printf "%s\n", text } else { rocksdb++ }
  }
  END {
    printf "tsan: %d report(s): %d with a frame of our code, %d inside librocksdb only\n",
           total, bad, rocksdb
    exit bad > 0 ? 1 : 0
  }' "$@"
