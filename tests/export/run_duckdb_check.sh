#!/usr/bin/env bash
# The Parquet export cross-check (ctest 'parquet_export_duckdb'): parquet_export_fixture
# exports tables and writes what the Table API returns; DuckDB (from npm, @duckdb/node-api,
# installed into <source>/.npm-duckdb when missing) reads the files and compares, and hyparquet
# (npm, same folder) reads their page indexes.
# Skips (exit 77) only when npm cannot reach its registry to install DuckDB.
#
#   run_duckdb_check.sh <source dir> <parquet_export_fixture binary> <work dir>
set -euo pipefail
src=$(cd "$1" && pwd)
fixture=$2
work=$3
modules=$src/.npm-duckdb
if [[ ! -d $modules/node_modules/@duckdb/node-api || ! -d $modules/node_modules/hyparquet ]]; then
  if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    echo "parquet_export_duckdb: node/npm not installed (scripts/setup.sh installs them)" >&2
    exit 1
  fi
  echo "== npm install @duckdb/node-api hyparquet into $modules"
  mkdir -p "$modules"
  if ! npm install --prefix "$modules" --no-audit --no-fund --no-save @duckdb/node-api hyparquet \
       > "$modules/npm-install.log" 2>&1; then
    if ! npm ping > /dev/null 2>&1; then
      cat "$modules/npm-install.log" >&2
      echo "parquet_export_duckdb: SKIPPED: the npm registry is unreachable, DuckDB cannot be installed" >&2
      exit 77
    fi
    cat "$modules/npm-install.log" >&2
    echo "parquet_export_duckdb: npm install @duckdb/node-api failed" >&2
    exit 1
  fi
fi
echo "== parquet_export_fixture $work"
"$fixture" "$work"
echo "== DuckDB reads the files"
node "$src/tests/export/duckdb_check.cjs" "$modules/node_modules" "$work"
