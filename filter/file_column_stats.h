// File-level column statistics: a table file's row-group zone maps merged into one zone map
// per column (row and null counts summed, min / max widened, value sets united while small),
// stored as a table property so a reader can judge a whole file before opening any row group.
// Prune (prune.h) takes them like a row group's zone maps, with the same guarantees.
//
// Property value: the ZoneMapSet encoding (zone_map_set.h) of the merged maps. A column that
// some row group has no zone map for is left out (its values there are unknown).
#pragma once

#include <cstddef>
#include <string>

#include "filter/zone_map.h"
#include "filter/zone_map_set.h"
#include "table_format/types.h"

namespace columnar {

inline constexpr char kFileColumnStatsProperty[] = "columnar.filter.column_stats";

class FileColumnStatsBuilder {
 public:
  explicit FileColumnStatsBuilder(size_t max_value_set = ZoneMapOptions().max_value_set)
      : max_value_set_(max_value_set) {}

  void AddRowGroup(const ZoneMapSet& row_group);
  // The statistics so far (empty before the first row group).
  const ZoneMapSet& stats() const { return merged_; }
  // The property value.
  std::string Serialize() const;

 private:
  size_t max_value_set_;
  bool started_ = false;
  ZoneMapSet merged_;
};

// Parses a property value written by FileColumnStatsBuilder::Serialize.
Status ParseFileColumnStats(const Slice& serialized, ZoneMapSet* stats);

}  // namespace columnar
