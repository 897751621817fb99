// ByteStrings: the layout of a run of byte strings, used by plain (and through plain by the
// run values of rle and the entries of dictionary), plus string helpers shared with
// front_coding and the auto chooser.
//
// Byte layout, for n strings (n known to the reader):
//
//   lengths   PackedInts<uint32> (int_packing.h) of the n string lengths
//   data      the n strings concatenated, sum(lengths) bytes
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/types.h"

namespace columnar {

// Appends the ByteStrings layout of every value of a bytes column (no nulls).
void PutByteStrings(const ColumnVector& values, std::string* out);

// Reads n strings from the front of *in, appends them to *out (a bytes column) and advances
// *in. Corruption naming `encoding` if the layout is malformed or truncated.
Status GetByteStrings(Slice* in, size_t n, ColumnVector* out, const char* encoding);

// The lengths of a bytes column.
std::vector<uint32_t> StringLengths(const ColumnVector& values);

// Length of the longest common prefix of a and b, compared 8 bytes at a time.
inline size_t SharedPrefixLength(const Slice& a, const Slice& b) {
  const size_t limit = a.size() < b.size() ? a.size() : b.size();
  size_t i = 0;
  for (; i + 8 <= limit; i += 8) {
    uint64_t x;
    uint64_t y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return i + static_cast<size_t>(__builtin_ctzll(x ^ y) / 8);  // little-endian
  }
  while (i < limit && a[i] == b[i]) i++;
  return i;
}

}  // namespace columnar
