#include "table_format/recurrence_forecast.h"

namespace columnar {

bool RecurrenceForecast::ShouldSkip() {
  if (!backoff_.Skip()) return false;
  skipped_++;
  return true;
}

void RecurrenceForecast::Record(bool dictionary_written, const RecurrenceCount& count) {
  consulted_++;
  const bool clear_loss =
      !dictionary_written && count.recurring * kRecurringDivisor <= count.distinct;
  backoff_.Record(clear_loss);
}

}  // namespace columnar
