// LocalBodyForecast: whether a string column's chunk should skip building its local body,
// because the file's dictionary (file_dictionary.h) keeps beating it, while one table file is
// written.
//
// With a file dictionary, every chunk of a string column is encoded twice: the local body (the
// column's own best encoding: its templates split off and their parameter streams encoded, for
// paths and addresses), then the file dictionary's forms, weighed against it (chunk.cc). On
// columns whose recurring values the dictionary holds (access16's `path` and `client_ip`: 267
// to 269 of 270 chunks), the local body is built only to lose, and it was a fifth of the
// instructions of their compactions. FileDictionaryForms skips the dictionary's forms that keep
// losing; this is the other direction.
//
// The local body loses clearly when a form of the dictionary was written and its cost is at
// most kClearLossNumerator / kClearLossDenominator of the local body's size. After
// kLossesBeforeSkipping clear losses in a row, the next kFirstSkip chunks do not build it: they
// weigh the dictionary's forms against the size the local body had per value in the last chunk
// that built it (EstimatedSize). The chunk after the skip builds it again: a clear loss again
// doubles the skip (up to kMaxSkip), anything else ends it. A skipped chunk that no form wins
// against the estimate builds the local body after all and writes it (Record with the
// measured size), which ends the skip too.
//
// What can differ from building it every time: a skipped chunk in which the dictionary's form
// costs between the estimate and the real local size is written in the other (valid) form.
// The dictionary's admissions and seen values are the same (the dictionary is consulted in
// every chunk), so later chunks are not affected.
#pragma once

#include <cstddef>
#include <cstdint>

#include "table_format/encoding.h"
#include "table_format/skip_backoff.h"

namespace columnar {

class LocalBodyForecast {
 public:
  static constexpr uint32_t kLossesBeforeSkipping = SkipBackoff::kLossesBeforeSkipping;
  static constexpr uint32_t kFirstSkip = SkipBackoff::kFirstSkip;
  static constexpr uint32_t kMaxSkip = SkipBackoff::kMaxSkip;
  static constexpr size_t kClearLossNumerator = 7;
  static constexpr size_t kClearLossDenominator = 8;

  // Whether the chunk being written should skip its local body (counts a skip down). Only
  // after a measured local body (Record with `built`).
  bool ShouldSkip();
  // The local body's size for `values` values, and its encoding, from the last chunk that
  // built it.
  size_t EstimatedSize(size_t values) const;
  Encoding encoding() const { return encoding_; }

  // The outcome of a chunk: `built` whether its local body was built (of `local_size` bytes,
  // `local_encoding`, for `values` values; else `local_size` is the estimate),
  // `written_cost` the dictionary form's cost when one was written (`dictionary_written`).
  void Record(bool built, size_t values, size_t local_size, Encoding local_encoding,
              bool dictionary_written, size_t written_cost);

  // Chunks that built / skipped their local body so far (tests, statistics).
  uint64_t built() const { return built_; }
  uint64_t skipped() const { return skipped_; }

 private:
  bool measured_ = false;
  double bytes_per_value_ = 0;
  Encoding encoding_ = Encoding::kPlain;
  SkipBackoff backoff_;  // over the clear losses of built local bodies
  uint64_t built_ = 0;
  uint64_t skipped_ = 0;
};

}  // namespace columnar
