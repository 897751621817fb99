#include "db_bench_ext/devops_workload.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "db_bench_ext/query_catalog.h"

namespace columnar {
namespace bench {
namespace {

constexpr int64_t kDevopsEnd = 19676 * kSecondsPerDay;

DevopsWorkloadOptions SmallOptions(uint64_t seed = 1) {
  DevopsWorkloadOptions options;
  options.seed = seed;
  options.hosts = 7;
  options.end_time_s = kDevopsEnd;
  options.duration_s = kSecondsPerDay + 3600;  // crosses a midnight
  return options;
}

uint64_t HashAll(const DevopsWorkloadOptions& options) {
  const DevopsWorkload workload(options);
  DevopsGenerator generator(workload);
  DevopsBatch batch;
  uint64_t hash = 0xcbf29ce484222325ULL;
  auto mix = [&](const void* data, size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 0x100000001b3ULL;
  };
  while (generator.NextBatch(&batch)) {
    for (const DevopsPoint& point : batch.points) {
      mix(&point.time_ms, sizeof(point.time_ms));
      mix(point.gauges.data(), sizeof(point.gauges));
    }
  }
  return hash;
}

TEST(DevopsWorkloadTest, LoadsEveryHostEveryTenSecondsInDailyBatches) {
  const DevopsWorkload workload(SmallOptions());
  EXPECT_EQ(workload.steps(), (kSecondsPerDay + 3600) / 10);
  EXPECT_EQ(workload.total_rows(), 7u * workload.steps());
  EXPECT_EQ(workload.latest_s(), kDevopsEnd - 10);
  DevopsGenerator generator(workload);
  DevopsBatch batch;
  std::vector<int64_t> next_time(7, workload.start_s() * 1000);
  uint64_t rows = 0;
  while (generator.NextBatch(&batch)) {
    ASSERT_EQ(batch.points.size(), 12u);
    for (const DevopsPoint& point : batch.points) {
      EXPECT_EQ(point.time_ms, next_time[batch.host_index]);
      next_time[batch.host_index] += 10'000;
      EXPECT_EQ(point.day, batch.points.front().day);  // a batch stays in one partition
      EXPECT_EQ(point.day, UtcDayOf(point.time_ms / 1000));
      for (double gauge : point.gauges) {
        EXPECT_GE(gauge, 0.0);
        EXPECT_LE(gauge, 100.0);
      }
      ++rows;
    }
  }
  EXPECT_EQ(rows, workload.total_rows());
}

TEST(DevopsWorkloadTest, GaugesAreRandomWalksWithUnitSteps) {
  const DevopsWorkload workload(SmallOptions());
  DevopsGenerator generator(workload);
  DevopsBatch batch;
  ASSERT_TRUE(generator.NextBatch(&batch));
  std::set<double> distinct;
  for (size_t i = 1; i < batch.points.size(); ++i) {
    for (int g = 0; g < kDevopsGauges; ++g) {
      EXPECT_LT(std::abs(batch.points[i].gauges[g] - batch.points[i - 1].gauges[g]), 6.0);
      distinct.insert(batch.points[i].gauges[g]);
    }
  }
  EXPECT_GT(distinct.size(), 100u);
}

TEST(DevopsWorkloadTest, SameSeedSameDataAndHostsHaveTheirTags) {
  EXPECT_EQ(HashAll(SmallOptions(1)), HashAll(SmallOptions(1)));
  EXPECT_NE(HashAll(SmallOptions(1)), HashAll(SmallOptions(2)));
  const DevopsWorkload workload(SmallOptions());
  EXPECT_EQ(workload.hosts()[3].hostname, "host_3");
  const DevopsHost& host = workload.hosts()[0];
  EXPECT_EQ(host.tags[1].rfind(host.tags[0], 0), 0u);  // the datacenter is in the region
  EXPECT_EQ(DevopsTagColumns().size(), 9u);
  EXPECT_STREQ(DevopsGaugeColumns()[0], "usage_user");
}

TEST(DevopsWorkloadTest, WindowsListTheirDaysAndClipToTheData) {
  const DevopsWorkload workload(SmallOptions());
  const int64_t latest = workload.latest_s();
  const DevopsWindow hour = workload.Window(3600, latest);
  EXPECT_EQ(hour.upper_inclusive_ms, latest * 1000);
  EXPECT_EQ(hour.lower_exclusive_ms, (latest - 3600) * 1000);
  EXPECT_EQ(hour.days, std::vector<int32_t>{UtcDayOf(latest)});
  // The day up to the last row (10 s before a midnight) holds rows of one UTC day only: the
  // window lists the days of its rows, not the day of its exclusive lower bound.
  const DevopsWindow day = workload.Window(kSecondsPerDay, latest);
  EXPECT_EQ(day.days, std::vector<int32_t>{UtcDayOf(latest)});
  const DevopsWindow day_and_a_row = workload.Window(kSecondsPerDay + 10, latest);
  EXPECT_EQ(day_and_a_row.days, (std::vector<int32_t>{UtcDayOf(latest) - 1, UtcDayOf(latest)}));
  const DevopsWindow all = workload.Window(7 * kSecondsPerDay, latest);
  EXPECT_EQ(all.lower_exclusive_ms, (workload.start_s() - 10) * 1000);
  EXPECT_EQ(all.days.front(), UtcDayOf(workload.start_s()));
}

TEST(DevopsWorkloadTest, RejectsEmptyWorkloads) {
  DevopsWorkloadOptions options = SmallOptions();
  options.hosts = 0;
  EXPECT_THROW(DevopsWorkload{options}, std::invalid_argument);
  options = SmallOptions();
  options.duration_s = 60;
  EXPECT_THROW(DevopsWorkload{options}, std::invalid_argument);
}

TEST(DevopsWorkloadTest, QueryCatalog) {
  const std::vector<QuerySpec> queries = DevopsQueries();
  ASSERT_EQ(queries.size(), 5u);
  EXPECT_EQ(queries[0].name, "max_1m_1h");
  EXPECT_EQ(queries[0].range, RangeQuery::kLastHour);  // the load's background read
  EXPECT_EQ(queries.back().name, "lastpoint");
}

}  // namespace
}  // namespace bench
}  // namespace columnar
