#!/usr/bin/env bash
# The installable package, end to end (ctest 'install_and_example'):
#   1. cmake --install <build> --prefix <work>/prefix (the README's commands, with step 3),
#      and the files it must hold;
#   2. the installed headers (all in one translation unit) compile against Debian's /usr/include/rocksdb only
#      (no RocksDB internal header), with NDEBUG;
#   3. examples/timeseries_service configured and built out of tree with
#      find_package(ColumnarTable CONFIG), run, its output checked;
#   4. a plain RocksDB program built with pkg-config against the static plugin, which reopens
#      an OPTIONS file naming ColumnarTable after columnar::RegisterColumnarTableFactories();
#   5. cpack -G DEB builds the Debian package, and it holds the same files.
#
#   install_and_build_example.sh <source dir> <build dir> <work dir>
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
work=$3
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
prefix=$work/prefix
fail() { echo "install_and_example: FAILED: $*" >&2; exit 1; }

# Steps 1 and 3 are the README's commands ("Use it from your CMake project", its first sh
# block), run verbatim from the source directory after their first line, which sets BUILD,
# PREFIX and WORK: the test sets its own.
readme_sh=$(awk '/^## Use it from your CMake project/ {section = 1; next}
                 section && /^## / {exit}
                 section && /^```sh/ {block = 1; next}
                 block && /^```/ {exit}
                 block' "$src/README.md")
[[ $(head -1 <<< "$readme_sh") == BUILD=* ]] || fail "the README's first sh block does not set BUILD first"
echo "== the README's commands"
tail -n +2 <<< "$readme_sh"
(cd "$src" && BUILD=$build PREFIX=$prefix WORK=$work/example \
   bash -euo pipefail -c "$(tail -n +2 <<< "$readme_sh")") > "$work/readme.out" 2>&1 ||
  { cat "$work/readme.out"; fail "the README's commands"; }
grep -A100 '^table metrics.points' "$work/readme.out" > "$work/example.out" || true
cat "$work/example.out"

echo "== what cmake --install put under $prefix"
libdir=$(cd "$prefix" && ls -d lib*/cmake/ColumnarTable | head -1)
libdir=${libdir%/cmake/ColumnarTable}
for f in include/columnar_table/table_api/database.h include/columnar_table/plugin/columnar_table.h \
         include/columnar_table/table_format/schema.h include/columnar_table/filter/predicate.h \
         "$libdir"/libcolumnar_table_api.a "$libdir"/libcolumnar_plugin.a \
         "$libdir"/libcolumnar_filter.a "$libdir"/libcolumnar_format.a "$libdir"/libcolumnar_table.so \
         "$libdir"/cmake/ColumnarTable/ColumnarTableConfig.cmake \
         "$libdir"/cmake/ColumnarTable/ColumnarTableTargets.cmake \
         "$libdir"/pkgconfig/columnar_table.pc bin/cql_shell bin/columnar_sst_dump bin/db_bench_ext; do
  [[ -e $prefix/$f ]] || fail "$f not installed"
done
if grep -rl 'rocksdb-src\|third_party' "$prefix/$libdir/cmake" "$prefix/$libdir/pkgconfig"; then
  fail "the installed package refers to the RocksDB source tree"
fi

echo "== the installed headers, against /usr/include/rocksdb, with NDEBUG"
headers=$(cd "$prefix/include/columnar_table" && find . -name '*.h' | sed 's|^\./||' | sort)
[[ $(echo "$headers" | wc -l) -gt 40 ]] || fail "too few headers installed"
for h in $headers; do echo "#include \"$h\""; done > "$work/all_headers.cc"
echo "int main() { return 0; }" >> "$work/all_headers.cc"
g++ -std=c++17 -DNDEBUG -fsyntax-only -I "$prefix/include/columnar_table" "$work/all_headers.cc" ||
  fail "installed headers do not compile against the public RocksDB headers"

echo "== examples/timeseries_service's answers (built above, out of tree, find_package(ColumnarTable CONFIG))"
expected=(
  "table metrics.points: ColumnarTable"
  "ingested 40000 points (8 series, 4 writer threads)"
  "range host7.cpu [100 s, 300 s): 200 points"
  "aggregate host7.cpu [100 s, 300 s): count=200 min=7050.0 max=7149.5 avg=7099.75"
  "per minute host7.cpu [100 s, 300 s): 4 buckets of 60+60+60+20 points, first '2023-11-14T22:15:00.000Z' avg=7064.75"
  "latest host7.cpu: time='2023-11-14T23:36:39.000Z' value=9499.5 ttl<=30d:yes"
  "after reopen: 40000 points in 8 series in ColumnarTable"
  "timeseries_service: OK"
)
for line in "${expected[@]}"; do
  grep -qxF "$line" "$work/example.out" || fail "example output lacks: $line"
done

echo "== a plain RocksDB program, pkg-config, explicit registration"
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
g++ -std=c++17 -O1 -DNDEBUG "$src/tests/install/plain_rocksdb_consumer.cc" -o "$work/plain_consumer" \
  $(pkg-config --cflags --libs columnar_table) || fail "building with pkg-config"
"$work/plain_consumer" "$work/plain-db" | tee "$work/plain.out"
grep -qxF "plain_rocksdb_consumer: ColumnarTable key1500=500" "$work/plain.out" ||
  fail "plain RocksDB reopen by name"

echo "== cpack -G DEB"
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/deb" > "$work/cpack.log") ||
  { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/deb/*.deb | head -1)
[[ -f $deb ]] || fail "no .deb built"
dpkg-deb -c "$deb" > "$work/deb-contents.txt"
for f in include/columnar_table/table_api/database.h libcolumnar_table.so libcolumnar_plugin.a \
         cmake/ColumnarTable/ColumnarTableConfig.cmake pkgconfig/columnar_table.pc bin/cql_shell; do
  grep -q "/usr/.*$f" "$work/deb-contents.txt" || fail "$f missing from $deb"
done
echo "$(basename "$deb"): $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version), depends: $(dpkg-deb -f "$deb" Depends)"
echo "install_and_example: OK"
