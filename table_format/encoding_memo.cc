#include "table_format/encoding_memo.h"

#include <utility>

#include "table_format/encodings/chooser.h"
#include "table_format/encodings/codec.h"
#include "table_format/template_stream_memos.h"

namespace columnar {

EncodingMemo::EncodingMemo() : alp_backoff_(kAlpLossesBeforeSkipping) {}
EncodingMemo::EncodingMemo(std::vector<Encoding> candidates)
    : candidates_(std::move(candidates)), alp_backoff_(kAlpLossesBeforeSkipping) {}
EncodingMemo::~EncodingMemo() = default;

TemplateStreamMemos* EncodingMemo::template_streams() {
  if (template_streams_ == nullptr) template_streams_ = std::make_unique<TemplateStreamMemos>();
  return template_streams_.get();
}

Status EncodingMemo::Encode(const ColumnVector& values, std::string* out, Encoding* chosen,
                            bool without_template, bool short_lived) {
  // A template body of these values (chosen, or the chooser's trial) encodes its parameter
  // streams through the column's memos.
  TemplateStreamScope scope(values.type() == PhysicalType::kBytes ? template_streams() : nullptr,
                            &values);
  const size_t n = values.size();
  // A choice is reused only for a chunk of about the length the chooser saw: a chunk's fixed
  // bytes weigh per value on a short chunk, and a long chunk then fit a short one's choice well
  // within the tolerance (metrics' copying compactions encode a partition's few new points
  // between its copied groups: 3,300 of 45,000 chunks of write times took frame-of-reference
  // or rice_delta from a short chunk's chooser run, 0.18% more write-time bytes).
  const bool same_type = valid_ && type_ == values.type();
  const bool shorter = same_type && n * 2 < chooser_values_;
  const bool remembered =
      same_type && reuses_left_ > 0 && n > 0 && !shorter && n <= chooser_values_ * 2;
  if (remembered && IsFloatType(type_) && !short_lived) {
    if (encoding_ != Encoding::kAlp) {
      // Floats: the last winner is encoded, and the runner-up of the last chooser run
      // estimated alone against its body (never ALP, whose analysis is most of the cost);
      // reusing the winner outright cost about 1% of their size, as a winner for a while
      // (alp_rd on devops) would be kept after it stopped winning. A runner-up that wins takes
      // the winner's place, so that it is the one encoded without an estimate next time.
      reuses_left_--;
      const Encoding rival = runner_up_ == Encoding::kAlp ? encoding_ : runner_up_;
      Encoding best;
      Status s = EncodeUnlessRivalWins(encoding_, rival, values, out, &best);
      if (!s.ok()) return s;
      reused_chunks_++;
      if (best != encoding_) {
        runner_up_ = encoding_;
        encoding_ = best;
      }
      *chosen = best;
      return s;
    }
  } else if (remembered) {
    reuses_left_--;
    const size_t start = out->size();
    if (EncodeValues(encoding_, values, out).ok() &&
        static_cast<double>(out->size() - start) <= bytes_per_value_ * n * kDriftTolerance) {
      reused_chunks_++;
      *chosen = encoding_;
      return Status::OK();
    }
    out->resize(start);
  }
  const size_t start = out->size();
  Encoding best;
  Encoding runner_up = Encoding::kPlain;
  Status s;
  if (!candidates_.empty()) {
    s = ChooseAndEncode(candidates_, values, out, &best);
  } else if (IsFloatType(values.type()) && n > 0 && alp_backoff_.Skip()) {
    // ALP lost the last full runs: this one goes without its analysis too.
    s = ChooseAndEncode(FloatCandidatesWithoutAlp(values.type()), values, out, &best, &runner_up);
  } else if (IsFloatType(values.type()) && n > 0) {
    // EncodeWithBestEncoding's chooser, which also names the runner-up.
    s = ChooseAndEncode(CandidateEncodings(Encoding::kAuto, values.type(), without_template),
                        values, out, &best, &runner_up);
    if (s.ok()) {
      alp_analyses_++;
      alp_backoff_.Record(/*clear_loss=*/best != Encoding::kAlp);
    }
  } else {
    s = EncodeWithBestEncoding(Encoding::kAuto, values, out, &best, without_template);
  }
  if (!s.ok()) return s;
  chooser_runs_++;
  *chosen = best;
  if (shorter) return s;  // the longer chunks' choice stays remembered
  valid_ = n > 0;
  type_ = values.type();
  encoding_ = best;
  runner_up_ = runner_up;
  bytes_per_value_ = n > 0 ? static_cast<double>(out->size() - start) / n : 0;
  chooser_values_ = n;
  reuses_left_ = kReusedChunks;
  return Status::OK();
}

const std::vector<Encoding>& EncodingMemo::FloatCandidatesWithoutAlp(PhysicalType type) {
  if (candidates_without_alp_.empty() || candidates_type_ != type) {
    candidates_without_alp_ =
        WithoutEncoding(CandidateEncodings(Encoding::kAuto, type), Encoding::kAlp);
    candidates_type_ = type;
  }
  return candidates_without_alp_;
}

EncodingMemo* EncodingMemos::For(uint32_t slot) {
  if (memos_.size() <= slot) memos_.resize(slot + 1);
  if (memos_[slot] == nullptr) memos_[slot] = std::make_unique<EncodingMemo>();
  return memos_[slot].get();
}

}  // namespace columnar
