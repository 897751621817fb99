// Internal to compare_kernels*.cc: the comparison kernel, one explicit specialisation per
// instruction set, each defined in a translation unit compiled for that instruction set
// (compare_kernels_sse2.cc, _avx2.cc, _avx512.cc) and chosen at run time with xsimd::dispatch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <xsimd/xsimd.hpp>

#include "filter/compare_op.h"
#include "table_format/types.h"

namespace columnar {

struct CompareKernel {
  // Writes out[0 .. words): bit j of out[w] is `values[64 w + j] OP constant` in CQL order.
  // `constant_key` is the constant's order-preserving signed image (CompareKernelKey).
  template <class Arch>
  void operator()(Arch, PhysicalType type, const void* values, size_t words, CompareOp op,
                  int64_t constant_key, uint64_t* out) const;
};

template <>
void CompareKernel::operator()<xsimd::sse2>(xsimd::sse2, PhysicalType type, const void* values,
                                            size_t words, CompareOp op, int64_t constant_key,
                                            uint64_t* out) const;
template <>
void CompareKernel::operator()<xsimd::avx2>(xsimd::avx2, PhysicalType type, const void* values,
                                            size_t words, CompareOp op, int64_t constant_key,
                                            uint64_t* out) const;
template <>
void CompareKernel::operator()<xsimd::avx512bw>(xsimd::avx512bw, PhysicalType type,
                                                const void* values, size_t words, CompareOp op,
                                                int64_t constant_key, uint64_t* out) const;

// The signed integer the kernels compare a constant as: the value itself for integers, the
// order-preserving image of the bits (float_order.h) for floats, sign-extended to 64 bits.
int64_t CompareKernelKey(PhysicalType type, uint64_t constant_bits);

}  // namespace columnar
