// RowScanner: reads the rows of one key range of a table's column family through a RocksDB
// iterator whose bounds confine it to the range, forward or backward, decoding each key and
// value and skipping expired rows (expiry <= now), so they are never returned even before
// compaction removes them.
#pragma once

#include <rocksdb/db.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "table_format/key_codec.h"
#include "table_format/row_codec.h"

namespace columnar {

// One live row as read back.
struct ScannedRow {
  std::vector<Value> clustering;  // clustering values, in key order
  Row values;                     // indexed by column id (RowCodec::DecodeRow)
  RowMetadata meta;
};

class RowScanner {
 public:
  // Returns false to stop the scan.
  using Visitor = std::function<bool(const ScannedRow& row)>;

  // `codec` must outlive the scanner. Rows with expiry <= now_seconds are skipped.
  RowScanner(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family, const RowCodec* codec,
             int64_t now_seconds);

  // Visits the live rows of `range` (key order, or reversed) until `visit` returns false.
  // `read_options` is copied and given the range's bounds. Corruption naming the key when an
  // entry is not a row of the table.
  Status Scan(const rocksdb::ReadOptions& read_options, const KeyRange& range, bool reversed,
              const Visitor& visit) const;

 private:
  Status DecodeEntry(const Slice& key, const Slice& value, ScannedRow* row) const;

  rocksdb::DB* db_;
  rocksdb::ColumnFamilyHandle* column_family_;
  const RowCodec* codec_;
  int64_t now_seconds_;
};

}  // namespace columnar
