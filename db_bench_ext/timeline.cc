#include "db_bench_ext/timeline.h"

#include <stdexcept>
#include <string>

namespace columnar {
namespace bench {
namespace {

int64_t FloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

}  // namespace

int64_t FloorToUtcDay(int64_t unix_seconds) {
  return FloorDiv(unix_seconds, kSecondsPerDay) * kSecondsPerDay;
}

int32_t UtcDayOf(int64_t unix_seconds) {
  return static_cast<int32_t>(FloorDiv(unix_seconds, kSecondsPerDay));
}

Timeline::Timeline(int64_t end_s, int64_t duration_s, int64_t interval_s)
    : interval_s_(interval_s), end_s_(end_s) {
  const int64_t kBlockSeconds = kRowsPerBatch * interval_s;
  if (interval_s <= 0 || duration_s <= 0 || duration_s % kBlockSeconds != 0 ||
      end_s % kBlockSeconds != 0) {
    throw std::invalid_argument(
        "end time and duration must be positive multiples of " + std::to_string(kBlockSeconds) +
        " s (got end " + std::to_string(end_s) + ", duration " + std::to_string(duration_s) + ")");
  }
  start_s_ = end_s - duration_s;
  steps_ = duration_s / interval_s;
}

BatchSchedule::BatchSchedule(uint64_t partition_keys, int64_t steps)
    : partition_keys_(partition_keys),
      batch_count_(partition_keys *
                   static_cast<uint64_t>((steps + kRowsPerBatch - 1) / kRowsPerBatch)) {}

bool BatchSchedule::Next(uint64_t* partition_key, int64_t* first_step) {
  if (batches_done_ >= batch_count_) return false;
  const uint64_t block = batches_done_ / partition_keys_;
  *partition_key = batches_done_ % partition_keys_;
  *first_step = static_cast<int64_t>(block) * kRowsPerBatch;
  ++batches_done_;
  return true;
}

}  // namespace bench
}  // namespace columnar
