// What a loaded benchmark database holds, written beside its files so that a later run
// (db_bench_ext --use_existing_db) can measure its queries without loading it again, and
// refuse a database that was loaded with other sizes or another seed.
//
// File DB_BENCH_EXT_LOAD in the database directory, text, one "name value" pair a line, in
// this order:
//
//   db_bench_ext load 1            format line (version 1)
//   workload metrics               workload name
//   config C                       configuration name (bench_configs.h)
//   series 1000                    metrics series          (the generator's sizes,
//   instances 100                  access-log instances     WorkloadSize)
//   hosts 100                      devops hosts
//   duration_s 86400               seconds of data
//   seed 1                         data and query seed
//   end_time_s 1764806400          end of the data: the queries' "now" (the load's UTC day)
//   rows 17280000                  rows written
#pragma once

#include <cstdint>
#include <string>

namespace columnar {
namespace bench {

struct LoadRecord {
  std::string workload;
  std::string config;
  uint64_t series = 0;
  uint64_t instances = 0;
  uint64_t hosts = 0;
  int64_t duration_s = 0;
  uint64_t seed = 0;
  int64_t end_time_s = 0;
  uint64_t rows = 0;
};

std::string LoadRecordPath(const std::string& db_path);

// Each returns an empty string on success, else what went wrong.
std::string WriteLoadRecord(const std::string& db_path, const LoadRecord& record);
std::string ReadLoadRecord(const std::string& db_path, LoadRecord* record);

// Empty when `found` was loaded as `wanted` asks (same workload, configuration, sizes and
// seed; its end time and row count are what the load made them), else the first difference.
std::string LoadRecordMismatch(const LoadRecord& found, const LoadRecord& wanted);

}  // namespace bench
}  // namespace columnar
