// TypedLayout: the row layout for column families with a table schema. Keys split into their
// typed clustering columns (the partition key is handled by the shared partition slot), values
// split into row metadata and one typed column per regular column, so each column gets an
// encoding that suits it (delta_of_delta for times, alp for floats, dictionaries for strings).
//
// Rows whose cells share the row's expiry (an INSERT naming some of the columns, an UPDATE of
// some cells of an INSERTed row; row_codec.h) are typed rows too: their columns without a cell
// are nulls in the typed columns, and slot 23 keeps their cell exceptions (which nulls are no
// cell at all, which cells have another write time). Files holding such rows are recorded with
// layout id 2 (kIdWithCellExceptions), so that a reader that does not know slot 23 refuses them
// rather than read those cells as deleted or written at the row's time.
//
// Any entry that is not a well-formed row of the schema still round-trips byte for byte: a
// key that does not decode keeps its bytes after the partition in `opaque_key`, a value that
// is not a canonical row (or is not a Put: deletions, merge operands, entities) is kept whole
// in `opaque_value`.
//
// Slots (after the shared slots 0-2 of layout_columns.h):
//   3        opaque_key    bytes   null for rows whose clustering key decodes
//   4        row_version   int32   schema version of a typed row (null for opaque values);
//                                  absent when every typed row has the file's schema version
//   5        opaque_value  bytes   null for typed rows
//   6        clustering column 0 minus its value in the group's first key (the index holds
//            that key), in its physical type, instead of slot 24; written when row 0's key is
//            typed, the column is integer-like and every difference fits the type. Files
//            written before it have slot 24 only; a group never has both.
//   7        expiry        int64   expiry minus transform 1 (the clustering column: times in
//                                  seconds, where a fixed TTL makes it constant) instead of
//                                  slot 17, ahead of the write time so that a group's usually
//                                  constant chunks (slots 6 and 7) follow its header as one run
//                                  for block compression (1.3 bytes a metrics group); never
//                                  with any 16 + t
//   8 + t    write_time    int64   the row's write time (microseconds) minus transform t of
//                                  the first clustering column (see below); null = none
//   16 + t   expiry        int64   the row's expiry (seconds) minus transform t, likewise
//   23       cell_exceptions bytes a typed row's cell exceptions (row_codec.h: the bytes of a
//                                  format-2 row whose cells share its expiry that format 1 does
//                                  not hold), null for other rows; only in files of layout id 2
//   24 + k   clustering column k, in its physical type (k < 40)
//   64 + id  regular column with schema column id `id`, in its physical type; a chunk of a
//            fixed-width column may be rice_delta_anchored to the column's minimum in the
//            group's zone map (ColumnObserver::Anchor), which readers then pass to it
//
// Row metadata is stored against the row's own clustering time when that makes it smaller:
// with time in seconds, write time minus time x 10^6 is the client's jitter (~17 bits), and
// expiry minus time is a constant for a fixed TTL (0 bits). Transforms t of the first
// clustering column c (integer types only): 0 none, 1: c, 2: c x 10^3, 3: c x 10^6,
// 4: floor(c / 10^3), 5: c x 86400, 6: c x 86400 x 10^6. The writer picks, per row group and
// per metadata column, the transform giving the smallest range; the slot records it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "table_format/file_dictionary.h"
#include "table_format/row_codec.h"
#include "table_format/row_layout.h"
#include "table_format/schema.h"

namespace columnar {

// The key and metadata columns of one row group, as the columnar scan path reads them (no keys
// or values are rebuilt), filled by TypedLayout::DecodeScanColumns; the regular columns are
// decoded one at a time (DecodeScanRegularColumn). Must not be moved once filled: `partitions`
// point into `partition_changes`.
struct TypedGroupColumns {
  uint32_t rows = 0;
  // False when some row is not a typed row of the schema (an opaque key or value: deletions,
  // merge operands, foreign values); nothing else is filled then.
  bool all_typed = true;
  std::vector<uint64_t> trailers;        // sequence << 8 | value type, per row
  ColumnVector partition_changes;        // slot 0, owned here for `partitions`
  std::vector<Slice> partitions;         // each row's encoded partition key
  std::vector<ColumnVector> clustering;  // every clustering column, in key order
  ColumnVector write_times;              // int64 microseconds; null = the row has none
  ColumnVector expiries;                 // int64 seconds since the epoch; null = never expires

