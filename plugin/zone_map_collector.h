// ZoneMapCollector: builds, while a file is written, the zone maps of every row group's typed
// columns (and of row expiry), and the file's merged column statistics. Plugged into the typed
// layout as its ColumnObserver.
//
// Zone map block (raw content, framed with WriteBlock), row-major form:
//
//   varint32 row_group_count
//   per row group, in file order:
//     u8        flags: bit 0 = every row is a typed Put with sequence number 0 (so the group
//               may be skipped whole when its zone maps rule out every row)
//     varint32  length of the ZoneMapSet encoding (filter/zone_map_set.h), then the encoding
//
// Finish writes the same content column-major (zone_map_block.h), which compresses better;
// readers turn it back row-major (ZoneMapBlockToRowMajor) before ParseZoneMapBlock.
//
// Only the columns whose zone maps can ever exclude a group get them (zone_map_usefulness.h):
// the collector holds back the first kZoneMapSampleGroups groups of a file, decides per column
// from them, then writes every group without the columns left out (row expiry always stays).
// Readers treat a column without a zone map as "may match". The file's column statistics
// keep every column: they cost one map per file and still prune whole files (IS NULL on a
// column that is never null, a constant column, ...).
//
// Aggregate statistics: every map carries row and null counts and exact fixed-width bounds, so
// COUNT, MIN and MAX of a row group can be answered from it; the columns given to
// set_sum_columns (the schema's int and bigint regular columns) also carry their wrapping sum
// (zone_map.h), for SUM and AVG. A column left out of the zone maps has none of these: its
// aggregates decode the group (keeping bounds no predicate can use would cost more than the
// rare aggregate over such a column gains; README, "Aggregates from row-group statistics").
#pragma once

#include <set>
#include <string>
#include <vector>

#include "filter/file_column_stats.h"
#include "filter/zone_map_set.h"
#include "table_format/row_layout.h"

namespace columnar {

inline constexpr uint8_t kZoneMapGroupSkippable = 1;
// Row groups a file's zone-map decision is made from (fewer when the file has fewer).
inline constexpr size_t kZoneMapSampleGroups = 32;
// The zstd level the layouts are compared at: fast, the chosen layout is compressed again at
// the block's level (on the db_bench_ext workloads it picks the layouts level 9 picks).
inline constexpr int kZoneMapCompareLevel = 1;

class ZoneMapCollector : public ColumnObserver {
 public:
  // Column ids whose zone maps keep the sum of their values (int32 / int64 columns).
  void set_sum_columns(std::set<uint32_t> column_ids) { sum_columns_ = std::move(column_ids); }

  void BeginRowGroup(size_t rows) override;
  void OnColumn(uint32_t column_id, const ColumnVector& values) override;
  void OnExpiry(const ColumnVector& expiry_seconds) override;
  void OnTypedRows(size_t typed_rows) override;
  // The current group's exact minimum of a fixed-width column, once the file is known to keep
  // the column's zone maps (after the sample groups): chunks may be anchored to it, and
  // readers take it from the group's zone map (ColumnarTableReader::ParseRowGroup).
  bool Anchor(uint32_t column_id, uint64_t* anchor) const override;

  // Before the next group, when it is a compaction input's group copied as it was (the same
  // rows): the zone maps its file stored for it. A column's stored zone map is taken instead of
  // being built again from the same values (about 10% of a copying compaction's instructions);
  // columns the file left out are built. Dropped at EndRowGroup.
  void OfferStoredZoneMaps(ZoneMapSet stored);

  // Closes the current group; `all_sequence_zero_puts`: every entry was a Put with sequence
  // number 0.
  void EndRowGroup(bool all_sequence_zero_puts);

  bool empty() const { return groups_ == 0; }
  // The zone map block's raw content, column-major (decides the omitted columns first if still
  // open). Its two layouts are weighed compressed at zstd level `compare_level`; the builder
  // compresses the chosen one again at the block's level.
  void Finish(std::string* out, int compare_level = kZoneMapCompareLevel);
  // The block's raw content as the collector holds it, row-major, for files soon rewritten
  // (flushes): the column-major layouts compress smaller but cost two conversions and two
  // compressions to write and a conversion back at every open (7.5% of a devops flush's
  // instructions, its table opened once to be checked).
  void FinishRowMajor(std::string* out);
  // Every row of the file is a typed row.
  bool only_rows() const { return only_rows_; }
  const FileColumnStatsBuilder& file_stats() const { return file_stats_; }
  // Column ids whose zone maps this file leaves out (decided once the sample is complete, or
  // at Finish).
  const std::set<uint32_t>& omitted_columns() const { return omitted_; }

 private:
  struct HeldGroup {
    uint8_t flags;
    ZoneMapSet zone_maps;
  };
  void Decide();
  void Encode(uint8_t flags, const ZoneMapSet& zone_maps);
  // The offered zone map of `column_id` into current_, when there is one as BuildZoneMap would
  // make it from `values` with `options` (same type and rows, a sum where one is asked for).
  bool TakeStored(uint32_t column_id, const ColumnVector& values, const ZoneMapOptions& options);

  std::set<uint32_t> sum_columns_;
  bool decided_ = false;
  std::vector<HeldGroup> held_;  // the sample, until the decision
  std::set<uint32_t> omitted_;
  ZoneMapSet current_;
  ZoneMapSet stored_;  // OfferStoredZoneMaps' (empty: none)
  size_t current_rows_ = 0;
  size_t current_typed_rows_ = 0;
  size_t groups_ = 0;
  bool only_rows_ = true;
  std::string encoded_;
  FileColumnStatsBuilder file_stats_;
};

// One row group's entry of a zone map block.
struct ZoneMapEntry {
  uint8_t flags = 0;
  Slice encoded;  // the ZoneMapSet encoding
};

// Splits a row-major zone map block into its entries (slices into `raw`); Corruption when malformed
// or when it does not hold exactly `row_groups` entries.
Status ParseZoneMapBlock(const Slice& raw, size_t row_groups, std::vector<ZoneMapEntry>* entries);

}  // namespace columnar
