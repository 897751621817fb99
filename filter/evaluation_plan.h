// EvaluationPlan: a bound predicate rearranged for evaluating row groups, built once per query.
//
//   - nested ANDs (ORs) are flattened into their parent AND (OR);
//   - siblings reading the same column are gathered into one single-column node, so the
//     column is fetched once and, when dictionary-encoded, the whole group is evaluated once
//     per dictionary entry;
//   - children are ordered so that cheap, decisive ones run first: under AND by
//     cost / (1 - selectivity), under OR by cost / selectivity, from fixed per-operator
//     estimates (an equality is more selective than a range, a byte-string compare costs more
//     than a fixed-width one).
// The rearranged predicate is equivalent to the original for every row.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "filter/bound_predicate.h"

namespace columnar {

struct PlanNode {
  // A subtree that reads exactly one column: `predicate`, on column `column_id`.
  bool single_column = false;
  uint32_t column_id = 0;
  BoundPredicate predicate;

  // Otherwise an AND (is_and) or OR of `children`, in evaluation order. No children: an AND
  // is true, an OR false.
  bool is_and = true;
  std::vector<PlanNode> children;

  // Estimates: relative work per row and fraction of rows that match.
  double cost = 0;
  double selectivity = 1;

  std::string ToString() const;
};

PlanNode PlanEvaluation(const BoundPredicate& predicate);

}  // namespace columnar
