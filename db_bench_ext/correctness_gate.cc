#include "db_bench_ext/correctness_gate.h"

#include "db_bench_ext/number_format.h"

namespace columnar {
namespace bench {
namespace {

std::string Outcome(const ConfigResult& config, const QueryResult* query) {
  if (query == nullptr) return config.config + ": missing";
  return config.config + ": " + FormatCount(query->rows) + " rows, hash " + query->result_hash;
}

bool SameResult(const QueryResult* a, const QueryResult* b) {
  if (a == nullptr || b == nullptr) return a == b;
  return a->rows == b->rows && a->result_hash == b->result_hash;
}

}  // namespace

std::vector<QueryMismatch> FindResultMismatches(const WorkloadResult& workload) {
  std::vector<QueryMismatch> mismatches;
  if (workload.configs.empty()) return mismatches;
  for (const std::string& name : workload.QueryNames()) {
    const QueryResult* reference = workload.configs.front().FindQuery(name);
    bool identical = true;
    std::string detail;
    for (const ConfigResult& config : workload.configs) {
      const QueryResult* query = config.FindQuery(name);
      identical &= SameResult(reference, query);
      if (!detail.empty()) detail += "; ";
      detail += Outcome(config, query);
    }
    if (!identical) mismatches.push_back({workload.workload, name, detail});
  }
  return mismatches;
}

std::vector<QueryMismatch> FindResultMismatches(const BenchmarkResults& results) {
  std::vector<QueryMismatch> mismatches;
  for (const WorkloadResult& workload : results.workloads) {
    for (QueryMismatch& mismatch : FindResultMismatches(workload)) {
      mismatches.push_back(std::move(mismatch));
    }
  }
  return mismatches;
}

std::string DescribeMismatch(const QueryMismatch& mismatch) {
  return mismatch.workload + "/" + mismatch.query + ": " + mismatch.detail;
}

}  // namespace bench
}  // namespace columnar
