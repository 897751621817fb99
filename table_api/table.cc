#include "table_api/table.h"

#include <rocksdb/write_batch.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "plugin/column_scan.h"
#include "table_api/aggregation.h"
#include "table_api/row_scanner.h"
#include "table_api/scan_executor.h"
#include "table_api/status_context.h"
#include "table_format/cell_reconcile.h"
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

Status Table::DecodeStored(const RowCodec& codec, const Slice& stored, RowVersions* row) const {
  Status s = codec.DecodeVersions(stored, row);
  if (s.ok()) return s;
  if (this->codec()->schema().version() > codec.schema().version()) {
    return Status::TryAgain("the table's schema changed during the write; retry it");
  }
  return WithContext("stored row", s);
}

Status Table::MergeWithStored(const RowCodec& codec, const std::string& key, const Slice& partition,
                              const std::string* in_batch, const RowVersions& incoming,
                              bool whole_row, int64_t timestamp, int64_t now_micros,
                              std::string* value) const {
  std::string stored;
  Status s;
  if (in_batch != nullptr) {
    // Written earlier in the batch; empty when that write left nothing (a Delete).
    stored = *in_batch;
    if (stored.empty()) s = Status::NotFound();
  } else {
    s = context_.db->Get(rocksdb::ReadOptions(), context_.column_family, key, &stored);
    if (!s.ok() && !s.IsNotFound()) return s;
  }
  RowVersions merged;
  if (s.IsNotFound()) {
    merged = incoming;
  } else {
    RowVersions current;
    s = DecodeStored(codec, stored, &current);
    if (!s.ok()) return s;
    if (current.schema_version != incoming.schema_version) {
      RowVersions converted;
      s = RowVersionsAt(codec, current, incoming.schema_version, &converted);
      if (!s.ok()) return s;
      current = std::move(converted);
    }
    // Expired cells are gone on one node: they neither show nor shadow (as after compaction).
    DropExpired(&current, MicrosToSeconds(now_micros));
    s = MergeRowVersions(current, incoming, &merged);
    if (!s.ok()) return s;
    // A whole row above a row deletion hides everything the deletion hid, for as long as it
    // lives; the deletion goes, as it does when the row is a blind Put (docs/cell_semantics.md).
    if (whole_row && merged.has_deletion && merged.deletion_time_micros < timestamp) {
      merged.has_deletion = false;
      merged.deletion_time_micros = 0;
    }
  }
  // A deletion of the partition hides what is written at or below its timestamp, also when it
  // arrives later (partition_deletions.h).
  bool partition_deleted = false;
  int64_t partition_deletion = 0;
  s = context_.partition_deletions->Find(partition, MicrosToSeconds(now_micros),
                                         GcGraceSeconds(codec.schema().options()),
                                         &partition_deleted, &partition_deletion);
  if (!s.ok()) return s;
  if (partition_deleted) HideWrittenAtOrBefore(partition_deletion, &merged);
  value->clear();
  if (IsEmptyRow(merged)) return Status::OK();  // nothing to store: the caller deletes the key
  s = codec.EncodeVersions(merged, value);
  if (s.ok() && key.size() + value->size() > kMaxRowBytes) {
    s = Status::InvalidArgument("the merged row of " + std::to_string(value->size()) +
                                " bytes is larger than the largest row a table stores (" +
                                std::to_string(kMaxRowBytes) + " bytes)");
  }
  return s;
}

