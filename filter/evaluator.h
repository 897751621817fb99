// FilterEvaluator: a bound predicate evaluated over whole row groups, producing the selection
// bitmap of the rows that match.
//
// Per row group the evaluator walks its plan (evaluation_plan.h): each single-column node
// fetches its column from the ColumnSource (once per group, and only if some row still
// depends on it), evaluates on the plain values or once per dictionary entry, and AND / OR
// combine bitmaps word-wise, skipping what can no longer change the result. With zone maps,
// a single-column node they decide (no row / every row matches) is settled without fetching.
//
//   FilterEvaluator evaluator(bound);           // once per query
//   EvaluationResult result;
//   Status s = evaluator.Evaluate(rows, &source, &result, &zone_maps);  // per row group
//   result.selection  -> the rows to build; result.fetched_columns -> what was decoded
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "filter/bound_predicate.h"
#include "filter/column_source.h"
#include "filter/compare_kernels.h"
#include "filter/evaluation_plan.h"
#include "filter/selection_bitmap.h"
#include "filter/zone_map_set.h"

namespace columnar {

struct EvaluationResult {
  // Bit i set = row i matches (when exact), or may match (when a column was unavailable).
  SelectionBitmap selection;
  // The columns fetched from the source, in fetch order. Predicate columns not listed were
  // not needed for this row group.
  std::vector<uint32_t> fetched_columns;
  // False when some needed column was unavailable: the rows depending on it were selected
  // as possible matches, so the selection is a superset of the matching rows.
  bool exact = true;
};

class FilterEvaluator {
 public:
  // `level` picks the comparison kernels (tests and benchmarks); one this CPU lacks falls
  // back to kBest.
  explicit FilterEvaluator(const BoundPredicate& predicate, SimdLevel level = SimdLevel::kBest);

  const PlanNode& plan() const { return plan_; }

  // Evaluates the predicate over one row group of `rows` rows. `zone_maps` (optional) are the
  // group's. InvalidArgument when a fetched column has the wrong type or size; Corruption
  // for inconsistent dictionary data; a source's error is returned as is.
  Status Evaluate(size_t rows, ColumnSource* source, EvaluationResult* result,
                  const ZoneMapSet* zone_maps = nullptr) const;

 private:
  PlanNode plan_;
  SimdLevel level_;
};

}  // namespace columnar
