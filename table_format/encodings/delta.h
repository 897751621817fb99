// The delta layout, shared by delta (integers) and float_delta (order-preserving integer
// images of floats).
//
// Byte layout (n values, n from the chunk header; nothing at all when n = 0):
//
//   first    zigzag varint   value 0, read as a signed integer of the type's width
//   deltas   PackedInts (int_packing.h) of the n - 1 differences value[i] - value[i-1],
//            computed with wrapping unsigned arithmetic of the type's width (so INT64_MIN
//            after INT64_MAX is the delta 1)
#pragma once

#include <cstddef>
#include <string>

#include "table_format/types.h"

namespace columnar {

template <typename U>
void PutDeltas(const U* values, size_t n, std::string* out);

// Decodes exactly n values; the body must end with them.
template <typename U>
Status GetDeltas(const Slice& body, size_t n, U* out, const char* encoding);

}  // namespace columnar
