#include "filter/single_column_evaluator.h"

#include "filter/bitmap_combine.h"
#include "filter/dictionary_gather.h"
#include "filter/leaf_evaluator.h"

namespace columnar {

void EvaluateOnColumn(const BoundPredicate& predicate, const ColumnVector& column,
                      const SelectionBitmap& care, SimdLevel level, SelectionBitmap* out) {
  if (predicate.is_leaf()) return EvaluateLeaf(predicate, column, care, level, out);
  const auto eval_child = [&](const BoundPredicate& child, const SelectionBitmap& child_care,
                              SelectionBitmap* child_out) {
    EvaluateOnColumn(child, column, child_care, level, child_out);
    return Status::OK();
  };
  CombineChildren(predicate.kind == BoundPredicate::Kind::kAnd, predicate.children, care,
                  eval_child, out);
}

Status EvaluateOnDictionary(const BoundPredicate& predicate, const ColumnData& column, size_t rows,
                            SimdLevel level, SelectionBitmap* out) {
  const ColumnVector& dictionary = *column.dictionary;
  SelectionBitmap entries;
  EvaluateOnColumn(predicate, dictionary, SelectionBitmap(dictionary.size(), true), level,
                   &entries);
  return GatherDictionarySelection(entries, SingleColumnMatchesDatum(predicate, nullptr),
                                   column.codes, column.code_count, column.presence, rows, level,
                                   out);
}

}  // namespace columnar
