#!/usr/bin/env bash
# The Parquet export cross-check (ctest 'parquet_export_duckdb'): parquet_export_fixture
# exports tables and writes what the Table API returns; DuckDB (from npm, @duckdb/node-api,
# installed into <source>/.npm-duckdb when missing) reads the files and compares, and hyparquet
# (npm, same folder) reads their page indexes.
# Skips (exit 77) only when npm cannot reach its registry to install DuckDB.
#
# With a cql_shell binary, the README's COPY commands (the ```sql block of "Export to Parquet")
# also run verbatim, in <work dir>/readme, against the fixture's database, and DuckDB reads the files
# they write.
#
#   run_duckdb_check.sh <source dir> <parquet_export_fixture binary> <work dir> [cql_shell]
set -euo pipefail
src=$(cd "$1" && pwd)
fixture=$2
work=$3
cql_shell=${4:+$(realpath "$4")}
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
: > "$work/readme_copies.txt"
if [[ -n $cql_shell ]]; then
  echo "== the README's COPY commands, verbatim, through cql_shell"
  readme_sql=$(awk '/^## Export to Parquet/ {section = 1; next}
                    section && /^## / {exit}
                    section && /^```sql/ {block = 1; next}
                    block && /^```/ {exit}
                    block' "$src/README.md")
  [[ -n $readme_sql ]] || { echo "no sql block in README's Export to Parquet" >&2; exit 1; }
  echo "$readme_sql"
  mkdir -p "$work/readme"
  (cd "$work/readme" && "$cql_shell" --db="$work/db" -e "$readme_sql") | tee "$work/readme_copy.out"
  # "<rows> rows exported to <path> (<format>, ...": what duckdb_check.cjs reads back.
  sed -n 's/^\([0-9]*\) rows exported to \(.*\) (\([a-z]*\), .*/\1 \3 \2/p' "$work/readme_copy.out" \
    > "$work/readme_copies.txt"
  [[ $(wc -l < "$work/readme_copies.txt") -eq $(grep -c '^COPY ' <<< "$readme_sql") ]] ||
    { echo "not every README COPY command reported its export" >&2; exit 1; }
fi
echo "== DuckDB reads the files"
node "$src/tests/export/duckdb_check.cjs" "$modules/node_modules" "$work"
