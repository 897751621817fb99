// Cassandra's duration literals (CQL `duration`, as in floor(ts, 1h)) of a fixed length:
// one or more <integer><unit> parts, units ns, us (or µs), ms, s, m, h, d, w; e.g. 1h30m,
// 500ms, 2w. Months and years (mo, y) have no fixed length and are refused, as are the ISO 8601
// forms (P1DT2H) and negative durations.
#pragma once

#include <cstdint>
#include <string>

#include "table_format/types.h"

namespace columnar {

// The duration `text` in nanoseconds: InvalidArgument naming the problem when it is not such a
// literal, is zero, or exceeds int64 nanoseconds (about 292 years).
Status ParseFixedDuration(const std::string& text, int64_t* nanoseconds);

}  // namespace columnar
