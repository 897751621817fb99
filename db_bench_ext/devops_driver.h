// DevopsDriver: devops.cpu (BENCHMARKS.md, workload 3): one partition per host per UTC day, a
// row of nine text tags and ten double gauges every 10 s, loaded in batches of 12 rows of one
// host. Queries (TSBS's): the max of one gauge per minute over an hour, of five gauges per minute
// over 12 hours, all gauges of a host over a day, `usage_user > 90` over 12 hours (ALLOW
// FILTERING), and the last point of every host (one LIMIT 1 query per host). The aggregates go
// through SelectQuery::aggregates, so every configuration computes them with the same code.
#pragma once

#include "db_bench_ext/devops_workload.h"
#include "db_bench_ext/workload_driver.h"

namespace columnar {
namespace bench {

class DevopsDriver : public WorkloadDriver {
 public:
  explicit DevopsDriver(const WorkloadSize& size);

  const std::string& name() const override { return name_; }
  std::string row_noun() const override { return "row"; }
  std::string CreateTableCql() const override;
  uint64_t total_rows() const override;
  int64_t newest_time_s() const override;
  Status Bind(const TableSchema& schema) override;
  std::unique_ptr<BatchProducer> NewProducer() const override;
  std::vector<QuerySpec> Queries() const override;
  SelectQuery MakeQuery(const QuerySpec& spec, Random* rng, int64_t as_of_s) const override;
  std::vector<SelectQuery> MakeQueries(const QuerySpec& spec, Random* rng,
                                       int64_t as_of_s) const override;

 private:
  class Producer;
  // The partition(s) of host `host` covering `window`, with the window's bounds on ts.
  SelectQuery HostWindowQuery(uint64_t host, const DevopsWindow& window) const;
  // The newest point of host `host` as of `as_of_s` (all columns).
  SelectQuery LastPointQuery(uint64_t host, int64_t as_of_s) const;

  const std::string name_;
  DevopsWorkload workload_;
  // Column ids: hostname, day, ts, the tags, then the gauges.
  std::vector<uint32_t> ids_;
  uint32_t row_width_ = 0;
};

}  // namespace bench
}  // namespace columnar
