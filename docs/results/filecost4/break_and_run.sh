#!/bin/bash
# (W is this worktree; broken copies are made by hand under /tmp/b7/broken/NAME/, see README.md.)
# run.sh NAME TESTFILE FILTER [SRC.cc ...]: builds TESTFILE (+ the given sources, possibly
# broken copies under /tmp/b7/broken/NAME/) against the worktree's libcolumnar_format.a.
set -e
name=$1 test=$2 filter=$3; shift 3
W=/work/wt/build7
inc="-I/tmp/b7/broken/$name -I$W"
objs=""
for src in "$@"; do
  o=/tmp/b7/broken/$name/$(basename $src).o
  nice g++ -O2 -std=c++17 -DGTEST_HAS_PTHREAD=1 $inc -c $src -o $o; objs="$objs $o"
done
nice g++ -O2 -std=c++17 -DGTEST_HAS_PTHREAD=1 $inc -c $W/tests/table_format/$test -o /tmp/b7/broken/$name/test.o
g++ -o /tmp/b7/broken/$name/bin /tmp/b7/broken/$name/test.o $objs $W/build/table_format/libcolumnar_format.a /usr/lib/x86_64-linux-gnu/libgtest.a /usr/lib/x86_64-linux-gnu/libgtest_main.a /usr/lib/x86_64-linux-gnu/librocksdb.so.7.8.3 /usr/lib/x86_64-linux-gnu/libzstd.so /usr/lib/x86_64-linux-gnu/liblz4.so -lpthread
/tmp/b7/broken/$name/bin --gtest_filter="$filter" 2>&1 | grep -E "^\[  (FAILED|PASSED) |Failure|Expected|Which is|round" | head -8
