#include "table_api/row_writer.h"

#include "table_format/key_codec.h"

namespace columnar {
namespace {

const char* KeyRoleName(ColumnRole role) {
  return role == ColumnRole::kPartitionKey ? "partition key" : "clustering";
}

Status CheckColumnValue(const ColumnDef& column, const Value& value) {
  if (!column.is_live()) {
    if (value.is_null()) return Status::OK();
    return Status::InvalidArgument("column '" + column.name +
                                   "' was dropped; its entry in the row must be null");
  }
  if (value.is_null()) {
    if (!column.is_key()) return Status::OK();  // unset regular column
    return Status::InvalidArgument(std::string("missing value for ") + KeyRoleName(column.role) +
                                   " column '" + column.name + "'");
  }
  return CheckValueForColumn(value, column.type, column.name);
}

Status CheckRow(const TableSchema& schema, const Row& row) {
  const std::vector<ColumnDef>& columns = schema.columns();
  if (row.size() > columns.size()) {
    return Status::InvalidArgument("row has " + std::to_string(row.size()) +
                                   " values, but the table has " + std::to_string(columns.size()) +
                                   " columns");
  }
  static const Value kNull;
  for (const ColumnDef& column : columns) {
    Status s = CheckColumnValue(column, column.id < row.size() ? row[column.id] : kNull);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status ExpiryFromTtl(int64_t ttl_seconds, int64_t now_seconds, RowMetadata* meta) {
  if (ttl_seconds < 0 || ttl_seconds > kMaxTimeToLiveSeconds) {
    return Status::InvalidArgument("TTL must be between 0 and " +
                                   std::to_string(kMaxTimeToLiveSeconds) + " seconds, got " +
                                   std::to_string(ttl_seconds));
  }
  if (ttl_seconds == 0) return Status::OK();  // USING TTL 0: never expires
  const int64_t expiry = now_seconds + ttl_seconds;
  if (expiry < 0) {
    return Status::InvalidArgument("TTL " + std::to_string(ttl_seconds) +
                                   " from the clock's now gives an expiry before the epoch");
  }
  meta->has_expiry = true;
  meta->expiry_seconds = static_cast<uint64_t>(expiry);
  return Status::OK();
}

Status ResolveExpiry(const TableSchema& schema, const RowWriteOptions& options, int64_t now_seconds,
                     RowMetadata* meta) {
  if (options.ttl_seconds.has_value() && options.expiry_seconds.has_value()) {
    return Status::InvalidArgument("give either a TTL or an absolute expiry, not both");
  }
  if (options.ttl_seconds.has_value())
    return ExpiryFromTtl(*options.ttl_seconds, now_seconds, meta);
  if (options.expiry_seconds.has_value()) {
    if (*options.expiry_seconds < 0) {
      return Status::InvalidArgument("expiry must be seconds since the epoch (>= 0), got " +
                                     std::to_string(*options.expiry_seconds));
    }
    meta->has_expiry = true;
    meta->expiry_seconds = static_cast<uint64_t>(*options.expiry_seconds);
    return Status::OK();
  }
  return ExpiryFromTtl(schema.options().default_time_to_live, now_seconds, meta);
}

// The key codec's EncodeKey, reading the key values in place.
Status EncodeRowKey(const TableSchema& schema, const Row& row, std::string* key) {
  key->clear();
  for (uint32_t id : schema.partition_key()) {
    const ColumnDef& column = schema.columns()[id];
    Status s = EncodeKeyComponent(row[id], column.type, ClusteringOrder::kAsc, column.name, key);
    if (!s.ok()) return s;
  }
  for (uint32_t id : schema.clustering_key()) {
    const ColumnDef& column = schema.columns()[id];
    Status s = EncodeKeyComponent(row[id], column.type, column.order, column.name, key);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status RowTooLarge(size_t bytes) {
  return Status::InvalidArgument("row of " + std::to_string(bytes) +
                                 " bytes is larger than the largest row a table stores (" +
                                 std::to_string(kMaxRowBytes) + " bytes)");
}

}  // namespace

int64_t MicrosToSeconds(int64_t micros) {
  const int64_t seconds = micros / 1000000;
  return (micros % 1000000 < 0) ? seconds - 1 : seconds;
}

Status RowFromNamedRow(const TableSchema& schema, const NamedRow& named, Row* row) {
  row->assign(schema.columns().size(), Value());
  for (const auto& [name, value] : named) {
    const ColumnDef* column = schema.FindColumn(name);
    if (column == nullptr) return Status::InvalidArgument("unknown column '" + name + "'");
    (*row)[column->id] = value;
  }
  return Status::OK();
}

Status KeyRow(const TableSchema& schema, const std::vector<Value>& partition_key,
              const std::vector<Value>& clustering_key, Row* row) {
  if (partition_key.size() != schema.partition_key().size() ||
      clustering_key.size() != schema.clustering_key().size()) {
    return Status::InvalidArgument(
        "the primary key needs " + std::to_string(schema.partition_key().size()) +
        " partition key and " + std::to_string(schema.clustering_key().size()) +
        " clustering values");
  }
  row->assign(schema.columns().size(), Value());
  for (size_t i = 0; i < partition_key.size(); i++) {
    (*row)[schema.partition_key()[i]] = partition_key[i];
  }
  for (size_t i = 0; i < clustering_key.size(); i++) {
    (*row)[schema.clustering_key()[i]] = clustering_key[i];
  }
  return Status::OK();
}

bool NamesEveryColumn(const TableSchema& schema, const RowWrite& write) {
  if (write.named.empty()) return true;
  for (const ColumnDef& column : schema.columns()) {
    if (column.is_key() || !column.is_live()) continue;
    if (column.id >= write.named.size() || !write.named[column.id]) return false;
  }
  return true;
}

Status BuildRowVersions(const RowCodec& codec, const RowWrite& write, int64_t timestamp,
                        int64_t now_micros, std::string* key, RowVersions* versions) {
  const TableSchema& schema = codec.schema();
  const Row& row = write.values;
  Status s = CheckRow(schema, row);
  if (!s.ok()) return s;
  const bool deletion =
      write.kind == WriteKind::kDeleteCells || write.kind == WriteKind::kDeleteRow;
  if (deletion &&
      (write.options.ttl_seconds.has_value() || write.options.expiry_seconds.has_value())) {
    return Status::InvalidArgument("a DELETE takes no TTL or expiry (only a TIMESTAMP)");
  }
  RowMetadata expiry;
  if (!deletion) s = ResolveExpiry(schema, write.options, MicrosToSeconds(now_micros), &expiry);
  if (s.ok()) s = EncodeRowKey(schema, row, key);
  if (!s.ok()) return s;
  size_t value_bytes = 0;
  for (const Value& v : row) value_bytes += IsBytesType(v.type()) ? v.bytes().size() : 0;
  if (key->size() + value_bytes > kMaxRowBytes) return RowTooLarge(key->size() + value_bytes);

  *versions = RowVersions();
  versions->schema_version = schema.version();
  if (write.kind == WriteKind::kInsert) {
    versions->has_liveness = true;
    versions->liveness = {timestamp, expiry.has_expiry, expiry.expiry_seconds};
  }
  if (write.kind == WriteKind::kDeleteRow) {
    versions->has_deletion = true;
    versions->deletion_time_micros = timestamp;
  }
  static const Value kNull;
  for (uint32_t id : *codec.ColumnsAt(schema.version())) {
    const ColumnDef& column = schema.columns()[id];
    const Value& value = id < row.size() ? row[id] : kNull;
    const bool named = write.named.empty() || (id < write.named.size() && write.named[id]);
    CellVersion version;
    if (named && write.kind != WriteKind::kDeleteRow) {
      if (write.kind == WriteKind::kDeleteCells && !value.is_null()) {
        return Status::InvalidArgument("a cell deletion of column '" + column.name +
                                       "' carries a value");
      }
      version.state = value.is_null() ? CellState::kDeleted : CellState::kLive;
      version.write_time_micros = timestamp;
      version.has_expiry = expiry.has_expiry;  // a null written with a TTL expires with it
      version.expiry_seconds = expiry.expiry_seconds;
    }
    versions->versions.push_back(version);
    versions->cells.push_back(
        CellFromValue(id, column.type, version.state == CellState::kLive ? value : kNull));
  }
  StampLocalDeletionTime(now_micros, versions);
  return Status::OK();
}

void StampLocalDeletionTime(int64_t now_micros, RowVersions* row) {
  if (!HasDeletions(*row)) return;
  row->has_local_deletion_time = true;
  row->local_deletion_seconds = MicrosToSeconds(now_micros);
}

Status EncodeRowWrite(const RowCodec& codec, const Row& row, const RowWriteOptions& options,
                      int64_t now_micros, std::string* key, std::string* value) {
  const TableSchema& schema = codec.schema();
  Status s = CheckRow(schema, row);
  if (!s.ok()) return s;
  RowMetadata meta;
  meta.schema_version = schema.version();
  meta.has_write_time = true;
  meta.write_time_micros = options.write_time_micros.value_or(now_micros);
  s = ResolveExpiry(schema, options, MicrosToSeconds(now_micros), &meta);
  if (s.ok()) s = EncodeRowKey(schema, row, key);
  if (!s.ok()) return s;
  // Refused before encoding when the values alone are too large (no copy of a huge value),
  // and after it for the exact size.
  size_t value_bytes = 0;
  for (const Value& v : row) value_bytes += IsBytesType(v.type()) ? v.bytes().size() : 0;
  if (key->size() + value_bytes > kMaxRowBytes) return RowTooLarge(key->size() + value_bytes);
  value->clear();
  s = codec.EncodeRow(meta, row, value);
  if (s.ok() && key->size() + value->size() > kMaxRowBytes) {
    s = RowTooLarge(key->size() + value->size());
  }
  return s;
}

}  // namespace columnar
