// WorkloadDriver: one source-document workload as the benchmark runs it through the Table API:
// the table to create, the rows to load (in the sources' load order), and the queries to time.
// metrics_driver.h and access_driver.h implement it on top of the generators.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db_bench_ext/query_catalog.h"
#include "db_bench_ext/random_distributions.h"
#include "table_api/database.h"

namespace columnar {
namespace bench {

// One write of the load: rows of one partition, written as one batch.
struct LoadBatch {
  std::vector<RowWrite> rows;
  // Event time (seconds) of the newest row of the batch.
  int64_t newest_time_s = 0;
};

class BatchProducer {
 public:
  virtual ~BatchProducer() = default;
  // The next batch in load order; false when the load is complete.
  virtual bool Next(LoadBatch* batch) = 0;
};

class WorkloadDriver {
 public:
  virtual ~WorkloadDriver() = default;

  virtual const std::string& name() const = 0;
  // "point" (metrics) or "row".
  virtual std::string row_noun() const = 0;
  virtual std::string CreateTableCql() const = 0;
  virtual uint64_t total_rows() const = 0;
  // Event time of the newest row once loaded (the "now" queries look back from).
  virtual int64_t newest_time_s() const = 0;

  // Resolves the created table's column ids; call before the other methods below.
  virtual Status Bind(const TableSchema& schema) = 0;
  // A fresh producer of the whole load; its rows are Table API rows of the bound schema.
  virtual std::unique_ptr<BatchProducer> NewProducer() const = 0;

  virtual std::vector<QuerySpec> Queries() const = 0;
  // One execution of `spec`: parameters drawn from `rng`, time window as of `as_of_s` (a row
  // time; newest_time_s() after the load).
  virtual SelectQuery MakeQuery(const QuerySpec& spec, Random* rng, int64_t as_of_s) const = 0;
  // What the read phase runs as one execution of `spec`: usually MakeQuery's one Select; some
  // queries are several (devops' last point of every host: one per host), timed together, their
  // rows hashed in order.
  virtual std::vector<SelectQuery> MakeQueries(const QuerySpec& spec, Random* rng,
                                               int64_t as_of_s) const {
    return {MakeQuery(spec, rng, as_of_s)};
  }
};

// "metrics", "access4", "access8", "access16" or "devops" with the preset's sizes; null for another
// name.
struct WorkloadSize {
  uint64_t series = 0;     // metrics
  uint64_t instances = 0;  // access logs
  uint64_t hosts = 0;      // devops
  int64_t duration_s = 0;
  int64_t end_time_s = 0;
  uint64_t seed = 1;
};
std::unique_ptr<WorkloadDriver> NewWorkloadDriver(const std::string& name,
                                                  const WorkloadSize& size);

// `query` made an aggregate query (the workloads' aggregate and downsampling queries):
// `aggregates` of its rows, grouped by its first `group_by` primary key columns, the last of
// them by `time_bucket` (in the column's units) when set.
SelectQuery Aggregating(SelectQuery query, std::vector<Aggregate> aggregates, size_t group_by = 0,
                        std::optional<int64_t> time_bucket = std::nullopt);

}  // namespace bench
}  // namespace columnar
