#include "table_format/partition_aligned_cuts.h"

#include <algorithm>

namespace columnar {

namespace {

// Of rows_per_group: the shortest group a partition's end may leave.
constexpr size_t kMinTailDivisor = 16;

}  // namespace

PartitionAlignedCuts::PartitionAlignedCuts(size_t rows_per_group)
    : min_tail_rows_(std::max<size_t>(1, rows_per_group / kMinTailDivisor)) {}

void PartitionAlignedCuts::AddPartitionStart(uint64_t row) { starts_.push_back(row); }

size_t PartitionAlignedCuts::Cut(bool has_previous, uint64_t previous_first,
                                 uint64_t open_first) const {
  // The first partition start after the previous group's first row: the open group's rows
  // before it belong to the partition that filled the previous group, if it comes after the
  // open group's first row.
  auto first_after = starts_.begin() + static_cast<std::ptrdiff_t>(head_);
  if (has_previous) first_after = std::upper_bound(first_after, starts_.end(), previous_first);
  if (first_after == starts_.end() || *first_after <= open_first) return 0;
  const uint64_t rows = *first_after - open_first;
  return rows >= min_tail_rows_ ? static_cast<size_t>(rows) : 0;
}

void PartitionAlignedCuts::ForgetThrough(uint64_t first) {
  head_ = static_cast<size_t>(
      std::upper_bound(starts_.begin() + static_cast<std::ptrdiff_t>(head_), starts_.end(), first) -
      starts_.begin());
  // Compacted once the forgotten part is the larger: amortized O(1) a start.
  if (head_ > 64 && head_ * 2 > starts_.size()) {
    starts_.erase(starts_.begin(), starts_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

}  // namespace columnar
