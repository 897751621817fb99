// The layout of a ColumnarTable SST file and the names it shares with RocksDB.
//
//   data blocks        whole row groups, outer-compressed (table_format/data_block.h)
//   index block        row groups' first keys and locations (row_group_index.h)
//   key filter         RocksDB bloom filter over user keys                  (optional)
//   partition filter   RocksDB bloom filter over partition keys             (optional)
//   range deletions    range tombstones, in insertion order                 (optional)
//   file dictionaries  recurring strings per column (file_dictionary.h)     (optional)
//   zone maps          per row group column statistics (zone_map_collector.h) (typed)
//   compression dict   zstd dictionary trained for this file                (optional)
//   properties         RocksDB PropertyBlockBuilder format
//   metaindex          RocksDB MetaIndexBuilder: the properties block and, by name, the
//                      blocks above (for tools)
//   root block         where everything is, and checksums of the two blocks above
//                      (table_format/file_root.h)
//   footer             RocksDB Footer: kColumnarTableMagicNumber, the metaindex handle, and
//                      the root block's handle in the index-handle slot
//
// Every block of our own carries a checksum trailer (data_block.h). RocksDB reads the
// properties and metaindex blocks of foreign table formats without a checksum, so the root
// block records their checksums, and VerifyChecksum rebuilds the footer and compares it byte
// for byte: any damaged byte of the file is detected.
#pragma once

#include <cstdint>
#include <string>

#include "table_format/row_group.h"
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
inline constexpr const char* kFileDictionaryBlockName = "columnar.file_dictionaries";

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
// Files compaction may copy row groups from (long-lived files only): the writer's
// TableSettings::pass_through_options().
inline constexpr const char* kPassThroughProperty = "columnar.pass_through";
// Row groups a compaction copied from its input files unchanged (decimal).
inline constexpr const char* kCopiedRowGroupsProperty = "columnar.copied_row_groups";
// Data blocks a compaction wrote as an input file stored them (block_copy.h; decimal).
inline constexpr const char* kCopiedBlocksProperty = "columnar.copied_blocks";
// How many compactions in a row carried this file's file dictionaries over from an input
// file's (decimal; absent = 0): bounded, so that entries no row uses any more are dropped.
inline constexpr const char* kDictionaryCarriesProperty = "columnar.dictionary_carries";
// How many compactions in a row carried this file's zstd dictionary (FileBlock::
// kCompressionDictionary) over from an input file's (decimal; absent = 0): bounded, so that a
// dictionary trained on rows long gone is trained anew.
inline constexpr const char* kCompressionDictionaryCarriesProperty =
    "columnar.compression_dictionary_carries";

// The largest ColumnarTableOptions::rows_per_group: the format's bound on a group's rows.
inline constexpr uint32_t kMaxRowsPerGroup = kMaxRowGroupRows;

}  // namespace columnar
