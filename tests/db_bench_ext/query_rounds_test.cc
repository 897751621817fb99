#include "db_bench_ext/query_rounds.h"

#include <gtest/gtest.h>

#include <cmath>

namespace columnar {
namespace bench {
namespace {

QueryResult Round(double p50, double qps1, double qps16, double counter) {
  QueryResult q;
  q.name = "latest";
  q.description = "SELECT ...";
  q.p50_us = p50;
  q.p99_us = 2 * p50;
  q.qps_by_concurrency = {{1, qps1}, {16, qps16}};
  q.rows = 20;
  q.result_hash = "be99";
  q.counters = {{"groups_skipped", counter}};
  return q;
}

TEST(QueryRoundsTest, Median) {
  EXPECT_TRUE(std::isnan(Median({})));
  EXPECT_EQ(Median({3}), 3);
  EXPECT_EQ(Median({5, 1, 3}), 3);
  EXPECT_EQ(Median({4, 1, 3, 2}), 2.5);
}

TEST(QueryRoundsTest, CombinesIntoMediansAndKeepsEachRoundsThroughput) {
  QueryResult combined;
  ASSERT_EQ(
      CombineQueryRounds({Round(10, 100, 900, 7), Round(30, 300, 700, 5), Round(20, 200, 800, 6)},
                         &combined),
      "");
  EXPECT_EQ(combined.name, "latest");
  EXPECT_EQ(combined.p50_us, 20);
  EXPECT_EQ(combined.p99_us, 40);
  EXPECT_EQ(combined.qps_by_concurrency.at(1), 200);
  EXPECT_EQ(combined.qps_by_concurrency.at(16), 800);
  EXPECT_EQ(combined.qps_rounds_by_concurrency.at(1), (std::vector<double>{100, 300, 200}));
  EXPECT_EQ(combined.qps_rounds_by_concurrency.at(16), (std::vector<double>{900, 700, 800}));
  EXPECT_EQ(combined.counters.at(0).second, 6);
  EXPECT_EQ(combined.rows, 20u);
  EXPECT_EQ(combined.result_hash, "be99");
}

TEST(QueryRoundsTest, OneRoundIsTheRoundItself) {
  QueryResult combined;
  ASSERT_EQ(CombineQueryRounds({Round(10, 100, 900, 7)}, &combined), "");
  EXPECT_EQ(combined.qps_by_concurrency.at(1), 100);
  EXPECT_TRUE(combined.qps_rounds_by_concurrency.empty());
}

TEST(QueryRoundsTest, RoundsThatDisagreeAreAnError) {
  QueryResult combined;
  EXPECT_EQ(CombineQueryRounds({}, &combined), "no rounds to combine");
  QueryResult other_hash = Round(10, 100, 900, 7);
  other_hash.result_hash = "0000";
  std::string error = CombineQueryRounds({Round(10, 100, 900, 7), other_hash}, &combined);
  EXPECT_NE(error.find("round 2: returned 20 rows, hash 0000"), std::string::npos) << error;
  QueryResult other_rows = Round(10, 100, 900, 7);
  other_rows.rows = 19;
  EXPECT_NE(CombineQueryRounds({Round(10, 100, 900, 7), other_rows}, &combined), "");
  QueryResult other_readers = Round(10, 100, 900, 7);
  other_readers.qps_by_concurrency = {{1, 100}, {32, 900}};
  EXPECT_NE(CombineQueryRounds({Round(10, 100, 900, 7), other_readers}, &combined), "");
  QueryResult other_counters = Round(10, 100, 900, 7);
  other_counters.counters = {{"rows_skipped", 1}};
  EXPECT_NE(CombineQueryRounds({Round(10, 100, 900, 7), other_counters}, &combined), "");
  QueryResult other_query = Round(10, 100, 900, 7);
  other_query.name = "last_1h";
  EXPECT_NE(CombineQueryRounds({Round(10, 100, 900, 7), other_query}, &combined), "");
}

}  // namespace
}  // namespace bench
}  // namespace columnar
