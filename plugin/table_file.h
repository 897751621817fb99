// The layout of a ColumnarTable SST file and the names it shares with RocksDB.
//
//   +------------------------------+
//   | data block 0 .. n-1          |  whole row groups, outer-compressed
//   (table_format/data_block.h) | index block                  |  row group first keys and
//   locations (row_group_index.h) | key filter block             |  RocksDB bloom filter over user
//   keys            (optional) | partition filter block       |  RocksDB bloom filter over
//   partition keys       (optional) | range deletion block         |  range tombstones, in
//   insertion order           (optional) | compression dictionary block |  zstd dictionary trained
//   for this file          (optional) | properties block             |  RocksDB
//   PropertyBlockBuilder format | metaindex block              |  RocksDB MetaIndexBuilder: the
//   properties block and, by name, |                              |  the blocks above (for tools)
//   | root block                   |  where everything is + checksums of the two blocks above
//   | footer                       |  RocksDB Footer: kColumnarTableMagicNumber, metaindex handle,
//   |                              |  root block handle in the index-handle slot
//   +------------------------------+
//
// Every block of our own carries a checksum trailer (data_block.h). RocksDB reads the
// properties and metaindex blocks of foreign table formats without a checksum, so the root
// block records their checksums, and VerifyChecksum rebuilds the footer and compares it byte
// for byte: any damaged byte of the file is detected.
#pragma once

#include <cstdint>
#include <string>

#include "table_format/types.h"

namespace columnar {

// "columnar" read as a little-endian integer: identifies the format in the footer. The tiered
// factory dispatches on it.
inline constexpr uint64_t kColumnarTableMagicNumber = 0x72616e6d756c6f63ull;
inline constexpr uint32_t kColumnarFooterFormatVersion = 1;

// Metaindex names of our blocks.
inline constexpr const char* kIndexBlockName = "columnar.index";
inline constexpr const char* kKeyFilterBlockName = "columnar.filter.keys";
inline constexpr const char* kPartitionFilterBlockName = "columnar.filter.partitions";
inline constexpr const char* kRangeDeletionBlockName = "columnar.range_deletions";
inline constexpr const char* kDictionaryBlockName = "columnar.compression_dictionary";
inline constexpr const char* kZoneMapBlockName = "columnar.zone_maps";

// Checksum of a properties block, with the bytes RocksDB's ingestion may patch in place
// (FileRoot::properties_patch_offset) zeroed.
uint32_t PropertiesChecksum(const Slice& properties, uint32_t patch_offset);
// Where the global sequence number property's value sits in a properties block, as a
// FileRoot::properties_patch_offset (0 when absent).
uint32_t FindPropertiesPatchOffset(const Slice& properties);

// User-collected property names.
inline constexpr const char* kLayoutProperty = "columnar.layout";
inline constexpr const char* kSchemaProperty = "columnar.schema";
inline constexpr const char* kColumnStatsProperty = "columnar.column_stats";
inline constexpr const char* kRowGroupsProperty = "columnar.row_groups";
inline constexpr const char* kRowsPerGroupProperty = "columnar.rows_per_group";

}  // namespace columnar
