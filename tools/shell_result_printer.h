// How the shell prints the rows of a SELECT.
//
//   table  an aligned table: a header, a rule, one line per row with the values as CQL
//          literals (null as null; numbers right-aligned; control characters, which would
//          break the lines, shown as \n, \t, \r or \xNN), a blank line and "(N rows)";
//   csv    RFC 4180: a header line of column names, then one line per row; text and ascii
//          values unquoted (quoted only when they hold a comma, a quote or a line break, or
//          are empty), timestamps and dates in ISO form, other values as CQL literals, null as
//          an empty field;
//   json   one object per row ("JSON lines"): column name -> value; numbers as numbers (NaN
//          and infinities as strings), booleans, null, everything else as a string (text as
//          is, timestamps and dates in ISO form, blobs 0x..., uuids).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "table_api/result_set.h"

namespace columnar {

enum class OutputFormat : uint8_t { kTable, kCsv, kJson };

// "table", "csv" or "json"; false for another name.
bool ParseOutputFormat(const std::string& name, OutputFormat* format);

void PrintResultSet(const ResultSet& result, OutputFormat format, std::ostream& out);

}  // namespace columnar
