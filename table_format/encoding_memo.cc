#include "table_format/encoding_memo.h"

#include <utility>

#include "table_format/encodings/chooser.h"
#include "table_format/encodings/codec.h"
#include "table_format/template_stream_memos.h"

namespace columnar {

EncodingMemo::EncodingMemo() = default;
EncodingMemo::EncodingMemo(std::vector<Encoding> candidates) : candidates_(std::move(candidates)) {}
EncodingMemo::~EncodingMemo() = default;

TemplateStreamMemos* EncodingMemo::template_streams() {
  if (template_streams_ == nullptr) template_streams_ = std::make_unique<TemplateStreamMemos>();
  return template_streams_.get();
}

Status EncodingMemo::Encode(const ColumnVector& values, std::string* out, Encoding* chosen,
                            bool without_template) {
  // A template body of these values (chosen, or the chooser's trial) encodes its parameter
  // streams through the column's memos.
  TemplateStreamScope scope(values.type() == PhysicalType::kBytes ? template_streams() : nullptr,
                            &values);
  const size_t n = values.size();
  const bool remembered = valid_ && reuses_left_ > 0 && type_ == values.type() && n > 0;
  if (remembered && IsFloatType(type_)) {
    if (encoding_ != Encoding::kAlp) {
      // Floats: the chooser still runs, without ALP's analysis (most of its cost) while ALP
      // lost the last full run, and without ALP_RD's while ALP_RD lost it too; reusing the
      // encoding itself cost about 1% of their size, as their best encodings (rice_delta,
      // alp_rd, gorilla) trade places from chunk to chunk.
      reuses_left_--;
      Status s = ChooseAndEncode(FloatCandidates(type_, encoding_ == Encoding::kAlpRd), values, out,
                                 chosen);
      if (s.ok()) reused_chunks_++;
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
  Status s;
  if (!candidates_.empty()) {
    s = ChooseAndEncode(candidates_, values, out, &best);
  } else if (IsFloatType(values.type()) && n > 0 && alp_backoff_.Skip()) {
    // ALP lost the last full runs: this one goes without its analysis too.
    s = ChooseAndEncode(FloatCandidates(values.type(), /*with_alp_rd=*/true), values, out, &best);
  } else {
    s = EncodeWithBestEncoding(Encoding::kAuto, values, out, &best, without_template);
    if (s.ok() && IsFloatType(values.type()) && n > 0) {
      alp_analyses_++;
      alp_backoff_.Record(/*clear_loss=*/best != Encoding::kAlp);
    }
  }
  if (!s.ok()) return s;
  chooser_runs_++;
  *chosen = best;
  valid_ = n > 0;
  type_ = values.type();
  encoding_ = best;
  bytes_per_value_ = n > 0 ? static_cast<double>(out->size() - start) / n : 0;
  reuses_left_ = kReusedChunks;
  return Status::OK();
}

const std::vector<Encoding>& EncodingMemo::FloatCandidates(PhysicalType type, bool with_alp_rd) {
  if (candidates_without_alp_.empty() || candidates_type_ != type) {
    candidates_without_alp_ =
        WithoutEncoding(CandidateEncodings(Encoding::kAuto, type), Encoding::kAlp);
    candidates_without_alps_ = WithoutEncoding(candidates_without_alp_, Encoding::kAlpRd);
    candidates_type_ = type;
  }
  return with_alp_rd ? candidates_without_alp_ : candidates_without_alps_;
}

EncodingMemo* EncodingMemos::For(uint32_t slot) {
  if (memos_.size() <= slot) memos_.resize(slot + 1);
  if (memos_[slot] == nullptr) memos_[slot] = std::make_unique<EncodingMemo>();
  return memos_[slot].get();
}

}  // namespace columnar
