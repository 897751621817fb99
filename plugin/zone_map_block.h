// The zone map block's two layouts. Its content is the same in both: per row group, in file
// order, a flags byte (zone_map_collector.h) and a ZoneMapSet encoding (filter/zone_map_set.h).
//
// Row-major (every file written before the column-major layout existed; what readers work on):
//
//   varint32  row_group_count (>= 1)
//   per row group: u8 flags, varint32 length of the set encoding, the set encoding
//
// Column-major (what writers produce): the same bytes regrouped so that the entries of one
// column follow each other. Neighbouring groups' bounds of a column share most of their bytes
// (times, expiries, value sets of strings), which the block's outer zstd then finds close by:
// access16's zone maps compress to 172 kB instead of 258 kB.
//
//   u8        0x00      marks this layout (a row-major block starts with a non-zero varint)
//   u8        1         layout version
//   varint32  row_group_count (>= 1)
//   row_group_count x u8 flags
//   row_group_count x (u8 set version, varint32 column_count): each set's header
//   then for j = 0, 1, ... while some set has more than j columns:
//     for every group whose set has more than j columns, in file order: the set's j-th column
//     entry (from its column_id to its sum, as in the set encoding)
//
// Reassembling a group's set encoding is its header followed by its entries in order, byte for
// byte the row-major encoding.
#pragma once

#include <string>

#include "table_format/types.h"

namespace columnar {

inline constexpr uint8_t kZoneMapBlockColumnMajorMarker = 0x00;
inline constexpr uint8_t kZoneMapBlockColumnMajorVersion = 1;

// Rewrites a row-major block (as ZoneMapCollector builds it) column-major, appended to *out.
Status ZoneMapBlockToColumnMajor(const Slice& row_major, std::string* out);

// Leaves a row-major *block as it is; rewrites a column-major one row-major. Corruption when
// a column-major block is malformed (the row-major result is checked by ParseZoneMapBlock).
Status ZoneMapBlockToRowMajor(std::string* block);

}  // namespace columnar
