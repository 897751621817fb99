// One predicate leaf evaluated over a plain column: fixed-width comparisons through the SIMD
// kernels (compare_kernels.h), IN lists as a few equality passes or a binary search, byte
// strings row by row with memcmp, and nulls masked with the presence bitmap (a comparison or
// IN never holds for a null cell; IS [NOT] NULL reads the bitmap alone).
#pragma once

#include "filter/bound_predicate.h"
#include "filter/compare_kernels.h"
#include "filter/selection_bitmap.h"
#include "table_format/column_vector.h"

namespace columnar {

// IN lists up to this size on fixed-width columns run one SIMD equality pass per value;
// longer ones a binary search per row.
inline constexpr size_t kMaxInListKernelPasses = 8;

// Sets *out (resized to column.size() rows) to the rows of `column` that satisfy `leaf`.
// `column` has the leaf's physical type. Only rows selected in `care` are guaranteed exact:
// the others may come out either way (byte-string rows outside it are not even compared).
void EvaluateLeaf(const BoundPredicate& leaf, const ColumnVector& column,
                  const SelectionBitmap& care, SimdLevel level, SelectionBitmap* out);

}  // namespace columnar
