#include "plugin/columnar_table_iterator.h"

#include "db/dbformat.h"
#include "rocksdb/comparator.h"

namespace columnar {

ColumnarTableIterator::ColumnarTableIterator(const ColumnarTableReader* reader,
                                             const rocksdb::ReadOptions& read_options,
                                             const rocksdb::SliceTransform* prefix_extractor,
                                             bool skip_filters, const ScanSpec* spec,
                                             bool compaction_input)
    : reader_(reader),
      read_options_(read_options),
      prefix_extractor_(prefix_extractor),
      skip_filters_(skip_filters),
      spec_(spec) {
  if (compaction_input && spec == nullptr) {
    published_.reader = reader;
    compaction_inputs_ = &CompactionInputs::OfThisThread();
    compaction_inputs_->Register(&published_);
  }
}

ColumnarTableIterator::~ColumnarTableIterator() {
  if (compaction_inputs_ != nullptr) compaction_inputs_->Unregister(&published_);
  ReleaseGroup();
}

void ColumnarTableIterator::PublishGroup() {
  if (compaction_inputs_ == nullptr) return;
  const bool whole = group_ && partial_first_row_ == SIZE_MAX;
  published_.group = group_index_;
  published_.rows = whole ? group_.get() : nullptr;
  published_.block = block_.get();
  published_.bytes = group_index_ == SIZE_MAX
                         ? SIZE_MAX
                         : published_.reader->EncodedGroupBytes(group_index_, published_.block);
}

void ColumnarTableIterator::ReleaseGroup() {
  if (group_ && Pinning()) {
    auto* parked = new CachePin<DecodedRowGroup>(std::move(group_));
    pinned_iters_mgr_->PinPtr(
        parked, [](void* pin) { delete static_cast<CachePin<DecodedRowGroup>*>(pin); });
  }
  group_.Reset();
  group_index_ = SIZE_MAX;
  partial_first_row_ = SIZE_MAX;
  PublishGroup();
}

bool ColumnarTableIterator::Enter(size_t group) {
  if (group == group_index_ && group_ && partial_first_row_ == SIZE_MAX) return true;
  ReleaseGroup();
  // (A compaction's input has no spec.)
  Status s = compaction_inputs_ != nullptr
                 ? reader_->LoadRowGroup(group, read_options_, &block_, &group_,
                                         ColumnarTableReader::DecodeFor::kCopy)
                 : reader_->LoadRowGroupForScan(group, read_options_, spec_, &block_, &group_);
  if (!s.ok()) {
    status_ = s;
    Invalidate();
    return false;
  }
  group_index_ = group;
  PublishGroup();
  return true;
}

bool ColumnarTableIterator::SetPosition(size_t row) {
  row_ = row;
  valid_ = true;
  return true;
}

bool ColumnarTableIterator::GroupStartsAtOrAfterUpperBound(size_t group) const {
  const rocksdb::Slice* bound = read_options_.iterate_upper_bound;
  if (bound == nullptr) return false;
  const rocksdb::Slice first_user_key = rocksdb::ExtractUserKey(reader_->first_key(group));
  return reader_->comparator().user_comparator()->Compare(first_user_key, *bound) >= 0;
}

bool ColumnarTableIterator::GroupStartsAfterLowerBoundGap(size_t group) const {
  const rocksdb::Slice* bound = read_options_.iterate_lower_bound;
  if (bound == nullptr) return false;
  const rocksdb::Slice first_user_key = rocksdb::ExtractUserKey(reader_->first_key(group));
  // Rows before `group` have user keys <= this one; strictly below the bound they are all out.
  return reader_->comparator().user_comparator()->Compare(first_user_key, *bound) < 0;
}

void ColumnarTableIterator::PositionAtFirstRowOf(size_t group) {
  // Groups a pushdown spec emptied are stepped over.
  for (; group < reader_->index().num_row_groups(); group++) {
    if (GroupStartsAtOrAfterUpperBound(group)) break;
    if (!Enter(group)) return;
    if (group_->row_count() > 0) {
      SetPosition(0);
      return;
    }
  }
  Invalidate();
}

void ColumnarTableIterator::PositionAtLastRowOf(size_t group) {
  for (size_t g = group + 1; g-- > 0;) {
    if (g >= reader_->index().num_row_groups()) break;
    if (!Enter(g)) return;
    if (group_->row_count() > 0) {
      SetPosition(group_->row_count() - 1);
      return;
    }
    if (GroupStartsAfterLowerBoundGap(g)) break;
  }
  Invalidate();
}

void ColumnarTableIterator::SeekToFirst() {
  status_ = Status::OK();
  PositionAtFirstRowOf(0);
}

void ColumnarTableIterator::SeekToLast() {
  status_ = Status::OK();
  const size_t groups = reader_->index().num_row_groups();
  if (groups == 0) return Invalidate();
  PositionAtLastRowOf(groups - 1);
}

size_t ColumnarTableIterator::LowerBoundRow(const rocksdb::Slice& target) const {
  // Every row of the group lies at or above its first key in the index. A seek to a partition's
  // start lands on its group's first row (GroupForLowerBound), and the group search has just
  // read that index key: compared first, it answers such seeks without the binary search below,
  // whose every step reads a key of the group from memory the CPU's caches rarely hold (on
  // metrics `latest` with every group cached, 8.7 of a query's 31 simulated cache misses).
  if (reader_->comparator().Compare(reader_->first_key(group_index_), target) >= 0) return 0;
  size_t lo = 0;
  size_t hi = group_->row_count();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (reader_->comparator().Compare(group_->internal_key(mid), target) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

bool ColumnarTableIterator::PartitionFilterExcludes(const rocksdb::Slice& target,
                                                    bool forward) const {
  if (skip_filters_ || !reader_->has_partition_filter()) return false;
  rocksdb::Slice partition;
  if (!ConfiningPartition(rocksdb::ExtractUserKey(target), forward, &partition)) return false;
  return !reader_->PartitionMayMatch(partition);
}

bool ColumnarTableIterator::ConfiningPartition(const rocksdb::Slice& target_user_key, bool forward,
                                               rocksdb::Slice* partition) const {
  // Prefix mode of the column family's extractor confines a seek to the target's prefix.
  const bool prefix_mode = prefix_extractor_ != nullptr && !read_options_.total_order_seek &&
                           !read_options_.auto_prefix_mode;
  // The file's partitions may be longer than the extractor's prefix (a schema's partition key
  // with a shorter extractor): the seek is confined to the file's partition only when every
  // key with the target's prefix lies in it, i.e. the prefix starts with the partition.
  if (prefix_mode) {
    if (!prefix_extractor_->InDomain(target_user_key) ||
        !reader_->PartitionOf(target_user_key, prefix_extractor_, partition)) {
      return false;
    }
    return prefix_extractor_->Transform(target_user_key).starts_with(*partition);
  }
  // Iterate bounds confine a scan to one partition when both ends lie in it: forward, the
  // target's partition and an upper bound at most its successor; backward (SeekForPrev, also
  // how SeekToLast with an upper bound starts), the lower bound's partition and a target at
  // most its successor.
  if (reader_->comparator().user_comparator() != rocksdb::BytewiseComparator()) return false;
  const rocksdb::Slice* bound =
      forward ? read_options_.iterate_upper_bound : read_options_.iterate_lower_bound;
  if (bound == nullptr) return false;
  const rocksdb::Slice inside = forward ? target_user_key : *bound;
  const rocksdb::Slice outside = forward ? *bound : target_user_key;
  if (!reader_->PartitionOf(inside, prefix_extractor_, partition)) return false;
  if (outside.starts_with(*partition)) return true;
  std::string successor;
  if (!PartitionSuccessor(*partition, &successor)) return false;
  const int order = outside.compare(successor);
  if (forward || order < 0) return order <= 0;  // the upper bound is exclusive
  // SeekForPrev is inclusive: a key equal to the successor is outside the partition unless
  // the upper bound hides it anyway (how SeekToLast seeks).
  const rocksdb::Slice* upper = read_options_.iterate_upper_bound;
  return order == 0 && upper != nullptr && upper->compare(successor) <= 0;
}

bool ColumnarTableIterator::PartitionSuccessor(const rocksdb::Slice& partition,
                                               std::string* successor) {
  // The smallest key greater than every key starting with `partition`.
  successor->assign(partition.data(), partition.size());
  while (!successor->empty() && static_cast<uint8_t>(successor->back()) == 0xff) {
    successor->pop_back();
  }
  if (successor->empty()) return false;
  successor->back() = static_cast<char>(static_cast<uint8_t>(successor->back()) + 1);
  return true;
}

void ColumnarTableIterator::Seek(const rocksdb::Slice& target) {
  status_ = Status::OK();
  const size_t groups = reader_->index().num_row_groups();
  if (groups == 0 || PartitionFilterExcludes(target, true)) return Invalidate();
  size_t group;
  status_ = reader_->GroupForLowerBound(target, read_options_, &block_, &group);
  if (!status_.ok() || GroupStartsAtOrAfterUpperBound(group)) return Invalidate();
  size_t row;
  if (spec_ == nullptr) {
    // Point-read path: a cold group yields only the row at the bound.
    ReleaseGroup();
    ColumnarTableReader::PointRows rows;
    status_ = reader_->LoadRowsForPointRead(group, target, false, read_options_, &block_, &rows);
    if (!status_.ok()) return Invalidate();
    group_ = std::move(rows.rows);
    group_index_ = group;
    if (!rows.whole) partial_first_row_ = rows.first_row;
    PublishGroup();
    row = rows.position;
  } else {
    if (!Enter(group)) return;
    row = LowerBoundRow(target);
  }
  if (row < group_->row_count()) {
    SetPosition(row);
  } else {
    PositionAtFirstRowOf(group + 1);
  }
}

void ColumnarTableIterator::LeavePartialGroup(size_t row) {
  const size_t group = group_index_;
  if (!Enter(group)) return;
  if (row == SIZE_MAX) {
    if (group == 0 || GroupStartsAfterLowerBoundGap(group)) return Invalidate();
    return PositionAtLastRowOf(group - 1);
  }
  if (row < group_->row_count()) {
    SetPosition(row);
  } else {
    PositionAtFirstRowOf(group + 1);
  }
}

void ColumnarTableIterator::SeekForPrev(const rocksdb::Slice& target) {
  status_ = Status::OK();
  const size_t groups = reader_->index().num_row_groups();
  if (groups == 0 || PartitionFilterExcludes(target, false)) return Invalidate();
  const size_t group = reader_->GroupForSeek(target);
  if (reader_->comparator().Compare(reader_->first_key(group), target) > 0) {
    return Invalidate();  // target precedes the whole file
  }
  if (!Enter(group)) return;
  // The last row <= target: one before the first row > target.
  size_t lo = 0;
  size_t hi = group_->row_count();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (reader_->comparator().Compare(group_->internal_key(mid), target) <= 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo > 0) return static_cast<void>(SetPosition(lo - 1));
  // Every row <= target was filtered out of this group: continue in the ones before.
  if (group == 0 || GroupStartsAfterLowerBoundGap(group)) return Invalidate();
  PositionAtLastRowOf(group - 1);
}

void ColumnarTableIterator::Next() {
  if (partial_first_row_ != SIZE_MAX) return LeavePartialGroup(partial_first_row_ + row_ + 1);
  if (row_ + 1 < group_->row_count()) {
    SetPosition(row_ + 1);
    return;
  }
  PositionAtFirstRowOf(group_index_ + 1);
}

void ColumnarTableIterator::Prev() {
  if (partial_first_row_ != SIZE_MAX) {
    return LeavePartialGroup(partial_first_row_ + row_ == 0 ? SIZE_MAX
                                                            : partial_first_row_ + row_ - 1);
  }
  if (row_ > 0) {
    SetPosition(row_ - 1);
    return;
  }
  if (group_index_ == 0 || GroupStartsAfterLowerBoundGap(group_index_)) return Invalidate();
  PositionAtLastRowOf(group_index_ - 1);
}

}  // namespace columnar
