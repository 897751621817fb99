// Workload 1 (source 002, Part 1): metrics.v2metrics5, one float32 random walk per series.
//
//   CREATE TABLE metrics.v2metrics5 (orgid text, clusterhash bigint, metricid bigint, time int,
//     value float, PRIMARY KEY ((orgid, clusterhash, metricid), time))
//     WITH CLUSTERING ORDER BY (time DESC);
//
// MetricsWorkload is the immutable description (keys, sizes, query parameters) and is safe to
// share between threads; MetricsGenerator is the single producer of the load batches.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db_bench_ext/query_ranges.h"
#include "db_bench_ext/random_distributions.h"
#include "db_bench_ext/timeline.h"

namespace columnar {
namespace bench {

struct MetricsWorkloadOptions {
  uint64_t seed = 1;
  uint64_t series = 1000;
  // Exclusive end of the data (the benchmark passes "now" rounded down to a UTC day) and the
  // span loaded before it; both multiples of 60 s.
  int64_t end_time_s = 0;
  int64_t duration_s = kSecondsPerDay;
};

struct MetricsSeriesKey {
  std::string orgid;
  int64_t clusterhash = 0;
  int64_t metricid = 0;
};

struct MetricPoint {
  std::string orgid;
  int64_t clusterhash = 0;
  int64_t metricid = 0;
  int32_t time_s = 0;
  float value = 0;
  int64_t write_time_us = 0;
  // Absolute expiry (event time + 30 days); the TTL at the simulated now is expiry_s - now.
  int64_t expiry_s = 0;
};

// 12 consecutive points of one series, oldest first.
struct MetricsBatch {
  uint64_t series_index = 0;
  std::vector<MetricPoint> points;
};

class MetricsWorkload {
 public:
  explicit MetricsWorkload(const MetricsWorkloadOptions& options);

  const MetricsWorkloadOptions& options() const { return options_; }
  const Timeline& timeline() const { return timeline_; }
  uint64_t series_count() const { return options_.series; }
  uint64_t total_rows() const;
  uint64_t batch_count() const;

  // The partition key of series `index` (a handful of orgs, random-looking 64-bit ids).
  const MetricsSeriesKey& SeriesKey(uint64_t index) const { return keys_[index]; }

  // Query parameters: a uniformly random series and the window of `range` as of `as_of_s`
  // (defaults to the newest loaded point), in seconds.
  uint64_t RandomSeries(Random* rng) const { return rng->Uniform(options_.series); }
  TimeWindow Window(RangeQuery range) const;
  TimeWindow Window(RangeQuery range, int64_t as_of_s) const;

 private:
  MetricsWorkloadOptions options_;
  Timeline timeline_;
  std::vector<MetricsSeriesKey> keys_;
};

class MetricsGenerator {
 public:
  // `workload` must outlive the generator.
  explicit MetricsGenerator(const MetricsWorkload& workload);

  // Fills the next batch in load order (reusing its storage); false when all were produced.
  bool NextBatch(MetricsBatch* batch);
  uint64_t batches_done() const { return schedule_.batches_done(); }

 private:
  // Each series draws from its own stream, so its data depends only on the seed and its index.
  struct SeriesState {
    Random rng;
    float value;
  };

  const MetricsWorkload& workload_;
  BatchSchedule schedule_;
  std::vector<SeriesState> series_;
};

}  // namespace bench
}  // namespace columnar
