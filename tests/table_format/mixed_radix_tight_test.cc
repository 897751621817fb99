// mixed_radix_tight (encoding 22): fixed bytes, its size against mixed_radix's on write-time
// jitter, round trips over radixes and counts, and bad bodies.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "table_format/encoding.h"
#include "table_format/encodings/mixed_radix.h"
#include "tests/table_format/column_literal.h"
#include "tests/table_format/hex_bytes.h"

namespace columnar {
namespace {

using testing_util::Column;
using testing_util::Hex;

void ExpectBody(const ColumnVector& values, const std::string& expected_hex) {
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kMixedRadixTight, values, &body).ok());
  EXPECT_EQ(Hex(body), expected_hex);
  ColumnVector decoded(values.type());
  ASSERT_TRUE(
      DecodeValues(Encoding::kMixedRadixTight, values.type(), body, values.size(), &decoded).ok());
  EXPECT_TRUE(decoded.Equals(values));
}

TEST(MixedRadixTightTest, BodyBytes) {
  // Fewer values than a group (R = 6 groups 24): mixed_radix's bytes, reference 0 (floored
  // from 3), span 5, the number 3 + 5 x 6 + 4 x 36 = 177 in 8 bits.
  ExpectBody(Column<int32_t>({3, 5, 4}), "0005b1");
  // Six values in 0..99,999: the bounds widen to 0..131,071 (2^17 - 1 = ff ff 07), which
  // keeps the body's 13 bytes. R = 2^17: groups of k = 3 in B = 51 bits, L = 41, H =
  // ((2^51 - 1) >> 41) + 1 = 1024. Numbers N_0 = 0 + 1 R + 2 R^2 = 34,359,869,440 and N_1 =
  // 99,999 (1 + R + R^2). Tops {0, 781} as one group of radix 1024: 781 x 1024 in 20 bits;
  // then the lows N_0 and N_1 - 781 x 2^41 in 41 bits each: 102 bits, 13 bytes.
  ExpectBody(Column<int64_t>({0, 1, 2, 99999, 99999, 99999}), "00ffff0700340c00200080e0d3f0a7e10f");
  // Every value equal: the header only.
  ExpectBody(Column<int64_t>({-5, -5}), "0900");
}

TEST(MixedRadixTightTest, AByteLessThanMixedRadixOnJitter) {
  std::mt19937_64 rng(3);
  ColumnVector jitter(PhysicalType::kInt64);
  for (int i = 0; i < 128; i++) jitter.Append<int64_t>(static_cast<int64_t>(rng() % 100000));
  std::string tight, plain;
  ASSERT_TRUE(EncodeValues(Encoding::kMixedRadixTight, jitter, &tight).ok());
  ASSERT_TRUE(EncodeValues(Encoding::kMixedRadix, jitter, &plain).ok());
  // 2,127 bits (266 bytes) against 42 x 50 + 34 = 2,134 (267), after the same 4-byte header.
  EXPECT_EQ(tight.size(), 4u + 266u);
  EXPECT_EQ(plain.size(), 4u + 267u);
  EXPECT_EQ(tight.size(), MixedRadixTightSize(0, 99999, 128));
  // The chooser weighs it exactly, and takes it.
  std::string chosen_body;
  Encoding chosen;
  ASSERT_TRUE(EncodeWithBestEncoding(Encoding::kAuto, jitter, &chosen_body, &chosen).ok());
  EXPECT_EQ(chosen, Encoding::kMixedRadixTight);
  EXPECT_EQ(chosen_body, tight);
}

