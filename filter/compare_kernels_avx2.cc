// The AVX2 comparison kernel (compiled with -mavx2; chosen at run time by compare_kernels.cc).
#include <immintrin.h>

#include "filter/compare_kernel_arch.h"
#include "filter/compare_kernel_loop.h"

namespace columnar {

namespace {

template <bool kFloatKey>
struct Avx2Lanes32 {
  using Lane = int32_t;
  using Reg = __m256i;
  static constexpr int kLanes = 8;
  static Reg Broadcast(Lane key) { return _mm256_set1_epi32(key); }
  static Reg Load(const Lane* p) {
    const Reg x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    if constexpr (!kFloatKey) return x;
    return _mm256_xor_si256(x, _mm256_srli_epi32(_mm256_srai_epi32(x, 31), 1));
  }
  static uint64_t Eq(Reg a, Reg b) {
    return static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b))));
  }
  static uint64_t Gt(Reg a, Reg b) {
    return static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(a, b))));
  }
};

template <bool kFloatKey>
struct Avx2Lanes64 {
  using Lane = int64_t;
  using Reg = __m256i;
  static constexpr int kLanes = 4;
  static Reg Broadcast(Lane key) { return _mm256_set1_epi64x(key); }
  static Reg Load(const Lane* p) {
    const Reg x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    if constexpr (!kFloatKey) return x;
    // AVX2 has no 64-bit arithmetic shift: the sign fill comes from a compare with zero.
    const Reg sign_fill = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);
    return _mm256_xor_si256(x, _mm256_srli_epi64(sign_fill, 1));
  }
  static uint64_t Eq(Reg a, Reg b) {
    return static_cast<uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(a, b))));
  }
  static uint64_t Gt(Reg a, Reg b) {
    return static_cast<uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(a, b))));
  }
};

}  // namespace

template <>
void CompareKernel::operator()<xsimd::avx2>(xsimd::avx2, PhysicalType type, const void* values,
                                            size_t words, CompareOp op, int64_t constant_key,
                                            uint64_t* out) const {
  compare_kernel::RunCompareKernel<Avx2Lanes32, Avx2Lanes64>(type, values, words, op, constant_key,
                                                             out);
}

}  // namespace columnar
