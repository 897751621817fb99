// RiceCodeCounts (encodings/rice_code_counts.h): every threshold count, every parameter's code
// sums and code bits (escaped codes' varints included) equal those counted value by value, for
// blocks of many shapes (zeros, extremes, values at and next to the thresholds j << k and to those
// where an escaped code's varint grows, narrow and wide spreads) and both word widths.
#include "table_format/encodings/rice_code_counts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "table_format/varint.h"

namespace columnar {
namespace {

// What rice_delta's parameter search weighed before the histogram: a pass over the values.
template <typename U>
typename RiceCodeCounts<U>::Sums CountedSums(const std::vector<U>& z, int k) {
  typename RiceCodeCounts<U>::Sums sums;
  for (U v : z) {
    const U q = v >> k;
    sums.unary += std::min<U>(q, 16);
    const U capped = std::min<U>(q, 19);
    sums.flat += capped > 2 ? capped - 2 : 0;
    sums.escapes += q >= 16;
    sums.flat_escapes += q >= 19;
  }
  return sums;
}

// The bits of rice_delta's fields and codes at parameter k, value by value: unary quotients
// (bits[0]) and two-bit flat fields (bits[1]), escaped codes with their varints.
template <typename U>
void CountedCodeBits(const std::vector<U>& z, int k, uint64_t bits[2]) {
  bits[0] = z.size() * static_cast<uint64_t>(k + 1);
  bits[1] = z.size() * static_cast<uint64_t>(k + 2);
  for (U v : z) {
    const U q = v >> k;
    bits[0] += q < 16 ? q : 16 + 8 * static_cast<uint64_t>(VarintLength(q - 16));
    bits[1] += q < 3 ? 0 : q < 19 ? q - 2 : 17 + 8 * static_cast<uint64_t>(VarintLength(q - 19));
  }
}

// A block of `len` values of one of several shapes.
template <typename U>
std::vector<U> Block(std::mt19937_64& rng, size_t len, int shape) {
  constexpr int kWidth = sizeof(U) * 8;
  std::vector<U> z(len);
  const int k = static_cast<int>(rng() % kWidth);
  for (size_t i = 0; i < len; i++) {
    const U any = static_cast<U>(rng());
    switch (shape) {
      case 0:  // anything
        z[i] = any;
        break;
      case 1: {  // a spread of widths around 2^k
        const int width = std::clamp(k + static_cast<int>(rng() % 9) - 4, 0, kWidth);
        z[i] = width == 0 ? 0 : static_cast<U>(any >> (kWidth - width));
        break;
      }
      case 2: {  // thresholds j << k and their neighbours
        const U t = static_cast<U>(static_cast<U>(1 + rng() % 31) << k);
        z[i] = static_cast<U>(t + static_cast<U>(static_cast<int>(rng() % 3) - 1));
        break;
      }
      case 3:  // extremes and small values
        z[i] = std::vector<U>{0,
                              1,
                              2,
                              3,
                              15,
                              16,
                              17,
                              31,
                              32,
                              static_cast<U>(~U{0}),
                              static_cast<U>(~U{0} - 1),
                              static_cast<U>(U{1} << (kWidth - 1))}[rng() % 12];
        break;
      case 4:  // a few wide outliers among narrow values
        z[i] = rng() % 16 == 0 ? any : static_cast<U>(rng() % 64);
        break;
      default: {  // where an escaped code's varint grows, (2^(7m) + 16 or 19) << k, and next to it
        const int m = 1 + static_cast<int>(rng() % 9);
        const U t =
            7 * m < kWidth ? static_cast<U>((U{1} << (7 * m)) + (rng() % 2 == 0 ? 16 : 19)) : U{0};
        if (t == 0 || t > (static_cast<U>(~U{0}) >> k)) {  // past U
          z[i] = any;
          break;
        }
        const U low = k == 0 ? U{0} : static_cast<U>(any >> (kWidth - k));  // below the quotient
        z[i] = static_cast<U>((t << k) + (rng() % 2 == 0 ? U{0} : low) + rng() % 3 - 1);
        break;
      }
    }
  }
  return z;
}

template <typename U>
void CheckEveryThresholdAndParameter(uint64_t seed) {
  constexpr int kWidth = sizeof(U) * 8;
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 400; round++) {
    const size_t len = round < 5 ? static_cast<size_t>(round) : 1 + rng() % 255;
    const std::vector<U> z = Block<U>(rng, len, round % 6);
    // Half the rounds fill a histogram used before (Reset, Add, Finish).
    RiceCodeCounts<U> counts(z.data(), z.size());
    if (round % 2 == 1) {
      const std::vector<U> other = Block<U>(rng, 1 + rng() % 255, (round + 1) % 6);
      counts = RiceCodeCounts<U>(other.data(), other.size());
      counts.Reset();
      for (U v : z) counts.Add(v);
      counts.Finish();
    }
    uint64_t widths = 0;
    for (U v : z) widths += static_cast<uint64_t>(BitWidth(v));
    ASSERT_EQ(counts.width_sum(), widths);
    int widest = 0;
    for (U v : z) widest = std::max(widest, BitWidth(v));
    ASSERT_EQ(counts.widest(), widest);
    for (int k = 0; k <= RiceCodeCounts<U>::kMaxParameter; k++) {
      for (uint32_t j = 1; j < 32; j++) {
        // Thresholds past U's range are never reached.
        const bool fits = BitWidth(j) + k <= kWidth;
        const uint64_t threshold = fits ? uint64_t{j} << k : 0;
        const auto expected =
            fits ? std::count_if(z.begin(), z.end(), [&](U v) { return v >= threshold; }) : 0;
        ASSERT_EQ(counts.AtLeast(j, k), static_cast<uint32_t>(expected))
            << "round " << round << " k " << k << " j " << j;
      }
      const auto sums = counts.SumsFor(k);
      const auto expected = CountedSums(z, k);
      ASSERT_EQ(sums.unary, expected.unary) << "round " << round << " k " << k;
      ASSERT_EQ(sums.flat, expected.flat) << "round " << round << " k " << k;
      ASSERT_EQ(sums.escapes, expected.escapes) << "round " << round << " k " << k;
      ASSERT_EQ(sums.flat_escapes, expected.flat_escapes) << "round " << round << " k " << k;
      uint64_t bits[2];
      uint64_t expected_bits[2];
      counts.CodeBits(z.data(), k, bits);
      CountedCodeBits(z, k, expected_bits);
      ASSERT_EQ(bits[0], expected_bits[0]) << "round " << round << " k " << k;
      ASSERT_EQ(bits[1], expected_bits[1]) << "round " << round << " k " << k;
    }
  }
}

TEST(RiceCodeCountsTest, ThresholdsAndSumsAreThoseCountedValueByValue64) {
  CheckEveryThresholdAndParameter<uint64_t>(64);
}

TEST(RiceCodeCountsTest, ThresholdsAndSumsAreThoseCountedValueByValue32) {
  CheckEveryThresholdAndParameter<uint32_t>(32);
}

}  // namespace
}  // namespace columnar
