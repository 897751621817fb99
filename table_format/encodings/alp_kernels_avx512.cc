// The fused ALP decode kernel for AVX-512 (compiled with -mavx512f and friends; chosen at run
// time by alp.cc). The conversions use their zero-masked forms with a full mask: the unmasked
// intrinsics trip a GCC 12 -Wmaybe-uninitialized false positive.
#include <immintrin.h>

#include "table_format/encodings/alp.h"

namespace columnar {

template <>
void AlpDecodeKernel::operator()<xsimd::avx512bw>(xsimd::avx512bw, const uint32_t* ints, size_t n,
                                                  int64_t base, double factor, double fraction,
                                                  double* out) const {
  // uint32 -> double is exact, and so is adding the base (the sum stays within +-2^52).
  const __m512d b = _mm512_set1_pd(static_cast<double>(base));
  const __m512d f = _mm512_set1_pd(factor);
  const __m512d fr = _mm512_set1_pd(fraction);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i x0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ints + i));
    const __m256i x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ints + i + 8));
    const __m512d v0 = _mm512_add_pd(_mm512_maskz_cvtepu32_pd(0xFF, x0), b);
    const __m512d v1 = _mm512_add_pd(_mm512_maskz_cvtepu32_pd(0xFF, x1), b);
    _mm512_storeu_pd(out + i, _mm512_mul_pd(_mm512_mul_pd(v0, f), fr));
    _mm512_storeu_pd(out + i + 8, _mm512_mul_pd(_mm512_mul_pd(v1, f), fr));
  }
  AlpDecodeScalar(ints + i, n - i, base, factor, fraction, out + i);
}

template <>
void AlpDecodeKernel::operator()<xsimd::avx512bw>(xsimd::avx512bw, const uint32_t* ints, size_t n,
                                                  int64_t base, float factor, float fraction,
                                                  float* out) const {
  const __m512i b = _mm512_set1_epi32(static_cast<int32_t>(base));
  const __m512 f = _mm512_set1_ps(factor);
  const __m512 fr = _mm512_set1_ps(fraction);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i x = _mm512_loadu_si512(ints + i);
    const __m512 v = _mm512_maskz_cvtepi32_ps(0xFFFF, _mm512_add_epi32(x, b));
    _mm512_storeu_ps(out + i, _mm512_mul_ps(_mm512_mul_ps(v, f), fr));
  }
  AlpDecodeScalar(ints + i, n - i, base, factor, fraction, out + i);
}

}  // namespace columnar
