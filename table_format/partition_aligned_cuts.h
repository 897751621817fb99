// PartitionAlignedCuts: where a table file's writer ends a row group early so that the next
// partition begins a group of its own.
//
// A group cut at rows_per_group rows straddles two partitions wherever a partition ends inside
// it: its chunks then carry the partition change (a partition slot), a break in every series
// (a time column's jump, a value column's), and a query of either partition decodes rows of
// the other. Time series are written as long partitions, and once one begins a group, its
// groups stay in step with it to its end: a metrics series of 17,280 points is exactly 135
// groups of 128. A compaction's output file, though, begins wherever the previous output
// ended, usually inside a partition, and every group of that file then straddled two series
// (0.3% more bytes a point in metrics' files).
//
// The rule: a group that continues a long partition ends where that partition ends, so the
// next partition starts a group. "Continues a long partition": the partition began at or
// before the first row of the previous group of the file (it filled that group) and no other
// begins in this group before the cut; a file's first group counts as continuing one (a file
// usually begins inside a partition). The group must hold at least
// max(1, rows_per_group / 16) rows by then: a partition a few rows longer than a group (130
// rows in groups of 128) would otherwise end every other group after a couple of rows, where
// straddling costs less. Partitions that begin inside a group are never cut at: groups of
// many short partitions stay full.
//
// Rows are numbered in file order from 0. The writer reports each row that begins another
// partition than its predecessor's (never row 0) and asks, for its open group, where to cut.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace columnar {

class PartitionAlignedCuts {
 public:
  explicit PartitionAlignedCuts(size_t rows_per_group);

  // Row `row` (> every row reported before, > 0) begins a new partition.
  void AddPartitionStart(uint64_t row);

  // Rows the open group, which begins at row `open_first`, should end with: the rows up to the
  // end of its partition, or 0 when it should not end at a partition's end (none is known yet,
  // or the rule does not apply). `previous_first`: the first row of the group before it in the
  // file, ignored when `has_previous` is false (the open group is the file's first).
  size_t Cut(bool has_previous, uint64_t previous_first, uint64_t open_first) const;

  // The groups up to the one beginning at row `first` are written: starts at or before it can
  // no longer matter (Cut's previous group begins at or after it from now on).
  void ForgetThrough(uint64_t first);

  size_t min_tail_rows() const { return min_tail_rows_; }

 private:
  size_t min_tail_rows_;
  std::vector<uint64_t> starts_;  // ascending, from starts_[head_] on
  size_t head_ = 0;
};

}  // namespace columnar
