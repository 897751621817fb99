// Internal to bit_packing*.cc: the SIMD unpack kernel, one explicit specialisation per
// instruction set, each defined in a translation unit compiled for that instruction set
// (bit_packing_avx2.cc, bit_packing_avx512.cc) and chosen at run time with xsimd::dispatch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <xsimd/xsimd.hpp>

namespace columnar {

// Inputs shorter than this go straight to the scalar code.
inline constexpr size_t kSimdUnpackMinValues = 64;

struct Unpack32Kernel {
  // Unpacks a prefix of the `n` values of width `width` (1..32) packed in `in` (in_size bytes)
  // into `out`, and returns how many it did: a multiple of 8, possibly 0 when the width is not
  // handled. Never reads past in + in_size.
  template <class Arch>
  size_t operator()(Arch, const uint8_t* in, size_t in_size, size_t n, int width,
                    uint32_t* out) const;
};

template <>
size_t Unpack32Kernel::operator()<xsimd::sse2>(xsimd::sse2, const uint8_t* in, size_t in_size,
                                               size_t n, int width, uint32_t* out) const;
template <>
size_t Unpack32Kernel::operator()<xsimd::avx2>(xsimd::avx2, const uint8_t* in, size_t in_size,
                                               size_t n, int width, uint32_t* out) const;
template <>
size_t Unpack32Kernel::operator()<xsimd::avx512bw>(xsimd::avx512bw, const uint8_t* in,
                                                   size_t in_size, size_t n, int width,
                                                   uint32_t* out) const;

// The scalar path, also the reference the SIMD kernels are tested against.
void UnpackBits32Scalar(const char* in, size_t n, int width, uint32_t* out);

}  // namespace columnar
