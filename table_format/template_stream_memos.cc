#include "table_format/template_stream_memos.h"

#include <utility>

#include "table_format/encoding.h"
#include "table_format/encoding_memo.h"

namespace columnar {

namespace {

thread_local TemplateStreamMemos* scope_memos = nullptr;
thread_local const ColumnVector* scope_values = nullptr;

}  // namespace

TemplateStreamMemos::TemplateStreamMemos() = default;
TemplateStreamMemos::~TemplateStreamMemos() = default;

EncodingMemo* TemplateStreamMemos::Stream(size_t k) {
  if (streams_.size() <= k) streams_.resize(k + 1);
  if (streams_[k] == nullptr) streams_[k] = std::make_unique<EncodingMemo>();
  return streams_[k].get();
}

EncodingMemo* TemplateStreamMemos::Templates() {
  if (templates_ == nullptr) {
    templates_ = std::make_unique<EncodingMemo>(WithoutEncoding(
        CandidateEncodings(Encoding::kAuto, PhysicalType::kBytes), Encoding::kTemplate));
  }
  return templates_.get();
}

uint64_t TemplateStreamMemos::chooser_runs() const {
  uint64_t runs = 0;
  for (const auto& memo : streams_) runs += memo != nullptr ? memo->chooser_runs() : 0;
  return runs;
}

uint64_t TemplateStreamMemos::reused_chunks() const {
  uint64_t reused = 0;
  for (const auto& memo : streams_) reused += memo != nullptr ? memo->reused_chunks() : 0;
  return reused;
}

TemplateStreamScope::TemplateStreamScope(TemplateStreamMemos* memos, const ColumnVector* values)
    : previous_memos_(scope_memos), previous_values_(scope_values) {
  scope_memos = memos;
  scope_values = values;
}

TemplateStreamScope::~TemplateStreamScope() {
  scope_memos = previous_memos_;
  scope_values = previous_values_;
}

TemplateStreamMemos* TemplateStreamScope::For(const ColumnVector& values) {
  return scope_values == &values ? scope_memos : nullptr;
}

}  // namespace columnar
