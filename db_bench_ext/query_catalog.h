// The read queries of each workload (BENCHMARKS.md), with stable names for the reports and the
// CQL text they stand for.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db_bench_ext/access_filters.h"
#include "db_bench_ext/query_ranges.h"

namespace columnar {
namespace bench {

struct QuerySpec {
  std::string name;         // e.g. "last_1h", "last_1h_5xx_slow"
  std::string description;  // the CQL statement the query stands for
  RangeQuery range = RangeQuery::kLatest;
  std::optional<AccessFilter> filter;
};

// latest, last 5 minutes, last hour, last day, last 7 days of one series.
std::vector<QuerySpec> MetricsQueries();
// The same five ranges of one instance, then the one-hour range with each filter whose columns
// the table of this width (4, 8 or 16) has.
std::vector<QuerySpec> AccessQueries(int width);
// devops (TSBS's cpu-only queries): names of its query kinds, then the catalog in this order.
inline constexpr const char* kDevopsMaxPerMinute1h = "max_1m_1h";
inline constexpr const char* kDevopsMax5PerMinute12h = "max5_1m_12h";
inline constexpr const char* kDevopsHostDay = "host_1d";
inline constexpr const char* kDevopsHighUsage12h = "usage_gt_90_12h";
inline constexpr const char* kDevopsLastPoint = "lastpoint";
std::vector<QuerySpec> DevopsQueries();
// 4, 8 or 16 for "access4", "access8", "access16"; 0 for any other workload name.
int AccessWidthOf(std::string_view workload);

}  // namespace bench
}  // namespace columnar
