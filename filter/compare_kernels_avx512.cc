// The AVX-512 comparison kernel (compiled with -mavx512f and friends; chosen at run time by
// compare_kernels.cc). Compares write mask registers directly: no movemask step. The float
// order key flips the non-sign bits of negative lanes with a masked XOR (GCC 12 warns
// spuriously about the immediate-shift intrinsics).
#include <immintrin.h>

#include <cstdint>

#include "filter/compare_kernel_arch.h"
#include "filter/compare_kernel_loop.h"

namespace columnar {

namespace {

template <bool kFloatKey>
struct Avx512Lanes32 {
  using Lane = int32_t;
  using Reg = __m512i;
  static constexpr int kLanes = 16;
  static Reg Broadcast(Lane key) { return _mm512_set1_epi32(key); }
  static Reg Load(const Lane* p) {
    const Reg x = _mm512_loadu_si512(p);
    if constexpr (!kFloatKey) return x;
    const __mmask16 negative = _mm512_cmplt_epi32_mask(x, _mm512_setzero_si512());
    return _mm512_mask_xor_epi32(x, negative, x, _mm512_set1_epi32(0x7fffffff));
  }
  static uint64_t Eq(Reg a, Reg b) { return _mm512_cmpeq_epi32_mask(a, b); }
  static uint64_t Gt(Reg a, Reg b) { return _mm512_cmpgt_epi32_mask(a, b); }
};

template <bool kFloatKey>
struct Avx512Lanes64 {
  using Lane = int64_t;
  using Reg = __m512i;
  static constexpr int kLanes = 8;
  static Reg Broadcast(Lane key) { return _mm512_set1_epi64(key); }
  static Reg Load(const Lane* p) {
    const Reg x = _mm512_loadu_si512(p);
    if constexpr (!kFloatKey) return x;
    const __mmask8 negative = _mm512_cmplt_epi64_mask(x, _mm512_setzero_si512());
    return _mm512_mask_xor_epi64(x, negative, x, _mm512_set1_epi64(INT64_MAX));
  }
  static uint64_t Eq(Reg a, Reg b) { return _mm512_cmpeq_epi64_mask(a, b); }
  static uint64_t Gt(Reg a, Reg b) { return _mm512_cmpgt_epi64_mask(a, b); }
};

}  // namespace

template <>
void CompareKernel::operator()<xsimd::avx512bw>(xsimd::avx512bw, PhysicalType type,
                                                const void* values, size_t words, CompareOp op,
                                                int64_t constant_key, uint64_t* out) const {
  compare_kernel::RunCompareKernel<Avx512Lanes32, Avx512Lanes64>(type, values, words, op,
                                                                 constant_key, out);
}

}  // namespace columnar
