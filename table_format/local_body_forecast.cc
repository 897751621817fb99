#include "table_format/local_body_forecast.h"

#include <cmath>

namespace columnar {

bool LocalBodyForecast::ShouldSkip() { return backoff_.Skip(); }

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
  // A built body that did not lose clearly also ends a skip (a skipped chunk whose dictionary
  // forms lost to the estimate builds its body after all).
  backoff_.Record(clear_loss);
}

}  // namespace columnar
