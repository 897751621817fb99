// FileDictionaryForms: which forms of a byte-string column's chunks keep losing to the body
// written while one table file is built, so that their trials can be skipped.
//
// Every chunk of a string column weighs the file's dictionary in up to three forms (chunk.cc):
// the whole values as codes, their templates as codes plus parameters, and the same with the
// values that recur whole kept whole. Each trial hashes, looks up and encodes the chunk's
// values (the template forms also encode their parameter streams), and on most columns the
// outcome repeats chunk after chunk: ids keep their local encoding against every form, paths
// and addresses take the mixed form and never the plain templates.
//
// A trial loses clearly when the chunk kept its local body (no form of the file's dictionary
// won), or, past the form's first kWarmUpTrials trials, when another form won and this one's
// body is far behind the written cost: by more than a quarter for a form that never won in the
// file (the whole form of paths with ids, 1.4 times the mixed form's body); for one that won,
// only once kTrialsAfterAWin trials have passed since its last win, and by more than
// kClearLossAfterAWinFactor times. (The plain templates of access16's user agents won 8 of a
// file's 270 chunks; while any win kept their losses from counting, they were tried on every
// chunk: about 4% of the load's file-building instructions.) A form that lost clearly in
// kLossesBeforeSkipping consecutive trials is skipped for the next kFirstSkip chunks, then tried
// again; a retry that loses clearly again doubles the skip (up to kMaxSkip), one that does not
// ends it.
//
// Why the conditions: the whole form's trials admit the values that recur when it wins, and its
// body decides whether the whole values get admitted when templates win (only when that body is
// smaller than the templates' body, which a clear loss never is), and every form loses while the
// dictionary is still empty at the start of a file; a form that won recently admitted entries that
// the next chunks of the other forms use (templates admitted by the plain form serve the mixed
// form's rows), so skipping it where it would win again changes what those chunks find, while a
// form that has kept losing far behind since is no longer what the column's chunks need (the
// larger margin leaves it tried where chunks of a kind it wins may come back); a
// chunk that kept its local body commits nothing, so skipping forms there changes nothing but that
// chunk. A skipped form's values are still remembered as seen (FileDictionaryWriter::HashValues),
// so the seen filter is what it would have been: only a chunk in which a skipped form would have
// won is written differently (in another valid form). The exception: a chunk that skips the
// plain template form is not split for it (splitting is most of what a skipped template form
// costs), so its plain templates are not remembered, and a retried plain form finds the
// templates of those chunks unseen: it admits them one sighting later. (Chunks of a column whose
// values keep not recurring leave the dictionary out altogether, remembering only a sample of
// their values: recurrence_forecast.h.)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "table_format/skip_backoff.h"

namespace columnar {

enum class FileDictionaryForm : uint8_t { kWhole = 0, kTemplates = 1, kMixed = 2 };

class FileDictionaryForms {
 public:
  static constexpr uint32_t kLossesBeforeSkipping = SkipBackoff::kLossesBeforeSkipping;
  static constexpr uint32_t kFirstSkip = SkipBackoff::kFirstSkip;
  static constexpr uint32_t kMaxSkip = SkipBackoff::kMaxSkip;
  static constexpr uint32_t kWarmUpTrials = 16;
  // A form that won counts losses to another form only this many trials after its last win,
  // and only when its body exceeds the written cost this many times.
  static constexpr uint32_t kTrialsAfterAWin = 16;
  static constexpr size_t kClearLossAfterAWinFactor = 2;
  // A loss is clear when the form's body exceeds the written cost by more than this
  // fraction (numerator / denominator).
  static constexpr size_t kClearLossNumerator = 5;
  static constexpr size_t kClearLossDenominator = 4;
  // The cost recorded for a trial that gave no usable body.
  static constexpr size_t kUnusable = SIZE_MAX;

  // Whether the chunk being written should run `form`'s trial. Call once per chunk that
  // considers the form: a skipped chunk counts the skip down.
  bool ShouldTry(FileDictionaryForm form);
  // Whether ShouldTry(form) will return false (without counting anything down).
  bool Skipping(FileDictionaryForm form) const { return At(form).backoff.Skipping(); }
  // The outcome of a trial that ran: the form's body size (kUnusable when there was none), the
  // cost of what the chunk wrote (its local body, or the winning form's cost), and which form
  // was written: `won` this one, `local_written` none.
  void Record(FileDictionaryForm form, size_t body_size, size_t written_cost, bool won,
              bool local_written);

  // Trials run and skipped so far (tests, statistics).
  uint64_t tried(FileDictionaryForm form) const { return At(form).tried; }
  uint64_t skipped(FileDictionaryForm form) const { return At(form).skipped; }

 private:
  struct State {
    SkipBackoff backoff;
    bool won_before = false;
    uint32_t trials_since_win = kTrialsAfterAWin + 1;  // saturated: not recently
    uint32_t trials_recorded = 0;
    uint64_t tried = 0;
    uint64_t skipped = 0;
  };
  State& At(FileDictionaryForm form) { return states_[static_cast<size_t>(form)]; }
  const State& At(FileDictionaryForm form) const { return states_[static_cast<size_t>(form)]; }

  std::array<State, 3> states_;
};

}  // namespace columnar
