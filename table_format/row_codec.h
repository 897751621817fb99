// Row codec: the RocksDB value of a row, one canonical byte string per row content.
//
// Byte layout:
//
//   +--------+----------------+-------+--------------+-----------+----------+--------+
//   | format | schema_version | flags | [write_time] | [expiry]  | presence | values |
//   | u8 = 1 | varint32       | u8    | varint64     | varint64  | bitmap   |        |
//   +--------+----------------+-------+--------------+-----------+----------+--------+
//
//   schema_version  the version whose live regular columns the row holds (1..current)
//   flags           bit 0: write_time present; bit 1: expiry present; other bits zero
//   write_time      ZigZag of the write time in microseconds since the epoch
//   expiry          seconds since the epoch after which the row is expired
//   presence        ceil(n / 8) bytes, n = regular columns live at schema_version, in
//                   column-id order; bit i (LSB first) set = column i has a value.
//                   Padding bits are zero.
//   values          for each present column, in the same order:
//                     boolean 1 byte (0 or 1); int, date, float 4 bytes little-endian;
//                     bigint, timestamp, double 8 bytes little-endian (floats as raw bits);
//                     uuid 16 bytes; text, ascii, blob varint32 length + bytes.
//
// Canonical: varints are minimal, flags and padding bits are zero, booleans are 0 or 1,
// ascii bytes are < 0x80, and nothing follows the last value. The decoder rejects anything
// else as Corruption, so every value it accepts re-encodes to the same bytes.
//
// Reading a row written at an older version with the current schema: columns added since
// read as null, columns dropped since are skipped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table_format/schema.h"
#include "table_format/types.h"
#include "table_format/value.h"

namespace columnar {

inline constexpr uint8_t kRowFormatVersion = 1;

struct RowMetadata {
  uint32_t schema_version = 1;
  bool has_write_time = false;
  int64_t write_time_micros = 0;
  bool has_expiry = false;
  uint64_t expiry_seconds = 0;
};

bool operator==(const RowMetadata& a, const RowMetadata& b);

// One regular column of an encoded row, without building a Value: the fast path of the SST
// builder (split values into typed columns) and reader (rebuild values from columns).
struct RowCell {
  uint32_t column_id = 0;
  LogicalType type = LogicalType::kText;
  bool present = false;
  uint64_t fixed_bits = 0;  // fixed-width types: the Value::FixedBits() bit pattern
  Slice bytes;              // byte-string types; points into the decoded value or the caller's
};

// Encodes and decodes rows of one table. Holds a copy of the schema and the column layout
// of every version, so per-row calls allocate nothing beyond their outputs.
class RowCodec {
 public:
  explicit RowCodec(TableSchema schema);

  const TableSchema& schema() const { return schema_; }
  // Ids of the regular columns a row written at `version` holds, in id order; nullptr for a
  // version outside 1..schema().version().
  const std::vector<uint32_t>* ColumnsAt(uint32_t version) const;

  // `cells` must be one per ColumnsAt(meta.schema_version) column, in that order. Appends the
  // value to *out. InvalidArgument on a layout, type or well-formedness mismatch.
  Status EncodeCells(const RowMetadata& meta, const std::vector<RowCell>& cells,
                     std::string* out) const;
  // Only the row's metadata (format, version, write time, expiry), without reading its cells:
  // the cheap check of compaction-time collectors. Corruption when the header is malformed.
  Status DecodeMetadata(const Slice& value, RowMetadata* meta) const;

  // Fills *meta and one cell per ColumnsAt(meta->schema_version) column; cell bytes point
  // into `value`. Corruption when the value is malformed or not canonical.
  Status DecodeCells(const Slice& value, RowMetadata* meta, std::vector<RowCell>* cells) const;

  // Whole rows, indexed by column id (size up to schema().next_column_id(); missing entries
  // and key columns are ignored). Encodes the columns live at meta.schema_version; a non-null
  // value for a regular column not live at that version is an InvalidArgument.
  Status EncodeRow(const RowMetadata& meta, const Row& row, std::string* out) const;
  // *row gets next_column_id() entries: the row's values for columns live now, null
  // elsewhere (columns added after the row was written, dropped columns, key columns).
  Status DecodeRow(const Slice& value, RowMetadata* meta, Row* row) const;

 private:
  TableSchema schema_;
  std::vector<std::vector<uint32_t>> columns_by_version_;  // index: version - 1
};

// One-off conveniences (they build a RowCodec per call).
Status EncodeRow(const TableSchema& schema, const RowMetadata& meta, const Row& row,
                 std::string* out);
Status DecodeRow(const TableSchema& schema, const Slice& value, RowMetadata* meta, Row* row);

// A cell holding `value` (null -> absent) for column `column_id` of type `type`; bytes point
// into `value`, which must outlive the cell.
RowCell CellFromValue(uint32_t column_id, LogicalType type, const Value& value);
// The value a present or absent cell holds.
Value ValueFromCell(const RowCell& cell);
// ValueFromCell into an existing value, reusing its buffer.
void AssignFromCell(const RowCell& cell, Value* out);

}  // namespace columnar
