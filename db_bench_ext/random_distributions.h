// Deterministic random sources for the benchmark workloads.
//
// The standard library's distributions (normal, lognormal, ...) are implementation-defined, so
// the same seed could give different data with another standard library. Everything here is
// built only from a xoshiro256** generator seeded through splitmix64 (plus libm's log/exp/sqrt),
// so a seed gives the same data wherever the project builds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace columnar {
namespace bench {

// splitmix64 step: also a good 64-bit mixing function to derive sub-seeds and ids.
uint64_t SplitMix64(uint64_t* state);
// Mixes two values into one well-distributed 64-bit value (for derived seeds and ids).
uint64_t MixSeed(uint64_t a, uint64_t b);

// xoshiro256**: fast, 256-bit state, good statistical quality.
class Random {
 public:
  explicit Random(uint64_t seed);

  uint64_t Next();
  // Uniform in [0, n); n > 0. Uses Lemire's multiply-shift with rejection (no modulo bias).
  uint64_t Uniform(uint64_t n);
  // Uniform in [lo, hi] inclusive.
  int64_t UniformInRange(int64_t lo, int64_t hi);
  // Uniform double in [0, 1) with 53 random bits.
  double UniformDouble();
  // True with probability p.
  bool Bernoulli(double p);
  // Standard normal (Marsaglia polar method; the spare value is cached).
  double Normal();
  // exp(N(mu, sigma)).
  double LogNormal(double mu, double sigma);
  // `length` lowercase hex characters.
  std::string Hex(int length);
  void AppendHex(int length, std::string* out);

 private:
  uint64_t state_[4];
  bool has_spare_normal_ = false;
  double spare_normal_ = 0;
};

// Draws an index in [0, weights.size()) with probability proportional to its weight, by binary
// search over the cumulative distribution.
class WeightedChoice {
 public:
  WeightedChoice() = default;
  explicit WeightedChoice(const std::vector<double>& weights);

  size_t Sample(Random* rng) const;
  size_t size() const { return cdf_.size(); }
  // Probability of index i (its normalised weight).
  double Probability(size_t i) const;

 private:
  std::vector<double> cdf_;  // normalised, cdf_.back() == 1
};

// Zipf over ranks 0..n-1: P(rank k) proportional to 1 / (k + 1)^s.
class ZipfDistribution {
 public:
  ZipfDistribution() = default;
  ZipfDistribution(size_t n, double s);

  size_t Sample(Random* rng) const { return choice_.Sample(rng); }
  size_t size() const { return choice_.size(); }
  double Probability(size_t rank) const { return choice_.Probability(rank); }

 private:
  WeightedChoice choice_;
};

}  // namespace bench
}  // namespace columnar
