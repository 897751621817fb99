// ValueRuns: the runs of equal adjacent values of a byte-string chunk (no nulls), with the
// first value of every run. Tag columns hold one value per host, so a chunk of them is one
// run or a few: work that depends only on each row's value (its template, its hash, whether
// the file's dictionary knows it) can be done once per run and spread over the run's rows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "table_format/column_vector.h"

namespace columnar {

class ValueRuns {
 public:
  // Finds the runs of `values` while there are at most `max_runs`; past that, few() is false
  // and nothing else is kept.
  ValueRuns(const ColumnVector& values, size_t max_runs);

  // Whether the chunk has at most `max_runs` runs.
  bool few() const { return few_; }
  // The first value of every run, in order (when few()).
  const ColumnVector& heads() const { return heads_; }
  // The row each run starts at (when few()).
  const std::vector<uint32_t>& starts() const { return starts_; }
  // One flag per run spread over the rows of its run (when few()).
  std::vector<bool> SpreadOverRows(const std::vector<bool>& per_run) const;

 private:
  size_t rows_ = 0;
  bool few_ = false;
  ColumnVector heads_{PhysicalType::kBytes};
  std::vector<uint32_t> starts_;
};

}  // namespace columnar
