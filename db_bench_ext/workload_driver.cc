#include "db_bench_ext/workload_driver.h"

#include "db_bench_ext/access_driver.h"
#include "db_bench_ext/devops_driver.h"
#include "db_bench_ext/metrics_driver.h"

namespace columnar {
namespace bench {

std::unique_ptr<WorkloadDriver> NewWorkloadDriver(const std::string& name,
                                                  const WorkloadSize& size) {
  if (name == "metrics") return std::make_unique<MetricsDriver>(size);
  if (name == "devops") return std::make_unique<DevopsDriver>(size);
  const int width = AccessWidthOf(name);
  if (width != 0) return std::make_unique<AccessDriver>(width, size);
  return nullptr;
}

SelectQuery Aggregating(SelectQuery query, std::vector<Aggregate> aggregates, size_t group_by,
                        std::optional<int64_t> time_bucket) {
  query.columns.clear();
  query.aggregates = std::move(aggregates);
  query.group_by = group_by;
  query.time_bucket = time_bucket;
  return query;
}

}  // namespace bench
}  // namespace columnar
