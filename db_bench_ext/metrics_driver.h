// MetricsDriver: metrics.v2metrics5 (source 002): one float32 random walk per series, a point
// every 5 s, loaded in batches of 12 points of one series; queries of one series' latest point
// and last 5 minutes / hour / day / 7 days.
#pragma once

#include "db_bench_ext/metrics_workload.h"
#include "db_bench_ext/workload_driver.h"

namespace columnar {
namespace bench {

class MetricsDriver : public WorkloadDriver {
 public:
  explicit MetricsDriver(const WorkloadSize& size);

  const std::string& name() const override { return name_; }
  std::string row_noun() const override { return "point"; }
  std::string CreateTableCql() const override;
  uint64_t total_rows() const override;
  int64_t newest_time_s() const override;
  Status Bind(const TableSchema& schema) override;
  std::unique_ptr<BatchProducer> NewProducer() const override;
  std::vector<QuerySpec> Queries() const override;
  SelectQuery MakeQuery(const QuerySpec& spec, Random* rng, int64_t as_of_s) const override;

 private:
  class Producer;
  struct Ids {
    uint32_t orgid = 0, clusterhash = 0, metricid = 0, time = 0, value = 0;
    uint32_t width = 0;
  };

  const std::string name_;
  MetricsWorkload workload_;
  Ids ids_;
};

}  // namespace bench
}  // namespace columnar
