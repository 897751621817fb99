#include "plugin/table_file.h"

#include <cstring>

#include "table_format/checksum.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

// ExternalSstFilePropertyNames::kGlobalSeqno; its value is a fixed64.
constexpr char kGlobalSeqnoProperty[] = "rocksdb.external_sst_file.global_seqno";
constexpr size_t kPatchSize = 8;

}  // namespace

uint32_t FindPropertiesPatchOffset(const Slice& properties) {
  // RocksDB's block format (table/block_based/block_builder.h): entries of
  //   varint32 shared, varint32 non_shared, varint32 value_length, key delta, value
  // then the restart offsets (fixed32 each) and their count (fixed32, top bit: index type).
  if (properties.size() < 4) return 0;
  const uint32_t restarts = DecodeFixed32(properties.data() + properties.size() - 4) & 0x7fffffffu;
  if (restarts > (properties.size() - 4) / 4) return 0;
  Slice entries(properties.data(), properties.size() - 4 - 4 * static_cast<size_t>(restarts));
  std::string key;
  while (!entries.empty()) {
    uint32_t shared, non_shared, value_length;
    if (!columnar::GetVarint32(&entries, &shared) ||
        !columnar::GetVarint32(&entries, &non_shared) ||
        !columnar::GetVarint32(&entries, &value_length) || shared > key.size() ||
        entries.size() < static_cast<size_t>(non_shared) + value_length) {
      return 0;
    }
    key.resize(shared);
    key.append(entries.data(), non_shared);
    entries.remove_prefix(non_shared);
    if (key == kGlobalSeqnoProperty && value_length == kPatchSize) {
      return static_cast<uint32_t>(entries.data() - properties.data()) + 1;
    }
    entries.remove_prefix(value_length);
  }
  return 0;
}

uint32_t PropertiesChecksum(const Slice& properties, uint32_t patch_offset) {
  if (patch_offset == 0 || patch_offset - 1 + kPatchSize > properties.size()) {
    return ComputeChecksum(properties);
  }
  std::string copy = properties.ToString();
  std::memset(&copy[patch_offset - 1], 0, kPatchSize);
  return ComputeChecksum(copy);
}

}  // namespace columnar
