// Exponential back-off for work that keeps losing: after kLossesBeforeSkipping clear losses in a
// row, the next kFirstSkip chances are skipped; the retry after a skip that loses clearly again
// doubles the skip (up to kMaxSkip), anything else ends the back-off. Used by the file
// dictionary's form trials (file_dictionary_forms.h), the local bodies the file dictionary
// keeps beating (local_body_forecast.h) and ALP's analysis in a float column's chooser runs
// (encoding_memo.h, which starts skipping after fewer losses).
#pragma once

#include <algorithm>
#include <cstdint>

namespace columnar {

class SkipBackoff {
 public:
  static constexpr uint32_t kLossesBeforeSkipping = 4;
  static constexpr uint32_t kFirstSkip = 8;
  static constexpr uint32_t kMaxSkip = 64;

  SkipBackoff() = default;
  // A back-off that starts skipping after `losses_before_skipping` clear losses in a row.
  explicit SkipBackoff(uint32_t losses_before_skipping)
      : losses_before_skipping_(losses_before_skipping) {}

  // Whether this chance is skipped; a skipped chance counts the skip down.
  bool Skip() {
    if (skip_left_ == 0) return false;
    skip_left_--;
    return true;
  }

  // Whether the next chance will be skipped (Skip without counting down).
  bool Skipping() const { return skip_left_ != 0; }

  // The outcome of a chance that was taken.
  void Record(bool clear_loss) {
    if (!clear_loss) {
      losses_ = 0;
      skip_left_ = 0;
      next_skip_ = kFirstSkip;
      return;
    }
    if (++losses_ < losses_before_skipping_) return;
    skip_left_ = next_skip_;
    next_skip_ = std::min(next_skip_ * 2, kMaxSkip);
    // The retry after the skip: one more clear loss starts the next, longer skip.
    losses_ = losses_before_skipping_ - 1;
  }

 private:
  uint32_t losses_before_skipping_ = kLossesBeforeSkipping;
  uint32_t losses_ = 0;  // consecutive clear losses
  uint32_t skip_left_ = 0;
  uint32_t next_skip_ = kFirstSkip;
};

}  // namespace columnar
