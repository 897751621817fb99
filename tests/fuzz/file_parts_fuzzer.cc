// The decoders of a ColumnarTable file's metadata blocks on arbitrary bytes. In a whole file
// (sst_file_fuzzer) these blocks sit behind checksums that random mutations almost never
// satisfy; here each decoder sees the bytes directly.
//
// Input: [part u8] [bytes]; part % 7 picks:
//   0 row group index (row_group_index.h)     4 zone map block (plugin/zone_map_collector.h)
//   1 file root (file_root.h)                 5 range deletions (plugin/range_deletions.h)
//   2 data block framing (data_block.h)       6 zone map set (filter/zone_map_set.h)
//   3 file dictionaries (file_dictionary.h)
// Whatever decodes is walked, and re-encoded where the format has an encoder.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "filter/zone_map_set.h"
#include "plugin/range_deletions.h"
#include "plugin/zone_map_block.h"
#include "plugin/zone_map_collector.h"
#include "table_format/data_block.h"
#include "table_format/file_dictionary.h"
#include "table_format/file_root.h"
#include "table_format/row_group_index.h"
#include "tests/fuzz/fuzz_schema.h"

namespace columnar {
namespace {

// The index's bound on row groups (the reader passes the file's entries or size, the smaller):
// as many as the largest input's bytes, the bound before the reader passed one.
constexpr uint64_t kMaxFuzzedGroups = 65536;

void Index(const Slice& bytes) {
  RowGroupIndex index;
  if (!index.Decode(bytes, kMaxFuzzedGroups).ok()) return;
  for (size_t group = 0; group < index.num_row_groups(); group++) {
    const uint32_t block = index.block_of(group);
    FUZZ_CHECK(block < index.num_blocks());
    (void)index.block_offset(block);
    (void)index.block_size(block);
    (void)index.offset_in_block(group);
    (void)index.end_in_block(group);
    (void)index.first_key(group);
  }
  for (uint32_t block = 0; block < index.num_blocks(); block++) {
    FUZZ_CHECK(index.first_group_of_block(block) < index.num_row_groups());
  }
}

void Root(const Slice& bytes) {
  FileRoot root;
  const uint64_t data_end = bytes.size() * 16;
  if (!root.DecodeFrom(bytes, data_end).ok()) return;
  for (const BlockLocation& location : root.blocks) {
    if (!location.present()) continue;  // an absent block's offset means nothing
    FUZZ_CHECK(location.offset <= data_end && location.size <= data_end - location.offset);
  }
  std::string encoded;
  root.EncodeTo(&encoded);
  FileRoot again;
  FUZZ_CHECK(again.DecodeFrom(encoded, data_end).ok());
}

void Block(const Slice& bytes) {
  for (bool verify : {false, true}) {
    std::string buffer;
    Slice raw;
    if (ReadBlock(bytes, nullptr, verify, &buffer, &raw).ok()) {
      FUZZ_CHECK(raw.size() <= kMaxBlockRawBytes);
    }
  }
  (void)VerifyBlockChecksum(bytes);
}

void Dictionaries(const Slice& bytes) {
  FileDictionarySet set;
  if (FileDictionarySet::Decode(bytes, &set).ok()) (void)set.MemoryUsage();
}

void ZoneMapBlock(const Slice& bytes) {
  if (bytes.empty()) return;
  std::vector<ZoneMapEntry> entries;
  const size_t groups = static_cast<uint8_t>(bytes[0]);
  // Either layout (plugin/zone_map_block.h), as the table reader takes it.
  std::string block(bytes.data() + 1, bytes.size() - 1);
  if (!ZoneMapBlockToRowMajor(&block).ok()) return;
  if (!ParseZoneMapBlock(block, groups, &entries).ok()) return;
  FUZZ_CHECK(entries.size() == groups);
  for (const ZoneMapEntry& entry : entries) {
    ZoneMapSet set;
    (void)ZoneMapSet::Decode(entry.encoded, &set);
  }
}

void RangeDeletions(const Slice& bytes) {
  std::vector<RangeDeletion> deletions;
  if (!DecodeRangeDeletions(bytes, &deletions).ok()) return;
  std::string encoded;
  EncodeRangeDeletions(deletions, &encoded);
  std::vector<RangeDeletion> again;
  FUZZ_CHECK(DecodeRangeDeletions(encoded, &again).ok());
  FUZZ_CHECK(again == deletions);
}

void ZoneMaps(const Slice& bytes) {
  ZoneMapSet set;
  if (!ZoneMapSet::Decode(bytes, &set).ok()) return;
  std::string encoded;
  set.EncodeTo(&encoded);
  // Every rule is checked, so what decodes re-encodes to a set that decodes to the same
  // encoding. Not byte for byte to `input`: a varint may carry redundant continuation bytes
  // (0xfe 0x00 for 126), which the format does not forbid (found by this target; the
  // reproducer is in the corpus).
  ZoneMapSet again;
  FUZZ_CHECK(ZoneMapSet::Decode(encoded, &again).ok());
  std::string encoded_again;
  again.EncodeTo(&encoded_again);
  FUZZ_CHECK(encoded_again == encoded);
  FUZZ_CHECK(encoded.size() <= bytes.size());
  ZoneMapSet merged = set;
  merged.Merge(set, kMaxEncodedValueSet);
}

}  // namespace
}  // namespace columnar

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace columnar;
  if (size < 1) return 0;
  const Slice bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 7) {
    case 0:
      Index(bytes);
      break;
    case 1:
      Root(bytes);
      break;
    case 2:
      Block(bytes);
      break;
    case 3:
      Dictionaries(bytes);
      break;
    case 4:
      ZoneMapBlock(bytes);
      break;
    case 5:
      RangeDeletions(bytes);
      break;
    default:
      ZoneMaps(bytes);
      break;
  }
  return 0;
}
