// EntropyEstimator (table_format/entropy_estimate.h) on columns whose information is known,
// and the optional estimate field of the column stats property (old entries without it).
#include "table_format/entropy_estimate.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "table_format/column_stats.h"

namespace columnar {
namespace {

constexpr int kChunks = 64;
constexpr int kRows = 128;
constexpr double kValues = kChunks * kRows;

template <typename MakeChunk>
double BitsPerValue(MakeChunk make_chunk) {
  EntropyEstimator estimator;
  for (int c = 0; c < kChunks; c++) estimator.Add(make_chunk(c));
  return estimator.bits() / kValues;
}

TEST(EntropyEstimateTest, UniformJitterCostsLog2OfItsRange) {
  std::mt19937_64 rng(1);
  const double bits = BitsPerValue([&](int) {
    ColumnVector v(PhysicalType::kInt64);
    for (int i = 0; i < kRows; i++) v.Append<int64_t>(static_cast<int64_t>(rng() % 100001));
    return v;
  });
  EXPECT_NEAR(bits, 16.61, 0.01);
}

TEST(EntropyEstimateTest, RandomHexIdsCostTheirBits) {
  std::mt19937_64 rng(2);
  static const char kDigits[] = "0123456789abcdef";
  const double bits = BitsPerValue([&](int) {
    ColumnVector v(PhysicalType::kBytes);
    for (int i = 0; i < kRows; i++) {
      std::string id;
      for (int k = 0; k < 32; k++) id.push_back(kDigits[rng() % 16]);
      v.AppendBytes(id);
    }
    return v;
  });
  EXPECT_NEAR(bits, 128, 1);
}

TEST(EntropyEstimateTest, RecurringStringsCostTheirDistribution) {
  std::mt19937_64 rng(3);
  // Four equally likely values: 2 bits each (their content, stated once, is negligible).
  const double bits = BitsPerValue([&](int) {
    static const char* const kMethods[] = {"GET", "POST", "PUT", "DELETE"};
    ColumnVector v(PhysicalType::kBytes);
    for (int i = 0; i < kRows; i++) v.AppendBytes(kMethods[rng() % 4]);
    return v;
  });
  EXPECT_NEAR(bits, 2, 0.05);
}

TEST(EntropyEstimateTest, PathsCostTheirTemplateAndParameter) {
  std::mt19937_64 rng(4);
  // One of 4 routes (2 bits) and an id of 1..999999 (19.93 bits).
  const double bits = BitsPerValue([&](int) {
    ColumnVector v(PhysicalType::kBytes);
    for (int i = 0; i < kRows; i++) {
      v.AppendBytes("/api/v1/r" + std::string(1, static_cast<char>('a' + rng() % 4)) + "/" +
                    std::to_string(1 + rng() % 999999));
    }
    return v;
  });
  EXPECT_NEAR(bits, 2 + 19.93, 0.5);
}

TEST(EntropyEstimateTest, RegularSeriesCostNothingAndNullsTheirShare) {
  const double bits = BitsPerValue([&](int c) {
    ColumnVector v(PhysicalType::kInt64);
    for (int i = 0; i < kRows; i++) v.Append<int64_t>(1'700'000'000 + 10 * (c * kRows + i));
    return v;
  });
  EXPECT_LT(bits, 0.1);
  // Half the rows null, the others constant: 1 bit a row.
  std::mt19937_64 rng(5);
  const double null_bits = BitsPerValue([&](int) {
    ColumnVector v(PhysicalType::kInt32);
    for (int i = 0; i < kRows; i++) {
      if (rng() % 2) {
        v.AppendNull();
      } else {
        v.Append<int32_t>(7);
      }
    }
    return v;
  });
  EXPECT_NEAR(null_bits, 1, 0.05);
}

TEST(EntropyEstimateTest, ColumnStatsCarryTheEstimateAndReadOldEntries) {
  ColumnStats stats;
  ColumnVector v(PhysicalType::kBytes);
  for (int i = 0; i < 8; i++) v.AppendBytes(i % 2 ? "a" : "b");
  stats.Record("method", 10, Encoding::kDictionary, v.size());
  // Off by default (table files are written without it): nothing is estimated.
  stats.Observe("method", v);
  EXPECT_EQ(stats.Serialize(), "method\t10\t1\t8\tdictionary=1");
  EXPECT_TRUE(stats.EntropyEstimates().empty());
  stats.set_estimate_entropy(true);
  stats.Observe("method", v);
  EXPECT_EQ(stats.EntropyEstimates().at("method"), 24);
  const std::string text = stats.Serialize();
  // 8 values of 1 bit, and each of the 2 strings' content once (8 bits each).
  EXPECT_EQ(text, "method\t10\t1\t8\tdictionary=1\t24");
  ColumnStats parsed;
  ASSERT_TRUE(ColumnStats::Parse(text, &parsed).ok());
  EXPECT_EQ(parsed.columns().at("method").entropy_bits, 24);
  EXPECT_EQ(parsed.columns().at("method").encodings.at("dictionary"), 1u);
  // An entry written before the estimate existed.
  ASSERT_TRUE(ColumnStats::Parse("path\t100\t2\t16\tplain=2", &parsed).ok());
  EXPECT_LT(parsed.columns().at("path").entropy_bits, 0);
  EXPECT_EQ(parsed.columns().at("path").encodings.at("plain"), 2u);
}

}  // namespace
}  // namespace columnar
