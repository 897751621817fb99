#include "filter/row_matcher.h"

namespace columnar {

namespace {

const Value& CellOf(const Row& row, uint32_t column_id) {
  static const Value kNull;
  return column_id < row.size() ? row[column_id] : kNull;
}

bool LeafMatches(const BoundPredicate& leaf, const Value& cell) {
  switch (leaf.kind) {
    case BoundPredicate::Kind::kIsNull:
      return cell.is_null();
    case BoundPredicate::Kind::kIsNotNull:
      return !cell.is_null();
    case BoundPredicate::Kind::kComparison:
      return !cell.is_null() && OrderSatisfies(leaf.op, CompareValues(cell, leaf.literal));
    case BoundPredicate::Kind::kIn:
      if (cell.is_null()) return false;
      for (const Value& v : leaf.in_values) {
        if (CompareValues(cell, v) == 0) return true;
      }
      return false;
    case BoundPredicate::Kind::kAnd:
    case BoundPredicate::Kind::kOr:
      break;
  }
  return false;
}

}  // namespace

bool Matches(const BoundPredicate& predicate, const Row& row) {
  if (predicate.is_leaf()) return LeafMatches(predicate, CellOf(row, predicate.column_id));
  const bool is_and = predicate.kind == BoundPredicate::Kind::kAnd;
  for (const BoundPredicate& child : predicate.children) {
    if (Matches(child, row) != is_and) return !is_and;
  }
  return is_and;
}

}  // namespace columnar
