#include "db_bench_ext/metrics_workload.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <set>

namespace columnar {
namespace bench {
namespace {

constexpr int64_t kMetricsEnd = 19676 * kSecondsPerDay;

MetricsWorkloadOptions MetricsSmokeOptions(uint64_t seed = 1) {
  MetricsWorkloadOptions options;
  options.seed = seed;
  options.series = 100;
  options.end_time_s = kMetricsEnd;
  options.duration_s = 3600;
  return options;
}

uint64_t Fnv1a(uint64_t hash, const void* data, size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 0x100000001b3ULL;
  return hash;
}

template <typename T>
uint64_t HashValue(uint64_t hash, const T& value) {
  return Fnv1a(hash, &value, sizeof(value));
}

uint64_t HashAll(const MetricsWorkloadOptions& options) {
  const MetricsWorkload workload(options);
  MetricsGenerator generator(workload);
  MetricsBatch batch;
  uint64_t hash = 0xcbf29ce484222325ULL;
  while (generator.NextBatch(&batch)) {
    for (const MetricPoint& p : batch.points) {
      hash = Fnv1a(hash, p.orgid.data(), p.orgid.size());
      hash = HashValue(hash, p.clusterhash);
      hash = HashValue(hash, p.metricid);
      hash = HashValue(hash, p.time_s);
      hash = HashValue(hash, p.value);
      hash = HashValue(hash, p.write_time_us);
      hash = HashValue(hash, p.expiry_s);
    }
  }
  return hash;
}

TEST(MetricsWorkloadTest, SameSeedSameRows) {
  EXPECT_EQ(HashAll(MetricsSmokeOptions(1)), HashAll(MetricsSmokeOptions(1)));
  EXPECT_NE(HashAll(MetricsSmokeOptions(1)), HashAll(MetricsSmokeOptions(2)));
}

TEST(MetricsWorkloadTest, SeriesDataDependsOnlyOnSeedAndIndex) {
  MetricsWorkloadOptions small = MetricsSmokeOptions();
  small.series = 3;
  const MetricsWorkload few(small), many(MetricsSmokeOptions());
  MetricsGenerator few_generator(few), many_generator(many);
  MetricsBatch a, b;
  ASSERT_TRUE(few_generator.NextBatch(&a));
  ASSERT_TRUE(many_generator.NextBatch(&b));
  EXPECT_EQ(a.points[5].value, b.points[5].value);
  EXPECT_EQ(a.points[5].write_time_us, b.points[5].write_time_us);
  EXPECT_EQ(few.SeriesKey(2).metricid, many.SeriesKey(2).metricid);
}

TEST(MetricsWorkloadTest, KeysLookLikeTheSourceTable) {
  const MetricsWorkload workload(MetricsSmokeOptions());
  std::set<std::string> orgs;
  std::set<int64_t> metric_ids;
  std::set<std::tuple<std::string, int64_t, int64_t>> keys;
  for (uint64_t i = 0; i < workload.series_count(); ++i) {
    const MetricsSeriesKey& key = workload.SeriesKey(i);
    orgs.insert(key.orgid);
    metric_ids.insert(key.metricid);
    keys.insert({key.orgid, key.clusterhash, key.metricid});
  }
  EXPECT_EQ(orgs.size(), 5u);
  EXPECT_EQ(*orgs.begin(), "org-0001");
  EXPECT_EQ(metric_ids.size(), 100u);
  EXPECT_EQ(keys.size(), 100u);
}

TEST(MetricsWorkloadTest, BatchesFollowTheLoadOrder) {
  const MetricsWorkload workload(MetricsSmokeOptions());
  EXPECT_EQ(workload.total_rows(), 100u * 720);
  EXPECT_EQ(workload.batch_count(), 100u * 60);
  MetricsGenerator generator(workload);
  MetricsBatch batch;
  uint64_t batches = 0, rows = 0;
  std::map<uint64_t, int32_t> last_time;
  while (generator.NextBatch(&batch)) {
    // Block of 12 steps, every series in turn.
    EXPECT_EQ(batch.series_index, batches % 100);
    ASSERT_EQ(batch.points.size(), 12u);
    const int32_t block_start = static_cast<int32_t>(kMetricsEnd - 3600 + (batches / 100) * 60);
    for (size_t i = 0; i < batch.points.size(); ++i) {
      const MetricPoint& p = batch.points[i];
      EXPECT_EQ(p.time_s, block_start + static_cast<int32_t>(i) * 5);
      EXPECT_EQ(p.metricid, workload.SeriesKey(batch.series_index).metricid);
      auto it = last_time.find(batch.series_index);
      if (it != last_time.end()) {
        EXPECT_EQ(p.time_s, it->second + 5);
      }
      last_time[batch.series_index] = p.time_s;
    }
    ++batches;
    rows += batch.points.size();
  }
  EXPECT_EQ(batches, workload.batch_count());
  EXPECT_EQ(rows, workload.total_rows());
  EXPECT_EQ(generator.batches_done(), batches);
}

TEST(MetricsWorkloadTest, ValuesWriteTimesAndExpiry) {
  const MetricsWorkload workload(MetricsSmokeOptions());
  MetricsGenerator generator(workload);
  MetricsBatch batch;
  std::map<uint64_t, float> previous;
  double step_sum = 0, step_squares = 0;
  int64_t steps = 0, jitter_sum = 0, rows = 0;
  while (generator.NextBatch(&batch)) {
    for (const MetricPoint& p : batch.points) {
      auto it = previous.find(batch.series_index);
      if (it == previous.end()) {
        EXPECT_GE(p.value, 10.0f);
        EXPECT_LT(p.value, 100.0f);
      } else {
        const double step = static_cast<double>(p.value) - it->second;
        step_sum += step;
        step_squares += step * step;
        ++steps;
      }
      previous[batch.series_index] = p.value;
      const int64_t jitter = p.write_time_us - int64_t{p.time_s} * 1'000'000;
      EXPECT_GE(jitter, 0);
      EXPECT_LE(jitter, 100'000);
      jitter_sum += jitter;
      ++rows;
      EXPECT_EQ(p.expiry_s, p.time_s + 30 * kSecondsPerDay);
    }
  }
  const double mean = step_sum / steps;
  const double stddev = std::sqrt(step_squares / steps - mean * mean);
  EXPECT_NEAR(stddev, 0.1, 0.003);
  EXPECT_NEAR(mean, 0, 0.002);
  EXPECT_NEAR(static_cast<double>(jitter_sum) / rows, 50'000, 1'000);
}

TEST(MetricsWorkloadTest, QueryParameters) {
  const MetricsWorkload workload(MetricsSmokeOptions());
  Random rng(3);
  std::set<uint64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    const uint64_t series = workload.RandomSeries(&rng);
    ASSERT_LT(series, 100u);
    seen.insert(series);
  }
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_EQ(workload.Window(RangeQuery::kLastHour).expected_rows, 720);
  EXPECT_EQ(workload.Window(RangeQuery::kLastDay).expected_rows, 720);  // clipped to 1 hour
  EXPECT_EQ(workload.Window(RangeQuery::kLast5Minutes).upper_inclusive, kMetricsEnd - 5);
  EXPECT_EQ(workload.Window(RangeQuery::kLast5Minutes, kMetricsEnd - 605).upper_inclusive,
            kMetricsEnd - 605);
}

}  // namespace
}  // namespace bench
}  // namespace columnar
