// The access-log workloads (source 000, Part 3) through the Table API.
#include "db_bench_ext/access_driver.h"

#include "filter/predicate.h"

namespace columnar {
namespace bench {

namespace {

constexpr int kAccessKeyColumns = 5;  // orgid, service, instance, day, time

// CQL types of the regular columns, in BENCHMARKS.md's order.
const char* const kRegularColumnTypes[16] = {"ascii", "text", "int",    "text",  "ascii", "ascii",
                                             "text",  "int",  "ascii",  "ascii", "text",  "text",
                                             "ascii", "text", "bigint", "text"};

Value Ascii(const std::string& s) { return Value::Ascii(s); }
Value Text(const std::string& s) { return Value::Text(s); }
Value OptionalText(const std::optional<std::string>& s) { return s ? Value::Text(*s) : Value(); }

Predicate FilterPredicate(const AccessFilter& filter, const std::string& user_id) {
  std::vector<Predicate> terms;
  if (filter.protocol)
    terms.push_back(Predicate::Compare("protocol", CompareOp::kEq, Ascii(*filter.protocol)));
  if (filter.min_status) {
    terms.push_back(Predicate::Compare("status", CompareOp::kGe, Value::Int(*filter.min_status)));
  }
  if (filter.method)
    terms.push_back(Predicate::Compare("method", CompareOp::kEq, Ascii(*filter.method)));
  if (filter.country)
    terms.push_back(Predicate::Compare("country", CompareOp::kEq, Ascii(*filter.country)));
  if (filter.latency_above_ms) {
    terms.push_back(
        Predicate::Compare("latency_ms", CompareOp::kGt, Value::Int(*filter.latency_above_ms)));
  }
  if (filter.user_id_equals_parameter) {
    terms.push_back(Predicate::Compare("user_id", CompareOp::kEq, Text(user_id)));
  }
  return Predicate::And(std::move(terms));
}

}  // namespace

class AccessDriver::Producer : public BatchProducer {
 public:
  explicit Producer(const AccessDriver& driver) : driver_(driver), generator_(driver.workload_) {}

  bool Next(LoadBatch* out) override {
    if (!generator_.NextBatch(&batch_)) return false;
    out->rows.clear();
    out->newest_time_s = 0;
    for (const AccessRow& source : batch_.rows) {
      Row row(driver_.row_width_);
      driver_.FillRow(source, &row);
      RowWriteOptions options;
      options.write_time_micros = source.write_time_us;
      options.expiry_seconds = source.expiry_s;
      out->rows.emplace_back(std::move(row), options);
      out->newest_time_s = std::max<int64_t>(out->newest_time_s, source.time_ms / 1000);
    }
    return true;
  }

 private:
  const AccessDriver& driver_;
  AccessGenerator generator_;
  AccessBatch batch_;
};

AccessDriver::AccessDriver(int width, const WorkloadSize& size)
    : width_(width),
      name_("access" + std::to_string(width)),
      workload_(
          AccessWorkloadOptions{size.seed, size.instances, size.end_time_s, size.duration_s}) {}

std::string AccessDriver::CreateTableCql() const {
  std::string cql = "CREATE TABLE logs." + name_ +
                    " (orgid text, service text, instance text, day date, time timestamp";
  const std::vector<std::string>& columns = AccessRegularColumns();
  for (int i = 0; i < width_; i++) {
    cql += ", " + columns[i] + " " + kRegularColumnTypes[i];
  }
  return cql +
         ", PRIMARY KEY ((orgid, service, instance, day), time)) WITH CLUSTERING ORDER BY "
         "(time DESC) AND column_encodings = {'time': 'delta_of_delta'}";
}

uint64_t AccessDriver::total_rows() const { return workload_.total_rows(); }

int64_t AccessDriver::newest_time_s() const { return workload_.timeline().latest_s(); }

Status AccessDriver::Bind(const TableSchema& schema) {
  std::vector<std::string> names = {"orgid", "service", "instance", "day", "time"};
  const std::vector<std::string>& regular = AccessRegularColumns();
  names.insert(names.end(), regular.begin(), regular.begin() + width_);
  ids_.clear();
  for (const std::string& name : names) {
    const ColumnDef* column = schema.FindColumn(name);
    if (column == nullptr) return Status::InvalidArgument(name_ + " table has no column " + name);
    ids_.push_back(column->id);
  }
  row_width_ = schema.next_column_id();
  return Status::OK();
}

void AccessDriver::FillRow(const AccessRow& r, Row* row) const {
  const Value key[kAccessKeyColumns] = {Text(r.orgid), Text(r.service), Text(r.instance),
                                        Value::Date(r.day), Value::Timestamp(r.time_ms)};
  for (int i = 0; i < kAccessKeyColumns; i++) (*row)[ids_[i]] = key[i];
  const Value regular[16] = {Ascii(r.method),
                             Text(r.path),
                             Value::Int(r.status),
                             Text(r.user_agent),
                             Ascii(r.client_ip),
                             Ascii(r.country),
                             Text(r.referrer),
                             Value::Int(r.latency_ms),
                             Ascii(r.request_id),
                             Ascii(r.trace_id),
                             OptionalText(r.user_id),
                             Text(r.host),
                             Ascii(r.protocol),
                             Text(r.content_type),
                             Value::BigInt(r.bytes_sent),
                             OptionalText(r.error_message)};
  for (int i = 0; i < width_; i++) (*row)[ids_[kAccessKeyColumns + i]] = regular[i];
}

std::unique_ptr<BatchProducer> AccessDriver::NewProducer() const {
  return std::make_unique<Producer>(*this);
}

std::vector<QuerySpec> AccessDriver::Queries() const { return AccessQueries(width_); }

SelectQuery AccessDriver::MakeQuery(const QuerySpec& spec, Random* rng, int64_t as_of_s) const {
  const uint64_t index = workload_.RandomInstance(rng);
  const AccessInstance& instance = workload_.instances()[index];
  const TimeWindow window = workload_.Window(spec.range, as_of_s);
  SelectQuery query;
  std::vector<Value> days;
  for (int32_t day : window.days) days.push_back(Value::Date(day));
  query.partition_key = {
      {Text(instance.orgid)}, {Text(instance.service_name)}, {Text(instance.name)}, days};
  if (window.limit > 0) {
    query.limit = static_cast<uint64_t>(window.limit);
  } else {
    query.lower_bound = ClusteringBound{Value::Timestamp(window.lower_exclusive), false};
    query.upper_bound = ClusteringBound{Value::Timestamp(window.upper_inclusive), true};
  }
  if (spec.filter) {
    const std::string user_id =
        spec.filter->user_id_equals_parameter ? workload_.RandomUserId(rng, index) : std::string();
    query.filter = FilterPredicate(*spec.filter, user_id);
  }
  const std::vector<Aggregate> count = {{Aggregate::Function::kCount, ""}};
  if (spec.name == kAccessCount5xx1d) return Aggregating(std::move(query), count);
  if (spec.name == kAccessAllInstances5xx1d) {
    // Every instance's partition of the window's newest day: no partition key, the day in the
    // filter (a scan across partitions).
    SelectQuery all;
    all.filter =
        Predicate::And({Predicate::Compare("day", CompareOp::kEq, Value::Date(window.days.back())),
                        FilterPredicate(*spec.filter, std::string())});
    return Aggregating(std::move(all), count);
  }
  return query;
}

}  // namespace bench
}  // namespace columnar
