// A predicate that reads one column, evaluated over that column in either decoded form:
//   plain       leaf by leaf (leaf_evaluator.h), combined with AND / OR;
//   dictionary  the same over the dictionary entries (one evaluation per distinct value), then
//               mapped to rows through the codes (dictionary_gather.h).
#pragma once

#include "filter/bound_predicate.h"
#include "filter/column_source.h"
#include "filter/compare_kernels.h"
#include "filter/selection_bitmap.h"
#include "table_format/column_vector.h"

namespace columnar {

// Rows of `column` satisfying `predicate`, exact on the rows selected in `care` (which has
// column.size() rows).
void EvaluateOnColumn(const BoundPredicate& predicate, const ColumnVector& column,
                      const SelectionBitmap& care, SimdLevel level, SelectionBitmap* out);

// Rows (of `rows`) satisfying `predicate`, from a column in dictionary form. Corruption when
// the codes do not fit the dictionary or the presence bitmap.
Status EvaluateOnDictionary(const BoundPredicate& predicate, const ColumnData& column, size_t rows,
                            SimdLevel level, SelectionBitmap* out);

}  // namespace columnar
