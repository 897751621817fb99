// The root block of a columnar table file: the one place that says where every block of our
// own lives, what protects RocksDB's unchecksummed meta blocks, and how the file was laid out.
// RocksDB's footer points at it through its index-handle slot (see plugin/table_file.h).
//
// Raw content (framed with WriteBlock, so it carries its own checksum):
//
//   varint32  root format version (1)
//   16 bytes  file id: random, identifies the file's blocks in the shared cache across reopens
//   varint32  layout id (0 = generic, 1 = typed)
//   varint32  handle count N, then N x (varint64 offset, varint64 size): the blocks listed in
//             FileBlock order; size 0 = absent
//   fixed32   checksum of the properties block (RocksDB's format, which RocksDB reads
//             without a checksum for foreign table formats), computed with the 8 bytes at
//             properties_patch_offset - 1 zeroed when that is non-zero
//   fixed32   checksum of the metaindex block (same)
//   varint32  footer format version written
//   varint32  properties_patch_offset: 1 + offset in the properties block of the value of
//             "rocksdb.external_sst_file.global_seqno", which RocksDB's ingestion may
//             overwrite in place (write_global_seqno); 0 when the file has none
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "table_format/types.h"

namespace columnar {

enum class FileBlock : uint32_t {
  kIndex = 0,
  kKeyFilter = 1,
  kPartitionFilter = 2,
  kRangeDeletions = 3,
  kCompressionDictionary = 4,
  kZoneMaps = 5,
  kProperties = 6,  // RocksDB's format, no trailer: protected by properties_checksum
  kMetaIndex = 7,   // RocksDB's format, no trailer: protected by metaindex_checksum
  kFileDictionaries = 8,
  kCount = 9,
};

struct BlockLocation {
  uint64_t offset = 0;
  uint64_t size = 0;
  bool present() const { return size != 0; }
};

struct FileRoot {
  static constexpr uint32_t kFormatVersion = 1;

  std::array<char, 16> file_id{};
  uint32_t layout_id = 0;
  std::array<BlockLocation, static_cast<size_t>(FileBlock::kCount)> blocks{};
  uint32_t properties_checksum = 0;
  uint32_t metaindex_checksum = 0;
  uint32_t footer_format_version = 0;
  uint32_t properties_patch_offset = 0;

  BlockLocation& at(FileBlock b) { return blocks[static_cast<size_t>(b)]; }
  const BlockLocation& at(FileBlock b) const { return blocks[static_cast<size_t>(b)]; }

  void EncodeTo(std::string* out) const;
  // Checks every location lies inside [0, data_end).
  Status DecodeFrom(const Slice& raw, uint64_t data_end);
};

}  // namespace columnar
