// The read queries' time ranges ("latest", "last 5 min", ... "last 7 days"), as bounds in the
// CQL form the source documents used: `time <= upper AND time > lower` (+ `day IN (...)` for the
// access logs), anchored at the newest loaded row and clipped to the loaded span.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "db_bench_ext/timeline.h"

namespace columnar {
namespace bench {

enum class RangeQuery { kLatest, kLast5Minutes, kLastHour, kLastDay, kLast7Days };

// All ranges, shortest first.
const std::vector<RangeQuery>& AllRangeQueries();
// "latest", "last_5m", "last_1h", "last_1d", "last_7d".
std::string_view RangeQueryName(RangeQuery range);
// Seconds looked back; 0 for kLatest (which is LIMIT 1 instead).
int64_t RangeQuerySpanSeconds(RangeQuery range);

struct TimeWindow {
  // Bounds in the workload's time unit (seconds for metrics, milliseconds for access logs).
  int64_t lower_exclusive = 0;
  int64_t upper_inclusive = 0;
  // UTC days (since epoch) holding rows of the window, oldest first; for kLatest only the day
  // of the newest row (the source's `day = ? LIMIT 1`).
  std::vector<int32_t> days;
  // 1 for kLatest, 0 (no limit) otherwise.
  int limit = 0;
  // Rows one partition key (series or instance) has in the window.
  int64_t expected_rows = 0;
};

// The `span_s` seconds up to and including `as_of_s` (a row time), clipped to the timeline's
// start: bounds in seconds, the days of its rows and its rows per partition key.
TimeWindow WindowOfSpan(int64_t span_s, const Timeline& timeline, int64_t as_of_s);

// Window of `range` looking back from `as_of_s` (the newest row time to consider: the timeline's
// latest_s() after loading, or the newest loaded row for background reads during the load),
// clipped to the timeline's start. as_of_s must be a row time. Bounds in seconds.
TimeWindow WindowInSeconds(RangeQuery range, const Timeline& timeline, int64_t as_of_s);
// The same window with bounds in milliseconds.
TimeWindow WindowInMilliseconds(RangeQuery range, const Timeline& timeline, int64_t as_of_s);

}  // namespace bench
}  // namespace columnar
