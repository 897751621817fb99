#include "db_bench_ext/random_distributions.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace columnar {
namespace bench {
namespace {

uint64_t RotateLeft(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t MixSeed(uint64_t a, uint64_t b) {
  uint64_t state = a ^ RotateLeft(b, 32) ^ 0x6a09e667f3bcc909ULL;
  SplitMix64(&state);
  state ^= b;
  return SplitMix64(&state);
}

Random::Random(uint64_t seed) {
  uint64_t sm = seed;
  for (uint64_t& word : state_) word = SplitMix64(&sm);
}

uint64_t Random::Next() {
  const uint64_t result = RotateLeft(state_[1] * 5, 7) * 9;
  const uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = RotateLeft(state_[3], 45);
  return result;
}

uint64_t Random::Uniform(uint64_t n) {
  unsigned __int128 product = static_cast<unsigned __int128>(Next()) * n;
  uint64_t low = static_cast<uint64_t>(product);
  if (low < n) {
    const uint64_t threshold = -n % n;
    while (low < threshold) {
      product = static_cast<unsigned __int128>(Next()) * n;
      low = static_cast<uint64_t>(product);
    }
  }
  return static_cast<uint64_t>(product >> 64);
}

int64_t Random::UniformInRange(int64_t lo, int64_t hi) {
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  if (span == 0) return static_cast<int64_t>(Next());  // the full 64-bit range
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + Uniform(span));
}

double Random::UniformDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

bool Random::Bernoulli(double p) { return UniformDouble() < p; }

double Random::Normal() {
  if (has_spare_normal_) {
    has_spare_normal_ = false;
    return spare_normal_;
  }
  double u, v, s;
  do {
    u = 2.0 * UniformDouble() - 1.0;
    v = 2.0 * UniformDouble() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double factor = std::sqrt(-2.0 * std::log(s) / s);
  spare_normal_ = v * factor;
  has_spare_normal_ = true;
  return u * factor;
}

double Random::LogNormal(double mu, double sigma) { return std::exp(mu + sigma * Normal()); }

std::string Random::Hex(int length) {
  std::string out;
  AppendHex(length, &out);
  return out;
}

void Random::AppendHex(int length, std::string* out) {
  static constexpr char kDigits[] = "0123456789abcdef";
  uint64_t bits = 0;
  for (int i = 0; i < length; ++i) {
    if (i % 16 == 0) bits = Next();
    out->push_back(kDigits[bits & 0xf]);
    bits >>= 4;
  }
}

WeightedChoice::WeightedChoice(const std::vector<double>& weights) {
  if (weights.empty()) throw std::invalid_argument("WeightedChoice needs at least one weight");
  double total = 0;
  for (double w : weights) {
    if (!(w >= 0)) throw std::invalid_argument("WeightedChoice weights must be >= 0");
    total += w;
  }
  if (!(total > 0)) throw std::invalid_argument("WeightedChoice weights must not all be zero");
  cdf_.reserve(weights.size());
  double running = 0;
  for (double w : weights) {
    running += w;
    cdf_.push_back(running / total);
  }
  cdf_.back() = 1.0;
}

size_t WeightedChoice::Sample(Random* rng) const {
  const double u = rng->UniformDouble();
  // First index whose cumulative probability exceeds u; zero-weight entries are never chosen.
  return static_cast<size_t>(std::upper_bound(cdf_.begin(), cdf_.end(), u) - cdf_.begin());
}

double WeightedChoice::Probability(size_t i) const {
  return i == 0 ? cdf_[0] : cdf_[i] - cdf_[i - 1];
}

namespace {

std::vector<double> ZipfWeights(size_t n, double s) {
  std::vector<double> weights(n);
  for (size_t k = 0; k < n; ++k) weights[k] = std::pow(static_cast<double>(k + 1), -s);
  return weights;
}

}  // namespace

ZipfDistribution::ZipfDistribution(size_t n, double s) : choice_(ZipfWeights(n, s)) {}

}  // namespace bench
}  // namespace columnar
