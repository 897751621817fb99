// Bit-packing shared by every encoding (FOR, delta, dictionary codes, ALP integers, ...).
//
// Layout: value i occupies bits [i*width, (i+1)*width) of the output, LSB-first within
// little-endian bytes (Parquet's and ALP's order). The packed size is ceil(n*width/8) bytes.
// Width 0 stores nothing (all values zero). Unpacking is vectorised with xsimd and selected at
// run time for the CPU (SSE2 baseline, AVX2, AVX-512); the default build stays portable.
#pragma once

#include <cstddef>
#include <cstdint>

namespace columnar {

// Number of bits needed to represent v (0 for v == 0, 64 for values with the top bit set).
inline int BitWidth(uint64_t v) { return v == 0 ? 0 : 64 - __builtin_clzll(v); }

inline size_t PackedSize(size_t n, int width) { return (n * static_cast<size_t>(width) + 7) / 8; }

// Packs the low `width` bits of each value. `out` must have PackedSize(n, width) bytes.
void PackBits(const uint64_t* values, size_t n, int width, char* out);
void PackBits32(const uint32_t* values, size_t n, int width, char* out);

// Inverse of PackBits. Reads exactly PackedSize(n, width) bytes of `in`, never more.
void UnpackBits(const char* in, size_t n, int width, uint64_t* out);
void UnpackBits32(const char* in, size_t n, int width, uint32_t* out);

}  // namespace columnar
