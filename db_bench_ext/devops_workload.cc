#include "db_bench_ext/devops_workload.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "db_bench_ext/query_ranges.h"

namespace columnar {
namespace bench {
namespace {

constexpr int64_t kBatchSeconds = kRowsPerBatch * kDevopsIntervalSeconds;
constexpr double kGaugeMin = 0;
constexpr double kGaugeMax = 100;

// Salts keep the derived streams of one seed independent of each other.
constexpr uint64_t kTagSalt = 0x7a6u;
constexpr uint64_t kHostSalt = 0x4057u;

// TSBS's tag vocabularies.
const std::vector<std::pair<std::string, std::vector<std::string>>>& Regions() {
  static const auto* regions = new std::vector<std::pair<std::string, std::vector<std::string>>>{
      {"us-east-1", {"us-east-1a", "us-east-1b", "us-east-1c", "us-east-1e"}},
      {"us-west-1", {"us-west-1a", "us-west-1b"}},
      {"us-west-2", {"us-west-2a", "us-west-2b", "us-west-2c"}},
      {"eu-west-1", {"eu-west-1a", "eu-west-1b", "eu-west-1c"}},
      {"eu-central-1", {"eu-central-1a", "eu-central-1b"}},
      {"ap-southeast-1", {"ap-southeast-1a", "ap-southeast-1b"}},
      {"ap-southeast-2", {"ap-southeast-2a", "ap-southeast-2b"}},
      {"ap-northeast-1", {"ap-northeast-1a", "ap-northeast-1c"}},
      {"sa-east-1", {"sa-east-1a", "sa-east-1b", "sa-east-1c"}},
  };
  return *regions;
}

template <typename T>
const T& Pick(const std::vector<T>& choices, Random* rng) {
  return choices[rng->Uniform(choices.size())];
}

DevopsHost MakeHost(uint64_t seed, uint64_t index) {
  static const std::vector<std::string> kOs = {"Ubuntu16.10", "Ubuntu16.04LTS", "Ubuntu15.10"};
  static const std::vector<std::string> kArch = {"x64", "x86"};
  static const std::vector<std::string> kTeam = {"SF", "NYC", "LON", "CHI"};
  static const std::vector<std::string> kEnvironment = {"production", "staging", "test"};
  Random rng(MixSeed(seed ^ kTagSalt, index));
  DevopsHost host;
  host.hostname = "host_" + std::to_string(index);
  const auto& region = Pick(Regions(), &rng);
  host.tags = {region.first,
               Pick(region.second, &rng),
               std::to_string(rng.Uniform(100)),
               Pick(kOs, &rng),
               Pick(kArch, &rng),
               Pick(kTeam, &rng),
               std::to_string(rng.Uniform(20)),
               std::to_string(rng.Uniform(2)),
               Pick(kEnvironment, &rng)};
  return host;
}

// The options' span, rounded down to whole batches, as a timeline of 10-second rows.
Timeline CheckedTimeline(const DevopsWorkloadOptions& options) {
  if (options.hosts == 0) throw std::invalid_argument("devops workload needs >= 1 host");
  if (options.end_time_s % kSecondsPerDay != 0) {
    throw std::invalid_argument("devops workload must end at a UTC midnight");
  }
  const int64_t duration = options.duration_s / kBatchSeconds * kBatchSeconds;
  if (duration <= 0) throw std::invalid_argument("devops workload needs >= 120 s of data");
  return Timeline(options.end_time_s, duration, kDevopsIntervalSeconds);
}

}  // namespace

const std::array<const char*, kDevopsTags>& DevopsTagColumns() {
  static const std::array<const char*, kDevopsTags> kNames = {
      "region",          "datacenter",         "rack", "os", "arch", "team", "service",
      "service_version", "service_environment"};
  return kNames;
}

const std::array<const char*, kDevopsGauges>& DevopsGaugeColumns() {
  static const std::array<const char*, kDevopsGauges> kNames = {
      "usage_user", "usage_system",  "usage_idle",  "usage_nice",  "usage_iowait",
      "usage_irq",  "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"};
  return kNames;
}

DevopsWorkload::DevopsWorkload(const DevopsWorkloadOptions& options)
    : options_(options), timeline_(CheckedTimeline(options)) {
  hosts_.reserve(options.hosts);
  for (uint64_t i = 0; i < options.hosts; ++i) hosts_.push_back(MakeHost(options.seed, i));
}

DevopsWindow DevopsWorkload::Window(int64_t span_s, int64_t as_of_s) const {
  TimeWindow seconds = WindowOfSpan(span_s, timeline_, as_of_s);
  DevopsWindow window;
  window.lower_exclusive_ms = seconds.lower_exclusive * 1000;
  window.upper_inclusive_ms = seconds.upper_inclusive * 1000;
  window.days = std::move(seconds.days);
  return window;
}

DevopsGenerator::DevopsGenerator(const DevopsWorkload& workload)
    : workload_(workload), schedule_(workload.options().hosts, workload.steps()) {
  hosts_.reserve(workload.options().hosts);
  for (uint64_t i = 0; i < workload.options().hosts; ++i) {
    HostState state{Random(MixSeed(workload.options().seed ^ kHostSalt, i)), {}};
    for (double& gauge : state.gauges) {
      gauge = kGaugeMin + (kGaugeMax - kGaugeMin) * state.rng.UniformDouble();
    }
    hosts_.push_back(state);
  }
}

bool DevopsGenerator::NextBatch(DevopsBatch* batch) {
  uint64_t host_index;
  int64_t first_step;
  if (!schedule_.Next(&host_index, &first_step)) return false;
  HostState& state = hosts_[host_index];
  batch->host_index = host_index;
  batch->points.resize(kRowsPerBatch);
  for (int64_t i = 0; i < kRowsPerBatch; ++i) {
    DevopsPoint& point = batch->points[i];
    const int64_t time_s = workload_.TimeAtStep(first_step + i);
    point.day = UtcDayOf(time_s);
    point.time_ms = time_s * 1000;
    point.gauges = state.gauges;
    for (double& gauge : state.gauges) {
      gauge = std::clamp(gauge + state.rng.Normal(), kGaugeMin, kGaugeMax);
    }
  }
  return true;
}

}  // namespace bench
}  // namespace columnar
