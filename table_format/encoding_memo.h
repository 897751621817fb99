// EncodingMemo: a column's auto-chosen encoding, remembered while one table file is written so
// that the next chunks of the column can skip the chooser (as BtrBlocks and ALP sample once and
// reuse the decision). Estimating every candidate's size is most of the cost of encoding a
// chunk, and consecutive chunks of a column usually pick the same encoding.
//
// A remembered choice is reused for at most kReusedChunks chunks, then the chooser runs again.
// A reused encoding's body is kept only when its size per value is within kDriftTolerance of
// the size per value the chooser obtained; otherwise (the data changed, or the encoding
// refuses the values, as constant does for a chunk that is not constant) the chooser runs for
// that chunk and its choice is remembered instead. A choice is reused only for chunks of half to
// twice the values the chooser saw; a chunk under half of them is encoded by the chooser and
// leaves the longer chunks' choice remembered.
//
// The tolerance is a tenth, not zero: a chunk of noisy data (a path's parameter streams, status
// codes) is as often a little larger as a little smaller than the one the chooser saw, so with
// no tolerance the chooser ran again for about half the reused chunks. With a tenth and 16
// reused chunks (was 8), access16's flush and compaction took 8.0% fewer instructions for
// 0.03% more bytes (a quarter: 8.9% for 0.11%; docs/results/filecost12).
//
// Float columns are the exception: reusing a float column's choice outright cost about 1% of
// devops' bytes (with the tenth's tolerance, alp_rd, which wins a few chunks of a gauge, was
// kept long after rice_delta beat it again). A reused float chunk instead weighs two
// encodings: the last winner and the runner-up (by estimate) of the chooser run that chose it,
// never ALP (whose analysis is the chooser's costliest). The winner is encoded without an
// estimate, the runner-up estimated alone and encoded only when it could still beat that body
// (EncodeUnlessRivalWins); a runner-up that wins takes the winner's place. The estimates left
// out (distinct values, gorilla's bit count, rice_delta's model, ...) were most of a reused
// chunk's cost besides its body. devops (rice_delta wins 97% of the chunks, float_delta comes
// second): flush and compaction 1,437.2M -> 1,382.3M instructions (-3.8%), bytes 2,765,093 ->
// 2,764,014 (-0.04%); metrics 3,724.8M -> 3,675.0M (-1.3%), bytes identical. (Before, reused
// chunks ran the whole chooser without ALP, and without ALP_RD unless it won the full run:
// devops 2.6% of the instructions for 0.06% more bytes, docs/results/filecost12.)
// Full-precision columns (gauges) never take ALP, so its analysis also backs off across the
// full runs (skip_backoff.h): after kAlpLossesBeforeSkipping full runs in a row that ALP did not
// win, the next kFirstSkip full runs go without it, then one tries it again; a loss there
// doubles the skip (up to kMaxSkip full runs), a win ends it. Only a chunk in which ALP would
// have won is written differently. Two losses, not SkipBackoff's four: memos live for one file,
// so every file paid for the first analyses again (AnalyzeAlp, about 200K instructions a
// 128-value chunk, was 20.4M of devops' 1,382.3M in 100 analyses); devops 1,382.3M -> 1,374.3M
// (-0.58%), bytes identical (one loss: 1,371.0M, but a file's first chunk alone would then
// start the skipping).
// Every body is a normal body of its encoding: files read exactly as before; only which
// encoding a chunk uses may differ.
// A string column's memo also holds the memos of its template bodies' parameter streams
// (template_stream_memos.h), used while it encodes a chunk.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/encoding.h"
#include "table_format/skip_backoff.h"

namespace columnar {

class TemplateStreamMemos;

class EncodingMemo {
 public:
  EncodingMemo();
  // A memo whose chooser weighs only `candidates` (ChooseAndEncode) instead of the auto
  // request's: for values that some encodings must not hold (a template body's templates).
  explicit EncodingMemo(std::vector<Encoding> candidates);
  ~EncodingMemo();
  EncodingMemo(const EncodingMemo&) = delete;
  EncodingMemo& operator=(const EncodingMemo&) = delete;

  static constexpr uint32_t kReusedChunks = 16;
  static constexpr double kDriftTolerance = 1.1;
  // Full runs in a row that ALP loses before a float column's runs skip its analysis.
  static constexpr uint32_t kAlpLossesBeforeSkipping = 2;

  // Encodes `values` (no nulls) for an auto request, appending the body to *out: with the
  // remembered encoding when that still fits, else through EncodeWithBestEncoding(kAuto).
  // `without_template`: as EncodeWithBestEncoding's (the same for every chunk of a slot: a
  // memo serves one file's slot, and a slot is always searched, or never).
  // `short_lived` (a flush's file, soon rewritten): a float column's remembered encoding is
  // reused as any other's, within the drift tolerance, without weighing the runner-up against
  // it (about 4% of a devops flush's instructions, for bytes that compaction rewrites anyway).
  Status Encode(const ColumnVector& values, std::string* out, Encoding* chosen,
                bool without_template = false, bool short_lived = false);

  // Chooser runs and reused chunks so far (for tests and statistics).
  uint64_t chooser_runs() const { return chooser_runs_; }
  uint64_t reused_chunks() const { return reused_chunks_; }
  // Full runs of a float column that analysed ALP (for tests and statistics).
  uint64_t alp_analyses() const { return alp_analyses_; }
  // A float column's remembered winner and runner-up (for tests).
  Encoding remembered_encoding() const { return encoding_; }
  Encoding runner_up() const { return runner_up_; }
  // The memos of the parameter streams of the template bodies of this (string) column.
  TemplateStreamMemos* template_streams();

 private:
  std::unique_ptr<TemplateStreamMemos> template_streams_;
  std::vector<Encoding> candidates_;  // empty: the auto request's
  bool valid_ = false;
  PhysicalType type_ = PhysicalType::kBytes;
  Encoding encoding_ = Encoding::kPlain;
  // A float column's best-ranked other encoding in the last chooser run that weighed it.
  Encoding runner_up_ = Encoding::kPlain;
  double bytes_per_value_ = 0;  // of the chooser's body
  size_t chooser_values_ = 0;   // in the chunk it chose for
  // The auto candidates of a float type but alp (for the full runs that skip its analysis).
  const std::vector<Encoding>& FloatCandidatesWithoutAlp(PhysicalType type);

  std::vector<Encoding> candidates_without_alp_;  // of candidates_type_
  PhysicalType candidates_type_ = PhysicalType::kBytes;
  SkipBackoff alp_backoff_;  // full runs of a float column that leave ALP out
  uint64_t alp_analyses_ = 0;
  uint32_t reuses_left_ = 0;
  uint64_t chooser_runs_ = 0;
  uint64_t reused_chunks_ = 0;
};

// The memos of one table file's columns, by row-group slot. A slot's memo stays at its
// address for the life of the set.
class EncodingMemos {
 public:
  EncodingMemo* For(uint32_t slot);

 private:
  std::vector<std::unique_ptr<EncodingMemo>> memos_;
};

}  // namespace columnar
