// AccessDriver: logs.access4 / access8 / access16 (source 000): one partition per service
// instance per UTC day, a request every 5 s, loaded in batches of 12 rows of one partition;
// queries of one instance's latest request, time ranges (day IN (...)), and the one-hour range
// with the source's filters (ALLOW FILTERING).
#pragma once

#include "db_bench_ext/access_workload.h"
#include "db_bench_ext/workload_driver.h"

namespace columnar {
namespace bench {

class AccessDriver : public WorkloadDriver {
 public:
  // `width`: 4, 8 or 16 regular columns.
  AccessDriver(int width, const WorkloadSize& size);

  const std::string& name() const override { return name_; }
  std::string row_noun() const override { return "row"; }
  std::string CreateTableCql() const override;
  uint64_t total_rows() const override;
  int64_t newest_time_s() const override;
  Status Bind(const TableSchema& schema) override;
  std::unique_ptr<BatchProducer> NewProducer() const override;
  std::vector<QuerySpec> Queries() const override;
  SelectQuery MakeQuery(const QuerySpec& spec, Random* rng, int64_t as_of_s) const override;

 private:
  class Producer;
  void FillRow(const AccessRow& source, Row* row) const;

  const int width_;
  const std::string name_;
  AccessWorkload workload_;
  // Column ids of orgid, service, instance, day, time, then the regular columns in order.
  std::vector<uint32_t> ids_;
  uint32_t row_width_ = 0;
};

}  // namespace bench
}  // namespace columnar
