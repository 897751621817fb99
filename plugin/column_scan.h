// ColumnScan: the columnar scan path (ARCHITECTURE.md section 6). A scan of one key range pins
// the column family's view (a referenced SuperVersion: memtables + current version) and cuts the
// range into pieces, in key order:
//   - a columnar piece is a key span that one ColumnarTable file is the only source of entries
//     in: no memtable (mutable or immutable) entry or range tombstone, no other file's key range
//     (which covers its range tombstones) overlaps it; the file's rows are all visible at the
//     read's snapshot and there is one version per user key (the file's largest sequence number
//     is 0, or it is an ingested file whose global sequence number is at or below the snapshot),
//     and the file holds no range tombstones. Such a piece is read as typed column vectors
//     straight from the decoded row groups holding its keys; where the span begins or ends
//     inside a group, the rows outside it are found by their keys and left out;
//   - every other piece is left to the caller's row path: a DB iterator confined to the piece,
//     at the same snapshot.
// The caller must read the row pieces at the snapshot given to Open (one taken before Open when
// the query has none), so both kinds of piece see the same data: files with sequence number 0
// and ingested files at or below the snapshot hold only versions visible at it.
//
// Only public RocksDB headers here: the Table API includes this file.
#pragma once

#include <rocksdb/db.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "filter/bound_predicate.h"
#include "filter/evaluator.h"
#include "filter/zone_map_set.h"
#include "table_format/key_codec.h"
#include "table_format/schema.h"
#include "table_format/typed_layout.h"

namespace columnar {

// A row group that a caller may answer from its statistics (its zone maps: row and null
// counts, exact fixed-width bounds, integer sums) instead of decoding it.
struct ColumnScanStatistics {
  const ZoneMapSet* zone_maps = nullptr;
  uint64_t rows = 0;
  // Set when every row of the group lies in one partition: its encoded partition key.
  bool one_partition = false;
  Slice partition;
};

// What a columnar piece reads from each row group.
struct ColumnScanRequest {
  // The query's full predicate (any column, partition key columns included), or null.
  std::shared_ptr<const BoundPredicate> predicate;
  std::shared_ptr<const FilterEvaluator> evaluator;  // prepared from `predicate`
  // Regular columns to decode (projection), by column id.
  std::vector<bool> regular_columns;
  // Whether blocks read and columns decoded go to the cache (rocksdb::ReadOptions::fill_cache).
  bool fill_cache = true;
  // Rows whose expiry is <= now are left out (negative: no expiry check), as the row path does.
  int64_t now_seconds = -1;
  // The key and metadata columns the visitor reads from ColumnScanGroup::columns; the others
  // are left empty. Expiries are decoded anyway for the expiry check unless the group's expiry
  // zone map shows that no row has expired.
  ScanColumnsWanted wanted;
  // Aggregates from row-group statistics (optional). A group every row of which the scan
  // returns -- every entry a typed Put stored with sequence number 0 in a file that holds one
  // visible version per key (which makes it a columnar piece), no row expired at now_seconds
  // (its expiry zone map), the predicate absent or true for every row by the zone maps
  // (PruneResult::kAllRowsMatch) -- is first offered here. Returning true means the caller
  // took the group from its statistics: it is neither decoded nor visited. Setting *keep_going
  // to false stops the piece, as a visit returning false does.
  std::function<bool(const ColumnScanStatistics& group, bool* keep_going)> answer_from_statistics;
};

// One row group of a columnar piece, valid during the visit only.
struct ColumnScanGroup {
  // False: the group holds entries that are not typed rows (deletions, merges, foreign
  // values, or non-zero sequence numbers); the caller reads `range` through its row path.
  bool columnar = true;
  KeyRange range;                              // the group's user-key span within the piece's
  const TypedGroupColumns* columns = nullptr;  // the request's `wanted` key and metadata columns
  // The regular columns of the request, by column id; null for the others and for columns the
  // file's schema does not have (every row null). Only the selected rows are sure to be
  // materialised; nulls are exact for every row.
  std::vector<const ColumnVector*> regular;
  // Bit i (LSB-first words) set: row i is returned (not expired, matches the predicate).
  const uint64_t* selected = nullptr;
  size_t selected_count = 0;
};

// Which path served what, for SelectStats. Decoded columns are cached (the block cache) and
// shared by later scans of the same groups (ColumnarTableReader::CachedScanColumn).
struct ColumnScanCounters {
  uint64_t columnar_pieces = 0;
  uint64_t row_pieces = 0;
  uint64_t row_groups_read = 0;      // groups served as columns
  uint64_t row_groups_fallback = 0;  // groups of a columnar piece handed back to the row path
  uint64_t row_groups_pruned = 0;    // groups their zone maps ruled out
  uint64_t row_groups_from_statistics = 0;  // groups answered from their statistics
  uint64_t rows_from_statistics = 0;        // the rows of those groups
  // Regular columns of groups read as columns: decoded from the group's chunk, or taken
  // decoded from the cache.
  uint64_t columns_decoded = 0;
  uint64_t columns_cached = 0;
};

class ColumnScan {
 public:
  struct Piece {
    KeyRange range;
    bool columnar = false;
    // Columnar pieces: the file (index into the scan's files) and its groups [first, end)
    // holding the piece's keys; the first and the last may hold keys outside `range` too (their
    // rows outside it are not returned).
    size_t file = 0;
    size_t first_group = 0;
    size_t end_group = 0;
  };

  // Pins `column_family`'s view and plans `range`. `snapshot` (may be null = latest, for
  // callers that read no row piece) bounds what counts as visible. Only for column families
  // with a bytewise comparator; otherwise (and for a DB that is not a DBImpl) one row piece.
  static Status Open(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                     const rocksdb::Snapshot* snapshot, const KeyRange& range,
                     std::unique_ptr<ColumnScan>* out);
  // Whether a scan of `range` could have columnar pieces: some file overlapping it whose
  // sequence numbers are all 0, or one ingested (a single sequence number). False means every
  // piece would be a row piece, as while a database holds only memtables and flushed files;
  // true may still plan none (the check opens no file).
  static bool MayHaveColumnarPieces(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                                    const KeyRange& range);
  ~ColumnScan();
  ColumnScan(const ColumnScan&) = delete;
  ColumnScan& operator=(const ColumnScan&) = delete;

  const std::vector<Piece>& pieces() const;
  // The schema of a columnar piece's file (its typed layout's).
  const TableSchema& schema_of(size_t piece) const;

  // Visits the row groups of columnar piece `piece` in key order (reversed: last group first)
  // until `visit` returns false (*stopped is then set, when given).
  using GroupVisitor = std::function<bool(const ColumnScanGroup& group)>;
  Status ReadPiece(size_t piece, const ColumnScanRequest& request, bool reversed,
                   const GroupVisitor& visit, bool* stopped = nullptr);

  const ColumnScanCounters& counters() const;

 private:
  class Impl;
  explicit ColumnScan(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace columnar
