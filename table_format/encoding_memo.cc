#include "table_format/encoding_memo.h"

namespace columnar {

Status EncodingMemo::Encode(const ColumnVector& values, std::string* out, Encoding* chosen) {
  const size_t n = values.size();
  if (valid_ && reuses_left_ > 0 && type_ == values.type() && n > 0) {
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
  Status s = EncodeWithBestEncoding(Encoding::kAuto, values, out, &best);
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

EncodingMemo* EncodingMemos::For(uint32_t slot) {
  if (memos_.size() <= slot) memos_.resize(slot + 1);
  return &memos_[slot];
}

}  // namespace columnar
