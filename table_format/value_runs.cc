#include "table_format/value_runs.h"

#include <algorithm>
#include <cassert>

namespace columnar {

ValueRuns::ValueRuns(const ColumnVector& values, size_t max_runs) : rows_(values.size()) {
  assert(values.type() == PhysicalType::kBytes);
  // The runs' starts first, their heads copied only once the runs are known to be few: most
  // chunks of strings have more than `max_runs`.
  starts_.reserve(std::min(max_runs, rows_));
  Slice previous;
  for (size_t i = 0; i < rows_; i++) {
    const Slice value = values.GetBytes(i);
    if (i > 0 && value == previous) continue;
    if (starts_.size() == max_runs) {
      starts_.clear();
      return;
    }
    starts_.push_back(static_cast<uint32_t>(i));
    previous = value;
  }
  few_ = true;
  heads_.Reserve(starts_.size());
  for (const uint32_t start : starts_) heads_.AppendBytes(values.GetBytes(start));
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
