// mixed_radix: integers spread evenly over a range that is not a power of two, stored at
// log2(range) bits each instead of bit-packing's whole bits. Write times stored against their
// row's clustering time are the client's jitter, uniform over 0..100,000 us: 16.61 bits of
// information, which bit-packing rounds up to 17 and this encoding to 16.67 (three values in
// 50 bits). Takes int32 and int64.
//
// Byte layout (n values, n from the chunk header):
//
//   reference  zigzag varint   a lower bound of the values (signed, at the type's width):
//                              the minimum, or a rounder one (MixedRadixBounds)
//   span       varint64        upper bound - reference (R - 1, with R the radix); the upper
//                              bound is the maximum or a rounder one, within the type
//   digits     bit stream (LSB-first, bit_stream.h): the values minus the reference, in groups
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

// The bounds the encoder stores for n values in [*lo, *hi] of a type spanning
// [type_min, type_max]: the roundest the body's size allows (the minimum floored to a multiple
// of a power of ten, or else of two; the maximum raised to one less than such a multiple).
// The digits' width is quantised (three values of radix 98,000 or 104,000 both take 50 bits),
// so bounds that vary from chunk to chunk mostly become the same in every chunk (write-time
// jitter: 0 and 99,999), which the block compressor then removes.
// `size`: the body size of the encoding the bounds are for (mixed_radix's or mixed_radix_tight's).
size_t MixedRadixSize(int64_t reference, uint64_t span, size_t n);
void MixedRadixBounds(int64_t type_min, int64_t type_max, size_t n, int64_t* lo, int64_t* hi,
                      size_t (*size)(int64_t, uint64_t, size_t) = &MixedRadixSize);

// Exact body size of mixed_radix_tight (encodings/mixed_radix_tight.cc), the same digits with
// the groups' rounding mostly taken out, for n values spanning `span` from `reference`
// (SIZE_MAX for a span of 2^64 - 1, which it cannot hold).
size_t MixedRadixTightSize(int64_t reference, uint64_t span, size_t n);

}  // namespace columnar
