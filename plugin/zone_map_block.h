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
//   u8        1, 2, 3   layout version (writers produce 1 or 3, whichever compresses smaller)
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
//
// Version 3 (what writers produce, against version 1) takes version 2's differences out of
// the entries, zigzagged at their width (a small negative difference has small bytes too), and
// stores them byte plane by byte plane, so that each plane (the low bytes, ..., the top bytes,
// mostly zero) gets its own statistics in zstd instead of mixing with the others. A random
// walk's value bounds (metrics) cost about a byte a group less:
//
//   u8        0x00, u8 3, varint32 row_group_count, flags, set headers: as in version 1
//   varint32  n4        4-byte differences (int32, float32 entries), in block order
//   varint32  n8        8-byte differences (int64, float64 entries), in block order
//   n4 x 4    bytes     byte 0 of every 4-byte difference, then byte 1, ..., byte 3
//   n8 x 8    bytes     the same for the 8-byte ones
//   entries             as in version 2, each fixed-width entry with bounds and no value set
//                       without its min (and max): its first difference is the next of its
//                       width, then its max's
//
// A difference d stored as zigzag(d) = (d << 1) ^ (d >> (bits - 1)) over d read as a signed
// integer of its width. Readers check that every difference is used.
#pragma once

#include <cstdint>
#include <string>

#include "table_format/types.h"

namespace columnar {

inline constexpr uint8_t kZoneMapBlockColumnMajorMarker = 0x00;
inline constexpr uint8_t kZoneMapBlockColumnMajorVersion = 1;
// Version 2: fixed-width bounds stored as differences (above).
inline constexpr uint8_t kZoneMapBlockColumnMajorVersionDeltas = 2;
// Version 3: the differences in byte planes (above).
inline constexpr uint8_t kZoneMapBlockColumnMajorVersionPlanes = 3;

// Rewrites a row-major block (as ZoneMapCollector builds it) column-major, appended to *out,
// in layout `version` (1, 2 or 3).
Status ZoneMapBlockToColumnMajor(const Slice& row_major, std::string* out,
                                 uint8_t version = kZoneMapBlockColumnMajorVersionPlanes);

// The same in two layouts at once (the block is parsed once): `first_version` appended to
// *first, `second_version` to *second.
Status ZoneMapBlockToColumnMajorLayouts(const Slice& row_major, uint8_t first_version,
                                        std::string* first, uint8_t second_version,
                                        std::string* second);

// Leaves a row-major *block as it is; rewrites a column-major one row-major. Corruption when
// a column-major block is malformed (the row-major result is checked by ParseZoneMapBlock).
Status ZoneMapBlockToRowMajor(std::string* block);

}  // namespace columnar
