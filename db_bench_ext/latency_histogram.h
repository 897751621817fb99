// A latency histogram in microseconds with 3 significant digits, laid out like HdrHistogram
// (the source documents recorded their latencies in one): log-linear buckets of 2048 linear
// sub-buckets each, so any recorded value is known to within 1/1024 of itself.
//
// Not synchronised: give each thread its own histogram and Merge them afterwards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace columnar {
namespace bench {

class LatencyHistogram {
 public:
  // Values above this (about 19 hours) are counted as this value; max() stays exact.
  static constexpr int64_t kHighestTrackableMicros = int64_t{1} << 36;

  LatencyHistogram();

  // Negative values count as 0.
  void Record(int64_t micros);
  void Merge(const LatencyHistogram& other);
  void Clear();

  uint64_t count() const { return count_; }
  int64_t min() const { return count_ == 0 ? 0 : min_; }
  int64_t max() const { return max_; }
  double Mean() const;
  // The smallest recorded-value bucket at or below which `percentile` percent of the values fall,
  // reported as the bucket's highest equivalent value (as HdrHistogram does), never above max().
  // Percentile(50), Percentile(99), Percentile(99.9); 0 when empty.
  int64_t Percentile(double percentile) const;

 private:
  static size_t IndexOf(int64_t value);
  static int64_t HighestEquivalentValue(size_t index);

  std::vector<uint64_t> counts_;
  uint64_t count_ = 0;
  int64_t min_ = 0;
  int64_t max_ = 0;
  double sum_ = 0;
};

}  // namespace bench
}  // namespace columnar
