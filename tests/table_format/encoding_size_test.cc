// Compression expectations on typical columns (sizes only, no timing): each encoding must do
// what it is for, and auto must find it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "table_format/encoding.h"
#include "tests/table_format/encoding_test_util.h"

namespace columnar {
namespace {

double BitsPerValue(Encoding encoding, const ColumnVector& values, Encoding* chosen = nullptr) {
  std::string body;
  Status s = encoding == Encoding::kAuto ? EncodeWithBestEncoding(encoding, values, &body, chosen)
                                         : EncodeValues(encoding, values, &body);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return 8.0 * body.size() / values.size();
}

TEST(EncodingSizeTest, RegularTimestampsCostAlmostNothing) {
  ColumnVector ts(PhysicalType::kInt64);
  for (int i = 0; i < 1024; i++) ts.Append<int64_t>(1700000000 + 5 * i);
  EXPECT_LT(BitsPerValue(Encoding::kDeltaOfDelta, ts), 0.1);
  EXPECT_LT(BitsPerValue(Encoding::kDelta, ts), 0.1);
  EXPECT_LT(BitsPerValue(Encoding::kAuto, ts), 0.1);
}

TEST(EncodingSizeTest, OneOutlierCostsOnlyItsMiniblock) {
  ColumnVector v(PhysicalType::kInt64);
  for (int i = 0; i < 1024; i++) v.Append<int64_t>(i == 500 ? (int64_t{1} << 40) : i % 4);
  // 2 bits per value, plus one miniblock of 32 values at 41 bits and the width bytes.
  EXPECT_LT(BitsPerValue(Encoding::kFor, v), 2 + 41.0 * 32 / 1024 + 0.5);
}

TEST(EncodingSizeTest, DecimalsGoToAlp) {
  std::mt19937_64 rng(1);
  ColumnVector v(PhysicalType::kFloat64);
  for (int i = 0; i < 1024; i++) v.Append<double>(static_cast<double>(rng() % 10000) / 100);
  EXPECT_LT(BitsPerValue(Encoding::kAlp, v), 16);
  Encoding chosen;
  EXPECT_LT(BitsPerValue(Encoding::kAuto, v, &chosen), 16);
  EXPECT_EQ(chosen, Encoding::kAlp);
}

TEST(EncodingSizeTest, AlpKeepsSpecialsAsExceptions) {
  ColumnVector v(PhysicalType::kFloat64);
  const auto specials = testing_util::SpecialFloats<double>();
  for (int i = 0; i < 1024; i++) {
    v.Append<double>(i % 64 == 0 ? specials[i / 64 % specials.size()] : (i % 100) / 10.0);
  }
  // 16 exceptions cost 80 bits each; the rest pack at 7 bits.
  EXPECT_LT(BitsPerValue(Encoding::kAlp, v), 7 + 16 * 80.0 / 1024 + 1);
}

TEST(EncodingSizeTest, FullPrecisionDoublesGoToAlpRd) {
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> lat(40.0, 41.0);
  ColumnVector v(PhysicalType::kFloat64);
  for (int i = 0; i < 1024; i++) v.Append<double>(lat(rng));
  EXPECT_LT(BitsPerValue(Encoding::kAlpRd, v), 56);
  Encoding chosen;
  EXPECT_LT(BitsPerValue(Encoding::kAlp, v), 64 + 16 + 1);  // nearly all exceptions
  std::string body;
  ASSERT_TRUE(EncodeWithBestEncoding(Encoding::kAlp, v, &body, &chosen).ok());
  EXPECT_EQ(chosen, Encoding::kAlpRd);
}

TEST(EncodingSizeTest, Float32RandomWalkGoesToFloatDelta) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> step(0, 0.1);
  ColumnVector v(PhysicalType::kFloat32);
  float x = 55.5f;
  for (int i = 0; i < 4096; i++) {
    x += static_cast<float>(step(rng));
    v.Append<float>(x);
  }
  Encoding chosen;
  EXPECT_LT(BitsPerValue(Encoding::kAuto, v, &chosen), 18);
  EXPECT_EQ(chosen, Encoding::kFloatDelta);
}

TEST(EncodingSizeTest, FewDistinctStringsGoToDictionary) {
  std::mt19937_64 rng(4);
  const char* methods[] = {"GET", "POST", "PUT", "DELETE", "PATCH"};
  ColumnVector v(PhysicalType::kBytes);
  for (int i = 0; i < 1024; i++) v.AppendBytes(methods[rng() % 5]);
  Encoding chosen;
  EXPECT_LT(BitsPerValue(Encoding::kAuto, v, &chosen), 3.5);
  EXPECT_EQ(chosen, Encoding::kDictionary);
}

TEST(EncodingSizeTest, HexIdsPackTwoDigitsPerByte) {
  std::mt19937_64 rng(5);
  ColumnVector v(PhysicalType::kBytes);
  for (int i = 0; i < 1024; i++) v.AppendBytes(testing_util::RandomHex(rng, 32));
  Encoding chosen;
  EXPECT_LT(BitsPerValue(Encoding::kAuto, v, &chosen), 128.1);
  EXPECT_EQ(chosen, Encoding::kHex);
}

TEST(EncodingSizeTest, SortedStringsGoToFrontCoding) {
  ColumnVector v(PhysicalType::kBytes);
  for (int i = 0; i < 1024; i++) v.AppendBytes("/api/v1/users/" + std::to_string(100000 + 3 * i));
  Encoding chosen;
  const double bits = BitsPerValue(Encoding::kAuto, v, &chosen);
  EXPECT_EQ(chosen, Encoding::kFrontCoding);
  EXPECT_LT(bits, 8 * 3 + 8);  // about the last 2-3 digits and two small lengths
}

TEST(EncodingSizeTest, GorillaOnlyWhenClearlySmaller) {
  // Random bits in the middle of the mantissa: XOR windows stay narrow (Gorilla about 27 bits
  // a value) while every integer view of the values spans 44 bits.
  std::mt19937_64 rng(6);
  ColumnVector middle_bits(PhysicalType::kFloat64);
  for (int i = 0; i < 1024; i++) {
    middle_bits.Append<double>(
        testing_util::FromBits<double>(0x4059000000000000ull | ((rng() & 0xffffff) << 20)));
  }
  Encoding chosen;
  std::string body;
  ASSERT_TRUE(EncodeWithBestEncoding(Encoding::kAuto, middle_bits, &body, &chosen).ok());
  EXPECT_EQ(chosen, Encoding::kGorilla);
  // Wherever gorilla is chosen, every other encoding is at least 10% bigger.
  auto datasets = testing_util::FloatDatasets<double>(1024, 6);
  datasets.push_back({"middle_bits", middle_bits});
  for (auto& dataset : datasets) {
    Encoding chosen;
    std::string body;
    ASSERT_TRUE(EncodeWithBestEncoding(Encoding::kAuto, dataset.values, &body, &chosen).ok());
    if (chosen != Encoding::kGorilla) continue;
    for (Encoding other : CandidateEncodings(Encoding::kAuto, PhysicalType::kFloat64)) {
      if (other == Encoding::kGorilla) continue;
      std::string other_body;
      ASSERT_TRUE(EncodeValues(other, dataset.values, &other_body).ok());
      EXPECT_LT(static_cast<double>(body.size()), 0.9 * other_body.size() + 1)
          << dataset.name << " " << EncodingName(other);
    }
  }
}

}  // namespace
}  // namespace columnar
