#include "db_bench_ext/metrics_workload.h"

#include <cstdio>
#include <stdexcept>

namespace columnar {
namespace bench {
namespace {

constexpr uint64_t kOrgs = 5;
constexpr uint64_t kClustersPerOrg = 4;
constexpr double kWalkStepSigma = 0.1;
constexpr double kMinStartValue = 10;
constexpr double kMaxStartValue = 100;

// Salts keep the derived streams of one seed independent of each other.
constexpr uint64_t kClusterSalt = 0xc1u;
constexpr uint64_t kMetricSalt = 0x3e7u;
constexpr uint64_t kSeriesSalt = 0x5e1u;

std::string OrgName(uint64_t org) {
  char name[16];
  std::snprintf(name, sizeof(name), "org-%04u", static_cast<unsigned>(org + 1));
  return name;
}

MetricsSeriesKey MakeSeriesKey(uint64_t seed, uint64_t index) {
  const uint64_t org = index % kOrgs;
  const uint64_t cluster = (index / kOrgs) % kClustersPerOrg;
  MetricsSeriesKey key;
  key.orgid = OrgName(org);
  key.clusterhash =
      static_cast<int64_t>(MixSeed(seed ^ kClusterSalt, org * kClustersPerOrg + cluster));
  key.metricid = static_cast<int64_t>(MixSeed(seed ^ kMetricSalt, index));
  return key;
}

}  // namespace

MetricsWorkload::MetricsWorkload(const MetricsWorkloadOptions& options)
    : options_(options), timeline_(options.end_time_s, options.duration_s) {
  if (options.series == 0) throw std::invalid_argument("metrics workload needs >= 1 series");
  keys_.reserve(options.series);
  for (uint64_t i = 0; i < options.series; ++i) keys_.push_back(MakeSeriesKey(options.seed, i));
}

uint64_t MetricsWorkload::total_rows() const {
  return options_.series * static_cast<uint64_t>(timeline_.steps());
}

uint64_t MetricsWorkload::batch_count() const {
  return BatchSchedule(options_.series, timeline_.steps()).batch_count();
}

TimeWindow MetricsWorkload::Window(RangeQuery range) const {
  return Window(range, timeline_.latest_s());
}

TimeWindow MetricsWorkload::Window(RangeQuery range, int64_t as_of_s) const {
  return WindowInSeconds(range, timeline_, as_of_s);
}

MetricsGenerator::MetricsGenerator(const MetricsWorkload& workload)
    : workload_(workload), schedule_(workload.series_count(), workload.timeline().steps()) {
  series_.reserve(workload.series_count());
  for (uint64_t i = 0; i < workload.series_count(); ++i) {
    Random rng(MixSeed(workload.options().seed ^ kSeriesSalt, i));
    const double start = kMinStartValue + (kMaxStartValue - kMinStartValue) * rng.UniformDouble();
    series_.push_back(SeriesState{rng, static_cast<float>(start)});
  }
}

bool MetricsGenerator::NextBatch(MetricsBatch* batch) {
  uint64_t series_index;
  int64_t first_step;
  if (!schedule_.Next(&series_index, &first_step)) return false;
  const MetricsSeriesKey& key = workload_.SeriesKey(series_index);
  SeriesState& state = series_[series_index];
  batch->series_index = series_index;
  batch->points.resize(kRowsPerBatch);
  for (int64_t i = 0; i < kRowsPerBatch; ++i) {
    MetricPoint& point = batch->points[i];
    const int64_t time_s = workload_.timeline().TimeAtStep(first_step + i);
    point.orgid = key.orgid;
    point.clusterhash = key.clusterhash;
    point.metricid = key.metricid;
    point.time_s = static_cast<int32_t>(time_s);
    point.value = state.value;
    point.write_time_us = time_s * 1'000'000 + state.rng.UniformInRange(0, kMaxWriteJitterMicros);
    point.expiry_s = time_s + kTimeToLiveSeconds;
    // The walk lives in float32: each stored value is the previous one plus a rounded step.
    state.value = static_cast<float>(state.value + kWalkStepSigma * state.rng.Normal());
  }
  return true;
}

}  // namespace bench
}  // namespace columnar
