// Workload 3 (BENCHMARKS.md): devops.cpu, a wide numeric table in the shape of TSBS's "cpu-only"
// use case.
//
//   CREATE TABLE devops.cpu (hostname text, day date, ts timestamp, <9 text tags>,
//     <10 double gauges>, PRIMARY KEY ((hostname, day), ts))
//     WITH CLUSTERING ORDER BY (ts DESC);
//
// One partition per host per UTC day, one row every 10 s. Each host has fixed tags (region,
// datacenter, rack, os, arch, team, service, service_version, service_environment) and ten
// gauges, each a random walk with N(0, 1) steps clamped to [0, 100] and started uniformly in it.
// DevopsWorkload is the immutable description (hosts, sizes, query windows) and is safe to share
// between threads; DevopsGenerator is the single producer of the load batches (12 consecutive
// points of one host; blocks of 12 steps, every host in turn, as the other workloads).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "db_bench_ext/random_distributions.h"
#include "db_bench_ext/timeline.h"

namespace columnar {
namespace bench {

constexpr int64_t kDevopsIntervalSeconds = 10;
constexpr int kDevopsTags = 9;
constexpr int kDevopsGauges = 10;

// Tag and gauge column names, in table order.
const std::array<const char*, kDevopsTags>& DevopsTagColumns();
const std::array<const char*, kDevopsGauges>& DevopsGaugeColumns();

struct DevopsWorkloadOptions {
  uint64_t seed = 1;
  uint64_t hosts = 100;
  // Exclusive end of the data (a UTC midnight) and the span loaded before it; the span is
  // rounded down to whole batches (120 s), so a batch never crosses a UTC midnight.
  int64_t end_time_s = 0;
  int64_t duration_s = kSecondsPerDay;
};

struct DevopsHost {
  std::string hostname;  // "host_0", "host_1", ...
  std::array<std::string, kDevopsTags> tags;
};

struct DevopsPoint {
  int32_t day = 0;
  int64_t time_ms = 0;
  std::array<double, kDevopsGauges> gauges{};
};

// 12 consecutive points of one host within one UTC day, oldest first.
struct DevopsBatch {
  uint64_t host_index = 0;
  std::vector<DevopsPoint> points;
};

// A query's time range: `ts > lower AND ts <= upper` (milliseconds) and the UTC days it covers.
struct DevopsWindow {
  int64_t lower_exclusive_ms = 0;
  int64_t upper_inclusive_ms = 0;
  std::vector<int32_t> days;
};

class DevopsWorkload {
 public:
  // Throws std::invalid_argument without hosts or with less than one batch of data.
  explicit DevopsWorkload(const DevopsWorkloadOptions& options);

  const DevopsWorkloadOptions& options() const { return options_; }
  const std::vector<DevopsHost>& hosts() const { return hosts_; }
  int64_t start_s() const { return timeline_.start_s(); }
  int64_t steps() const { return timeline_.steps(); }
  int64_t TimeAtStep(int64_t step) const { return timeline_.TimeAtStep(step); }
  // The newest row's time, in seconds.
  int64_t latest_s() const { return timeline_.latest_s(); }
  uint64_t total_rows() const { return options_.hosts * static_cast<uint64_t>(steps()); }

  uint64_t RandomHost(Random* rng) const { return rng->Uniform(options_.hosts); }
  // The `span_s` seconds up to and including `as_of_s` (a row time), clipped to the loaded data.
  DevopsWindow Window(int64_t span_s, int64_t as_of_s) const;

 private:
  DevopsWorkloadOptions options_;
  Timeline timeline_;
  std::vector<DevopsHost> hosts_;
};

class DevopsGenerator {
 public:
  // `workload` must outlive the generator.
  explicit DevopsGenerator(const DevopsWorkload& workload);

  // Fills the next batch in load order (reusing its storage); false when all were produced.
  bool NextBatch(DevopsBatch* batch);

 private:
  // Each host draws from its own stream, so its data depends only on the seed and its index.
  struct HostState {
    Random rng;
    std::array<double, kDevopsGauges> gauges;
  };

  const DevopsWorkload& workload_;
  BatchSchedule schedule_;
  std::vector<HostState> hosts_;
};

}  // namespace bench
}  // namespace columnar
