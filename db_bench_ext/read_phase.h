// The read phase of one query (BENCHMARKS.md): a fixed set of verification draws whose rows
// and hash every configuration must reproduce (the correctness gate), latency at concurrency 1
// and throughput at each configured number of readers, each after a warm-up that is not
// counted. Queries draw their partition at random per execution.
#pragma once

#include <vector>

#include "db_bench_ext/results.h"
#include "db_bench_ext/workload_driver.h"

namespace columnar {
namespace bench {

struct ReadSettings {
  double warmup_seconds = 1;
  double measure_seconds = 3;
  std::vector<int> readers = {16};
  int verification_draws = 20;
  uint64_t seed = 1;
  // False: every query reads through RocksDB iterators (SelectQuery::allow_columnar_scan).
  bool columnar_scan = true;
};

Status RunQuery(const Table& table, const WorkloadDriver& driver, const QuerySpec& spec,
                int64_t as_of_s, const ReadSettings& settings, QueryResult* result);

}  // namespace bench
}  // namespace columnar
