#include "db_bench_ext/query_ranges.h"

#include <algorithm>
#include <stdexcept>

namespace columnar {
namespace bench {

const std::vector<RangeQuery>& AllRangeQueries() {
  static const std::vector<RangeQuery> kAll = {RangeQuery::kLatest, RangeQuery::kLast5Minutes,
                                               RangeQuery::kLastHour, RangeQuery::kLastDay,
                                               RangeQuery::kLast7Days};
  return kAll;
}

std::string_view RangeQueryName(RangeQuery range) {
  switch (range) {
    case RangeQuery::kLatest:
      return "latest";
    case RangeQuery::kLast5Minutes:
      return "last_5m";
    case RangeQuery::kLastHour:
      return "last_1h";
    case RangeQuery::kLastDay:
      return "last_1d";
    case RangeQuery::kLast7Days:
      return "last_7d";
  }
  throw std::invalid_argument("unknown RangeQuery");
}

int64_t RangeQuerySpanSeconds(RangeQuery range) {
  switch (range) {
    case RangeQuery::kLatest:
      return 0;
    case RangeQuery::kLast5Minutes:
      return 5 * 60;
    case RangeQuery::kLastHour:
      return 3600;
    case RangeQuery::kLastDay:
      return kSecondsPerDay;
    case RangeQuery::kLast7Days:
      return 7 * kSecondsPerDay;
  }
  throw std::invalid_argument("unknown RangeQuery");
}

TimeWindow WindowOfSpan(int64_t span_s, const Timeline& timeline, int64_t as_of_s) {
  const int64_t interval = timeline.interval_s();
  // Anything older than the first row is "everything loaded": clip there.
  TimeWindow window;
  window.upper_inclusive = as_of_s;
  window.lower_exclusive = std::max(as_of_s - span_s, timeline.start_s() - interval);
  window.expected_rows = (window.upper_inclusive - window.lower_exclusive) / interval;
  const int64_t first_row_s = window.lower_exclusive + interval;
  for (int32_t day = UtcDayOf(first_row_s); day <= UtcDayOf(as_of_s); ++day) {
    window.days.push_back(day);
  }
  return window;
}

TimeWindow WindowInSeconds(RangeQuery range, const Timeline& timeline, int64_t as_of_s) {
  if (as_of_s < timeline.start_s() || as_of_s > timeline.latest_s() ||
      (as_of_s - timeline.start_s()) % timeline.interval_s() != 0) {
    throw std::invalid_argument("as_of_s is not a row time of the timeline");
  }
  if (range != RangeQuery::kLatest) {
    return WindowOfSpan(RangeQuerySpanSeconds(range), timeline, as_of_s);
  }
  TimeWindow window;
  window.upper_inclusive = as_of_s;
  window.lower_exclusive = timeline.start_s() - timeline.interval_s();
  window.limit = 1;
  window.expected_rows = 1;
  window.days = {UtcDayOf(as_of_s)};
  return window;
}

TimeWindow WindowInMilliseconds(RangeQuery range, const Timeline& timeline, int64_t as_of_s) {
  TimeWindow window = WindowInSeconds(range, timeline, as_of_s);
  window.lower_exclusive *= 1000;
  window.upper_inclusive *= 1000;
  return window;
}

}  // namespace bench
}  // namespace columnar
