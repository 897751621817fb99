#include "table_api/table.h"

#include <rocksdb/write_batch.h>

#include <optional>

#include "table_api/aggregation.h"
#include "table_api/row_scanner.h"
#include "table_api/scan_executor.h"
#include "table_api/status_context.h"
#include "table_format/key_codec.h"

namespace columnar {

Table::Table(Context context, TableSchema schema)
    : name_(schema.QualifiedName()),
      context_(std::move(context)),
      codec_(std::make_shared<const RowCodec>(std::move(schema))) {}

std::shared_ptr<const RowCodec> Table::codec() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return codec_;
}

std::shared_ptr<const TableSchema> Table::schema() const {
  std::shared_ptr<const RowCodec> current = codec();
  return std::shared_ptr<const TableSchema>(current, &current->schema());
}

void Table::SetSchema(TableSchema schema) {
  auto codec = std::make_shared<const RowCodec>(std::move(schema));
  std::lock_guard<std::mutex> lock(mutex_);
  codec_ = std::move(codec);
}

Row Table::NewRow() const { return Row(codec()->schema().columns().size()); }

Status Table::WithName(const Status& s) const {
  return s.ok() ? s : WithContext("table " + name_, s);
}

Status Table::EncodeWrites(const RowCodec& codec, const std::vector<RowWrite>& rows,
                           rocksdb::WriteBatch* batch) const {
  const int64_t now = context_.now_micros();
  std::string key, value;
  for (size_t i = 0; i < rows.size(); i++) {
    Status s = EncodeRowWrite(codec, rows[i].values, rows[i].options, now, &key, &value);
    if (!s.ok()) {
      return rows.size() == 1 ? s : WithContext("row " + std::to_string(i) + " of the batch", s);
    }
    s = batch->Put(context_.column_family, key, value);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status Table::Write(rocksdb::WriteBatch* batch) {
  return context_.db->Write(context_.write_options, batch);
}

Status Table::InsertBatch(const std::vector<RowWrite>& rows) {
  rocksdb::WriteBatch batch;
  Status s = EncodeWrites(*codec(), rows, &batch);
  return WithName(s.ok() ? Write(&batch) : s);
}

Status Table::InsertBatch(const std::vector<NamedRow>& rows, const RowWriteOptions& options) {
  const std::shared_ptr<const RowCodec> current = codec();
  std::vector<RowWrite> writes;
  writes.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); i++) {
    Row row;
    Status s = RowFromNamedRow(current->schema(), rows[i], &row);
    if (!s.ok()) {
      return WithName(
          rows.size() == 1 ? s : WithContext("row " + std::to_string(i) + " of the batch", s));
    }
    writes.emplace_back(std::move(row), options);
  }
  rocksdb::WriteBatch batch;
  Status s = EncodeWrites(*current, writes, &batch);
  return WithName(s.ok() ? Write(&batch) : s);
}

Status Table::Insert(const Row& row, const RowWriteOptions& options) {
  return InsertBatch(std::vector<RowWrite>{RowWrite(row, options)});
}

Status Table::Insert(const NamedRow& row, const RowWriteOptions& options) {
  return InsertBatch(std::vector<NamedRow>{row}, options);
}

Status Table::DeleteRow(const std::vector<Value>& partition_key,
                        const std::vector<Value>& clustering_key) {
  std::string key;
  Status s = EncodeKey(codec()->schema(), partition_key, clustering_key, &key);
  if (s.ok()) s = context_.db->Delete(context_.write_options, context_.column_family, key);
  return WithName(s);
}

Status Table::DeleteKeysFrom(const std::string& first_key, rocksdb::WriteBatch* batch) const {
  rocksdb::ReadOptions options;
  const Slice lower(first_key);
  options.iterate_lower_bound = &lower;
  std::unique_ptr<rocksdb::Iterator> it(context_.db->NewIterator(options, context_.column_family));
  for (it->Seek(lower); it->Valid(); it->Next()) {
    Status s = batch->Delete(context_.column_family, it->key());
    if (!s.ok()) return s;
  }
  return it->status();
}

