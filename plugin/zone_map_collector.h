// ZoneMapCollector: builds, while a file is written, the zone maps of every row group's typed
// columns (and of row expiry), and the file's merged column statistics. Plugged into the typed
// layout as its ColumnObserver.
//
// Zone map block (raw content, framed with WriteBlock):
//
//   varint32 row_group_count
//   per row group, in file order:
//     u8        flags: bit 0 = every row is a typed Put with sequence number 0 (so the group
//               may be skipped whole when its zone maps rule out every row)
//     varint32  length of the ZoneMapSet encoding (filter/zone_map_set.h), then the encoding
#pragma once

#include <string>
#include <vector>

#include "filter/file_column_stats.h"
#include "filter/zone_map_set.h"
#include "table_format/row_layout.h"

namespace columnar {

inline constexpr uint8_t kZoneMapGroupSkippable = 1;

class ZoneMapCollector : public ColumnObserver {
 public:
  void BeginRowGroup(size_t rows) override;
  void OnColumn(uint32_t column_id, const ColumnVector& values) override;
  void OnExpiry(const ColumnVector& expiry_seconds) override;
  void OnTypedRows(size_t typed_rows) override;

  // Closes the current group; `all_sequence_zero_puts`: every entry was a Put with sequence
  // number 0.
  void EndRowGroup(bool all_sequence_zero_puts);

  bool empty() const { return groups_ == 0; }
  // The zone map block's raw content.
  void Finish(std::string* out) const;
  // Every row of the file is a typed row.
  bool only_rows() const { return only_rows_; }
  const FileColumnStatsBuilder& file_stats() const { return file_stats_; }

 private:
  ZoneMapSet current_;
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

// Splits a zone map block into its entries (slices into `raw`); Corruption when malformed or
// when it does not hold exactly `row_groups` entries.
Status ParseZoneMapBlock(const Slice& raw, size_t row_groups, std::vector<ZoneMapEntry>* entries);

}  // namespace columnar
