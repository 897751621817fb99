// What TRACING ON prints after each SELECT: the table and its format, the predicate pushdown
// counters of the query (table_api/select_query.h SelectStats; ColumnarTable files fill them,
// other formats leave them at 0 but for the rows rejected after the merge) and the elapsed
// time.
#pragma once

#include <cstdint>
#include <string>

#include "table_api/select_query.h"

namespace columnar {

// Lines like
//   Tracing: logs.access16 (ColumnarTable)
//     files skipped                    0
//     ...
//     elapsed                          1.234 ms
std::string FormatTracing(const std::string& table, const std::string& table_format,
                          const SelectStats& stats, int64_t elapsed_nanos);

}  // namespace columnar
