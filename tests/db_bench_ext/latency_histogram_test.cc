#include "db_bench_ext/latency_histogram.h"

#include <gtest/gtest.h>

#include <cmath>

#include "db_bench_ext/random_distributions.h"

namespace columnar {
namespace bench {
namespace {

TEST(LatencyHistogramTest, EmptyHistogramReportsZeros) {
  const LatencyHistogram histogram;
  EXPECT_EQ(histogram.count(), 0u);
  EXPECT_EQ(histogram.Percentile(50), 0);
  EXPECT_EQ(histogram.max(), 0);
  EXPECT_EQ(histogram.Mean(), 0);
}

TEST(LatencyHistogramTest, SmallValuesAreExact) {
  LatencyHistogram histogram;
  for (int v = 1; v <= 1000; ++v) histogram.Record(v);
  EXPECT_EQ(histogram.count(), 1000u);
  EXPECT_EQ(histogram.min(), 1);
  EXPECT_EQ(histogram.max(), 1000);
  EXPECT_EQ(histogram.Percentile(50), 500);
  EXPECT_EQ(histogram.Percentile(99), 990);
  EXPECT_EQ(histogram.Percentile(99.9), 999);
  EXPECT_EQ(histogram.Percentile(100), 1000);
  EXPECT_DOUBLE_EQ(histogram.Mean(), 500.5);
}

TEST(LatencyHistogramTest, LargeValuesKeepThreeSignificantDigits) {
  LatencyHistogram histogram;
  Random rng(5);
  std::vector<int64_t> values;
  for (int i = 0; i < 20000; ++i) {
    values.push_back(static_cast<int64_t>(rng.LogNormal(std::log(5000.0), 2.0)));
    histogram.Record(values.back());
  }
  std::sort(values.begin(), values.end());
  for (double p : {50.0, 90.0, 99.0, 99.9}) {
    const int64_t exact = values[static_cast<size_t>(p / 100 * values.size() + 0.5) - 1];
    const int64_t reported = histogram.Percentile(p);
    EXPECT_GE(reported, exact) << p;
    EXPECT_LE(reported - exact, exact / 1000 + 1) << p;  // within the bucket: 1/1024 of value
  }
  EXPECT_EQ(histogram.max(), values.back());
  EXPECT_EQ(histogram.min(), values.front());
}

TEST(LatencyHistogramTest, MergeEqualsRecordingEverythingInOne) {
  LatencyHistogram a, b, all;
  Random rng(9);
  for (int i = 0; i < 5000; ++i) {
    const int64_t v = static_cast<int64_t>(rng.LogNormal(std::log(800.0), 1.5));
    (i % 3 == 0 ? a : b).Record(v);
    all.Record(v);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_NEAR(a.Mean(), all.Mean(), 1e-6 * all.Mean());
  for (double p : {50.0, 99.0, 99.9}) EXPECT_EQ(a.Percentile(p), all.Percentile(p));

  LatencyHistogram empty;
  empty.Merge(all);
  EXPECT_EQ(empty.min(), all.min());
  all.Clear();
  EXPECT_EQ(all.count(), 0u);
}

TEST(LatencyHistogramTest, ClampsOutOfRangeValues) {
  LatencyHistogram histogram;
  histogram.Record(-5);
  histogram.Record(LatencyHistogram::kHighestTrackableMicros * 4);
  EXPECT_EQ(histogram.min(), 0);
  EXPECT_EQ(histogram.Percentile(50), 0);
  EXPECT_EQ(histogram.max(), LatencyHistogram::kHighestTrackableMicros * 4);
  EXPECT_GE(histogram.Percentile(100), LatencyHistogram::kHighestTrackableMicros);
}

}  // namespace
}  // namespace bench
}  // namespace columnar
