#include "table_api/row_scanner.h"

#include <algorithm>
#include <memory>

#include "plugin/pushdown.h"
#include "table_api/status_context.h"
#include "table_format/cell_reconcile.h"

namespace columnar {
namespace {

std::string HexKey(const Slice& key) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out = "0x";
  for (size_t i = 0; i < key.size(); i++) {
    const auto byte = static_cast<unsigned char>(key[i]);
    out.push_back(kDigits[byte >> 4]);
    out.push_back(kDigits[byte & 15]);
  }
  return out;
}

// Clustering values of `key` after its partition components (`partition_length` bytes).
Status DecodeClustering(const TableSchema& schema, Slice key, size_t partition_length,
                        std::vector<Value>* clustering) {
  key.remove_prefix(partition_length);
  clustering->resize(schema.clustering_key().size());
  for (size_t i = 0; i < clustering->size(); i++) {
    const ColumnDef& column = schema.clustering_column(i);
    Status s = DecodeKeyComponent(&key, column.type, column.order, &(*clustering)[i]);
    if (!s.ok()) return s;
  }
  if (!key.empty()) return Status::Corruption("key has bytes after its last component");
  return Status::OK();
}

}  // namespace

const RowCell* ScannedRow::FindCell(uint32_t column_id) const {
  const auto cell = std::lower_bound(
      cells.begin(), cells.end(), column_id,
      [](const RowCell& candidate, uint32_t id) { return candidate.column_id < id; });
  return cell != cells.end() && cell->column_id == column_id ? &*cell : nullptr;
}

Value ScannedRow::ValueOf(uint32_t column_id) const {
  const RowCell* cell = FindCell(column_id);
  return cell != nullptr ? ValueFromCell(*cell) : Value();
}

void ScannedRow::AssignValueOf(uint32_t column_id, Value* out) const {
  const RowCell* cell = FindCell(column_id);
  if (cell == nullptr) {
    out->AssignNull();
  } else {
    AssignFromCell(*cell, out);
  }
}

bool ScannedRow::HasValue(uint32_t column_id) const {
  const RowCell* cell = FindCell(column_id);
  return cell != nullptr && cell->present;
}

bool ScannedRow::CellWriteTime(uint32_t column_id, int64_t* micros) const {
  const RowCell* cell = FindCell(column_id);
  if (cell == nullptr || !cell->present) return false;
  if (versions.empty()) {
    *micros = meta.write_time_micros;
    return meta.has_write_time;
  }
  *micros = versions[cell - cells.data()].write_time_micros;
  return true;
}

bool ScannedRow::CellExpiry(uint32_t column_id, bool* has_expiry, uint64_t* expiry_seconds) const {
  const RowCell* cell = FindCell(column_id);
  if (cell == nullptr || !cell->present) return false;
  const CellVersion* version = versions.empty() ? nullptr : &versions[cell - cells.data()];
  *has_expiry = version != nullptr ? version->has_expiry : meta.has_expiry;
  *expiry_seconds = version != nullptr ? version->expiry_seconds : meta.expiry_seconds;
  return true;
}

RowScanner::RowScanner(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                       std::shared_ptr<const RowCodec> codec, LatestCodec latest_codec,
                       int64_t now_seconds)
    : db_(db),
      column_family_(column_family),
      codec_(std::move(codec)),
      latest_codec_(std::move(latest_codec)),
      now_seconds_(now_seconds) {}

Status RowScanner::DecodeValue(const Slice& value, ScannedRow* row, bool* visible) {
  *visible = true;
  row->versions.clear();
  if (!RowCodec::HasCellMetadata(value)) {
    const Status s = codec_->DecodeCells(value, &row->meta, &row->cells);
    *visible = !(s.ok() && row->meta.has_expiry && now_seconds_ >= 0 &&
                 row->meta.expiry_seconds <= static_cast<uint64_t>(now_seconds_));
    return s;
  }
  Status s = codec_->DecodeVersions(value, &versions_);
  if (!s.ok()) return s;
  *visible = RowVisibleAt(versions_, codec_->schema(), now_seconds_);
  row->meta = RowMetadata();
  row->meta.schema_version = versions_.schema_version;
  row->meta.has_write_time = versions_.has_liveness;
  row->meta.write_time_micros = versions_.liveness.write_time_micros;
  for (const CellVersion& version : versions_.versions) {
    if (version.state == CellState::kAbsent) continue;
    row->meta.write_time_micros =
        row->meta.has_write_time ? std::max(row->meta.write_time_micros, version.write_time_micros)
                                 : version.write_time_micros;
    row->meta.has_write_time = true;
  }
  row->cells = versions_.cells;
  row->versions = versions_.versions;
  for (size_t i = 0; i < row->cells.size(); i++) {
    if (row->cells[i].present && !CellLiveAt(row->versions[i], now_seconds_)) {
      row->cells[i].present = false;
    }
  }
  return Status::OK();
}

Status RowScanner::DecodeEntry(const Slice& key, const Slice& value, ScannedRow* row,
                               bool* visible) {
  Status s = DecodeValue(value, row, visible);
  if (!s.ok() && latest_codec_) {
    // Rows of a schema version the codec does not know yet: retry with the newest schema
    // (column ids are stable, so the caller's plan still applies).
    std::shared_ptr<const RowCodec> latest = latest_codec_();
    if (latest->schema().version() > codec_->schema().version()) {
      codec_ = std::move(latest);
      s = DecodeValue(value, row, visible);
    }
  }
  // Consecutive rows mostly share their partition: its components are walked once, then
  // recognised by their bytes (the encoding is prefix-free, so equal leading bytes are the
  // same components).
  if (s.ok() && (partition_.empty() || !key.starts_with(partition_))) {
    size_t length = 0;
    s = PartitionKeyLength(codec_->schema(), key, &length);
    if (s.ok()) partition_.assign(key.data(), length);
    if (s.ok() && decode_partitions_) {
      s = DecodePartitionKey(codec_->schema(), partition_, &partition_values_);
    }
  }
  if (s.ok() && decode_partitions_) row->partition = partition_values_;
  if (s.ok()) s = DecodeClustering(codec_->schema(), key, partition_.size(), &row->clustering);
  return s.ok() ? s : WithContext("row at key " + HexKey(key), s);
}

Status RowScanner::Scan(const rocksdb::ReadOptions& read_options, const KeyRange& range,
                        bool reversed, const Visitor& visit) {
  rocksdb::ReadOptions options = read_options;
  const Slice lower(range.start);
  const Slice upper(range.limit);
  options.iterate_lower_bound = &lower;
  options.iterate_upper_bound = range.limit_unbounded ? nullptr : &upper;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(options, column_family_));
  if (reversed) {
    it->SeekToLast();  // the last key below the upper bound
  } else {
    it->Seek(lower);
  }
  ScannedRow row;
  for (; it->Valid(); reversed ? it->Prev() : it->Next()) {
    // A row version a ColumnarTable reader filtered out (pushdown.h): not a result.
    if (it->value() == FilteredRowPlaceholder()) continue;
    bool visible = true;
    Status s = DecodeEntry(it->key(), it->value(), &row, &visible);
    if (!s.ok()) return s;
    if (visible && !visit(row)) break;
  }
  return it->status();
}

}  // namespace columnar
