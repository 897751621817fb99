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
//
// Rows with per-cell metadata (Cassandra's cell semantics, docs/cell_semantics.md). A format-1
// row means: the row's primary key was written (an INSERT's row liveness) at write_time with
// expiry, and every regular column of its version has a cell written at write_time with that
// expiry: a value where the presence bit is set, a deletion (a null written) where it is not.
// (A deletion written with a TTL expires with it: once expired it is purged like the cells.) Any
// other row (cells written at other times or with other expiries, columns without any cell, no row
// liveness, a row deletion time) is format 2, which adds to format 1 only exceptions:
//
//   +--------+----------------+-------+--------------+----------+-----------------+
//   | format | schema_version | flags | [write_time] | [expiry] | [deletion_time] |
//   | u8 = 2 | varint32       | u8    | varint64     | varint64 | varint64        |
//   +--------+----------------+-------+--------------+----------+-----------------+
//   | [local_deletion_time] | presence | values | exception_count | exceptions       |
//   | varint64              | bitmap   |        | varint32 >= 0   | count x exception|
//   +-----------------------+----------+--------+-----------------+------------------+
//
//   flags          bit 0 write_time, bit 1 expiry, bit 2 the row has liveness (an INSERT
//                  wrote its key), bit 3 deletion_time present, bit 4 local_deletion_time
//                  present (only in a row with a row or cell deletion); other bits zero
//   local_deletion_time  ZigZag seconds since the epoch: when the row's latest deletion was
//                  made on this node (gc_grace_seconds counts from it)
//   write_time,    the defaults of every cell: the liveness's when bit 2 is set, otherwise
//   expiry         those of the first column that has a cell;
//                  both flags clear when there is neither liveness nor any cell
//   deletion_time  ZigZag microseconds: a row deletion that hides everything written at or
//                  before it (cells and liveness below it are not stored)
//   presence,      as in format 1: a set bit is a live cell with its value; a clear bit is a
//   values         cell deletion, unless an exception says the column has no cell
//   exception      column index (varint32, strictly increasing, < number of columns)
//                  | what (u8): bit 0 write time differs, bit 1 expiry differs, bit 2 no
//                  cell at all (clear presence bit only, alone)
//                  | [ZigZag varint64 write time if bit 0]
//                  | [varint64 if bit 1: 0 = the cell never expires, e = expiry e - 1]
//
// Canonical: as format 1, and the row is not expressible in format 1, defaults are chosen as
// above, every exception changes something (a written field differs from the default), and no
// stored cell or liveness is at or below the deletion time. The decoder re-encodes what it
// parsed and rejects bytes that differ, so format 2 is canonical by construction.
// Consumers that only know format 1 (DecodeCells, DecodeMetadata) get NotSupported/Corruption
// for format 2 rows and keep them whole (the compaction filter keeps them).
//
// Rows whose cells share the row's expiry: format 2 whose flags are write_time | liveness
// [| expiry] [| local_deletion_time] and whose exceptions are "no cell" or another write time,
// never another expiry (an INSERT naming some of the columns, an UPDATE of some cells of an
// INSERTed row). Every cell such a row has lives and expires with the row, so its values read
// as those of the format-1 row of the same header and values; the typed layout stores it as one
// plus the row's *cell exceptions*, the bytes format 1 does not hold:
//
//   +-------------------------------+-----------------------+-----------------+------------+
//   | flags u8: the row's flags     | [local_deletion_time] | exception_count | exceptions |
//   | without bits 0 and 1 (4 or 20)| varint64, as stored   | varint32 >= 1   | as stored  |
//   +-------------------------------+-----------------------+-----------------+------------+
//
// DecodeIntoColumns splits such a row, WriteColumnRow joins it back. Every other format-2 row
// is kept whole (opaque) by the typed layout.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/schema.h"
#include "table_format/types.h"
#include "table_format/value.h"

