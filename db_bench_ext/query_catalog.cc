#include "db_bench_ext/query_catalog.h"

#include <algorithm>
#include <stdexcept>

#include "db_bench_ext/access_workload.h"

namespace columnar {
namespace bench {
namespace {

std::string MetricsCql(RangeQuery range) {
  const std::string select =
      "SELECT time, value FROM metrics.v2metrics5 WHERE orgid = ? AND clusterhash = ? AND "
      "metricid = ?";
  if (range == RangeQuery::kLatest) return select + " LIMIT 1";
  return select + " AND time <= ? AND time > ?";
}

std::string AccessCql(int width, RangeQuery range, const std::optional<AccessFilter>& filter) {
  std::string cql = "SELECT time";
  const std::vector<std::string>& columns = AccessRegularColumns();
  for (int i = 0; i < width; ++i) cql += ", " + columns[i];
  cql += " FROM logs.access" + std::to_string(width) +
         " WHERE orgid = ? AND service = ? AND instance = ?";
  if (range == RangeQuery::kLatest) return cql + " AND day = ? LIMIT 1";
  cql += " AND day IN ? AND time <= ? AND time > ?";
  if (filter) cql += " AND " + filter->ToCql() + " ALLOW FILTERING";
  return cql;
}

}  // namespace

std::vector<QuerySpec> MetricsQueries() {
  std::vector<QuerySpec> queries;
  for (RangeQuery range : AllRangeQueries()) {
    queries.push_back({std::string(RangeQueryName(range)), MetricsCql(range), range, {}});
  }
  const std::string where =
      " FROM metrics.v2metrics5 WHERE orgid = ? AND clusterhash = ? AND metricid = ? AND "
      "time <= ? AND time > ?";
  queries.push_back({kMetricsMinMax1d,
                     "SELECT min(value), max(value), count(*)" + where + " /* 1 d */",
                     RangeQuery::kLastDay,
                     {}});
  queries.push_back({kMetricsAgg1d,
                     "SELECT min(value), max(value), avg(value)" + where + " /* 1 d */",
                     RangeQuery::kLastDay,
                     {}});
  queries.push_back({kMetricsDownsample7d,
                     "SELECT orgid, clusterhash, metricid, floor(time, 5m), avg(value)" + where +
                         " /* 7 d */ GROUP BY orgid, clusterhash, metricid, floor(time, 5m)",
                     RangeQuery::kLast7Days,
                     {}});
  return queries;
}

std::vector<QuerySpec> AccessQueries(int width) {
  if (width != 4 && width != 8 && width != 16) {
    throw std::invalid_argument("access table width must be 4, 8 or 16");
  }
  std::vector<QuerySpec> queries;
  for (RangeQuery range : AllRangeQueries()) {
    queries.push_back({std::string(RangeQueryName(range)), AccessCql(width, range, {}), range, {}});
  }
  for (const AccessFilter& filter : AccessFilters()) {
    if (filter.MinWidth() > width) continue;
    const RangeQuery range = RangeQuery::kLastHour;
    queries.push_back({std::string(RangeQueryName(range)) + "_" + filter.name,
                       AccessCql(width, range, filter), range, filter});
  }
  if (width == 16) {
    const AccessFilter& five_xx = AccessFilters().front();
    queries.push_back({kAccessCount5xx1d,
                       "SELECT count(*) FROM logs.access16 WHERE orgid = ? AND service = ? AND "
                       "instance = ? AND day IN ? AND time <= ? AND time > ? AND " +
                           five_xx.ToCql() + " ALLOW FILTERING /* 1 d */",
                       RangeQuery::kLastDay, five_xx});
    queries.push_back({kAccessAllInstances5xx1d,
                       "SELECT count(*) FROM logs.access16 WHERE day = ? AND " + five_xx.ToCql() +
                           " ALLOW FILTERING /* every instance, the newest day */",
                       RangeQuery::kLastDay, five_xx});
  }
  return queries;
}

std::vector<QuerySpec> DevopsQueries() {
  const std::string where =
      " FROM devops.cpu WHERE hostname = ? AND day IN ? AND ts <= ? AND ts > ?";
  const std::string per_minute = " GROUP BY hostname, day, floor(ts, 1m)";
  // `range` only tells the load phase which query is the background "last hour" read.
  return {
      {kDevopsMaxPerMinute1h,
       "SELECT hostname, day, floor(ts, 1m), max(usage_user)" + where + " /* 1 h */" + per_minute,
       RangeQuery::kLastHour,
       {}},
      {kDevopsMax5PerMinute12h,
       "SELECT hostname, day, floor(ts, 1m), max(usage_user), max(usage_system), "
       "max(usage_idle), max(usage_nice), max(usage_iowait)" +
           where + " /* 12 h */" + per_minute,
       RangeQuery::kLastDay,
       {}},
      {kDevopsHostDay,
       "SELECT ts, usage_user, ... usage_guest_nice" + where + " /* 24 h */",
       RangeQuery::kLastDay,
       {}},
      {kDevopsHighUsage12h,
       "SELECT *" + where + " /* 12 h */ AND usage_user > 90 ALLOW FILTERING",
       RangeQuery::kLastDay,
       {}},
      {kDevopsLastPoint,
       "SELECT * FROM devops.cpu WHERE hostname = ? AND day = ? AND ts <= ? LIMIT 1 /* each host "
       "*/",
       RangeQuery::kLatest,
       {}},
  };
}

int AccessWidthOf(std::string_view workload) {
  if (workload == "access4") return 4;
  if (workload == "access8") return 8;
  if (workload == "access16") return 16;
  return 0;
}

std::vector<QuerySpec> SelectQueries(const std::vector<QuerySpec>& catalog,
                                     const std::vector<std::string>& names) {
  if (names.empty()) return catalog;
  std::vector<QuerySpec> selected;
  for (const QuerySpec& query : catalog) {
    if (std::find(names.begin(), names.end(), query.name) != names.end()) {
      selected.push_back(query);
    }
  }
  return selected;
}

}  // namespace bench
}  // namespace columnar