Status Table::ApplyWrites(const RowCodec& codec, const std::vector<RowWrite>& writes) {
  WriteOrder& order = *context_.write_order;
  const int64_t now = order.NowMicros();
  // Before the lock, in parallel with other writers: validate and encode.
  struct Prepared {
    std::string key;
    size_t partition_length = 0;  // the encoded partition key's prefix of `key`
    std::string value;            // a whole row's blind Put; after the lock: what was written
    int64_t timestamp = 0;        // the write's (its option's, or the server's)
    bool whole_row = false;       // a whole-row INSERT: a blind Put when above the high-water mark
    RowVersions versions;         // the cells it sets, for a merge
    Slice partition() const { return Slice(key.data(), partition_length); }
  };
  std::vector<Prepared> prepared(writes.size());
  std::vector<Slice> partitions(writes.size());
  // One server timestamp per call, for every write of it that names none.
  const int64_t server_time = order.NextServerTime();
  for (size_t i = 0; i < writes.size(); i++) {
    const RowWrite& write = writes[i];
    Prepared& p = prepared[i];
    p.timestamp = write.options.write_time_micros.value_or(server_time);
    p.whole_row = write.kind == WriteKind::kInsert && NamesEveryColumn(codec.schema(), write);
    Status s;
    if (p.whole_row) {
      RowWriteOptions options = write.options;
      options.write_time_micros = p.timestamp;
      s = EncodeRowWrite(codec, write.values, options, now, &p.key, &p.value);
    } else {
      s = BuildRowVersions(codec, write, p.timestamp, now, &p.key, &p.versions);
    }
    if (s.ok()) s = PartitionKeyLength(codec.schema(), p.key, &p.partition_length);
    if (!s.ok()) {
      return writes.size() == 1 ? s : WithContext("row " + std::to_string(i) + " of the batch", s);
    }
    partitions[i] = p.partition();
  }

  // Under the partitions' locks: no other write to these keys can come in between the reads
  // of the merges and the write.
  const std::unique_ptr<WriteOrder::Turn> turn = order.Lock(partitions);
  rocksdb::WriteBatch batch;
  // Keys written earlier in this batch, to the index of their write. Ingestion batches come in
  // key order, and then no key repeats: the map is only built when the keys are not ascending.
  bool ascending = true;
  for (size_t i = 1; i < prepared.size() && ascending; i++) {
    ascending = prepared[i - 1].key < prepared[i].key;
  }
  std::unordered_map<std::string_view, size_t> earlier;
  for (size_t i = 0; i < prepared.size(); i++) {
    Prepared& p = prepared[i];
    const auto seen = ascending ? earlier.end() : earlier.find(p.key);
    const bool first_in_batch = seen == earlier.end();
    Status s;
    if (!(p.whole_row && first_in_batch && turn->AboveHighWater(i, p.timestamp))) {
      // Merged with the stored row (or the batch's earlier write of the key). A whole row
      // decodes from its own encoding (cells point into p.value until it is replaced).
      if (p.whole_row) {
        s = codec.DecodeVersions(p.value, &p.versions);
        StampLocalDeletionTime(now, &p.versions);  // its nulls are deletions made now
      }
      std::string merged;
      if (s.ok()) {
        s = MergeWithStored(codec, p.key, p.partition(),
                            first_in_batch ? nullptr : &prepared[seen->second].value, p.versions,
                            p.whole_row, p.timestamp, now, &merged);
      }
      if (s.ok()) p.value = std::move(merged);
    }
    // Otherwise every cell it writes wins over anything stored: the blind Put is the merged row.
    if (s.ok()) {
      s = p.value.empty() ? batch.Delete(context_.column_family, p.key)
                          : batch.Put(context_.column_family, p.key, p.value);
    }
    if (!s.ok()) {
      return writes.size() == 1 ? s : WithContext("row " + std::to_string(i) + " of the batch", s);
    }
    if (!ascending) earlier[p.key] = i;
    turn->Raise(i, p.timestamp);
  }
  turn->AddStoredBound(&batch);
  Status s = Write(&batch);
  turn->Written(s.ok());
  return s;
}

Status Table::Write(rocksdb::WriteBatch* batch) {
  return context_.db->Write(context_.write_options, batch);
}

Status Table::InsertBatch(const std::vector<RowWrite>& rows) {
  return WithName(ApplyWrites(*codec(), rows));
}

Status Table::ApplyBatch(const std::vector<RowWrite>& writes) {
  return WithName(ApplyWrites(*codec(), writes));
}

