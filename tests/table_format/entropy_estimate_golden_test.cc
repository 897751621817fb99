// EntropyEstimator's estimates stay what the first implementation (std::unordered_map counts,
// one symbol at a time) gave: the counting was rewritten for speed (open addressing, runs of
// equal values added at once), and must not move the estimates. The expected values were
// printed by that first implementation on the same inputs.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "table_format/entropy_estimate.h"

namespace columnar {
namespace {

constexpr double kIntegerBits = 612508.08501928719;
constexpr double kDoubleBits = 864141.63635268435;
constexpr double kStringBits = 67415.653474297724;

// Integers with runs of repeats, nulls in some chunks, and more distinct values than the
// estimator tracks.
double IntegerColumnBits() {
  std::mt19937_64 rng(7);
  EntropyEstimator estimator;
  for (int chunk = 0; chunk < 300; chunk++) {
    ColumnVector v(PhysicalType::kInt64);
    int64_t x = static_cast<int64_t>(rng() % 1000);
    for (int i = 0; i < 128; i++) {
      if (chunk % 7 == 3 && i % 5 == 0) {
        v.AppendNull();
        continue;
      }
      if (rng() % 3 == 0)
        x = chunk < 100 ? static_cast<int64_t>(rng() % 50) - 25 : static_cast<int64_t>(rng());
      v.Append<int64_t>(x);
    }
    estimator.Add(v);
  }
  return estimator.bits();
}

double DoubleColumnBits() {
  std::mt19937_64 rng(8);
  std::normal_distribution<double> step(0, 1);
  EntropyEstimator estimator;
  double x = 50;
  for (int chunk = 0; chunk < 200; chunk++) {
    ColumnVector v(PhysicalType::kFloat64);
    for (int i = 0; i < 128; i++) {
      if (chunk % 2 == 0 && i % 16 != 0) {
        v.Append<double>(x);  // runs
        continue;
      }
      x = std::min(100.0, std::max(0.0, x + step(rng)));
      v.Append<double>(x);
    }
    estimator.Add(v);
  }
  return estimator.bits();
}

// Strings with templates and parameters (some with more parameters than others), runs of equal
// strings, constant chunks and nulls.
double StringColumnBits() {
  std::mt19937_64 rng(9);
  EntropyEstimator estimator;
  for (int chunk = 0; chunk < 100; chunk++) {
    ColumnVector v(PhysicalType::kBytes);
    std::string current = "host_0";
    for (int i = 0; i < 128; i++) {
      if (chunk % 4 == 1) {
        v.AppendBytes("us-east-1a");
        continue;
      }
      if (chunk % 4 == 2 && i % 9 == 0) {
        v.AppendNull();
        continue;
      }
      if (rng() % 4 == 0) {
        switch (rng() % 3) {
          case 0:
            current = "/api/v1/users/" + std::to_string(rng() % 5000);
            break;
          case 1:
            current = "/api/v1/orders/" + std::to_string(rng() % 100) + "/items/" +
                      std::to_string(rng() % 10);
            break;
          default:
            current = "host_" + std::to_string(rng() % 30);
        }
      }
      v.AppendBytes(current);
    }
    estimator.Add(v);
  }
  return estimator.bits();
}

TEST(EntropyEstimateGoldenTest, IntegersMatchTheFirstImplementation) {
  EXPECT_NEAR(IntegerColumnBits(), kIntegerBits, 1e-6 * kIntegerBits) << IntegerColumnBits();
}

TEST(EntropyEstimateGoldenTest, DoublesMatchTheFirstImplementation) {
  EXPECT_NEAR(DoubleColumnBits(), kDoubleBits, 1e-6 * kDoubleBits) << DoubleColumnBits();
}

TEST(EntropyEstimateGoldenTest, StringsMatchTheFirstImplementation) {
  EXPECT_NEAR(StringColumnBits(), kStringBits, 1e-6 * kStringBits) << StringColumnBits();
}

}  // namespace
}  // namespace columnar
