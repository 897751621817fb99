#include "table_format/recurrence_forecast.h"

namespace columnar {

bool RecurrenceForecast::ShouldSkip() {
  if (!backoff_.Skip()) return false;
  skipped_++;
  return true;
}

void RecurrenceForecast::RecordSkipped(const RecurrenceCount& sampled) {
  skipped_sampled_distinct_ += sampled.sampled_distinct;
  skipped_sampled_recurring_ += sampled.sampled_recurring;
}

void RecurrenceForecast::Record(bool dictionary_written, const RecurrenceCount& count) {
  consulted_++;
  const bool clear_loss =
      !dictionary_written && count.recurring * kRecurringDivisor <= count.distinct &&
      skipped_sampled_recurring_ * kRecurringDivisor <= skipped_sampled_distinct_;
  skipped_sampled_distinct_ = 0;
  skipped_sampled_recurring_ = 0;
  backoff_.Record(clear_loss);
}

}  // namespace columnar
