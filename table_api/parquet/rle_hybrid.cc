#include "table_api/parquet/rle_hybrid.h"

#include <algorithm>

#include "table_format/varint.h"

namespace columnar {
namespace parquet {
namespace {

// values[begin, end) bit-packed, padded to a multiple of 8 values.
void AppendBitPackedRun(const std::vector<uint32_t>& values, size_t begin, size_t end,
                        int bit_width, std::string* out) {
  const size_t groups = (end - begin + 7) / 8;
  PutVarint64(out, (groups << 1) | 1);
  uint64_t buffer = 0;
  int buffered = 0;
  for (size_t i = begin; i < begin + groups * 8; i++) {
    const uint64_t value = i < end ? values[i] : 0;
    buffer |= value << buffered;
    buffered += bit_width;
    while (buffered >= 8) {
      out->push_back(static_cast<char>(buffer & 0xFF));
      buffer >>= 8;
      buffered -= 8;
    }
  }
  // groups * 8 * bit_width is a multiple of 8 bits: nothing is left over.
}

}  // namespace

int BitWidthFor(uint64_t max_value) {
  int width = 0;
  while (max_value != 0) {
    width++;
    max_value >>= 1;
  }
  return width;
}

void AppendRleBitPacked(const std::vector<uint32_t>& values, int bit_width, std::string* out) {
  const size_t value_bytes = (bit_width + 7) / 8;
  size_t literal_begin = 0;  // start of the pending bit-packed values
  size_t i = 0;
  while (i < values.size()) {
    size_t run = 1;
    while (i + run < values.size() && values[i + run] == values[i]) run++;
    if (run >= 8) {
      if (literal_begin < i) AppendBitPackedRun(values, literal_begin, i, bit_width, out);
      PutVarint64(out, static_cast<uint64_t>(run) << 1);
      for (size_t b = 0; b < value_bytes; b++) {
        out->push_back(static_cast<char>((values[i] >> (8 * b)) & 0xFF));
      }
      i += run;
      literal_begin = i;
    } else {
      // A bit-packed run holds whole groups of 8: take the next 8 values as literals.
      i = std::min(values.size(), i + 8 - (i - literal_begin) % 8);
    }
  }
  if (literal_begin < values.size()) {
    AppendBitPackedRun(values, literal_begin, values.size(), bit_width, out);
  }
}

}  // namespace parquet
}  // namespace columnar
