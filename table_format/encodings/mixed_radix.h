// mixed_radix: integers spread evenly over a range that is not a power of two, stored at
// log2(range) bits each instead of bit-packing's whole bits. Write times stored against their
// row's clustering time are the client's jitter, uniform over 0..100,000 us: 16.61 bits of
// information, which bit-packing rounds up to 17 and this encoding to 16.67 (three values in
// 50 bits). Takes int32 and int64.
//
// Byte layout (n values, n from the chunk header):
//
//   reference  zigzag varint   the minimum (signed, at the type's width)
//   span       varint64        maximum - minimum (R - 1, with R the radix)
//   digits     bit stream (LSB-first, bit_stream.h): the values minus the minimum, in groups
//              of k = MixedRadixGroup(R) values (the last group may hold fewer, m). A group
//              of values d_0..d_{m-1} is the number d_0 + d_1 R + ... + d_{m-1} R^{m-1},
//              written in BitWidth(R^m - 1) bits; the stream ends with the zero padding of its
//              last byte.
//
// With R = 1 (every value equal) the stream is empty.
#pragma once

#include <cstddef>
#include <cstdint>

namespace columnar {

// Values per group for radix R >= 2: the most whose combined number still fits in 64 bits
// (R^k <= 2^64).
int MixedRadixGroup(uint64_t radix);

// Bits of a group of `m` values in radix R (R >= 2, m <= MixedRadixGroup(R)).
int MixedRadixGroupBits(uint64_t radix, int m);

// Exact body size for n values spanning `span` (max - min) with the given reference.
size_t MixedRadixSize(int64_t reference, uint64_t span, size_t n);

}  // namespace columnar
