// rice: integers scattered above a floor with a long upper tail (request latencies, response
// sizes: log-normal), each value minus the chunk's minimum Rice-coded as it is. rice_delta
// codes differences, which for independent values doubles their variance (half a bit more
// a value) and adds a sign bit; for and mixed_radix spend the width of the largest value on
// every value. Takes int32 and int64.
//
// Byte layout (n values, n from the chunk header; nothing at all when n = 0):
//
//   reference  zigzag varint  the minimum (signed, at the type's width)
//   ks         u8 each        one Rice parameter k per block of kRiceBlockValues = 128
//                             values (the last block may be shorter), 0 <= k < W, with W
//                             the type's width (32 or 64)
//   codes      bit stream (LSB-first, bit_stream.h) of every value in order, with k its
//              block's parameter and z = value - reference (unsigned, < 2^W), q = z >> k:
//                q < kRiceEscapeQuotient (16): q zero bits, a one bit, the low k bits of z
//                otherwise: 16 zero bits, q in W - k bits, the low k bits of z
//              zero bits pad the last byte
//
// A value whose z + reference passes the type's maximum is Corruption, and so is an escaped
// quotient below 16 (the encoder writes those unary).
#pragma once

#include <cstddef>
#include <cstdint>

namespace columnar {

inline constexpr uint32_t kRiceEscapeQuotient = 16;

// Exact body size for `n` integers (their bit patterns at U's width, signed reading).
template <typename U>
size_t RiceSize(const U* bits, size_t n);

}  // namespace columnar
