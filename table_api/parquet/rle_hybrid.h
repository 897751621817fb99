// The RLE / bit-packing hybrid of Parquet (definition levels, dictionary indices). Byte layout
// of a run sequence (no length prefix here; data pages put a 4-byte one before levels):
//
//   rle run         varint (count << 1), then the value in ceil(bit_width / 8) bytes, LE
//   bit-packed run  varint (groups << 1 | 1), then groups * 8 values of bit_width bits each,
//                   packed LSB first (the last group padded with zeros)
//
// Runs of 8 or more equal values become rle runs; everything else is bit-packed in groups of 8.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace columnar {
namespace parquet {

// Bits needed for values up to `max_value` (0 for 0).
int BitWidthFor(uint64_t max_value);

// Appends the hybrid encoding of `values` (each < 2^bit_width) to *out.
void AppendRleBitPacked(const std::vector<uint32_t>& values, int bit_width, std::string* out);

}  // namespace parquet
}  // namespace columnar
