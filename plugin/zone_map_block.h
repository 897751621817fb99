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
//   u8        1 or 2    layout version (writers produce the one that compresses smaller)
//   varint32  row_group_count (>= 1)
//   row_group_count x u8 flags
//   row_group_count x (u8 set version, varint32 column_count): each set's header
//   then for j = 0, 1, ... while some set has more than j columns:
//     for every group whose set has more than j columns, in file order: the set's j-th column
//     entry (from its column_id to its sum, as in the set encoding)
//
// Reassembling a group's set encoding is its header followed by its entries in order, byte for
// byte the row-major encoding.
//
// Version 2 codes fixed-width bounds (int32, int64, float32, float64 entries with bounds and
// no value set) as differences, wrapping at the value's width over its little-endian bit
// pattern: the min is stored minus the min of the column's previous entry in block order that
// had one of the same width (0 for the first), the max minus the entry's own min. A time or
// expiry column moves by the same step from group to group (a series' groups, 128 points
// 300 s apart), so its entries become the same bytes, which zstd then removes: metrics' zone
// maps shrink from 6.85 to 6.46 bytes a row group. Bounds that vary at random lose the bytes
// they share (devops' grew 60 kB), so the writer keeps version 1 when that compresses
// smaller. Lengths do not change, so entries are found as in version 1 once their bounds are
// restored.
#pragma once

#include <string>

#include "table_format/types.h"

namespace columnar {

inline constexpr uint8_t kZoneMapBlockColumnMajorMarker = 0x00;
inline constexpr uint8_t kZoneMapBlockColumnMajorVersion = 1;
// Version 2: fixed-width bounds stored as differences (above).
inline constexpr uint8_t kZoneMapBlockColumnMajorVersionDeltas = 2;

// Rewrites a row-major block (as ZoneMapCollector builds it) column-major, appended to *out:
// version 2 with `bound_deltas`, else version 1.
Status ZoneMapBlockToColumnMajor(const Slice& row_major, std::string* out,
                                 bool bound_deltas = true);

// Leaves a row-major *block as it is; rewrites a column-major one row-major. Corruption when
// a column-major block is malformed (the row-major result is checked by ParseZoneMapBlock).
Status ZoneMapBlockToRowMajor(std::string* block);

}  // namespace columnar
