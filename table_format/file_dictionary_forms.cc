#include "table_format/file_dictionary_forms.h"

namespace columnar {

bool FileDictionaryForms::ShouldTry(FileDictionaryForm form) {
  State& state = At(form);
  if (state.backoff.Skip()) {
    state.skipped++;
    return false;
  }
  state.tried++;
  return true;
}

void FileDictionaryForms::Record(FileDictionaryForm form, size_t body_size, size_t written_cost,
                                 bool won, bool local_written) {
  State& state = At(form);
  state.won_before |= won;
  state.trials_recorded++;
  const bool lost_to_another_form =
      !state.won_before && state.trials_recorded > kWarmUpTrials &&
      (body_size == kUnusable ||
       body_size * kClearLossDenominator > written_cost * kClearLossNumerator);
  const bool clear_loss = !won && (local_written || lost_to_another_form);
  state.backoff.Record(clear_loss);
}

}  // namespace columnar
