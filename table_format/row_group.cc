#include "table_format/row_group.h"

#include <algorithm>

#include "table_format/varint.h"

namespace columnar {

void RowGroupWriter::Begin(uint32_t row_count, uint32_t first_partition_length, ColumnStats* stats,
                           EncodingMemos* memos) {
  row_count_ = row_count;
  first_partition_length_ = first_partition_length;
  stats_ = stats;
  memos_ = memos;
  slots_.clear();
  chunks_.clear();
}

Status RowGroupWriter::AddColumn(uint32_t slot, const std::string& name, const ColumnVector& values,
                                 const ChunkWriteOptions& options) {
  if (!slots_.empty() && slot <= slots_.back()) {
    return Status::InvalidArgument("row group: slots must be added in increasing order");
  }
  if (slot >= kMaxRowGroupSlots) return Status::InvalidArgument("row group: slot out of range");
  if (row_count_ == 0 || row_count_ > kMaxRowGroupRows) {
    return Status::InvalidArgument("row group: row count out of range");
  }
  if (values.size() != row_count_) {
    return Status::InvalidArgument("row group: column length differs from the row count");
  }
  const size_t before = chunks_.size();
  Encoding chosen;
  // Every chunk holds row_count values, which the group header already says.
  ChunkWriteOptions in_group = options;
  in_group.implied_value_count = true;
  if (memos_ != nullptr && options.memo == nullptr && options.encoding == Encoding::kAuto) {
    in_group.memo = memos_->For(slot);
  }
  Status s = WriteChunk(values, in_group, &chunks_, &chosen);
  if (!s.ok()) return s;
  slots_.push_back(slot);
  if (stats_ != nullptr) {
    stats_->Record(name, chunks_.size() - before, chosen, values.size());
    stats_->Observe(name, values);
  }
  return Status::OK();
}

void RowGroupWriter::Finish(std::string* out) {
  PutVarint32(out, row_count_);
  PutVarint32(out, first_partition_length_);
  PutVarint32(out, static_cast<uint32_t>(slots_.size()));
  uint32_t previous = 0;
  for (size_t i = 0; i < slots_.size(); i++) {
    PutVarint32(out, i == 0 ? slots_[i] : slots_[i] - previous - 1);
    previous = slots_[i];
  }
  out->append(chunks_);
}

Status RowGroupView::Parse(const Slice& bytes) {
  Slice in = bytes;
  uint32_t slot_count;
  if (!GetVarint32(&in, &row_count_) || !GetVarint32(&in, &first_partition_length_) ||
      !GetVarint32(&in, &slot_count)) {
    return Status::Corruption("row group: truncated header");
  }
  if (row_count_ == 0 || row_count_ > kMaxRowGroupRows) {
    return Status::Corruption("row group: implausible row count");
  }
  if (slot_count > kMaxRowGroupSlots || slot_count > in.size()) {
    return Status::Corruption("row group: implausible slot count");
  }
  slots_.clear();
  slots_.reserve(slot_count);
  uint64_t slot = 0;
  for (uint32_t i = 0; i < slot_count; i++) {
    uint32_t delta;
    if (!GetVarint32(&in, &delta)) return Status::Corruption("row group: truncated slot list");
    slot = i == 0 ? delta : slot + delta + 1;
    if (slot >= kMaxRowGroupSlots) return Status::Corruption("row group: slot out of range");
    slots_.push_back({static_cast<uint32_t>(slot), Slice()});
  }
  anchors_.clear();
  for (SlotChunk& entry : slots_) {
    const char* start = in.data();
    ChunkHeader header;
    // Compact chunk headers take their count from the group; full ones must agree with it.
    Status s = SkipChunk(&in, &header, row_count_);
    if (!s.ok()) return s;
    entry.chunk = Slice(start, static_cast<size_t>(in.data() - start));
    if (header.encoding == Encoding::kRiceDeltaAnchored) anchors_.push_back({entry.slot, false, 0});
  }
  data_ = bytes.data();
  size_ = bytes.size() - in.size();
  return Status::OK();
}

std::vector<uint32_t> RowGroupView::slots() const {
  std::vector<uint32_t> ids;
  ids.reserve(slots_.size());
  for (const SlotChunk& entry : slots_) ids.push_back(entry.slot);
  return ids;
}

const RowGroupView::SlotChunk* RowGroupView::Find(uint32_t slot) const {
  auto it = std::lower_bound(slots_.begin(), slots_.end(), slot,
                             [](const SlotChunk& entry, uint32_t s) { return entry.slot < s; });
  return it == slots_.end() || it->slot != slot ? nullptr : &*it;
}

bool RowGroupView::HasSlot(uint32_t slot) const { return Find(slot) != nullptr; }

Slice RowGroupView::ChunkOf(uint32_t slot) const {
  const SlotChunk* entry = Find(slot);
  return entry == nullptr ? Slice() : entry->chunk;
}

void RowGroupView::SetAnchor(uint32_t slot, uint64_t anchor) {
  auto it = std::lower_bound(anchors_.begin(), anchors_.end(), slot,
                             [](const Anchor& a, uint32_t s) { return a.slot < s; });
  if (it == anchors_.end() || it->slot != slot) return;
  it->set = true;
  it->bits = anchor;
}

const uint64_t* RowGroupView::AnchorOf(uint32_t slot) const {
  auto it = std::lower_bound(anchors_.begin(), anchors_.end(), slot,
                             [](const Anchor& a, uint32_t s) { return a.slot < s; });
  if (it == anchors_.end() || it->slot != slot || !it->set) return nullptr;
  return &it->bits;
}

Status RowGroupView::DecodeSlot(uint32_t slot, PhysicalType type, ColumnVector* out,
                                bool verify_checksum, const ColumnVector* file_dictionary,
                                const uint64_t* wanted_rows) const {
  Slice chunk = ChunkOf(slot);
  if (chunk.empty()) return Status::NotFound("row group: slot absent");
  ChunkReadOptions options;
  options.verify_checksum = verify_checksum;
  options.expected_values = row_count_;
  options.file_dictionary = file_dictionary;
  options.wanted_rows = wanted_rows;
  options.anchor = AnchorOf(slot);
  return ReadChunk(&chunk, type, out, options);
}

Status RowGroupView::DecodeSlotRows(uint32_t slot, PhysicalType type, uint32_t begin, uint32_t end,
                                    ColumnVector* out, bool verify_checksum) const {
  const Slice chunk = ChunkOf(slot);
  if (chunk.empty()) return Status::NotFound("row group: slot absent");
  ChunkReadOptions options;
  options.verify_checksum = verify_checksum;
  options.expected_values = row_count_;
  options.anchor = AnchorOf(slot);
  return ReadChunkRows(chunk, type, begin, end, out, options);
}

}  // namespace columnar
