// RecurrenceForecast: whether a string column's chunks should leave the file's dictionary
// (file_dictionary.h) out altogether, because their values do not recur in the file (request
// ids, trace ids, random tokens), while one table file is written.
//
// FileDictionaryForms skips the trials of the forms that keep losing, but a chunk still hashes
// its values and remembers them as seen (FileDictionaryWriter::HashValues, Remember), so that a
// retried form finds what it would have found: on a column of ids that is a probe of a
// megabyte-sized filter and a write into it for every value, for values nothing will look up
// again. On access16 (request_id, trace_id, and user_id, whose ids recur too rarely to win)
// leaving the dictionary out took 5.2% of the instructions off a compaction that encodes every
// row, for 0.011% more bytes (docs/results/recurrence; its CPU time moved less than this
// machine's spread between runs).
//
// A chunk that consulted the dictionary loses clearly when it kept its local body (no form of
// the dictionary was written) and at most 1 / kRecurringDivisor of its distinct values (a run of
// one value counted once) had a code or had been seen before: codes for so few values rarely
// pay for themselves, and the seen filter's false positives (about 2% when full) stay well
// below that. (A sixteenth kept access16's user_id, whose ids recur sparsely and never win,
// consulting the dictionary: 2.5% more instructions for 0.008% fewer bytes.) After
// kLossesBeforeSkipping clear losses in a row, the next kFirstSkip chunks skip the dictionary: they
// are not weighed, and of their values only a sample is remembered (InSample: one hash in
// kSampleDivisor). The chunk after the skip consults it again: a clear loss doubles the skip (up to
// kMaxSkip), anything else ends it.
//
// The sample keeps a column whose values do recur, but sparsely (a session id every few hundred
// chunks), from being judged by a filter that skipped chunks left mostly empty: its sampled
// values are remembered in every chunk, so how many of them recur measures the recurrence the
// column would have shown. A retry is a clear loss only when the values sampled over the skip
// recurred as rarely (at most one in kRecurringDivisor) as the retry's own. Hashing the skipped
// chunks' values for the sample costs about a fifth of what leaving the dictionary out saves.
//
// What can differ from consulting it every time: a value of a skipped chunk outside the sample
// that recurs later is admitted one sighting later, and a skipped chunk in which some form would
// have won keeps its local body. Either way the chunk is a valid body of its encoding; only sizes
// can differ.
#pragma once

#include <cstddef>
#include <cstdint>

#include "table_format/skip_backoff.h"

namespace columnar {

// How many of a chunk's distinct values recurred (FileDictionaryWriter::Remember).
struct RecurrenceCount {
  size_t distinct = 0;   // runs of one value counted once
  size_t recurring = 0;  // of those, values with a code or seen in an earlier chunk
  // The same for the values in the sample (RecurrenceForecast::InSample).
  size_t sampled_distinct = 0;
  size_t sampled_recurring = 0;
};

class RecurrenceForecast {
 public:
  static constexpr uint32_t kLossesBeforeSkipping = SkipBackoff::kLossesBeforeSkipping;
  static constexpr uint32_t kFirstSkip = SkipBackoff::kFirstSkip;
  static constexpr uint32_t kMaxSkip = SkipBackoff::kMaxSkip;
  static constexpr size_t kRecurringDivisor = 8;
  // One value in kSampleDivisor: those whose hash's top kSampleBits bits are 0 (the
  // dictionary's index and filter place values by other bits).
  static constexpr int kSampleBits = 4;
  static constexpr uint64_t kSampleDivisor = uint64_t{1} << kSampleBits;

  // Whether a value of this hash is in the sample that skipped chunks remember.
  static bool InSample(uint64_t hash) { return hash >> (64 - kSampleBits) == 0; }

  // Whether the chunk being written should leave the dictionary out (counts a skip down).
  bool ShouldSkip();
  // The sampled values of a chunk that skipped the dictionary (FileDictionaryWriter::
  // RememberSample).
  void RecordSkipped(const RecurrenceCount& sampled);
  // The outcome of a chunk that consulted the dictionary: whether one of its forms was
  // written, and how many of the chunk's values recurred.
  void Record(bool dictionary_written, const RecurrenceCount& count);

  // Chunks that consulted / skipped the dictionary so far (tests, statistics).
  uint64_t consulted() const { return consulted_; }
  uint64_t skipped() const { return skipped_; }

 private:
  SkipBackoff backoff_;
  // The sampled values of the chunks skipped since the last consulted one.
  size_t skipped_sampled_distinct_ = 0;
  size_t skipped_sampled_recurring_ = 0;
  uint64_t consulted_ = 0;
  uint64_t skipped_ = 0;
};

}  // namespace columnar
