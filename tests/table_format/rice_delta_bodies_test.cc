// rice_delta's encoder (encodings/rice_delta.cc) writes the bodies main 6641bc0 wrote (a fixed
// digest of many bodies): its block plans (constant blocks, the center, the parameter search
// with escapes and flat quotients) and its codes, on every type, for random walks, jittered
// series around a level, counters, outliers, wide differences and short or partial blocks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

#include "table_format/encoding.h"

namespace columnar {
namespace {

uint64_t Fnv1a64(const std::string& bytes, uint64_t h) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// A value of a chunk of shape `shape` (the i-th), from the series' state *x.
double Next(std::mt19937_64& rng, int shape, size_t i, double* x) {
  // A roughly Gaussian step from the engine alone (its output is specified by the standard).
  double step = 0;
  for (int t = 0; t < 4; t++) step += static_cast<double>(rng() % 2001) / 1000.0 - 1.0;
  switch (shape) {
    case 0:  // a random walk, clamped
      *x = std::fmin(100, std::fmax(0, *x + step));
      return *x;
    case 1:  // a trend with noise: a center pays
      *x += 10000;
      return *x + std::round(step * 3);
    case 2:  // a counter
      *x += static_cast<double>(rng() % 50);
      return *x;
    case 3:  // mostly constant, some outliers: escapes
      return rng() % 23 == 0 ? static_cast<double>(rng() % 1000000) : 7;
    case 4:  // constant steps: constant blocks
      *x += 5;
      return *x;
    case 5:  // wide differences
      return static_cast<double>(static_cast<int64_t>(rng())) * (i % 2 == 0 ? 1 : -1e-3);
    default:  // a random walk of small integers
      *x += std::round(step * 2);
      return *x;
  }
}

template <typename T>
void AddChunks(std::mt19937_64& rng, PhysicalType type, int chunks, uint64_t* digest,
               size_t* total) {
  for (int chunk = 0; chunk < chunks; chunk++) {
    const size_t n = chunk % 7 == 0 ? 1 + rng() % 600 : chunk % 7 == 1 ? 1 + rng() % 3 : 129;
    const int shape = static_cast<int>(rng() % 7);
    double x = static_cast<double>(rng() % 100);
    ColumnVector values(type);
    for (size_t i = 0; i < n; i++) {
      const double next = Next(rng, shape, i, &x);
      T v;
      if constexpr (std::is_floating_point_v<T>) {
        v = static_cast<T>(next);
        if (rng() % 97 == 0) {
          const T specials[] = {std::numeric_limits<T>::quiet_NaN(),
                                std::numeric_limits<T>::infinity(), static_cast<T>(-0.0),
                                std::numeric_limits<T>::denorm_min()};
          v = specials[rng() % 4];
        }
      } else {
        v = static_cast<T>(static_cast<int64_t>(next));  // the low bits of wide values
      }
      values.Append<T>(v);
    }
    std::string body;
    ASSERT_TRUE(EncodeValues(Encoding::kRiceDelta, values, &body).ok());
    ColumnVector back(type);
    ASSERT_TRUE(DecodeValues(Encoding::kRiceDelta, type, body, n, &back).ok());
    ASSERT_TRUE(back.Equals(values)) << "chunk " << chunk;
    *digest = Fnv1a64(body, *digest);
    *total += body.size();
  }
}

TEST(RiceDeltaBodiesTest, BodiesAreThoseOfTheFixedDigest) {
  std::mt19937_64 rng(15);
  uint64_t digest = 14695981039346656037ull;
  size_t total = 0;
  AddChunks<double>(rng, PhysicalType::kFloat64, 400, &digest, &total);
  AddChunks<float>(rng, PhysicalType::kFloat32, 200, &digest, &total);
  AddChunks<int64_t>(rng, PhysicalType::kInt64, 300, &digest, &total);
  AddChunks<int32_t>(rng, PhysicalType::kInt32, 300, &digest, &total);
  EXPECT_EQ(total, 483004u);
  EXPECT_EQ(digest, 6802041868249175005ull);
}

}  // namespace
}  // namespace columnar
