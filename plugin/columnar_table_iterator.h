// ColumnarTableIterator: RocksDB's internal iterator over one ColumnarTable file, forward and
// backward, with Seek / SeekForPrev. It keeps one decoded row group pinned and walks its rows;
// crossing a group boundary loads the neighbour (from the shared cache when present).
// Iterate bounds stop it at group granularity, so a scan confined to a partition or a time
// range never decodes a group beyond it.
#pragma once

#include <string>

#include "db/pinned_iterators_manager.h"
#include "plugin/cache_pin.h"
#include "plugin/columnar_table_reader.h"
#include "plugin/compaction_inputs.h"
#include "plugin/pushdown.h"
#include "table/internal_iterator.h"

namespace columnar {

class ColumnarTableIterator : public rocksdb::InternalIterator {
 public:
  // `spec` (optional): the read's predicate-pushdown spec; groups then hold only the entries
  // it leaves, and may be empty. `compaction_input`: a compaction's input, whose whole groups
  // the iterator makes known to the output's builder (compaction_inputs.h) while it lives.
  ColumnarTableIterator(const ColumnarTableReader* reader, const rocksdb::ReadOptions& read_options,
                        const rocksdb::SliceTransform* prefix_extractor, bool skip_filters,
                        const ScanSpec* spec = nullptr, bool compaction_input = false);

  bool Valid() const override { return valid_; }
  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const rocksdb::Slice& target) override;
  void SeekForPrev(const rocksdb::Slice& target) override;
  void Next() override;
  void Prev() override;
  // Empty when not valid: RocksDB 7.8.3's ingestion reads key() after SeekToLast without
  // asking Valid() (ExternalSstFileIngestionJob::GetIngestedFileInfo), and takes an empty key
  // for a corrupt one.
  rocksdb::Slice key() const override {
    return valid_ ? group_->internal_key(row_) : rocksdb::Slice();
  }
  rocksdb::Slice value() const override { return valid_ ? group_->value(row_) : rocksdb::Slice(); }
  rocksdb::Status status() const override { return status_; }
  // Keys and values live in the pinned row group. While RocksDB pins data (backward
  // iteration, merges, ReadOptions::pin_data), a group the iterator leaves is handed to the
  // PinnedIteratorsManager instead of being released, so earlier slices stay valid.
  void SetPinnedItersMgr(rocksdb::PinnedIteratorsManager* manager) override {
    pinned_iters_mgr_ = manager;
  }
  bool IsKeyPinned() const override { return Pinning(); }
  bool IsValuePinned() const override { return Pinning(); }
  ~ColumnarTableIterator() override;

 private:
  // Pins `group` (keeping the current one when it is the same); false on error or bounds.
  bool Enter(size_t group);
  void PositionAtFirstRowOf(size_t group);
  void PositionAtLastRowOf(size_t group);
  void Invalidate() { valid_ = false; }
  bool Pinning() const {
    return pinned_iters_mgr_ != nullptr && pinned_iters_mgr_->PinningEnabled();
  }
  // Drops the current group, or parks it with the pinned-iterators manager.
  void ReleaseGroup();
  // Tells the compaction's builder which whole group the iterator now holds (if any).
  void PublishGroup();
  bool SetPosition(size_t row);
  // True when every key from `group` on is at or past iterate_upper_bound.
  bool GroupStartsAtOrAfterUpperBound(size_t group) const;
  // True when every key before `group` is below iterate_lower_bound.
  bool GroupStartsAfterLowerBoundGap(size_t group) const;
  bool PartitionFilterExcludes(const rocksdb::Slice& target, bool forward) const;
  // The one partition a seek in `forward` direction from `target_user_key` cannot leave, if
  // the read options confine it so.
  bool ConfiningPartition(const rocksdb::Slice& target_user_key, bool forward,
                          rocksdb::Slice* partition) const;
  static bool PartitionSuccessor(const rocksdb::Slice& partition, std::string* successor);
  size_t LowerBoundRow(const rocksdb::Slice& target) const;
  // From a partial group: enters the whole group and positions at its row `row` (past its
  // end: the next group's first row; before its start, i.e. SIZE_MAX: the previous group's
  // last row).
  void LeavePartialGroup(size_t row);

  const ColumnarTableReader* reader_;
  const rocksdb::ReadOptions& read_options_;
  const rocksdb::SliceTransform* prefix_extractor_;
  const bool skip_filters_;
  const ScanSpec* const spec_;

  CachePin<RawBlock> block_;
  CachePin<DecodedRowGroup> group_;
  size_t group_index_ = SIZE_MAX;
  // A seek into a cold group holds only the row it found (ColumnarTableReader::PointRows):
  // the group row that group_'s row 0 is. SIZE_MAX while group_ is a whole group. Moving off
  // that row enters the whole group.
  size_t partial_first_row_ = SIZE_MAX;
  size_t row_ = 0;
  bool valid_ = false;
  rocksdb::Status status_;

  rocksdb::PinnedIteratorsManager* pinned_iters_mgr_ = nullptr;
  // As a compaction's input: the registry it is in (null otherwise), and what it shows there.
  CompactionInputs* compaction_inputs_ = nullptr;
  CompactionInputGroup published_;
};

}  // namespace columnar