namespace {

// Named rows as RowWrites of `kind` naming their regular columns.
Status NamedWrites(const TableSchema& schema, const std::vector<NamedRow>& rows,
                   const RowWriteOptions& options, WriteKind kind, std::vector<RowWrite>* writes) {
  writes->reserve(rows.size());
  for (size_t i = 0; i < rows.size(); i++) {
    Row row;
    Status s = RowFromNamedRow(schema, rows[i], &row);
    if (!s.ok()) {
      return rows.size() == 1 ? s : WithContext("row " + std::to_string(i) + " of the batch", s);
    }
    writes->emplace_back(std::move(row), options);
    writes->back().kind = kind;
    writes->back().named.assign(schema.columns().size(), false);
    for (const auto& [name, value] : rows[i]) {
      writes->back().named[schema.FindColumn(name)->id] = true;
    }
  }
  return Status::OK();
}

}  // namespace

Status Table::InsertBatch(const std::vector<NamedRow>& rows, const RowWriteOptions& options) {
  const std::shared_ptr<const RowCodec> current = codec();
  std::vector<RowWrite> writes;
  Status s = NamedWrites(current->schema(), rows, options, WriteKind::kInsert, &writes);
  for (RowWrite& write : writes) write.named.clear();  // whole rows
  return WithName(s.ok() ? ApplyWrites(*current, writes) : s);
}

Status Table::InsertCells(const NamedRow& row, const RowWriteOptions& options) {
  const std::shared_ptr<const RowCodec> current = codec();
  std::vector<RowWrite> writes;
  Status s = NamedWrites(current->schema(), {row}, options, WriteKind::kInsert, &writes);
  return WithName(s.ok() ? ApplyWrites(*current, writes) : s);
}

Status Table::Insert(const Row& row, const RowWriteOptions& options) {
  return InsertBatch(std::vector<RowWrite>{RowWrite(row, options)});
}

Status Table::Insert(const NamedRow& row, const RowWriteOptions& options) {
  return InsertBatch(std::vector<NamedRow>{row}, options);
}

Status Table::Update(const NamedRow& row, const RowWriteOptions& options) {
  const std::shared_ptr<const RowCodec> current = codec();
  std::vector<RowWrite> writes;
  Status s = NamedWrites(current->schema(), {row}, options, WriteKind::kUpdate, &writes);
  return WithName(s.ok() ? ApplyWrites(*current, writes) : s);
}

Status Table::DeleteCells(const std::vector<Value>& partition_key,
                          const std::vector<Value>& clustering_key,
                          const std::vector<std::string>& columns, const RowWriteOptions& options) {
  const std::shared_ptr<const RowCodec> current = codec();
  Row row;
  Status s = KeyRow(current->schema(), partition_key, clustering_key, &row);
  if (!s.ok()) return WithName(s);
  RowWrite write(std::move(row), options);
  write.kind = WriteKind::kDeleteCells;
  write.named.assign(current->schema().columns().size(), false);
  for (const std::string& name : columns) {
    const ColumnDef* column = current->schema().FindColumn(name);
    if (column == nullptr || !column->is_live()) {
      return WithName(Status::InvalidArgument("unknown column '" + name + "'"));
    }
    if (column->is_key()) {
      return WithName(Status::InvalidArgument("cannot delete primary key column '" + name +
                                              "' (delete the row instead)"));
    }
    write.named[column->id] = true;
  }
  return WithName(ApplyWrites(*current, {write}));
}

