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

// latest, last 5 minutes, last hour, last day, last 7 days of one series, then its aggregates:
inline constexpr const char* kMetricsMinMax1d = "minmax_1d";          // min, max, count over a day
inline constexpr const char* kMetricsAgg1d = "agg_1d";                // min, max, avg over a day
inline constexpr const char* kMetricsDownsample7d = "downsample_7d";  // avg per 5 min, 7 days
std::vector<QuerySpec> MetricsQueries();
// The same five ranges of one instance, then the one-hour range with each filter whose columns
// the table of this width (4, 8 or 16) has, then (access16 only) the day's count of 5xx of one
// instance and of every instance (a scan across partitions):
inline constexpr const char* kAccessCount5xx1d = "count_5xx_1d";
inline constexpr const char* kAccessAllInstances5xx1d = "all_instances_5xx_1d";
std::vector<QuerySpec> AccessQueries(int width);
// devops (TSBS's cpu-only queries): names of its query kinds, then the catalog in this order.
inline constexpr const char* kDevopsMaxPerMinute1h = "max_1m_1h";
inline constexpr const char* kDevopsMax5PerMinute12h = "max5_1m_12h";
inline constexpr const char* kDevopsHostDay = "host_1d";
inline constexpr const char* kDevopsHighUsage12h = "usage_gt_90_12h";
inline constexpr const char* kDevopsLastPoint = "lastpoint";
std::vector<QuerySpec> DevopsQueries();

// The queries of `catalog` whose names are in `names`, in the catalog's order; all of them when
// `names` is empty (db_bench_ext --queries: measure one query kind without running the rest).
std::vector<QuerySpec> SelectQueries(const std::vector<QuerySpec>& catalog,
                                     const std::vector<std::string>& names);
// 4, 8 or 16 for "access4", "access8", "access16"; 0 for any other workload name.
int AccessWidthOf(std::string_view workload);

}  // namespace bench
}  // namespace columnar
