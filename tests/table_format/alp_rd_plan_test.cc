// ALP-RD's plan (encodings/alp_rd.cc ChoosePlan) over its chunk-level sample: the cut and the
// dictionary are those main 49f6673 chose (fixed digest of many bodies), whatever the number of
// distinct left parts, ties of their counts, and the sample's shape (chunks of 1 to 9000
// values: one vector, several, more than kAlpSampledVectors).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "table_format/encoding.h"
#include "table_format/encodings/alp.h"

namespace columnar {
namespace {

uint64_t Fnv1a64(const std::string& bytes, uint64_t h = 14695981039346656037ull) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

TEST(AlpRdPlanTest, PlansAreThoseOfTheFixedDigest) {
  std::mt19937_64 rng(77);  // the engine's output is specified by the standard
  uint64_t digest = 14695981039346656037ull;
  size_t total = 0;
  size_t sampled = 0;
  for (int chunk = 0; chunk < 300; chunk++) {
    const size_t n = 1 + rng() % (chunk % 10 == 0 ? 9000 : 300);
    // 1 to 24 magnitudes (left parts), some chunks with the sign flipping too.
    const int magnitudes = 1 + static_cast<int>(rng() % 24);
    const bool signs = rng() % 3 == 0;
    ColumnVector values(PhysicalType::kFloat64);
    for (size_t i = 0; i < n; i++) {
      uint64_t bits = rng() & ((uint64_t{1} << 52) - 1);  // mantissa noise
      bits |= (uint64_t{1000} + rng() % magnitudes) << 52;
      if (signs && rng() % 2 == 0) bits |= uint64_t{1} << 63;
      double v;
      std::memcpy(&v, &bits, sizeof(v));
      values.Append<double>(v);
    }
    ForEachAlpSamplePosition(n, [&](uint32_t p) {
      ASSERT_LT(p, n);
      sampled++;
    });
    std::string body;
    ASSERT_TRUE(EncodeValues(Encoding::kAlpRd, values, &body).ok());
    ColumnVector back(PhysicalType::kFloat64);
    ASSERT_TRUE(DecodeValues(Encoding::kAlpRd, PhysicalType::kFloat64, body, n, &back).ok());
    ASSERT_TRUE(back.Equals(values));
    digest = Fnv1a64(body, digest);
    total += body.size();
  }
  EXPECT_EQ(sampled, 12519u);
  EXPECT_EQ(total, 1168882u);
  EXPECT_EQ(digest, 1341263016042489031ull);
}

}  // namespace
}  // namespace columnar
