#include "db_bench_ext/query_catalog.h"

#include <gtest/gtest.h>

namespace columnar {
namespace bench {
namespace {

std::vector<std::string> Names(const std::vector<QuerySpec>& queries) {
  std::vector<std::string> names;
  for (const QuerySpec& query : queries) names.push_back(query.name);
  return names;
}

TEST(QueryCatalogTest, MetricsQueriesAreTheFiveRangesThenAggregates) {
  const std::vector<QuerySpec> queries = MetricsQueries();
  EXPECT_EQ(Names(queries),
            (std::vector<std::string>{"latest", "last_5m", "last_1h", "last_1d", "last_7d",
                                      "minmax_1d", "agg_1d", "downsample_7d"}));
  EXPECT_EQ(queries[7].range, RangeQuery::kLast7Days);
  EXPECT_EQ(queries[0].description,
            "SELECT time, value FROM metrics.v2metrics5 WHERE orgid = ? AND clusterhash = ? AND "
            "metricid = ? LIMIT 1");
  EXPECT_EQ(queries[2].range, RangeQuery::kLastHour);
  EXPECT_FALSE(queries[2].filter.has_value());
}

TEST(QueryCatalogTest, AccessQueriesKeepOnlyFiltersOnPresentColumns) {
  EXPECT_EQ(Names(AccessQueries(4)),
            (std::vector<std::string>{"latest", "last_5m", "last_1h", "last_1d", "last_7d",
                                      "last_1h_5xx", "last_1h_post", "last_1h_5xx_post"}));
  EXPECT_EQ(AccessQueries(8).size(), 5u + 7);
  const std::vector<QuerySpec> wide = AccessQueries(16);
  ASSERT_EQ(wide.size(), 5u + 9 + 2);
  EXPECT_EQ(wide[14].name, "count_5xx_1d");
  EXPECT_EQ(wide[15].name, "all_instances_5xx_1d");
  EXPECT_EQ(wide[15].range, RangeQuery::kLastDay);
  const QuerySpec& last = wide[13];
  EXPECT_EQ(last.name, "last_1h_http11_5xx_slow");
  EXPECT_EQ(last.range, RangeQuery::kLastHour);
  ASSERT_TRUE(last.filter.has_value());
  EXPECT_EQ(last.description,
            "SELECT time, method, path, status, user_agent, client_ip, country, referrer, "
            "latency_ms, request_id, trace_id, user_id, host, protocol, content_type, bytes_sent, "
            "error_message FROM logs.access16 WHERE orgid = ? AND service = ? AND instance = ? AND "
            "day IN ? AND time <= ? AND time > ? AND protocol = 'HTTP/1.1' AND status >= 500 AND "
            "latency_ms > 1000 ALLOW FILTERING");
  EXPECT_EQ(AccessQueries(4)[0].description,
            "SELECT time, method, path, status, user_agent FROM logs.access4 WHERE orgid = ? AND "
            "service = ? AND instance = ? AND day = ? LIMIT 1");
  EXPECT_THROW(AccessQueries(5), std::invalid_argument);
}

TEST(QueryCatalogTest, SelectQueriesKeepsTheCatalogOrderAndOnlyTheNamedOnes) {
  const std::vector<QuerySpec> catalog = MetricsQueries();
  EXPECT_EQ(Names(SelectQueries(catalog, {})), Names(catalog));
  EXPECT_EQ(Names(SelectQueries(catalog, {"agg_1d", "latest", "lastpoint"})),
            (std::vector<std::string>{"latest", "agg_1d"}));
  EXPECT_TRUE(SelectQueries(catalog, {"lastpoint"}).empty());
  const std::vector<QuerySpec> selected = SelectQueries(catalog, {"last_1h"});
  ASSERT_EQ(selected.size(), 1u);
  EXPECT_EQ(selected[0].description, catalog[2].description);
}

TEST(QueryCatalogTest, WorkloadWidths) {
  EXPECT_EQ(AccessWidthOf("access4"), 4);
  EXPECT_EQ(AccessWidthOf("access16"), 16);
  EXPECT_EQ(AccessWidthOf("metrics"), 0);
}

}  // namespace
}  // namespace bench
}  // namespace columnar
