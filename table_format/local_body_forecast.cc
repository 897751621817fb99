#include "table_format/local_body_forecast.h"

#include <algorithm>
#include <cmath>

namespace columnar {

bool LocalBodyForecast::ShouldSkip() {
  if (skip_left_ == 0) return false;
  skip_left_--;
  return true;
}

size_t LocalBodyForecast::EstimatedSize(size_t values) const {
  return static_cast<size_t>(std::ceil(bytes_per_value_ * static_cast<double>(values)));
}

void LocalBodyForecast::Record(bool built, size_t values, size_t local_size,
                               Encoding local_encoding, bool dictionary_written,
                               size_t written_cost) {
  if (!built) {
    skipped_++;
    return;
  }
  built_++;
  measured_ = values > 0;
  bytes_per_value_ = values > 0 ? static_cast<double>(local_size) / values : 0;
  encoding_ = local_encoding;
  const bool clear_loss = dictionary_written && measured_ &&
                          written_cost * kClearLossDenominator <= local_size * kClearLossNumerator;
  if (!clear_loss) {
    losses_ = 0;
    skip_left_ = 0;
    next_skip_ = kFirstSkip;
    return;
  }
  if (++losses_ < kLossesBeforeSkipping) return;
  skip_left_ = next_skip_;
  next_skip_ = std::min(next_skip_ * 2, kMaxSkip);
  // The chunk after the skip builds the local body: one more clear loss starts the next skip.
  losses_ = kLossesBeforeSkipping - 1;
}

}  // namespace columnar
