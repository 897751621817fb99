#include "plugin/range_deletions.h"

#include <algorithm>

#include "table_format/varint.h"

namespace columnar {

namespace {

// Iterates a sorted vector of (internal key, value) pairs; the fragmenter's input.
class SortedPairIterator : public rocksdb::InternalIterator {
 public:
  SortedPairIterator(std::vector<RangeDeletion> entries,
                     const rocksdb::InternalKeyComparator& comparator)
      : entries_(std::move(entries)), comparator_(comparator) {
    std::sort(entries_.begin(), entries_.end(),
              [this](const RangeDeletion& a, const RangeDeletion& b) {
                return comparator_.Compare(a.first, b.first) < 0;
              });
  }

  bool Valid() const override { return position_ < entries_.size(); }
  void SeekToFirst() override { position_ = 0; }
  void SeekToLast() override { position_ = entries_.empty() ? 0 : entries_.size() - 1; }
  void Seek(const rocksdb::Slice& target) override {
    position_ = std::lower_bound(entries_.begin(), entries_.end(), target,
                                 [this](const RangeDeletion& e, const rocksdb::Slice& t) {
                                   return comparator_.Compare(e.first, t) < 0;
                                 }) -
                entries_.begin();
  }
  void SeekForPrev(const rocksdb::Slice& target) override {
    const size_t after = std::upper_bound(entries_.begin(), entries_.end(), target,
                                          [this](const rocksdb::Slice& t, const RangeDeletion& e) {
                                            return comparator_.Compare(t, e.first) < 0;
                                          }) -
                         entries_.begin();
    position_ = after == 0 ? entries_.size() : after - 1;
  }
  void Next() override { position_++; }
  void Prev() override { position_ = position_ == 0 ? entries_.size() : position_ - 1; }
  rocksdb::Slice key() const override { return entries_[position_].first; }
  rocksdb::Slice value() const override { return entries_[position_].second; }
  rocksdb::Status status() const override { return rocksdb::Status::OK(); }

 private:
  std::vector<RangeDeletion> entries_;
  const rocksdb::InternalKeyComparator& comparator_;
  size_t position_ = 0;
};

}  // namespace

void EncodeRangeDeletions(const std::vector<RangeDeletion>& deletions, std::string* raw) {
  columnar::PutVarint32(raw, static_cast<uint32_t>(deletions.size()));
  for (const auto& [start, end] : deletions) {
    columnar::PutLengthPrefixed(raw, start);
    columnar::PutLengthPrefixed(raw, end);
  }
}

rocksdb::Status DecodeRangeDeletions(const rocksdb::Slice& raw,
                                     std::vector<RangeDeletion>* deletions) {
  rocksdb::Slice in = raw;
  uint32_t count;
  if (!columnar::GetVarint32(&in, &count) || count > in.size()) {
    return rocksdb::Status::Corruption("range deletions: bad count");
  }
  deletions->clear();
  deletions->reserve(count);
  for (uint32_t i = 0; i < count; i++) {
    rocksdb::Slice start;
    rocksdb::Slice end;
    if (!columnar::GetLengthPrefixed(&in, &start) || !columnar::GetLengthPrefixed(&in, &end)) {
      return rocksdb::Status::Corruption("range deletions: truncated");
    }
    // The type is the low byte of the little-endian trailer. Checked here rather than by
    // rocksdb::ParseInternalKey, which asserts (live in Debian's build) that a type byte read
    // from a file is a known one.
    if (start.size() < 8 ||
        static_cast<uint8_t>(start[start.size() - 8]) != rocksdb::kTypeRangeDeletion) {
      return rocksdb::Status::Corruption("range deletions: bad start key");
    }
    deletions->emplace_back(start.ToString(), end.ToString());
  }
  if (!in.empty()) return rocksdb::Status::Corruption("range deletions: trailing bytes");
  return rocksdb::Status::OK();
}

std::shared_ptr<const rocksdb::FragmentedRangeTombstoneList> FragmentRangeDeletions(
    std::vector<RangeDeletion> deletions, const rocksdb::InternalKeyComparator& comparator,
    rocksdb::SequenceNumber global_seqno) {
  if (global_seqno != rocksdb::kDisableGlobalSequenceNumber) {
    for (RangeDeletion& d : deletions) {
      const size_t user_key_size = d.first.size() - 8;
      d.first.resize(user_key_size);
      rocksdb::AppendInternalKeyFooter(&d.first, global_seqno, rocksdb::kTypeRangeDeletion);
    }
  }
  auto source = std::make_unique<SortedPairIterator>(std::move(deletions), comparator);
  return std::make_shared<const rocksdb::FragmentedRangeTombstoneList>(std::move(source),
                                                                       comparator);
}

}  // namespace columnar