Status Table::DeleteRow(const std::vector<Value>& partition_key,
                        const std::vector<Value>& clustering_key, const RowWriteOptions& options) {
  const std::shared_ptr<const RowCodec> current = codec();
  Row row;
  Status s = KeyRow(current->schema(), partition_key, clustering_key, &row);
  if (!s.ok()) {
    // The key codec's message names the missing or mistyped column.
    std::string key;
    Status key_status = EncodeKey(current->schema(), partition_key, clustering_key, &key);
    return WithName(key_status.ok() ? s : key_status);
  }
  RowWrite write(std::move(row), options);
  write.kind = WriteKind::kDeleteRow;
  return WithName(ApplyWrites(*current, {write}));
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

Status Table::HideRowsOfPartition(const RowCodec& codec, const std::string& start,
                                  int64_t timestamp, int64_t now_micros,
                                  rocksdb::WriteBatch* batch) const {
  rocksdb::ReadOptions options;
  std::string limit;
  const bool bounded = PrefixSuccessor(start, &limit);
  const Slice upper(limit);
  if (bounded) options.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it(context_.db->NewIterator(options, context_.column_family));
  for (it->Seek(start); it->Valid() && it->key().starts_with(start); it->Next()) {
    RowVersions row;
    Status s = DecodeStored(codec, it->value(), &row);
    if (!s.ok()) return s;
    DropExpired(&row, MicrosToSeconds(now_micros));
    HideWrittenAtOrBefore(timestamp, &row);
    if (IsEmptyRow(row)) {
      s = batch->Delete(context_.column_family, it->key());
    } else {
      std::string value;
      s = codec.EncodeVersions(row, &value);
      if (s.ok() && Slice(value) != it->value()) {
        s = batch->Put(context_.column_family, it->key(), value);
      }
    }
    if (!s.ok()) return s;
  }
  return it->status();
}

Status Table::DeletePartition(const std::vector<Value>& partition_key,
                              const RowWriteOptions& options) {
  if (options.ttl_seconds.has_value() || options.expiry_seconds.has_value()) {
    return WithName(Status::InvalidArgument("a DELETE takes no TTL or expiry (only a TIMESTAMP)"));
  }
  const std::shared_ptr<const RowCodec> current = codec();
  std::string start, limit;
  Status s = EncodePartitionKey(current->schema(), partition_key, &start);
  if (!s.ok()) return WithName(s);
  WriteOrder& order = *context_.write_order;
  const int64_t now = order.NowMicros();
  const int64_t timestamp =
      options.write_time_micros.has_value() ? *options.write_time_micros : order.NextServerTime();
  // Under the partition's lock, so that no merge reads the partition before the deletion and
  // writes what it read after it.
  const std::unique_ptr<WriteOrder::Turn> turn = order.Lock({Slice(start)});
  rocksdb::WriteBatch batch;
  if (!turn->AboveHighWater(0, timestamp)) {
    // The partition may hold cells written after `timestamp`: they stay (Cassandra's rule), so
    // its rows are rewritten one by one.
    s = HideRowsOfPartition(*current, start, timestamp, now, &batch);
  } else if (PrefixSuccessor(start, &limit)) {
    // Everything stored in the partition is older: one range deletion removes it.
    s = batch.DeleteRange(context_.column_family, start, limit);
  } else {
    // An all-0xFF partition key has no successor, so no range end: its keys are exactly the
    // keys from it to the end of the key space, deleted one by one.
    s = DeleteKeysFrom(start, &batch);
  }
  // Kept for writes that arrive later at or below `timestamp`.
  PartitionDeletions& deletions = *context_.partition_deletions;
  const int64_t now_seconds = MicrosToSeconds(now);
  bool found = false;
  int64_t stored = 0;
  if (s.ok()) {
    s = deletions.Find(start, now_seconds, GcGraceSeconds(current->schema().options()), &found,
                       &stored);
  }
  if (s.ok()) {
    s = deletions.Add(start, found ? std::max(stored, timestamp) : timestamp, now_seconds, &batch);
  }
  if (!s.ok()) return WithName(s);
  turn->Raise(0, timestamp);
  turn->AddStoredBound(&batch);
  s = Write(&batch);
  turn->Written(s.ok());
  return WithName(s);
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
  // A partition with nothing to read column-wise (as while the database holds only memtables
  // and flushed files) takes the row path, and so no implicit snapshot: releasing one has
  // RocksDB rewrite the flushed files that are still bottommost, to zero their sequence
  // numbers (a compaction a row-path read does not cause; 5% of a short devops load's CPU).
  if (settings.columnar && query.snapshot == nullptr && plan.partitions.size() == 1 &&
      !ColumnScan::MayHaveColumnarPieces(context_.db, context_.column_family,
                                         plan.partitions.front().range)) {
    settings.columnar = false;
  }
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
