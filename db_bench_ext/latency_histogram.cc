#include "db_bench_ext/latency_histogram.h"

#include <algorithm>
#include <cmath>

namespace columnar {
namespace bench {
namespace {

// 3 significant digits need 2 * 10^3 linear steps per power of two: 2048 sub-buckets, of which
// every bucket after the first only uses the upper half (the lower half overlaps the previous
// bucket).
constexpr int kSubBucketHalfCountMagnitude = 10;
constexpr int64_t kSubBucketHalfCount = int64_t{1} << kSubBucketHalfCountMagnitude;
constexpr int64_t kSubBucketMask = 2 * kSubBucketHalfCount - 1;
constexpr int kLeadingZeroCountBase = 64 - kSubBucketHalfCountMagnitude - 1;

int BucketIndexOf(int64_t value) {
  return kLeadingZeroCountBase - __builtin_clzll(static_cast<uint64_t>(value | kSubBucketMask));
}

size_t CountsLength() {
  const int buckets = BucketIndexOf(LatencyHistogram::kHighestTrackableMicros) + 1;
  return static_cast<size_t>(buckets + 1) << kSubBucketHalfCountMagnitude;
}

}  // namespace

LatencyHistogram::LatencyHistogram() : counts_(CountsLength(), 0) {}

size_t LatencyHistogram::IndexOf(int64_t value) {
  const int bucket = BucketIndexOf(value);
  const int64_t sub_bucket = value >> bucket;
  return (static_cast<size_t>(bucket + 1) << kSubBucketHalfCountMagnitude) +
         static_cast<size_t>(sub_bucket - kSubBucketHalfCount);
}

int64_t LatencyHistogram::HighestEquivalentValue(size_t index) {
  int bucket = static_cast<int>(index >> kSubBucketHalfCountMagnitude) - 1;
  int64_t sub_bucket =
      static_cast<int64_t>(index & (kSubBucketHalfCount - 1)) + kSubBucketHalfCount;
  if (bucket < 0) {
    sub_bucket -= kSubBucketHalfCount;
    bucket = 0;
  }
  const int64_t lowest = sub_bucket << bucket;
  return lowest + (int64_t{1} << bucket) - 1;
}

void LatencyHistogram::Record(int64_t micros) {
  const int64_t value = std::max<int64_t>(micros, 0);
  ++counts_[IndexOf(std::min(value, kHighestTrackableMicros))];
  min_ = count_ == 0 ? value : std::min(min_, value);
  max_ = std::max(max_, value);
  sum_ += static_cast<double>(value);
  ++count_;
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
  min_ = count_ == 0 ? other.min_ : std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  sum_ += other.sum_;
  count_ += other.count_;
}

void LatencyHistogram::Clear() { *this = LatencyHistogram(); }

double LatencyHistogram::Mean() const { return count_ == 0 ? 0 : sum_ / count_; }

int64_t LatencyHistogram::Percentile(double percentile) const {
  if (count_ == 0) return 0;
  const double clamped = std::clamp(percentile, 0.0, 100.0);
  // Rounded like HdrHistogram's count-at-percentile, so 99.9% of 1000 is 999, not 1000 after
  // floating-point noise.
  const uint64_t target = std::max<uint64_t>(
      1, static_cast<uint64_t>(clamped / 100.0 * static_cast<double>(count_) + 0.5));
  uint64_t seen = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    if (seen >= target) return std::min(HighestEquivalentValue(i), max_);
  }
  return max_;
}

}  // namespace bench
}  // namespace columnar