Status Table::DeletePartition(const std::vector<Value>& partition_key) {
  std::string start, limit;
  Status s = EncodePartitionKey(codec()->schema(), partition_key, &start);
  if (!s.ok()) return WithName(s);
  rocksdb::WriteBatch batch;
  if (PrefixSuccessor(start, &limit)) {
    s = batch.DeleteRange(context_.column_family, start, limit);
  } else {
    // An all-0xFF partition key has no successor, so no range end: its keys are exactly the
    // keys from it to the end of the key space, deleted one by one.
    s = DeleteKeysFrom(start, &batch);
  }
  return WithName(s.ok() ? Write(&batch) : s);
}

Status Table::DropExpiredFiles(ExpiredFilesResult* result) {
  return WithName(
      context_.maintenance->DropExpiredFiles(context_.db, context_.column_family, result));
}

rocksdb::ReadOptions Table::SelectReadOptions(const rocksdb::Snapshot* snapshot,
                                              const std::shared_ptr<const ScanSpec>& spec) const {
  rocksdb::ReadOptions options;
  options.snapshot = snapshot;
  // The pushdown channel: RocksDB calls this per file, and ColumnarTable readers find the spec
  // in it (pushdown.h).
  options.table_filter = PushdownTableFilter(spec);
  return options;
}

namespace {

// Select's output: rows into a ResultSet.
class ResultSetOutput : public ScanOutput {
 public:
  explicit ResultSetOutput(ResultSet* result) : result_(result) {}
  bool AddRow(const Row& row) override {
    *result_->AppendRow() = row;
    return true;
  }
  bool AddBatch(const ColumnBatch& batch) override {
    for (size_t row = 0; row < batch.row_count; row++) batch.GetRow(row, result_->AppendRow());
    return true;
  }

 private:
  ResultSet* result_;
};

// Scan's output: batches to the caller, rows gathered into batches first.
class BatchOutput : public ScanOutput {
 public:
  BatchOutput(const SelectPlan& plan, const Table::BatchVisitor& visit) : visit_(visit) {
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    for (const ProjectedColumn& column : plan.columns) {
      names.push_back(column.name);
      types.push_back(column.type);
    }
    pending_.Reset(names, types);
  }
  bool AddRow(const Row& row) override {
    pending_.AppendRow(row);
    return pending_.row_count < Table::kScanBatchRows || Flush();
  }
  bool AddBatch(const ColumnBatch& batch) override { return Flush() && visit_(batch); }
  // Hands the gathered rows over (if any); false when the visitor stops.
  bool Flush() {
    if (pending_.row_count == 0) return true;
    const bool more = visit_(pending_);
    pending_.Clear();
    return more;
  }

 private:
  const Table::BatchVisitor& visit_;
  ColumnBatch pending_;
};

}  // namespace

std::shared_ptr<ScanSpec> Table::NewScanSpec(const SelectPlan& plan, int64_t now_seconds) const {
  auto spec = std::make_shared<ScanSpec>();
  spec->now_seconds = now_seconds;
  if (plan.filter != nullptr) {
    // The readers evaluate every leaf, partition key columns included (from each row group's
    // partitions); the Table API checks the whole filter again on what they return.
    spec->predicate = plan.filter;
    spec->evaluator = std::make_shared<FilterEvaluator>(*spec->predicate);
    spec->keep_columns = plan.needed_columns;
  }
  return spec;
}

bool Table::UsesColumnarScan(const SelectQuery& query, const SelectPlan& plan) const {
  if (!context_.columnar_scan || !query.allow_columnar_scan) return false;
  if (std::string(context_.table_factory->Name()) == "BlockBasedTable") return false;
  // A few rows without a filter (the latest point, say) come from the first row group an
  // iterator reaches: planning the columnar path would only add its cost.
  constexpr uint64_t kFewRows = 64;
  return !(plan.filter == nullptr && plan.limit != 0 && plan.limit <= kFewRows);
}

