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

// Encodes `values` as rice_delta, checks that the body reads back, and adds it to the digest and
// the total.
void AddBody(const ColumnVector& values, int chunk, uint64_t* digest, size_t* total) {
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kRiceDelta, values, &body).ok());
  ColumnVector back(values.type());
  ASSERT_TRUE(DecodeValues(Encoding::kRiceDelta, values.type(), body, values.size(), &back).ok());
  ASSERT_TRUE(back.Equals(values)) << "chunk " << chunk;
  *digest = Fnv1a64(body, *digest);
  *total += body.size();
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
    AddBody(values, chunk, digest, total);
    if (testing::Test::HasFatalFailure()) return;
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

// A difference of a chunk of shape `shape` (and `choice`, fixed for the chunk) whose differences
// sit at and past the bound of the encoder's 64-bit sums (every zigzagged difference below 2^57,
// so |d| <= 2^56), where a sum that wrapped would change the mean, the center or the parameters.
uint64_t WideDifference(std::mt19937_64& rng, int shape, uint64_t choice) {
  const int64_t bound = int64_t{1} << 56;
  const auto noise = [&](int64_t spread) {
    return static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * spread + 1)) - spread;
  };
  const int64_t sign = choice % 2 == 0 ? 1 : -1;
  switch (shape) {
    case 0:  // next to +-2^56, both sides of the bound
      return static_cast<uint64_t>((rng() % 2 == 0 ? bound : -bound) + noise(2));
    case 1: {  // a level near 2^56 (or past it) with small noise: the center pays
      const int64_t levels[] = {bound / 2,    bound - 2000, bound,           bound + 64,
                                bound + 2000, 2 * bound,    int64_t{1} << 62};
      return static_cast<uint64_t>(sign * levels[choice / 2 % 7] + noise(1000));
    }
    case 2: {  // the extremes of int64
      const uint64_t extremes[] = {
          uint64_t{1} << 63, (uint64_t{1} << 63) - 1, (uint64_t{1} << 63) + 1, ~uint64_t{0}, 0, 1};
      return extremes[rng() % 6];
    }
    case 3: {  // any width from 50 to 64 bits, either sign
      const int width = 50 + static_cast<int>(rng() % 15);
      const uint64_t magnitude = rng() >> (64 - width);
      return rng() % 2 == 0 ? magnitude : 0 - magnitude;
    }
    default:  // one-sided just inside the bound: sums up to 128 x 2^56 = 2^63
      return static_cast<uint64_t>(sign > 0 ? bound - 1 - (rng() % (1 << 20))
                                            : -bound + static_cast<int64_t>(rng() % (1 << 20)));
  }
}

template <typename T>
void AddWideChunks(std::mt19937_64& rng, PhysicalType type, int chunks, uint64_t* digest,
                   size_t* total) {
  for (int chunk = 0; chunk < chunks; chunk++) {
    const size_t n = chunk % 3 == 0 ? 1 + rng() % 400 : 129;
    const int shape = static_cast<int>(rng() % 5);
    const uint64_t choice = rng();
    uint64_t x = rng();
    ColumnVector values(type);
    for (size_t i = 0; i < n; i++) {
      // int32 keeps the low bits: its differences are those of the low 32 bits, wrapping.
      values.Append<T>(static_cast<T>(x));
      x += WideDifference(rng, shape, choice);
    }
    AddBody(values, chunk, digest, total);
    if (testing::Test::HasFatalFailure()) return;
  }
}

// The encoder sums a block's differences in 64 bits when that is exact, in 128 otherwise: its
// bodies at and past that bound are those main 260f9bc wrote (all its sums 128 bits wide).
TEST(RiceDeltaBodiesTest, BodiesAtTheSumsBoundAreThoseOfTheFixedDigest) {
  std::mt19937_64 rng(57);
  uint64_t digest = 14695981039346656037ull;
  size_t total = 0;
  AddWideChunks<int64_t>(rng, PhysicalType::kInt64, 600, &digest, &total);
  AddWideChunks<int32_t>(rng, PhysicalType::kInt32, 200, &digest, &total);
  EXPECT_EQ(total, 537835u);
  EXPECT_EQ(digest, 1222839101425034344ull);
}

}  // namespace
}  // namespace columnar
