#include "db_bench_ext/results.h"

#include <algorithm>
#include <set>

namespace columnar {
namespace bench {

const QueryResult* ConfigResult::FindQuery(const std::string& name) const {
  for (const QueryResult& query : queries) {
    if (query.name == name) return &query;
  }
  return nullptr;
}

const ConfigResult* WorkloadResult::FindConfig(const std::string& config) const {
  for (const ConfigResult& result : configs) {
    if (result.config == config) return &result;
  }
  return nullptr;
}

std::vector<std::string> WorkloadResult::QueryNames() const {
  std::vector<std::string> names;
  for (const ConfigResult& config : configs) {
    for (const QueryResult& query : config.queries) {
      if (std::find(names.begin(), names.end(), query.name) == names.end()) {
        names.push_back(query.name);
      }
    }
  }
  return names;
}

std::vector<int> WorkloadResult::Concurrencies() const {
  std::set<int> readers;
  for (const ConfigResult& config : configs) {
    for (const QueryResult& query : config.queries) {
      for (const auto& [concurrency, qps] : query.qps_by_concurrency) readers.insert(concurrency);
    }
  }
  return std::vector<int>(readers.begin(), readers.end());
}

}  // namespace bench
}  // namespace columnar
