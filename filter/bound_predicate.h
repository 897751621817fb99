// BoundPredicate: a Predicate checked against a TableSchema (binder.h). Every leaf knows its
// column's id and types, and carries its literal twice: as a Value of the column's logical
// type (for the row evaluator, row_matcher.h) and as a Datum in the column's physical
// representation (for the vectorised evaluator and zone maps). IN lists are sorted and
// free of duplicates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "filter/compare_op.h"
#include "filter/datum.h"
#include "filter/predicate.h"
#include "table_format/types.h"
#include "table_format/value.h"

namespace columnar {

struct BoundPredicate {
  using Kind = Predicate::Kind;

  Kind kind = Kind::kAnd;

  // Leaves.
  uint32_t column_id = 0;
  std::string column_name;
  LogicalType column_type = LogicalType::kInt;
  PhysicalType physical_type = PhysicalType::kInt32;
  CompareOp op = CompareOp::kEq;  // kComparison
  Value literal;                  // kComparison, of column_type
  Datum constant;                 // kComparison, physical form of literal
  std::vector<Value> in_values;   // kIn, ascending, distinct, of column_type
  std::vector<Datum> in_datums;   // kIn, physical forms of in_values (same order)

  // kAnd, kOr.
  std::vector<BoundPredicate> children;

  bool is_leaf() const { return kind != Kind::kAnd && kind != Kind::kOr; }
  // The distinct column ids the predicate reads, ascending.
  std::vector<uint32_t> ReferencedColumns() const;
  std::string ToString() const;
};

// Whether a leaf holds for one cell: `value` is the cell's physical value, or nullptr when the
// cell is null.
bool LeafMatchesDatum(const BoundPredicate& leaf, const Datum* value);

// Whether a predicate that reads at most one column holds for a row whose cell in that column
// is `value` (nullptr = null).
bool SingleColumnMatchesDatum(const BoundPredicate& predicate, const Datum* value);

}  // namespace columnar
