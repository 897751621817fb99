// How the shell prints the rows of a SELECT.
//
//   table  cqlsh's layout: a blank line, a header (names left-aligned), a rule, one line per
//          row with values right-aligned and shown as cqlsh shows them (text unquoted,
//          timestamps as 2024-05-01 10:00:05.000000+0000 in UTC, dates as 2024-05-01,
//          booleans as True / False, floats with 5 and doubles with 12 significant digits,
//          blobs 0x..., null as null; control characters, which would break the lines, as
//          \n, \t, \r or \xNN), a blank line and "(N rows)". With `expand` (EXPAND ON) each
//          row is a block "@ Row N", a rule, then "name | value" lines. With `page_rows`
//          (PAGING on a terminal) a page at a time, each with its header, "---MORE---" and
//          `next_page` between pages;
//   csv    RFC 4180: a header line of column names, then one line per row; text and ascii
//          values unquoted (quoted only when they hold a comma, a quote or a line break, or
//          are empty), timestamps and dates in ISO form, other values as CQL literals, null as
//          an empty field;
//   json   one object per row ("JSON lines"), in SELECT JSON's format
//          (table_api/json_text.h).
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "table_api/result_set.h"

namespace columnar {

enum class OutputFormat : uint8_t { kTable, kCsv, kJson };

// "table", "csv" or "json"; false for another name.
bool ParseOutputFormat(const std::string& name, OutputFormat* format);

// How the table format lays rows out (shell commands EXPAND and PAGING).
struct TablePrintOptions {
  bool expand = false;
  uint64_t page_rows = 0;  // 0: every row at once
  // Called after each page but the last (after "---MORE---"); false stops printing rows.
  std::function<bool()> next_page;
};

void PrintResultSet(const ResultSet& result, OutputFormat format, std::ostream& out,
                    const TablePrintOptions& options = TablePrintOptions());

}  // namespace columnar
