// The results model of one db_bench_ext run: what every run reports (BENCHMARKS.md, "What every
// run reports"), per workload and configuration. Filled by the benchmark, read by the report
// writers (results.json, results.md, SVG charts) and the correctness gate.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace columnar {
namespace bench {

// SST bytes by component after flush and compaction.
struct StorageBreakdown {
  uint64_t data_bytes = 0;
  uint64_t index_bytes = 0;
  uint64_t filter_bytes = 0;
  uint64_t properties_bytes = 0;
  uint64_t other_bytes = 0;
};

// Write latency per batch, microseconds.
struct LatencySummary {
  double p50_us = 0;
  double p99_us = 0;
  double p999_us = 0;
  double max_us = 0;
};

struct QueryResult {
  std::string name;         // e.g. "last_1h_5xx_slow"
  std::string description;  // e.g. the CQL text
  // Latency at concurrency 1, after warm-up.
  double p50_us = 0;
  double p99_us = 0;
  // Throughput (queries/s) by number of concurrent readers.
  std::map<int, double> qps_by_concurrency;
  // Measured in several rounds (db_bench_ext --query_rounds): each round's throughput, in
  // round order; the figures of this result are then the rounds' medians. Empty for one round.
  std::map<int, std::vector<double>> qps_rounds_by_concurrency;
  // Rows returned and a hash of them over the query's fixed verification parameters (the same
  // in every configuration); compared across configurations by the correctness gate.
  uint64_t rows = 0;
  std::string result_hash;  // hex
  // Optional extra figures (e.g. pushdown counters), in insertion order.
  std::vector<std::pair<std::string, double>> counters;
};

struct ConfigResult {
  std::string config;  // "A", "A-dict", "B", "C", "C-dict", "D", "T"
  uint64_t sst_bytes = 0;
  StorageBreakdown storage;
  // Optional bytes per column (name -> bytes), in schema order.
  std::vector<std::pair<std::string, uint64_t>> column_bytes;
  // Optional entropy estimate of each column, in bits, summed over the files
  // (table_format/entropy_estimate.h): how far each column's bytes are from its information.
  std::map<std::string, double> column_entropy_bits;
  uint64_t rows = 0;
  double bytes_per_row = 0;
  // False when the run measured a database an earlier run loaded (db_bench_ext
  // --use_existing_db): the load's figures below are then NaN, peak_sst_bytes and the
  // compaction bytes 0 (shown as n/a).
  bool loaded = true;
  uint64_t peak_sst_bytes = 0;
  double ingest_rows_per_sec = 0;
  double cpu_seconds_per_million_rows = 0;
  double busy_cores = 0;
  // The machine probe's milliseconds before and after the load (machine_probe.h); NaN when
  // not loaded by this run.
  double probe_before_ms = 0;
  double probe_after_ms = 0;
  LatencySummary write_latency;
  uint64_t compaction_bytes_read = 0;
  uint64_t compaction_bytes_written = 0;
  std::vector<QueryResult> queries;

  // nullptr when absent.
  const QueryResult* FindQuery(const std::string& name) const;
};

struct WorkloadResult {
  std::string workload;          // "metrics", "access4", "access8", "access16"
  std::string row_noun = "row";  // "point" for metrics
  std::vector<ConfigResult> configs;

  // nullptr when absent.
  const ConfigResult* FindConfig(const std::string& config) const;
  // Query names in first-seen order across the configurations.
  std::vector<std::string> QueryNames() const;
  // Reader counts measured in any configuration, ascending.
  std::vector<int> Concurrencies() const;
};

struct MachineInfo {
  int cores = 0;
  std::string cpu_model;
  uint64_t memory_bytes = 0;
};

struct RunMetadata {
  std::string preset;
  std::string date;  // ISO 8601, UTC
  MachineInfo machine;
  // Flags and derived parameters (series, days, readers, ...), in insertion order.
  std::vector<std::pair<std::string, std::string>> parameters;
};

struct BenchmarkResults {
  RunMetadata metadata;
  std::vector<WorkloadResult> workloads;
};

// Latencies are kept in microseconds and reported in milliseconds.
inline constexpr double kMicrosPerMilli = 1000;

// The configuration the ratios are taken against.
inline constexpr char kBaselineConfig[] = "A";

}  // namespace bench
}  // namespace columnar
