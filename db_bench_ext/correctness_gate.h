// The correctness gate: for every query of a workload, the rows returned and their hash must be
// identical across all configurations; any difference fails the run.
#pragma once

#include <string>
#include <vector>

#include "db_bench_ext/results.h"

namespace columnar {
namespace bench {

struct QueryMismatch {
  std::string workload;
  std::string query;
  // Every configuration's outcome, e.g. "A: 720 rows, hash 1f2e; C: 719 rows, hash 9a0b;
  // D: missing".
  std::string detail;
};

// Queries of this workload whose rows or hash differ between configurations (or that some
// configuration did not run), in query order.
std::vector<QueryMismatch> FindResultMismatches(const WorkloadResult& workload);
// The same over every workload of the run.
std::vector<QueryMismatch> FindResultMismatches(const BenchmarkResults& results);
// "metrics/last_1h: A: 720 rows, hash 1f2e; C: 719 rows, hash 9a0b".
std::string DescribeMismatch(const QueryMismatch& mismatch);

}  // namespace bench
}  // namespace columnar
