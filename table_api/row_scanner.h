// RowScanner: reads the rows of one key range of a table's column family through a RocksDB
// iterator whose bounds confine it to the range, forward or backward, decoding each key and
// value and skipping expired rows (expiry <= now), so they are never returned even before
// compaction removes them.
#pragma once

#include <rocksdb/db.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "table_format/key_codec.h"
#include "table_format/row_codec.h"

namespace columnar {

// One live row as read back. Valid during the visit only (cells point into the entry).
struct ScannedRow {
  // Partition key values, in key order: only with RowScanner::DecodePartitions.
  std::vector<Value> partition;
  std::vector<Value> clustering;  // clustering values, in key order
  // For rows with per-cell metadata (row codec format 2): the row's latest write time, and no
  // expiry (each cell has its own, in `versions`).
  RowMetadata meta;
  // The regular columns of the row's schema version, in column id order. For rows with per-cell
  // metadata, cells that are deleted, absent or expired at the scan's now are not present.
  std::vector<RowCell> cells;
  // Per-cell write times and expiries, parallel to `cells`, for rows with per-cell metadata;
  // empty for others (every cell has meta's).
  std::vector<CellVersion> versions;

  // The write time and expiry of column `column_id`'s cell, when it has a value.
  bool CellWriteTime(uint32_t column_id, int64_t* micros) const;
  bool CellExpiry(uint32_t column_id, bool* has_expiry, uint64_t* expiry_seconds) const;

  // The value of regular column `column_id`: null when unset or not in the row's version.
  Value ValueOf(uint32_t column_id) const;
  // ValueOf into an existing value, reusing its buffer.
  void AssignValueOf(uint32_t column_id, Value* out) const;
  bool HasValue(uint32_t column_id) const;

 private:
  const RowCell* FindCell(uint32_t column_id) const;
};

class RowScanner {
 public:
  // Returns false to stop the scan.
  using Visitor = std::function<bool(const ScannedRow& row)>;
  // The table's current codec.
  using LatestCodec = std::function<std::shared_ptr<const RowCodec>()>;

  // Rows with expiry <= now_seconds are skipped. A row written at a schema version newer than
  // `codec` knows (ALTER TABLE ran since the caller took it) is decoded with `latest_codec()`.
  RowScanner(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
             std::shared_ptr<const RowCodec> codec, LatestCodec latest_codec, int64_t now_seconds);

  // Visits the live rows of `range` (key order, or reversed) until `visit` returns false.
  // `read_options` is copied and given the range's bounds. Corruption naming the key when an
  // entry is not a row of the table.
  Status Scan(const rocksdb::ReadOptions& read_options, const KeyRange& range, bool reversed,
              const Visitor& visit);

  // Also decode each row's partition key values (scans across partitions).
  void DecodePartitions() { decode_partitions_ = true; }

  // The schema rows are decoded with (it moves to a newer one when rows need it).
  const TableSchema& schema() const { return codec_->schema(); }
  // The encoded partition key of the row being visited (valid during the visit).
  const std::string& current_partition() const { return partition_; }

 private:
  Status DecodeEntry(const Slice& key, const Slice& value, ScannedRow* row, bool* visible);
  // The value with codec_ into *row; *visible false for a row with per-cell metadata that has
  // nothing live at now.
  Status DecodeValue(const Slice& value, ScannedRow* row, bool* visible);

  rocksdb::DB* db_;
  rocksdb::ColumnFamilyHandle* column_family_;
  std::shared_ptr<const RowCodec> codec_;
  LatestCodec latest_codec_;
  int64_t now_seconds_;
  std::string partition_;  // the encoded partition components of the last key decoded
  bool decode_partitions_ = false;
  std::vector<Value> partition_values_;  // of partition_, with decode_partitions_
  RowVersions versions_;                 // scratch for rows with per-cell metadata
};

}  // namespace columnar
