// ByteStrings: the layout of a run of byte strings shared by plain, rle, dictionary and
// front_coding.
//
// Byte layout, for n strings (n known to the reader):
//
//   lengths   PackedInts<uint32> (int_packing.h) of the n string lengths
//   data      the n strings concatenated, sum(lengths) bytes
#pragma once

#include <cstdint>
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

}  // namespace columnar