TEST(MixedRadixTightTest, RoundTrips) {
  std::mt19937_64 rng(11);
  for (uint64_t radix : {2ull, 3ull, 7ull, 1000ull, 100001ull, 1ull << 20, 3000000001ull,
                         (1ull << 40) + 7, (1ull << 62) + 3}) {
    for (size_t n : {1u, 2u, 5u, 64u, 127u, 128u, 300u}) {
      ColumnVector values(PhysicalType::kInt64);
      for (size_t i = 0; i < n; i++) {
        values.Append<int64_t>(-1000 + static_cast<int64_t>(rng() % radix));
      }
      std::string body;
      ASSERT_TRUE(EncodeValues(Encoding::kMixedRadixTight, values, &body).ok());
      ColumnVector decoded(PhysicalType::kInt64);
      ASSERT_TRUE(
          DecodeValues(Encoding::kMixedRadixTight, PhysicalType::kInt64, body, n, &decoded).ok())
          << radix << " " << n;
      EXPECT_TRUE(decoded.Equals(values)) << radix << " " << n;
      // Any range alone (point reads): from the group's tops and low, or from the rest.
      for (size_t begin : {size_t{0}, n / 3, n / 2, n - 1}) {
        for (size_t end : {begin + 1, n}) {
          ColumnVector range(PhysicalType::kInt64);
          ASSERT_TRUE(DecodeValueRange(Encoding::kMixedRadixTight, PhysicalType::kInt64, body, n,
                                       begin, end, &range)
                          .ok());
          ASSERT_EQ(range.size(), end - begin);
          for (size_t i = begin; i < end; i++) {
            ASSERT_EQ(range.Get<int64_t>(i - begin), values.Get<int64_t>(i))
                << radix << " " << n << " " << i;
          }
        }
      }
    }
  }
  // int32 extremes.
  ColumnVector extremes = Column<int32_t>({INT32_MIN, INT32_MAX, 0, -1, INT32_MAX - 1});
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kMixedRadixTight, extremes, &body).ok());
  ColumnVector decoded(PhysicalType::kInt32);
  ASSERT_TRUE(
      DecodeValues(Encoding::kMixedRadixTight, PhysicalType::kInt32, body, 5, &decoded).ok());
  EXPECT_TRUE(decoded.Equals(extremes));
  // The whole 64-bit range does not fit a radix: refused, so the chooser takes another.
  std::string refused;
  EXPECT_TRUE(
      EncodeValues(Encoding::kMixedRadixTight, Column<int64_t>({INT64_MIN, INT64_MAX}), &refused)
          .IsInvalidArgument());
}

TEST(MixedRadixTightTest, RefusesBadBodies) {
  const ColumnVector values = Column<int64_t>({0, 1, 2, 99999, 99999, 99999});
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kMixedRadixTight, values, &body).ok());
  for (size_t cut = 0; cut < body.size(); cut++) {
    ColumnVector out(PhysicalType::kInt64);
    EXPECT_TRUE(
        DecodeValues(Encoding::kMixedRadixTight, PhysicalType::kInt64, body.substr(0, cut), 6, &out)
            .IsCorruption())
        << cut;
  }
  ColumnVector out(PhysicalType::kInt64);
  EXPECT_TRUE(DecodeValues(Encoding::kMixedRadixTight, PhysicalType::kInt64, body + '\0', 6, &out)
                  .IsCorruption());
  // R = 100,000 (span 99,999 = 9f 8d 06): k = 3, B = 50, L = 40, H = ((10^15 - 1) >> 40) + 1
  // = 910. Tops {909, 909} (a valid group of radix 910, 20 bits) and lows 2^40 - 1: numbers
  // 910 x 2^40 - 1 >= R^3, beyond three digits.
  std::string forged("\x00\x9f\x8d\x06", 4);
  forged += std::string("\xc3\xa2\xfc\xff\xff\xff\xff\xff\xff\xff\xff\xff\x0f", 13);
  out.Reset(PhysicalType::kInt64);
  EXPECT_TRUE(DecodeValues(Encoding::kMixedRadixTight, PhysicalType::kInt64, forged, 6, &out)
                  .IsCorruption());
  out.Reset(PhysicalType::kInt64);
  EXPECT_TRUE(
      DecodeValueRange(Encoding::kMixedRadixTight, PhysicalType::kInt64, forged, 6, 4, 5, &out)
          .IsCorruption());
  // A count the body cannot hold, and a span for no values.
  out.Reset(PhysicalType::kInt64);
  EXPECT_TRUE(DecodeValues(Encoding::kMixedRadixTight, PhysicalType::kInt64, body, 1000000, &out)
                  .IsCorruption());
  out.Reset(PhysicalType::kInt64);
  EXPECT_TRUE(
      DecodeValues(Encoding::kMixedRadixTight, PhysicalType::kInt64, body, 0, &out).IsCorruption());
}

}  // namespace
}  // namespace columnar
