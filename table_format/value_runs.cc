#include "table_format/value_runs.h"

#include <cassert>

namespace columnar {

ValueRuns::ValueRuns(const ColumnVector& values, size_t max_runs) : rows_(values.size()) {
  assert(values.type() == PhysicalType::kBytes);
  // The runs are counted first: most chunks of strings have more than `max_runs`, and their
  // heads would be copied for nothing.
  size_t runs = 0;
  Slice previous;
  for (size_t i = 0; i < rows_; i++) {
    const Slice value = values.GetBytes(i);
    if (i > 0 && value == previous) continue;
    if (++runs > max_runs) return;
    previous = value;
  }
  few_ = true;
  starts_.reserve(runs);
  heads_.Reserve(runs);
  for (size_t i = 0; i < rows_; i++) {
    const Slice value = values.GetBytes(i);
    if (i > 0 && value == previous) continue;
    starts_.push_back(static_cast<uint32_t>(i));
    heads_.AppendBytes(value);
    previous = value;
  }
}

std::vector<bool> ValueRuns::SpreadOverRows(const std::vector<bool>& per_run) const {
  assert(few_ && per_run.size() == starts_.size());
  std::vector<bool> rows(rows_);
  for (size_t run = 0; run < starts_.size(); run++) {
    const size_t end = run + 1 < starts_.size() ? starts_[run + 1] : rows_;
    for (size_t i = starts_[run]; i < end; i++) rows[i] = per_run[run];
  }
  return rows;
}

}  // namespace columnar
