// The metrics workload (source 002, Part 1) through the Table API.
#include "db_bench_ext/metrics_driver.h"

namespace columnar {
namespace bench {

namespace {

const char* kMetricsTableCql =
    "CREATE TABLE metrics.v2metrics5 (orgid text, clusterhash bigint, metricid bigint, "
    "time int, value float, PRIMARY KEY ((orgid, clusterhash, metricid), time)) "
    "WITH CLUSTERING ORDER BY (time DESC) AND column_encodings = {'time': 'delta_of_delta'}";

constexpr int64_t kDownsampleSeconds = 300;

uint32_t ColumnId(const TableSchema& schema, const char* name) {
  const ColumnDef* column = schema.FindColumn(name);
  return column != nullptr ? column->id : 0;
}

}  // namespace

class MetricsDriver::Producer : public BatchProducer {
 public:
  explicit Producer(const MetricsDriver& driver) : driver_(driver), generator_(driver.workload_) {}

  bool Next(LoadBatch* out) override {
    if (!generator_.NextBatch(&batch_)) return false;
    out->rows.clear();
    out->newest_time_s = 0;
    const Ids& ids = driver_.ids_;
    for (const MetricPoint& point : batch_.points) {
      Row row(ids.width);
      row[ids.orgid] = Value::Text(point.orgid);
      row[ids.clusterhash] = Value::BigInt(point.clusterhash);
      row[ids.metricid] = Value::BigInt(point.metricid);
      row[ids.time] = Value::Int(point.time_s);
      row[ids.value] = Value::Float(point.value);
      RowWriteOptions options;
      options.write_time_micros = point.write_time_us;
      options.expiry_seconds = point.expiry_s;
      out->rows.emplace_back(std::move(row), options);
      out->newest_time_s = std::max<int64_t>(out->newest_time_s, point.time_s);
    }
    return true;
  }

 private:
  const MetricsDriver& driver_;
  MetricsGenerator generator_;
  MetricsBatch batch_;
};

MetricsDriver::MetricsDriver(const WorkloadSize& size)
    : name_("metrics"),
      workload_(MetricsWorkloadOptions{size.seed, size.series, size.end_time_s, size.duration_s}) {}

std::string MetricsDriver::CreateTableCql() const { return kMetricsTableCql; }

uint64_t MetricsDriver::total_rows() const { return workload_.total_rows(); }

int64_t MetricsDriver::newest_time_s() const { return workload_.timeline().latest_s(); }

Status MetricsDriver::Bind(const TableSchema& schema) {
  for (const char* name : {"orgid", "clusterhash", "metricid", "time", "value"}) {
    if (schema.FindColumn(name) == nullptr) {
      return Status::InvalidArgument(std::string("metrics table has no column ") + name);
    }
  }
  ids_.orgid = ColumnId(schema, "orgid");
  ids_.clusterhash = ColumnId(schema, "clusterhash");
  ids_.metricid = ColumnId(schema, "metricid");
  ids_.time = ColumnId(schema, "time");
  ids_.value = ColumnId(schema, "value");
  ids_.width = schema.next_column_id();
  return Status::OK();
}

std::unique_ptr<BatchProducer> MetricsDriver::NewProducer() const {
  return std::make_unique<Producer>(*this);
}

std::vector<QuerySpec> MetricsDriver::Queries() const { return MetricsQueries(); }

SelectQuery MetricsDriver::MakeQuery(const QuerySpec& spec, Random* rng, int64_t as_of_s) const {
  const MetricsSeriesKey& series = workload_.SeriesKey(workload_.RandomSeries(rng));
  const TimeWindow window = workload_.Window(spec.range, as_of_s);
  SelectQuery query =
      SelectQuery::ForPartition({Value::Text(series.orgid), Value::BigInt(series.clusterhash),
                                 Value::BigInt(series.metricid)});
  query.columns = {"time", "value"};
  if (window.limit > 0) {
    query.limit = static_cast<uint64_t>(window.limit);
  } else {
    query.lower_bound =
        ClusteringBound{Value::Int(static_cast<int32_t>(window.lower_exclusive)), false};
    query.upper_bound =
        ClusteringBound{Value::Int(static_cast<int32_t>(window.upper_inclusive)), true};
  }
  using Function = Aggregate::Function;
  if (spec.name == kMetricsMinMax1d) {
    return Aggregating(
        std::move(query),
        {{Function::kMin, "value"}, {Function::kMax, "value"}, {Function::kCount, ""}});
  }
  if (spec.name == kMetricsAgg1d) {
    return Aggregating(
        std::move(query),
        {{Function::kMin, "value"}, {Function::kMax, "value"}, {Function::kAvg, "value"}});
  }
  if (spec.name == kMetricsDownsample7d) {
    // Grouped by the series (orgid, clusterhash, metricid) and 5 minutes of time.
    return Aggregating(std::move(query), {{Function::kAvg, "value"}}, 4, kDownsampleSeconds);
  }
  return query;
}

}  // namespace bench
}  // namespace columnar
