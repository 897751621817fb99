#!/usr/bin/env bash
# The layering checker must fail on each kind of upward include and pass on a clean tree.
#   tests/layering_check_test.sh <path of scripts/check_layering.sh>
set -uo pipefail
checker=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# A minimal clean tree: every layer includes only what it may.
make_clean_tree() {
  rm -rf "$work/tree"
  mkdir -p "$work/tree"/{table_format,filter,plugin,table_api,tools,db_bench_ext}
  mkdir -p "$work/tree"/tests/{plugin,table_api}
  cd "$work/tree"
  echo '#include <vector>' >table_format/schema.h
  echo '#include "table_format/schema.h"' >filter/predicate.h
  printf '#include "filter/predicate.h"\n#include "table/table_reader.h"\n' >plugin/reader.cc
  printf '#include "plugin/pushdown.h"\n#include <rocksdb/db.h>\n' >table_api/table.cc
  echo '#include "table_api/table.h"' >tools/shell.cc
  echo '#include "table_api/table.h"' >db_bench_ext/driver.cc
  printf '#include "tests/plugin/test_db.h"\n#include "table_api/table.h"\n' \
    >tests/table_api/select_test.cc
  echo '#include "db/dbformat.h"' >tests/plugin/contract_test.cc
  cd - >/dev/null
}

expect() {  # expect <pass|fail> <what> [file content-to-append]
  local want=$1 what=$2 out rc
  out=$("$checker" "$work/tree" 2>&1)
  rc=$?
  if [[ $want == pass && $rc -ne 0 ]] || [[ $want == fail && $rc -eq 0 ]]; then
    echo "FAILED: $what: expected $want, checker exited $rc: $out"
    failures=$((failures + 1))
  else
    echo "ok: $what ($want)"
  fi
}

violation() {  # violation <file> <line> <what>
  make_clean_tree
  mkdir -p "$(dirname "$work/tree/$1")"
  echo "$2" >>"$work/tree/$1"
  expect fail "$3"
}

make_clean_tree
expect pass "clean tree"
violation plugin/reader.cc '#include "table_api/database.h"' "plugin includes table_api"
violation plugin/reader.h '  #  include "table_api/table.h"' "spaced include directive"
violation filter/predicate.h '#include "plugin/pushdown.h"' "filter includes plugin"
violation table_format/schema.h '#include "filter/predicate.h"' "table_format includes filter"
violation table_api/table.cc '#include "tools/shell.h"' "table_api includes tools"
violation table_api/table.cc '#include "db/db_impl/db_impl.h"' "internal header in table_api"
violation tools/shell.cc '#include "table/format.h"' "internal header in tools"
violation tools/shell.cc '#include "db_bench_ext/driver.h"' "tools includes db_bench_ext"
violation table_api/table.cc '#include "tests/table_api/test_util.h"' "library includes tests"
violation tests/plugin/x_test.cc '#include "tests/table_api/test_util.h"' \
  "plugin tests include table_api tests"
violation tests/plugin/x_test.cc '#include "table_api/database.h"' "plugin tests include table_api"

if ((failures > 0)); then
  echo "$failures case(s) failed"
  exit 1
fi
echo "all cases passed"
