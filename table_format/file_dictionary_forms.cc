#include "table_format/file_dictionary_forms.h"

#include <algorithm>

namespace columnar {

bool FileDictionaryForms::ShouldTry(FileDictionaryForm form) {
  State& state = At(form);
  if (state.skip_left > 0) {
    state.skip_left--;
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
      form != FileDictionaryForm::kWhole && !state.won_before &&
      state.trials_recorded > kWarmUpTrials &&
      (body_size == kUnusable ||
       body_size * kClearLossDenominator > written_cost * kClearLossNumerator);
  const bool clear_loss = !won && (local_written || lost_to_another_form);
  if (!clear_loss) {
    state.losses = 0;
    state.next_skip = kFirstSkip;
    return;
  }
  if (++state.losses < kLossesBeforeSkipping) return;
  state.skip_left = state.next_skip;
  state.next_skip = std::min(state.next_skip * 2, kMaxSkip);
  // One more clear loss, the retry after the skip, starts the next (longer) skip.
  state.losses = kLossesBeforeSkipping - 1;
}

}  // namespace columnar
