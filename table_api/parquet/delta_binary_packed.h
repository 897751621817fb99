// DELTA_BINARY_PACKED encoding of INT32 / INT64 values (Parquet). Byte layout:
//
//   header   varint block size in values (128), varint miniblocks per block (4), varint total
//            value count, zigzag varint first value
//   block    zigzag varint min delta, one byte bit width per miniblock (all 4, zero for
//            unused ones), then each used miniblock: 32 values of (delta - min delta) packed
//            LSB first at its bit width (the last one padded with zeros)
//
// Deltas wrap at the type's width (32 bits for INT32), as readers compute them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace columnar {
namespace parquet {

// Appends the encoding of `values` (int32 values sign-extended or not: only the low 32 bits
// count when `width_bits` is 32).
void AppendDeltaBinaryPacked(const uint64_t* values, size_t count, int width_bits,
                             std::string* out);

}  // namespace parquet
}  // namespace columnar
