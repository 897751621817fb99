// RecurrenceForecast: whether a string column's chunks should leave the file's dictionary
// (file_dictionary.h) out altogether, because their values do not recur in the file (request
// ids, trace ids, random tokens), while one table file is written.
//
// FileDictionaryForms skips the trials of the forms that keep losing, but a chunk still hashes
// its values and remembers them as seen (FileDictionaryWriter::HashValues, Remember), so that a
// retried form finds what it would have found: on a column of ids that is a probe of a
// megabyte-sized filter and a write into it for every value, for values nothing will look up
// again. access16's request_id and trace_id cost 13% of a compaction that encodes every row
// (docs/results/recurrence).
//
// A chunk that consulted the dictionary loses clearly when it kept its local body (no form of
// the dictionary was written) and at most 1 / kRecurringDivisor of its distinct values (a run of
// one value counted once) had a code or had been seen before: the seen filter's false
// positives (about 2% when full) stay below that. After kLossesBeforeSkipping clear losses in a
// row, the next kFirstSkip chunks skip the dictionary: their values are neither weighed nor
// remembered. The chunk after the skip consults it again: a clear loss doubles the skip (up to
// kMaxSkip), anything else ends it (skip_backoff.h).
//
// What can differ from consulting it every time: a value of a skipped chunk that recurs later
// is admitted one sighting later, and a skipped chunk in which some form would have won keeps
// its local body. Either way the chunk is a valid body of its encoding; only sizes can differ.
#pragma once

#include <cstddef>
#include <cstdint>

#include "table_format/skip_backoff.h"

namespace columnar {

// How many of a chunk's distinct values recurred (FileDictionaryWriter::Remember).
struct RecurrenceCount {
  size_t distinct = 0;   // runs of one value counted once
  size_t recurring = 0;  // of those, values with a code or seen in an earlier chunk
};

class RecurrenceForecast {
 public:
  static constexpr uint32_t kLossesBeforeSkipping = SkipBackoff::kLossesBeforeSkipping;
  static constexpr uint32_t kFirstSkip = SkipBackoff::kFirstSkip;
  static constexpr uint32_t kMaxSkip = SkipBackoff::kMaxSkip;
  static constexpr size_t kRecurringDivisor = 16;

  // Whether the chunk being written should leave the dictionary out (counts a skip down).
  bool ShouldSkip();
  // The outcome of a chunk that consulted the dictionary: whether one of its forms was
  // written, and how many of the chunk's values recurred.
  void Record(bool dictionary_written, const RecurrenceCount& count);

  // Chunks that consulted / skipped the dictionary so far (tests, statistics).
  uint64_t consulted() const { return consulted_; }
  uint64_t skipped() const { return skipped_; }

 private:
  SkipBackoff backoff_;
  uint64_t consulted_ = 0;
  uint64_t skipped_ = 0;
};

}  // namespace columnar
