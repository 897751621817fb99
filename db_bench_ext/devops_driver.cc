// The devops workload (BENCHMARKS.md, workload 3) through the Table API.
#include "db_bench_ext/devops_driver.h"

#include <stdexcept>

#include "filter/predicate.h"

namespace columnar {
namespace bench {

namespace {

constexpr int kDevopsKeyColumns = 3;  // hostname, day, ts
constexpr int64_t kMinuteMs = 60'000;
constexpr int64_t kHourS = 3600;
constexpr double kHighUsage = 90;
constexpr int kGaugesOfWideAggregate = 5;

}  // namespace

class DevopsDriver::Producer : public BatchProducer {
 public:
  explicit Producer(const DevopsDriver& driver) : driver_(driver), generator_(driver.workload_) {}

  bool Next(LoadBatch* out) override {
    if (!generator_.NextBatch(&batch_)) return false;
    out->rows.clear();
    out->newest_time_s = 0;
    const std::vector<uint32_t>& ids = driver_.ids_;
    const DevopsHost& host = driver_.workload_.hosts()[batch_.host_index];
    for (const DevopsPoint& point : batch_.points) {
      Row row(driver_.row_width_);
      row[ids[0]] = Value::Text(host.hostname);
      row[ids[1]] = Value::Date(point.day);
      row[ids[2]] = Value::Timestamp(point.time_ms);
      for (int i = 0; i < kDevopsTags; ++i)
        row[ids[kDevopsKeyColumns + i]] = Value::Text(host.tags[i]);
      for (int i = 0; i < kDevopsGauges; ++i) {
        row[ids[kDevopsKeyColumns + kDevopsTags + i]] = Value::Double(point.gauges[i]);
      }
      // Write time = event time (deterministic), no expiry.
      RowWriteOptions options;
      options.write_time_micros = point.time_ms * 1000;
      out->rows.emplace_back(std::move(row), options);
      out->newest_time_s = std::max<int64_t>(out->newest_time_s, point.time_ms / 1000);
    }
    return true;
  }

 private:
  const DevopsDriver& driver_;
  DevopsGenerator generator_;
  DevopsBatch batch_;
};

DevopsDriver::DevopsDriver(const WorkloadSize& size)
    : name_("devops"),
      workload_(DevopsWorkloadOptions{size.seed, size.hosts, size.end_time_s, size.duration_s}) {}

std::string DevopsDriver::CreateTableCql() const {
  std::string cql = "CREATE TABLE devops.cpu (hostname text, day date, ts timestamp";
  for (const char* tag : DevopsTagColumns()) cql += std::string(", ") + tag + " text";
  for (const char* gauge : DevopsGaugeColumns()) cql += std::string(", ") + gauge + " double";
  return cql +
         ", PRIMARY KEY ((hostname, day), ts)) WITH CLUSTERING ORDER BY (ts DESC) AND "
         "column_encodings = {'ts': 'delta_of_delta'}";
}

uint64_t DevopsDriver::total_rows() const { return workload_.total_rows(); }

int64_t DevopsDriver::newest_time_s() const { return workload_.latest_s(); }

Status DevopsDriver::Bind(const TableSchema& schema) {
  std::vector<std::string> names = {"hostname", "day", "ts"};
  for (const char* tag : DevopsTagColumns()) names.push_back(tag);
  for (const char* gauge : DevopsGaugeColumns()) names.push_back(gauge);
  ids_.clear();
  for (const std::string& name : names) {
    const ColumnDef* column = schema.FindColumn(name);
    if (column == nullptr) return Status::InvalidArgument("devops table has no column " + name);
    ids_.push_back(column->id);
  }
  row_width_ = schema.next_column_id();
  return Status::OK();
}

std::unique_ptr<BatchProducer> DevopsDriver::NewProducer() const {
  return std::make_unique<Producer>(*this);
}

std::vector<QuerySpec> DevopsDriver::Queries() const { return DevopsQueries(); }

SelectQuery DevopsDriver::HostWindowQuery(uint64_t host, const DevopsWindow& window) const {
  SelectQuery query;
  std::vector<Value> days;
  for (int32_t day : window.days) days.push_back(Value::Date(day));
  query.partition_key = {{Value::Text(workload_.hosts()[host].hostname)}, days};
  query.lower_bound = ClusteringBound{Value::Timestamp(window.lower_exclusive_ms), false};
  query.upper_bound = ClusteringBound{Value::Timestamp(window.upper_inclusive_ms), true};
  return query;
}

SelectQuery DevopsDriver::LastPointQuery(uint64_t host, int64_t as_of_s) const {
  SelectQuery query = SelectQuery::ForPartition(
      {Value::Text(workload_.hosts()[host].hostname), Value::Date(UtcDayOf(as_of_s))});
  query.upper_bound = ClusteringBound{Value::Timestamp(as_of_s * 1000), true};
  query.limit = 1;
  return query;
}

SelectQuery DevopsDriver::MakeQuery(const QuerySpec& spec, Random* rng, int64_t as_of_s) const {
  const uint64_t host = workload_.RandomHost(rng);
  const std::string& kind = spec.name;
  if (kind == kDevopsLastPoint) return LastPointQuery(host, as_of_s);
  auto per_minute_max = [&](int gauges, int64_t span_s) {
    std::vector<Aggregate> maxima;
    for (int i = 0; i < gauges; ++i) {
      maxima.push_back({Aggregate::Function::kMax, DevopsGaugeColumns()[i]});
    }
    // Grouped by hostname, day, minute of ts.
    return Aggregating(HostWindowQuery(host, workload_.Window(span_s, as_of_s)), std::move(maxima),
                       kDevopsKeyColumns, kMinuteMs);
  };
  if (kind == kDevopsMaxPerMinute1h) return per_minute_max(1, kHourS);
  if (kind == kDevopsMax5PerMinute12h) return per_minute_max(kGaugesOfWideAggregate, 12 * kHourS);
  if (kind == kDevopsHostDay) {
    SelectQuery query = HostWindowQuery(host, workload_.Window(24 * kHourS, as_of_s));
    query.columns = {"ts"};
    for (const char* gauge : DevopsGaugeColumns()) query.columns.push_back(gauge);
    return query;
  }
  if (kind == kDevopsHighUsage12h) {
    SelectQuery query = HostWindowQuery(host, workload_.Window(12 * kHourS, as_of_s));
    query.filter = Predicate::Compare("usage_user", CompareOp::kGt, Value::Double(kHighUsage));
    return query;
  }
  throw std::invalid_argument("devops has no query " + kind);
}

std::vector<SelectQuery> DevopsDriver::MakeQueries(const QuerySpec& spec, Random* rng,
                                                   int64_t as_of_s) const {
  if (spec.name != kDevopsLastPoint) return {MakeQuery(spec, rng, as_of_s)};
  std::vector<SelectQuery> queries;
  for (uint64_t host = 0; host < workload_.hosts().size(); ++host) {
    queries.push_back(LastPointQuery(host, as_of_s));
  }
  return queries;
}

}  // namespace bench
}  // namespace columnar
