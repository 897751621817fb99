#include "table_format/file_dictionary_forms.h"

#include <algorithm>

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
  // Saturates past kTrialsAfterAWin: only whether the form won that recently matters.
  state.trials_since_win = won ? 0 : std::min(state.trials_since_win, kTrialsAfterAWin) + 1;
  state.trials_recorded++;
  const bool far_behind =
      state.won_before ? body_size > written_cost * kClearLossAfterAWinFactor
                       : body_size * kClearLossDenominator > written_cost * kClearLossNumerator;
  const bool lost_to_another_form = state.trials_recorded > kWarmUpTrials &&
                                    state.trials_since_win > kTrialsAfterAWin &&
                                    (body_size == kUnusable || far_behind);
  const bool clear_loss = !won && (local_written || lost_to_another_form);
  state.backoff.Record(clear_loss);
}

}  // namespace columnar
