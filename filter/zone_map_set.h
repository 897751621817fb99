// ZoneMapSet: the zone maps of several columns, keyed by column id: one row group's (one map
// per chunk), or a whole file's (merged over its row groups; file_column_stats.h).
//
// Encoded form (EncodeTo / Decode):
//
//   version       u8        1, or 2 when some column carries a sum (bit 5); readers take both
//   column_count  varint32
//   then per column, in strictly ascending column id order:
//     column_id   varint32
//     type        u8        PhysicalType
//     flags       u8        bit 0  value set follows
//                           bit 1  bounds follow
//                           bit 2  min is exact
//                           bit 3  max present
//                           bit 4  max is exact
//                           bit 5  sum follows (version 2 only; int32 / int64 columns)
//                           (other bits zero)
//     row_count   varint64
//     null_count  varint64  <= row_count
//     value set   (bit 0)   varint32 k, 1 <= k <= min(non-null rows, kMaxEncodedValueSet),
//                           then k values, strictly ascending
//     bounds      (bit 1)   min value, then max value when bit 3 is set; min <= max
//     sum         (bit 5)   varint64 zigzag(the wrapping int64 sum of the non-null values)
//
//   value         int32, float32: fixed32 LE bits; int64, float64: fixed64 LE bits;
//                 bytes: varint32 length, then the bytes
//
// A column with non-null rows carries exactly one of bit 0 and bit 1 (a value set already
// gives the exact min and max); an all-null column carries neither. Bits 2..4 go with bit 1
// only, and fixed-width bounds are always exact (bits 2, 3 and 4 all set).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "filter/zone_map.h"
#include "table_format/types.h"

namespace columnar {

inline constexpr uint8_t kZoneMapSetVersion = 1;
// The version of sets in which some column carries a sum (flag bit 5).
inline constexpr uint8_t kZoneMapSetVersionWithSums = 2;
// Larger value sets are rejected when decoding (the builder keeps far fewer).
inline constexpr uint32_t kMaxEncodedValueSet = 256;

class ZoneMapSet {
 public:
  // Adds the zone map of a column, or replaces it.
  void Set(uint32_t column_id, ZoneMap zone_map);
  // The column's zone map, or nullptr when the set has none.
  const ZoneMap* Find(uint32_t column_id) const;
  // Moves the column's zone map out (the set keeps the column, its zone map left unspecified);
  // false when the set has none.
  bool Take(uint32_t column_id, ZoneMap* out);
  // (column id, zone map), ascending by column id.
  const std::vector<std::pair<uint32_t, ZoneMap>>& columns() const { return columns_; }
  bool empty() const { return columns_.empty(); }

  // Folds in another run of rows' zone maps (MergeZoneMap). A column missing from either side
  // is dropped: its values in the other run are unknown.
  void Merge(const ZoneMapSet& other, size_t max_value_set);

  void EncodeTo(std::string* out) const;
  // Decodes exactly `input` (no trailing bytes), checking every rule above.
  static Status Decode(const Slice& input, ZoneMapSet* out);

 private:
  std::vector<std::pair<uint32_t, ZoneMap>> columns_;
};

// Advances *in past one column's entry of a set encoding of version `version` (column_id up to
// and including its sum), checking it as Decode does. For layouts that move a set's column
// entries around (the column-major zone map block, plugin/zone_map_block.h).
Status SkipZoneMapSetColumn(Slice* in, uint8_t version);

}  // namespace columnar
