// The table schema the fuzz targets share: every logical type in the key and among the regular
// columns, a DESC clustering column, and three versions (a column added, one dropped), so row
// values of older versions and dropped columns are exercised too.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "table_format/cql_parser.h"
#include "table_format/schema.h"

namespace columnar {
namespace fuzz {

// Aborts (a fuzzer finding) when a check the target relies on fails.
#define FUZZ_CHECK(condition)                                                                 \
  do {                                                                                        \
    if (!(condition)) {                                                                       \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                           \
    }                                                                                         \
  } while (0)

inline constexpr const char* kFuzzCreateTable =
    "CREATE TABLE ks.fuzzed (org text, day date, time bigint, id uuid, flag boolean, "
    "count int, total bigint, ratio float, value double, seen timestamp, born date, "
    "name text, code ascii, payload blob, ref uuid, "
    "PRIMARY KEY ((org, day), time, id)) WITH CLUSTERING ORDER BY (time DESC) "
    "AND column_encodings = {'value': 'alp', 'name': 'dictionary'}";

// Version 3 of the table: version 2 added `extra int`, version 3 dropped `ratio`.
inline const TableSchema& FuzzSchema() {
  static const TableSchema* schema = [] {
    CreateTableStatement create;
    FUZZ_CHECK(ParseCreateTable(kFuzzCreateTable, &create).ok());
    TableSchema v2;
    FUZZ_CHECK(ApplyAlterTable("ALTER TABLE ks.fuzzed ADD extra int", create.schema, &v2).ok());
    auto* v3 = new TableSchema;
    FUZZ_CHECK(ApplyAlterTable("ALTER TABLE ks.fuzzed DROP ratio", v2, v3).ok());
    return v3;
  }();
  return *schema;
}

}  // namespace fuzz
}  // namespace columnar