namespace columnar {

inline constexpr uint8_t kRowFormatVersion = 1;
inline constexpr uint8_t kRowFormatWithCellMetadata = 2;

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

// The most bytes a format-1 row's header takes: format, version (varint32), flags, write time
// and expiry (varint64 each).
inline constexpr size_t kMaxRowHeaderBytes = 1 + 5 + 1 + 10 + 10;

// A regular column of a row group as the source of one cell of each of its rows (TypedLayout's
// assembler): RowCodec::WriteColumnRow reads the cells straight from the columns, without
// RowCells.
struct ColumnCellSource {
  const ColumnVector* column = nullptr;  // of the type's physical type; nullptr: always absent
  LogicalType type = LogicalType::kText;
  // Present cells are checked row by row against the type (CellIsValid): the column may hold
  // values the type refuses (ColumnFitsType did not vouch for it).
  bool check = false;
};

// The state of one cell of a row, with per-cell metadata.
enum class CellState : uint8_t {
  kAbsent,   // no cell: nothing was written to the column (or a row deletion hid it)
  kLive,     // a value
  kDeleted,  // a cell deletion (DELETE col, or a null written), at write_time_micros
};

struct CellVersion {
  CellState state = CellState::kAbsent;
  int64_t write_time_micros = 0;  // unused for kAbsent (0)
  bool has_expiry = false;        // live cells and deletions (false for kAbsent)
  uint64_t expiry_seconds = 0;
};
bool operator==(const CellVersion& a, const CellVersion& b);

// Cassandra's row marker: the row exists (all cells null) from an INSERT until this expires or a
// deletion hides it.
struct RowLiveness {
  int64_t write_time_micros = 0;
  bool has_expiry = false;
  uint64_t expiry_seconds = 0;
};
bool operator==(const RowLiveness& a, const RowLiveness& b);

// A row with the full per-cell state (either format).
struct RowVersions {
  uint32_t schema_version = 1;
  bool has_liveness = false;
  RowLiveness liveness;
  bool has_deletion = false;
  int64_t deletion_time_micros = 0;  // hides cells and liveness written at or before it
  // When the latest of the row's deletions (the row deletion or a cell deletion) was made on
  // this node, in seconds: gc_grace_seconds counts from it, as Cassandra counts from a
  // tombstone's local deletion time. Absent in rows written before it was kept (gc_grace then
  // counts from the deletion timestamps) and kept only with a deletion in a format-2 row.
  bool has_local_deletion_time = false;
  int64_t local_deletion_seconds = 0;
  // One per ColumnsAt(schema_version) column, in that order; cells[i].present iff
  // versions[i].state == kLive.
  std::vector<RowCell> cells;
  std::vector<CellVersion> versions;
};

// Encodes and decodes rows of one table. Holds a copy of the schema and the column layout
// of every version, so per-row calls allocate nothing beyond their outputs.
// Whether the row holds a row deletion or a cell deletion (a tombstone).
bool HasDeletions(const RowVersions& row);

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
  // EncodeCells for cells built from a row's typed columns (TypedLayout's assembler): their ids
  // and types are those of ColumnsAt(meta.schema_version), in order, and a fixed-width cell's
  // bits come from a column of its type's physical width. Only what such columns can hold but
  // the types refuse is checked (a boolean above 1, ascii bytes, a uuid's length); the rest
  // holds by construction (and is checked too in builds with assertions).
  Status EncodeColumnCells(const RowMetadata& meta, const std::vector<RowCell>& cells,
                           std::string* out) const;
  // The bytes EncodeColumnCells writes for row `row` of the columns `sources` (one per
  // ColumnsAt(meta.schema_version) column, in that order, with those columns' types), written
  // at `out`, which has room for kMaxRowHeaderBytes, the presence bitmap and each present
  // cell's bytes (a byte string's: 5 + its length). Returns the end of the row, or nullptr when
  // a present cell that its source checks does not fit the type (EncodeColumnCells then says
  // why). Without RowCells, strings or appends: the assembly of every row a compaction reads.
  // With `cell_exceptions` (as DecodeIntoColumns gave them; room for them added), the format-2
  // row with those exceptions; nullptr also when they are not canonical for the row (a "no
  // cell" on a cell with a value, the row's own write time, an index out of order, no write
  // time, a local deletion time without a cell deletion).
  char* WriteColumnRow(const RowMetadata& meta, const ColumnCellSource* sources, size_t count,
                       size_t row, char* out, const Slice& cell_exceptions = Slice()) const;
  // True when every value of `column` (of `type`'s physical type, nulls included) fits `type`,
  // so that WriteColumnRow need not check its cells: always for the types whose physical
  // type holds nothing else, by a scan of the column for boolean and ascii, never for the
  // others (uuid, frozen types).
  static bool ColumnFitsType(const ColumnVector& column, LogicalType type);
  // Only the row's metadata (format, version, write time, expiry), without reading its cells:
  // the cheap check of compaction-time collectors. Corruption when the header is malformed.
  Status DecodeMetadata(const Slice& value, RowMetadata* meta) const;

