// The simulated time grid shared by both workloads and the load order of their batches.
//
// Data covers [start, end) with one row every interval (5 s, devops 10 s) per partition key.
// The load order follows the source documents' client: batches of 12 consecutive rows of one
// partition, in time order; blocks of 12 time steps, and within a block every partition key in
// turn. Because start is a multiple of 60 s (12 steps), a block never crosses a UTC midnight, so
// a batch also stays inside one daily partition.
#pragma once

#include <cstdint>

namespace columnar {
namespace bench {

constexpr int64_t kSecondsPerDay = 86400;
constexpr int64_t kRowIntervalSeconds = 5;
constexpr int64_t kRowsPerBatch = 12;
constexpr int64_t kTimeToLiveSeconds = 30 * kSecondsPerDay;
// Write time = event time + uniform jitter in [0, kMaxWriteJitterMicros], like the sources' client.
constexpr int64_t kMaxWriteJitterMicros = 100'000;

// Rounds a Unix time (seconds) down to the start of its UTC day: the benchmark's "now".
int64_t FloorToUtcDay(int64_t unix_seconds);
// Days since the Unix epoch (the access-log partition's `day`), floor division.
int32_t UtcDayOf(int64_t unix_seconds);

class Timeline {
 public:
  // end_s and duration_s must be positive multiples of kRowsPerBatch * interval_s (60 s at
  // 5 s); throws std::invalid_argument otherwise.
  Timeline(int64_t end_s, int64_t duration_s, int64_t interval_s = kRowIntervalSeconds);

  int64_t start_s() const { return start_s_; }
  int64_t end_s() const { return end_s_; }
  int64_t interval_s() const { return interval_s_; }
  // Rows per partition key over the whole span.
  int64_t steps() const { return steps_; }
  int64_t TimeAtStep(int64_t step) const { return start_s_ + step * interval_s_; }
  // The newest row's time (the simulated "now" the read queries look back from).
  int64_t latest_s() const { return end_s_ - interval_s_; }

 private:
  int64_t interval_s_;
  int64_t end_s_;
  int64_t start_s_;
  int64_t steps_;
};

// Walks the load order: (block of 12 steps) x (partition key). One producer calls Next.
class BatchSchedule {
 public:
  BatchSchedule(uint64_t partition_keys, int64_t steps);

  // The next batch's partition key and its first step; false when all batches were handed out.
  bool Next(uint64_t* partition_key, int64_t* first_step);
  uint64_t batch_count() const { return batch_count_; }
  uint64_t batches_done() const { return batches_done_; }

 private:
  uint64_t partition_keys_;
  uint64_t batch_count_;
  uint64_t batches_done_ = 0;
};

}  // namespace bench
}  // namespace columnar