  // Heap bytes held (a cache entry's charge).
  size_t MemoryUsage() const;
};

// Which columns of TypedGroupColumns a scan reads (DecodeScanColumns); trailers are always
// decoded. A column not wanted is left empty, so a scan pays only for what it reads (an
// aggregate of one regular column decodes neither keys nor row metadata).
struct ScanColumnsWanted {
  bool partitions = true;
  bool clustering = true;
  bool write_times = true;
  bool expiries = true;
};

class TypedLayout : public RowLayout {
 public:
  // `dictionaries`: the file dictionaries of the file being read (file_dictionary.h); none
  // when writing, or for files without them.
  // `id`: the layout id of the file being read (kId or kIdWithCellExceptions); writers start at
  // kId and raise RowGroupWriteContext::file_layout_id when a group needs more.
  explicit TypedLayout(TableSchema schema,
                       std::shared_ptr<const FileDictionarySet> dictionaries = nullptr,
                       uint32_t id = kId);

  static constexpr uint32_t kId = 1;
  // Files with rows with cell exceptions (slot 23).
  static constexpr uint32_t kIdWithCellExceptions = 2;
  static bool IsTypedId(uint32_t id) { return id == kId || id == kIdWithCellExceptions; }
  const char* Name() const override { return "typed"; }
  uint32_t Id() const override { return id_; }
  bool PartitionOf(const Slice& user_key, Slice* partition) const override;
  // Partition keys are self-delimiting: a key starting with `previous` is in it
  // (PartitionKeyLengthAfter).
  bool NextPartitionOf(const Slice& user_key, const Slice* previous,
                       Slice* partition) const override;
  Status WriteRowGroup(const Entry* entries, size_t count, const RowGroupWriteContext& context,
                       std::string* out) const override;
  Status DecodeRowGroup(const RowGroupView& view, const Slice& first_internal_key,
                        std::unique_ptr<DecodedRowGroup>* out) const override;
  // Keeps with the rows the columns the writer shows its observer, which a writer copying the
  // group verbatim (RowGroupWriteContext::verbatim_rows) shows its own instead of splitting
  // the rows again.
  Status DecodeRowGroupForCopy(const RowGroupView& view, const Slice& first_internal_key,
                               std::unique_ptr<DecodedRowGroup>* out) const override;

  const TableSchema& schema() const { return codec_.schema(); }

  // ---- predicate pushdown ----

  // Where schema column `column_id` (a clustering or regular column) is stored in a row
  // group, and as what; false for partition key columns and ids the schema does not have.
  bool ColumnSlot(uint32_t column_id, uint32_t* slot, PhysicalType* type) const;
  // The regular column stored in `slot` (64 + id), whose chunk may be anchored to the group's
  // zone-map minimum of the column (RowGroupView::anchored_slots); false for other slots.
  bool RegularColumnOfSlot(uint32_t slot, uint32_t* column_id) const;
  // The values of partition key column `column_id` for every row of the group. The partition
  // key is not stored per row (slot 0 and the group's first user key hold each partition
  // once), so it is decoded from the partitions. *known is false when some row's partition is
  // not a partition key of the schema (an opaque key): that row's value is unknown.
  Status PartitionColumnValues(const RowGroupView& view, const Slice& first_user_key,
                               uint32_t column_id, ColumnVector* out, bool* known) const;
  // The values of clustering column `column_id` for every row of the group (null where a row's
  // key is not a key of the schema). The first clustering column may be stored against its
  // value in the group's first key (slot 6), so callers decode it here rather than by its slot.
  Status ClusteringColumnValues(const RowGroupView& view, const Slice& first_user_key,
                                uint32_t column_id, ColumnVector* out) const;
  // False when some row of the group has a key that is not a key of the schema: its
  // clustering columns are stored as null although the row has no such values.
  bool ClusteringKnown(const RowGroupView& view) const;
  // The file dictionary of schema column `column_id`, or nullptr.
  const ColumnVector* FileDictionaryOf(uint32_t column_id) const;
  // The column name a slot's chunks are counted under in ColumnStats.
  std::string SlotName(uint32_t slot) const;