  // Fills *meta and one cell per ColumnsAt(meta->schema_version) column; cell bytes point
  // into `value`. Corruption when the value is malformed or not canonical; NotSupported for a
  // row with per-cell metadata (format 2: use DecodeVersions).
  Status DecodeCells(const Slice& value, RowMetadata* meta, std::vector<RowCell>* cells) const;
  // DecodeCells with each cell appended to its column instead (TypedLayout's splitter: the
  // flush and compaction of every typed row): `columns` is indexed by column id (room for every
  // id of ColumnsAt(meta->schema_version)), and a cell goes to columns[its column id] as one
  // row: an absent cell as a null, a present one as its bytes to a byte-string column, else as
  // its fixed_bits (AppendFixedBits). The same Status as DecodeCells; when it is not OK, every
  // column is as it was (the cells appended before the problem was found are taken back).
  // With `cell_exceptions`, a row whose cells share its expiry (see the header) decodes too:
  // *meta is its header as format 1 reads it, and *cell_exceptions gets its cell exceptions (left
  // empty for a format-1 row); other format-2 rows are NotSupported.
  Status DecodeIntoColumns(const Slice& value, RowMetadata* meta, ColumnVector* columns,
                           std::string* cell_exceptions = nullptr) const;

  // Rows with per-cell state, in either format: format 1 when the row is expressible in it
  // (liveness, no deletion, every cell live or deleted at the liveness's write time and with its
  // expiry), so such rows keep exactly format 1's bytes. The write time and expiry of absent
  // cells are ignored. InvalidArgument on a layout, type or
  // well-formedness mismatch, or a cell or liveness at or below the deletion time.
  Status EncodeVersions(const RowVersions& row, std::string* out) const;
  // Either format; a format-1 row without a write time gives write times INT64_MIN (older than
  // anything). Cell bytes point into `value`. Corruption when malformed or not canonical.
  Status DecodeVersions(const Slice& value, RowVersions* row) const;
  // True when `value` starts with format byte 2 (it may still be malformed).
  // Whether cell exceptions (as DecodeIntoColumns gave them) give some cell another write time
  // than the row's; true too for bytes that are not cell exceptions.
  static bool CellExceptionsHaveWriteTimes(const Slice& cell_exceptions);
  static bool HasCellMetadata(const Slice& value) {
    return !value.empty() && static_cast<uint8_t>(value[0]) == kRowFormatWithCellMetadata;
  }

  // Whole rows, indexed by column id (size up to schema().next_column_id(); missing entries
  // and key columns are ignored). Encodes the columns live at meta.schema_version; a non-null
  // value for a regular column not live at that version is an InvalidArgument.
  Status EncodeRow(const RowMetadata& meta, const Row& row, std::string* out) const;
  // *row gets next_column_id() entries: the row's values for columns live now, null
  // elsewhere (columns added after the row was written, dropped columns, key columns).
  Status DecodeRow(const Slice& value, RowMetadata* meta, Row* row) const;

 private:
  // Checks the cells of a row at `schema_version`: every cell, or with `only`, those at the
  // positions it lists (the layout and count are checked either way).
  Status CheckCells(uint32_t schema_version, const std::vector<RowCell>& cells,
                    const std::vector<uint32_t>* only = nullptr) const;
  // The header and values of a row whose cells were checked.
  void AppendRow(const RowMetadata& meta, const std::vector<RowCell>& cells,
                 std::string* out) const;
  // The presence bitmap and values of the columns of `version` (a version of the schema).
  Status DecodeValues(Slice* in, uint32_t version, std::vector<RowCell>* cells) const;

  TableSchema schema_;
  std::vector<std::vector<uint32_t>> columns_by_version_;  // index: version - 1
  // Per version, a cell per column with its id and type, absent (DecodeValues starts from it).
  std::vector<std::vector<RowCell>> absent_cells_by_version_;
  // Per version, where DecodeIntoColumns puts each cell and how it reads it.
  struct CellPlan {
    uint32_t column_id;
    uint8_t kind;  // a CellKind of row_codec.cc
  };
  std::vector<std::vector<CellPlan>> cell_plans_by_version_;
  // Per version, the positions of the cells whose columns' physical types hold values the
  // logical types refuse (boolean, ascii, uuid): EncodeColumnCells checks only these.
  std::vector<std::vector<uint32_t>> constrained_cells_by_version_;
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