Status Table::Run(const SelectQuery& query, const SelectPlan& plan,
                  const std::shared_ptr<const RowCodec>& codec, ScanOutput* output,
                  SelectStats* stats) const {
  const int64_t now_seconds = MicrosToSeconds(context_.now_micros());
  ScanSettings settings;
  settings.columnar = UsesColumnarScan(query, plan);
  // Several partitions, or the columnar path's pieces, are read at one snapshot; a single
  // partition's iterator has its own. The snapshot is taken before the columnar path pins the
  // column family's view, so every file it reads holds only versions visible at it.
  std::optional<rocksdb::ManagedSnapshot> implicit_snapshot;
  if (query.snapshot == nullptr && (plan.partitions.size() > 1 || settings.columnar)) {
    implicit_snapshot.emplace(context_.db);
  }
  const rocksdb::Snapshot* snapshot =
      query.snapshot != nullptr ? query.snapshot
                                : (implicit_snapshot ? implicit_snapshot->snapshot() : nullptr);
  const std::shared_ptr<ScanSpec> spec = NewScanSpec(plan, now_seconds);
  settings.db = context_.db;
  settings.column_family = context_.column_family;
  settings.codec = codec;
  settings.latest_codec = [this] { return this->codec(); };
  settings.now_seconds = now_seconds;
  settings.read_options = SelectReadOptions(snapshot, spec);
  ScanExecutor executor(plan, std::move(settings));
  SelectStats local;
  Status s = executor.Run(output, &local);
  CopyStats(*spec->counters, &local);
  if (stats != nullptr) *stats = local;
  return s;
}

Status Table::Select(const SelectQuery& query, ResultSet* result, SelectStats* stats) const {
  result->Clear();
  const std::shared_ptr<const RowCodec> current = codec();
  SelectPlan plan;
  Status s = PlanSelect(current->schema(), query, &plan);
  if (!s.ok()) return WithName(s);
  if (plan.aggregation) {
    AggregateOutput::ResultColumns(plan, &result->column_names, &result->column_types);
    AggregateOutput output(plan, result);
    s = Run(query, plan, current, &output, stats);
    if (s.ok()) output.Finish();
  } else {
    for (const ProjectedColumn& column : plan.columns) {
      result->column_names.push_back(column.name);
      result->column_types.push_back(column.type);
    }
    ResultSetOutput output(result);
    s = Run(query, plan, current, &output, stats);
  }
  if (!s.ok()) {
    result->rows.clear();
    return WithName(s);
  }
  return Status::OK();
}

Status Table::Scan(const SelectQuery& query, const BatchVisitor& visit, SelectStats* stats) const {
  const std::shared_ptr<const RowCodec> current = codec();
  SelectPlan plan;
  Status s = PlanSelect(current->schema(), query, &plan);
  if (!s.ok()) return WithName(s);
  if (plan.aggregation) {
    return WithName(Status::InvalidArgument("aggregates are read with Select, not Scan"));
  }
  BatchOutput output(plan, visit);
  s = Run(query, plan, current, &output, stats);
  if (s.ok()) output.Flush();
  return WithName(s);
}

void Table::CopyStats(const PushdownCounters& counters, SelectStats* stats) {
  // Added: the columnar scan path counts its own zone-map pruning in the same field.
  stats->files_skipped += counters.files_skipped;
  stats->row_groups_pruned += counters.row_groups_pruned;
  stats->row_groups_without_match += counters.row_groups_without_match;
  stats->row_groups_with_match += counters.row_groups_with_match;
  stats->rows_built += counters.rows_built;
  stats->placeholders += counters.placeholders;
  stats->rows_dropped += counters.rows_dropped;
}

}  // namespace columnar
