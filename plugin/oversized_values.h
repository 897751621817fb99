// Oversized values: values larger than ColumnarTableOptions::max_inline_value_bytes are not
// put in their row group's chunks (a chunk, and a data block, holds at most 1 GiB; RocksDB
// accepts values up to 4 GiB). The builder writes such a value to the file as it arrives,
// alone and unframed, and stores an empty value in its row; a directory in the file's
// properties says which row's value is where. Readers put the value back when they decode the
// group. Files without oversized values carry no directory and read as before.
//
// Directory (user property kOversizedValuesProperty), entries ordered by (group, row):
//
//   +-------------+-----------------------------------------------------------------------+
//   | count       | count x entry                                                         |
//   | varint32    | varint32 group | varint32 row | varint64 offset | varint64 size | fixed32 |
//   +-------------+-----------------------------------------------------------------------+
//
//   group, row  the row group (file order) and the row inside it.
//   offset      where the value's bytes start in the file; size: how many (> 0).
//   fixed32     ComputeChecksum() of the value (little-endian).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "table_format/row_layout.h"
#include "table_format/types.h"

namespace columnar {

inline constexpr const char* kOversizedValuesProperty = "columnar.oversized_values";
// The largest (and default) ColumnarTableOptions::max_inline_value_bytes: with groups closed
// at group_target_bytes and blocks at block_size (<= 256 MiB), a block of inline values stays
// well below the 1 GiB a block may hold.
inline constexpr uint32_t kMaxInlineValueBytes = 256u << 20;

struct OversizedValue {
  uint32_t group = 0;
  uint32_t row = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t checksum = 0;
  bool operator==(const OversizedValue& other) const {
    return group == other.group && row == other.row && offset == other.offset &&
           size == other.size && checksum == other.checksum;
  }
};

void EncodeOversizedValues(const std::vector<OversizedValue>& values, std::string* out);

// Checks the entries are ordered by (group, row) without repeats, that every value lies in
// [0, data_end), and that groups are below `groups` and rows below `rows_per_group`.
Status DecodeOversizedValues(const Slice& encoded, uint64_t data_end, size_t groups,
                             uint32_t rows_per_group, std::vector<OversizedValue>* out);

// `group` with the values of some rows replaced (`values`: row -> value, ascending rows). The
// rows' stored values must be empty (the builder stores nothing else): otherwise Corruption.
Status WithOversizedValues(std::unique_ptr<DecodedRowGroup> group,
                           std::vector<std::pair<uint32_t, std::string>> values,
                           std::unique_ptr<DecodedRowGroup>* out);

}  // namespace columnar
