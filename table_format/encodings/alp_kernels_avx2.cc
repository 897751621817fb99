// The fused ALP decode kernel for AVX2 (compiled with -mavx2; chosen at run time by alp.cc).
#include <immintrin.h>

#include "table_format/encodings/alp.h"

namespace columnar {

template <>
void AlpDecodeKernel::operator()<xsimd::avx2>(xsimd::avx2, const uint32_t* ints, size_t n,
                                              int64_t base, double factor, double fraction,
                                              double* out) const {
  // AVX2 converts only signed int32: convert ints - 2^31 and add base + 2^31 back. Both parts
  // are integers and the sum stays within +-2^52, so every step is exact.
  const __m256d offset = _mm256_set1_pd(static_cast<double>(base) + 2147483648.0);
  const __m128i flip = _mm_set1_epi32(static_cast<int>(0x80000000u));
  const __m256d f = _mm256_set1_pd(factor);
  const __m256d fr = _mm256_set1_pd(fraction);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ints + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ints + i + 4));
    const __m256d da = _mm256_add_pd(_mm256_cvtepi32_pd(_mm_xor_si128(a, flip)), offset);
    const __m256d db = _mm256_add_pd(_mm256_cvtepi32_pd(_mm_xor_si128(b, flip)), offset);
    _mm256_storeu_pd(out + i, _mm256_mul_pd(_mm256_mul_pd(da, f), fr));
    _mm256_storeu_pd(out + i + 4, _mm256_mul_pd(_mm256_mul_pd(db, f), fr));
  }
  AlpDecodeScalar(ints + i, n - i, base, factor, fraction, out + i);
}

template <>
void AlpDecodeKernel::operator()<xsimd::avx2>(xsimd::avx2, const uint32_t* ints, size_t n,
                                              int64_t base, float factor, float fraction,
                                              float* out) const {
  // Float ints and bases stay within +-2^22 (validated by the decoder): int32 arithmetic and
  // conversion are exact.
  const __m256i b = _mm256_set1_epi32(static_cast<int32_t>(base));
  const __m256 f = _mm256_set1_ps(factor);
  const __m256 fr = _mm256_set1_ps(fraction);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ints + i));
    const __m256 v = _mm256_cvtepi32_ps(_mm256_add_epi32(x, b));
    _mm256_storeu_ps(out + i, _mm256_mul_ps(_mm256_mul_ps(v, f), fr));
  }
  AlpDecodeScalar(ints + i, n - i, base, factor, fraction, out + i);
}

}  // namespace columnar
