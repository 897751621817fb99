// Internal to alp.cc, alp_rd.cc, the ALP kernels and the auto chooser: ALP's constants
// (Afroozeh, Kuffó, Boncz, SIGMOD 2024), its sampling plan, the size estimates the chooser
// uses, and the fused decode kernel dispatched per instruction set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>
#include <xsimd/xsimd.hpp>

namespace columnar {

inline constexpr size_t kAlpVectorValues = 1024;
inline constexpr size_t kAlpSampledVectors = 8;     // per chunk (the paper's row group)
inline constexpr size_t kAlpSamplesPerVector = 32;  // per sampled vector
inline constexpr size_t kAlpTopCombinations = 5;
inline constexpr int kAlpEarlyExitThreshold = 2;  // consecutive worse combinations

template <typename T>
struct AlpTraits;

template <>
struct AlpTraits<double> {
  using Int = int64_t;
  using Bits = uint64_t;
  static constexpr int kMaxExponent = 18;
  // Rounds to nearest-even when added and subtracted, for |x| <= 2^51 (2^52 + 2^51).
  static constexpr double kMagic = 6755399441055744.0;
  // Encoded integers stay within +-2^51: exactly representable, and within kMagic's range.
  static constexpr int64_t kMaxEncoded = int64_t{1} << 51;
  // Decoded frames stay below this, where every integer converts to double exactly.
  static constexpr int64_t kExactLimit = int64_t{1} << 53;
  static constexpr int kMaxWidth = 53;
  // 10^i, exact in a double for i <= 22.
  static constexpr double kExp10[19] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8, 1e9,
                                        1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
  // 10^-i, correctly rounded (the compiler rounds decimal literals correctly).
  static constexpr double kFrac10[19] = {1e0,   1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,
                                         1e-7,  1e-8,  1e-9,  1e-10, 1e-11, 1e-12, 1e-13,
                                         1e-14, 1e-15, 1e-16, 1e-17, 1e-18};
};

template <>
struct AlpTraits<float> {
  using Int = int32_t;
  using Bits = uint32_t;
  static constexpr int kMaxExponent = 10;
  static constexpr float kMagic = 12582912.0f;  // 2^23 + 2^22, for |x| <= 2^22
  static constexpr int32_t kMaxEncoded = int32_t{1} << 22;
  static constexpr int64_t kExactLimit = int64_t{1} << 24;
  static constexpr int kMaxWidth = 24;
  static constexpr float kExp10[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                       1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
  static constexpr float kFrac10[11] = {1e0f,  1e-1f, 1e-2f, 1e-3f, 1e-4f, 1e-5f,
                                        1e-6f, 1e-7f, 1e-8f, 1e-9f, 1e-10f};
};

// Positions of the chunk-level sample: up to kAlpSampledVectors equidistant vectors, up to
// kAlpSamplesPerVector equidistant values in each. Returned per sampled vector.
std::vector<std::vector<uint32_t>> AlpSamplePositions(size_t n);

// The same positions, in the same order, each given to f(position) without building lists
// (ALP-RD's analysis runs on every float chunk).
template <typename F>
void ForEachAlpSamplePosition(size_t n, F&& f) {
  const size_t vectors = (n + kAlpVectorValues - 1) / kAlpVectorValues;
  const size_t sampled = vectors < kAlpSampledVectors ? vectors : kAlpSampledVectors;
  for (size_t s = 0; s < sampled; s++) {
    const size_t start = s * vectors / sampled * kAlpVectorValues;
    const size_t len = n - start < kAlpVectorValues ? n - start : kAlpVectorValues;
    const size_t step = len / kAlpSamplesPerVector > 1 ? len / kAlpSamplesPerVector : 1;
    size_t taken = 0;
    for (size_t i = 0; i < len && taken < kAlpSamplesPerVector; i += step, taken++) {
      f(static_cast<uint32_t>(start + i));
    }
  }
}

struct AlpCombination {
  int e = 0;  // exponent
  int f = 0;  // factor
};

// ALP's chunk-level analysis: the (e, f) pairs the vectors will try, best first, and the
// estimated size. The auto chooser computes it once, for its estimate, and hands it to the
// encoder.
struct AlpAnalysis {
  std::vector<AlpCombination> combinations;
  double bits_per_value = 0;
};
template <typename T>
AlpAnalysis AnalyzeAlp(const T* values, size_t n);
template <typename T>
void EncodeAlp(const T* values, size_t n, const AlpAnalysis& analysis, std::string* out);

// ALP-RD's chunk-level choice: the cut (right-part width) and the left-part dictionary.
struct AlpRdAnalysis {
  int right_width = 0;
  std::vector<uint16_t> dictionary;
  double bits_per_value = 0;
};
template <typename T>
AlpRdAnalysis AnalyzeAlpRd(const T* values, size_t n);
template <typename T>
void EncodeAlpRd(const T* values, size_t n, const AlpRdAnalysis& analysis, std::string* out);

// The fused unFOR + ALP decode of one vector: out[i] = T(base + ints[i]) * factor * fraction.
// The caller guarantees every base + ints[i] is within +-AlpTraits<T>::kMaxEncoded, so the
// integer-to-float conversions are exact whichever way a kernel computes them.
struct AlpDecodeKernel {
  template <class Arch>
  void operator()(Arch, const uint32_t* ints, size_t n, int64_t base, double factor,
                  double fraction, double* out) const;
  template <class Arch>
  void operator()(Arch, const uint32_t* ints, size_t n, int64_t base, float factor, float fraction,
                  float* out) const;
};

#define COLUMNAR_DECLARE_ALP_KERNEL(ARCH)                                                        \
  template <>                                                                                    \
  void AlpDecodeKernel::operator()<ARCH>(ARCH, const uint32_t*, size_t, int64_t, double, double, \
                                         double*) const;                                         \
  template <>                                                                                    \
  void AlpDecodeKernel::operator()<ARCH>(ARCH, const uint32_t*, size_t, int64_t, float, float,   \
                                         float*) const;
COLUMNAR_DECLARE_ALP_KERNEL(xsimd::sse2)
COLUMNAR_DECLARE_ALP_KERNEL(xsimd::avx2)
COLUMNAR_DECLARE_ALP_KERNEL(xsimd::avx512bw)
#undef COLUMNAR_DECLARE_ALP_KERNEL

// The scalar loop, also used for the baseline instruction set.
template <typename T>
inline void AlpDecodeScalar(const uint32_t* ints, size_t n, int64_t base, T factor, T fraction,
                            T* out) {
  using Int = typename AlpTraits<T>::Int;
  for (size_t i = 0; i < n; i++) {
    out[i] = static_cast<T>(static_cast<Int>(base + ints[i])) * factor * fraction;
  }
}

}  // namespace columnar
