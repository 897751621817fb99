// The SSE2 comparison kernel (the x86-64 baseline: no extra compiler flags). SSE2 has no
// 64-bit compare, so 64-bit lanes combine 32-bit compares of the high and low halves.
#include <emmintrin.h>

#include "filter/compare_kernel_arch.h"
#include "filter/compare_kernel_loop.h"

namespace columnar {

namespace {

inline uint64_t LaneMask32(__m128i m) {
  return static_cast<uint64_t>(_mm_movemask_ps(_mm_castsi128_ps(m)));
}
inline uint64_t LaneMask64(__m128i m) {
  return static_cast<uint64_t>(_mm_movemask_pd(_mm_castsi128_pd(m)));
}

template <bool kFloatKey>
struct Sse2Lanes32 {
  using Lane = int32_t;
  using Reg = __m128i;
  static constexpr int kLanes = 4;
  static Reg Broadcast(Lane key) { return _mm_set1_epi32(key); }
  static Reg Load(const Lane* p) {
    const Reg x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    if constexpr (!kFloatKey) return x;
    return _mm_xor_si128(x, _mm_srli_epi32(_mm_srai_epi32(x, 31), 1));
  }
  static uint64_t Eq(Reg a, Reg b) { return LaneMask32(_mm_cmpeq_epi32(a, b)); }
  static uint64_t Gt(Reg a, Reg b) { return LaneMask32(_mm_cmpgt_epi32(a, b)); }
};

template <bool kFloatKey>
struct Sse2Lanes64 {
  using Lane = int64_t;
  using Reg = __m128i;
  static constexpr int kLanes = 2;
  static Reg Broadcast(Lane key) { return _mm_set1_epi64x(key); }
  static Reg Load(const Lane* p) {
    const Reg x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    if constexpr (!kFloatKey) return x;
    // Sign of each 64-bit lane copied into both of its halves.
    const Reg sign_fill = _mm_shuffle_epi32(_mm_srai_epi32(x, 31), _MM_SHUFFLE(3, 3, 1, 1));
    return _mm_xor_si128(x, _mm_srli_epi64(sign_fill, 1));
  }
  static uint64_t Eq(Reg a, Reg b) {
    const Reg halves = _mm_cmpeq_epi32(a, b);
    return LaneMask64(_mm_and_si128(halves, _mm_shuffle_epi32(halves, _MM_SHUFFLE(2, 3, 0, 1))));
  }
  static uint64_t Gt(Reg a, Reg b) {
    // a > b  <=>  high(a) > high(b) signed, or high halves equal and low(a) > low(b) unsigned.
    const Reg flip = _mm_set1_epi32(static_cast<int>(0x80000000u));
    const Reg high_gt = _mm_cmpgt_epi32(a, b);
    const Reg high_eq = _mm_cmpeq_epi32(a, b);
    const Reg low_gt = _mm_cmpgt_epi32(_mm_xor_si128(a, flip), _mm_xor_si128(b, flip));
    const Reg low_gt_up = _mm_shuffle_epi32(low_gt, _MM_SHUFFLE(2, 2, 0, 0));
    // The answer sits in the high half of each lane; movemask_pd reads the top bit.
    return LaneMask64(_mm_or_si128(high_gt, _mm_and_si128(high_eq, low_gt_up)));
  }
};

}  // namespace

template <>
void CompareKernel::operator()<xsimd::sse2>(xsimd::sse2, PhysicalType type, const void* values,
                                            size_t words, CompareOp op, int64_t constant_key,
                                            uint64_t* out) const {
  compare_kernel::RunCompareKernel<Sse2Lanes32, Sse2Lanes64>(type, values, words, op, constant_key,
                                                             out);
}

}  // namespace columnar
