// A small results model for the report tests: metrics plus access8 and access16 (one scale
// family), configurations A and C, two queries measured at 16 and 32 readers.
#pragma once

#include "db_bench_ext/results.h"

namespace columnar {
namespace bench {
namespace testing {

inline QueryResult SampleQuery(std::string name, double p50_us, double p99_us, double qps16,
                               double qps32, uint64_t rows, std::string hash) {
  QueryResult query;
  query.name = std::move(name);
  query.description = "SELECT * FROM t WHERE \"quoted\" AND path = 'a\\b'";
  query.p50_us = p50_us;
  query.p99_us = p99_us;
  query.qps_by_concurrency = {{16, qps16}, {32, qps32}};
  query.rows = rows;
  query.result_hash = std::move(hash);
  return query;
}

// `scale` multiplies every size and rate so workloads differ.
inline ConfigResult SampleConfig(std::string name, double scale, bool columnar) {
  ConfigResult config;
  config.config = std::move(name);
  config.rows = 172800;
  config.sst_bytes = static_cast<uint64_t>((columnar ? 4'000'000 : 10'000'000) * scale);
  config.bytes_per_row = static_cast<double>(config.sst_bytes) / config.rows;
  config.storage = {config.sst_bytes - 3000, 2000, 500, 400, 100};
  config.column_bytes = {{"time", columnar ? 1000u : 90000u}, {"value", 345600u}};
  config.peak_sst_bytes = config.sst_bytes * 2;
  config.ingest_rows_per_sec = (columnar ? 400'000 : 500'000) * scale;
  config.cpu_seconds_per_million_rows = columnar ? 40 : 32;
  config.busy_cores = 1.8;
  config.probe_before_ms = 218.5;
  config.probe_after_ms = 221.25;
  config.write_latency = {440, 7980, 69500, 181000};
  config.compaction_bytes_read = 55'170'000;
  config.compaction_bytes_written = 51'620'000;
  config.queries.push_back(SampleQuery("last_1h", columnar ? 1320 : 1690, columnar ? 3110 : 4100,
                                       columnar ? 9010 : 7220, columnar ? 9500 : 7400, 14400,
                                       "00ff17a2"));
  config.queries.push_back(SampleQuery("last_1h_5xx", columnar ? 680 : 5220,
                                       columnar ? 2190 : 15500, 39871 * scale, 40000 * scale, 190,
                                       "deadbeef"));
  if (columnar) config.queries.back().counters = {{"groups_skipped", 1234}};
  return config;
}

inline WorkloadResult SampleWorkload(std::string name, double scale) {
  WorkloadResult workload;
  workload.workload = std::move(name);
  workload.row_noun = workload.workload == "metrics" ? "point" : "row";
  workload.configs = {SampleConfig("A", scale, false), SampleConfig("C", scale, true)};
  return workload;
}

inline BenchmarkResults SampleResults() {
  BenchmarkResults results;
  results.metadata.preset = "smoke";
  results.metadata.date = "2026-10-16T09:30:00Z";
  results.metadata.machine = {2, "AMD EPYC \"Genoa\"", 24'000'000'000};
  results.metadata.parameters = {{"series", "100"}, {"readers", "16,32"}};
  results.workloads = {SampleWorkload("metrics", 1), SampleWorkload("access8", 1),
                       SampleWorkload("access16", 2)};
  return results;
}

}  // namespace testing
}  // namespace bench
}  // namespace columnar
