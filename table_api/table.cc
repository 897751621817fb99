#include "table_api/table.h"

#include <rocksdb/write_batch.h>

#include <optional>

#include "table_api/row_scanner.h"
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

std::shared_ptr<ScanSpec> Table::NewScanSpec(const SelectPlan& plan, int64_t now_seconds) const {
  auto spec = std::make_shared<ScanSpec>();
  spec->now_seconds = now_seconds;
  if (plan.filter != nullptr) {
    spec->predicate = plan.filter;
    spec->evaluator = std::make_shared<FilterEvaluator>(*plan.filter);
    spec->keep_columns = plan.needed_columns;
  }
  return spec;
}

Status Table::Select(const SelectQuery& query, ResultSet* result, SelectStats* stats) const {
  result->Clear();
  const std::shared_ptr<const RowCodec> current = codec();
  SelectPlan plan;
  Status s = PlanSelect(current->schema(), query, &plan);
  if (!s.ok()) return WithName(s);
  for (const ProjectedColumn& column : plan.columns) {
    result->column_names.push_back(column.name);
    result->column_types.push_back(column.type);
  }
  const int64_t now_seconds = MicrosToSeconds(context_.now_micros());
  // Several partitions are read at one snapshot; one partition's iterator has its own.
  std::optional<rocksdb::ManagedSnapshot> implicit_snapshot;
  if (query.snapshot == nullptr && plan.partitions.size() > 1) {
    implicit_snapshot.emplace(context_.db);
  }
  const rocksdb::Snapshot* snapshot =
      query.snapshot != nullptr ? query.snapshot
                                : (implicit_snapshot ? implicit_snapshot->snapshot() : nullptr);
  const std::shared_ptr<ScanSpec> spec = NewScanSpec(plan, now_seconds);
  const rocksdb::ReadOptions read_options = SelectReadOptions(snapshot, spec);
  uint64_t rejected = 0;
  RowScanner scanner(
      context_.db, context_.column_family, current, [this] { return codec(); }, now_seconds);
  for (const PartitionScan& partition : plan.partitions) {
    if (plan.limit != 0 && result->rows.size() >= plan.limit) break;
    s = scanner.Scan(read_options, partition.range, plan.reversed, [&](const ScannedRow& row) {
      // The full predicate, again, on the merged row (the reconciliation rule, pushdown.h).
      if (!RowMatchesFilter(plan, scanner.schema(), partition.partition_key, row)) {
        rejected++;
        return true;
      }
      ProjectRow(plan, partition.partition_key, row, now_seconds, result->AppendRow());
      return plan.limit == 0 || result->rows.size() < plan.limit;
    });
    if (!s.ok()) {
      result->rows.clear();
      return WithName(s);
    }
  }
  if (stats != nullptr) CopyStats(*spec->counters, rejected, stats);
  return Status::OK();
}

void Table::CopyStats(const PushdownCounters& counters, uint64_t rejected, SelectStats* stats) {
  stats->files_skipped = counters.files_skipped;
  stats->row_groups_pruned = counters.row_groups_pruned;
  stats->row_groups_without_match = counters.row_groups_without_match;
  stats->row_groups_with_match = counters.row_groups_with_match;
  stats->rows_built = counters.rows_built;
  stats->placeholders = counters.placeholders;
  stats->rows_dropped = counters.rows_dropped;
  stats->rows_rejected_after_merge = rejected;
}

}  // namespace columnar
