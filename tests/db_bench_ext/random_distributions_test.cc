#include "db_bench_ext/random_distributions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace columnar {
namespace bench {
namespace {

TEST(RandomTest, SameSeedSameStreamOtherSeedOtherStream) {
  Random a(42), b(42), c(43);
  bool any_difference = false;
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    any_difference |= x != c.Next();
  }
  EXPECT_TRUE(any_difference);
}

TEST(RandomTest, UniformStaysInRangeAndCoversIt) {
  Random rng(1);
  std::vector<int> counts(7, 0);
  for (int i = 0; i < 70000; ++i) ++counts[rng.Uniform(7)];
  for (int count : counts) EXPECT_NEAR(count, 10000, 500);
  for (int i = 0; i < 1000; ++i) {
    const int64_t v = rng.UniformInRange(-3, 3);
    EXPECT_GE(v, -3);
    EXPECT_LE(v, 3);
  }
}

TEST(RandomTest, NormalHasUnitMoments) {
  Random rng(7);
  double sum = 0, sum_squares = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double x = rng.Normal();
    sum += x;
    sum_squares += x * x;
  }
  EXPECT_NEAR(sum / n, 0, 0.01);
  EXPECT_NEAR(std::sqrt(sum_squares / n), 1, 0.01);
}

TEST(RandomTest, LogNormalMedianIsExpMu) {
  Random rng(9);
  const int n = 100000;
  int below = 0;
  for (int i = 0; i < n; ++i) below += rng.LogNormal(std::log(40.0), 1.4) < 40.0;
  EXPECT_NEAR(static_cast<double>(below) / n, 0.5, 0.01);
}

TEST(RandomTest, HexHasRequestedLengthAndDigits) {
  Random rng(3);
  const std::string hex = rng.Hex(37);
  ASSERT_EQ(hex.size(), 37u);
  EXPECT_EQ(hex.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(WeightedChoiceTest, FollowsWeightsAndSkipsZeroWeights) {
  const WeightedChoice choice({70, 0, 20, 10});
  EXPECT_DOUBLE_EQ(choice.Probability(0), 0.7);
  EXPECT_DOUBLE_EQ(choice.Probability(1), 0.0);
  Random rng(5);
  std::vector<int> counts(4, 0);
  const int n = 100000;
  for (int i = 0; i < n; ++i) ++counts[choice.Sample(&rng)];
  EXPECT_EQ(counts[1], 0);
  EXPECT_NEAR(counts[0] / double(n), 0.70, 0.01);
  EXPECT_NEAR(counts[2] / double(n), 0.20, 0.01);
  EXPECT_NEAR(counts[3] / double(n), 0.10, 0.01);
}

TEST(WeightedChoiceTest, RejectsInvalidWeights) {
  EXPECT_THROW(WeightedChoice(std::vector<double>{}), std::invalid_argument);
  EXPECT_THROW(WeightedChoice(std::vector<double>{0, 0}), std::invalid_argument);
  EXPECT_THROW(WeightedChoice(std::vector<double>{1, -1}), std::invalid_argument);
}

TEST(ZipfDistributionTest, RankProbabilitiesFollowPowerLaw) {
  const ZipfDistribution zipf(200, 1.1);
  double harmonic = 0;
  for (int k = 1; k <= 200; ++k) harmonic += std::pow(k, -1.1);
  EXPECT_NEAR(zipf.Probability(0), 1 / harmonic, 1e-12);
  EXPECT_NEAR(zipf.Probability(9) / zipf.Probability(0), std::pow(10, -1.1), 1e-9);

  Random rng(11);
  std::vector<int> counts(200, 0);
  const int n = 200000;
  for (int i = 0; i < n; ++i) ++counts[zipf.Sample(&rng)];
  for (int rank : {0, 1, 4, 49}) {
    EXPECT_NEAR(counts[rank] / double(n), zipf.Probability(rank), 0.005) << "rank " << rank;
  }
}

}  // namespace
}  // namespace bench
}  // namespace columnar