  // How DecodeSelected treats the typed rows of a group. Rows that are not typed rows of the
  // schema (deletions, merge operands, opaque values) are always returned whole.
  struct RowSelection {
    // Bit i (LSB-first 64-bit words) set: typed row i passes the scan's predicate.
    const uint64_t* passing = nullptr;
    // Regular columns kept in the values of passing rows, indexed by column id; empty keeps
    // every column.
    std::vector<bool> keep_columns;
    // Typed rows whose expiry is <= this fail as well.
    int64_t now_seconds = INT64_MIN;
    // The sequence number of every row when the file has a global one (ingested files).
    std::optional<uint64_t> global_sequence;
    // The value a failing row version gets when it must still shadow older versions.
    Slice placeholder;
  };
  struct SelectionCounts {
    size_t built = 0;         // typed rows returned with their (projected) values
    size_t placeholders = 0;  // failing row versions returned as placeholders
    size_t dropped = 0;       // failing row versions left out (sequence number 0)
  };

  // Like DecodeRowGroup, with `selection` applied: a failing typed row version is left out
  // when no older version of its key can exist (its sequence number is 0), and otherwise
  // returned with the placeholder value so it still shadows older versions (ARCHITECTURE.md
  // section 6).
  Status DecodeSelected(const RowGroupView& view, const Slice& first_internal_key,
                        const RowSelection& selection, std::unique_ptr<DecodedRowGroup>* out,
                        SelectionCounts* counts) const;

  // ---- the columnar scan path ----

  // Trailers, and those of partitions, clustering columns, write time and expiry `wanted`, of
  // every row (metadata resolved against the clustering time), into *out; stops early with
  // all_typed = false when a row is not a typed row of the schema, or when write times are
  // wanted and some cell has another write time than its row (cell exceptions).
  Status DecodeScanColumns(const RowGroupView& view, const Slice& first_internal_key,
                           TypedGroupColumns* out,
                           const ScanColumnsWanted& wanted = ScanColumnsWanted()) const;
  // The user key of typed row `row` of `columns` (decoded with partitions and clustering)
  // into *out.
  Status ScanRowUserKey(const TypedGroupColumns& columns, uint32_t row, std::string* out) const;
  // Regular column `column_id` of every row into *out, only the rows set in `wanted_rows`
  // (LSB-first words; null = all) materialised: other rows' values may be left empty, nulls
  // stay exact. A column the group has no chunk for reads as all null (the rows have no cell).
  Status DecodeScanRegularColumn(const RowGroupView& view, uint32_t column_id,
                                 const uint64_t* wanted_rows, ColumnVector* out) const;

 private:
  class Splitter;
  class Assembler;

  // The splitter of a group of `count` rows: the one kept in context.scratch, cleared, or a
  // new one (kept there, or in *own without scratch).
  Splitter* SplitterFor(const RowGroupWriteContext& context, size_t count,
                        std::unique_ptr<Splitter>* own) const;
  // Appends context.verbatim's bytes when they decode alike in this file (AnchorsKnown),
  // counting its chunks and the layout id it needs; false when they do not.
  bool WriteVerbatim(const RowGroupWriteContext& context, std::string* out) const;
  // RowGroupWriteContext::verbatim: every anchored chunk of `view` finds its anchor in this
  // file's zone maps.
  bool AnchorsKnown(const RowGroupView& view, const ColumnObserver* observer) const;
  // Counts a verbatim group's chunks in `stats` as its own chunks are counted.
  void RecordVerbatimStats(const RowGroupView& view, ColumnStats* stats) const;

  RowCodec codec_;
  std::shared_ptr<const FileDictionarySet> dictionaries_;
  uint32_t id_;
};

}  // namespace columnar
