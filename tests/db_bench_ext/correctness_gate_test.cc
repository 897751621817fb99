#include "db_bench_ext/correctness_gate.h"

#include <gtest/gtest.h>

#include "tests/db_bench_ext/sample_results.h"

namespace columnar {
namespace bench {
namespace {

TEST(CorrectnessGateTest, IdenticalResultsPass) {
  EXPECT_TRUE(FindResultMismatches(testing::SampleResults()).empty());
}

TEST(CorrectnessGateTest, FindsPlantedRowAndHashMismatches) {
  BenchmarkResults results = testing::SampleResults();
  results.workloads[2].configs[1].queries[1].rows = 189;            // access16 last_1h_5xx
  results.workloads[0].configs[1].queries[0].result_hash = "0bad";  // metrics last_1h
  const std::vector<QueryMismatch> mismatches = FindResultMismatches(results);
  ASSERT_EQ(mismatches.size(), 2u);
  EXPECT_EQ(mismatches[0].workload, "metrics");
  EXPECT_EQ(mismatches[0].query, "last_1h");
  EXPECT_EQ(mismatches[0].detail, "A: 14,400 rows, hash 00ff17a2; C: 14,400 rows, hash 0bad");
  EXPECT_EQ(mismatches[1].workload, "access16");
  EXPECT_EQ(mismatches[1].query, "last_1h_5xx");
  EXPECT_EQ(DescribeMismatch(mismatches[1]),
            "access16/last_1h_5xx: A: 190 rows, hash deadbeef; C: 189 rows, hash deadbeef");
}

TEST(CorrectnessGateTest, AQueryMissingInOneConfigIsAMismatch) {
  WorkloadResult workload = testing::SampleWorkload("access8", 1);
  workload.configs[0].queries.pop_back();
  const std::vector<QueryMismatch> mismatches = FindResultMismatches(workload);
  ASSERT_EQ(mismatches.size(), 1u);
  EXPECT_EQ(mismatches[0].query, "last_1h_5xx");
  EXPECT_EQ(mismatches[0].detail, "A: missing; C: 190 rows, hash deadbeef");
}

TEST(CorrectnessGateTest, ASingleConfigOrNoneCannotMismatch) {
  WorkloadResult workload = testing::SampleWorkload("metrics", 1);
  workload.configs.pop_back();
  EXPECT_TRUE(FindResultMismatches(workload).empty());
  workload.configs.clear();
  EXPECT_TRUE(FindResultMismatches(workload).empty());
}

}  // namespace
}  // namespace bench
}  // namespace columnar
