// Predicate: a filter over a table's columns as the user wrote it, by column name, before it
// is checked against a schema (binder.h). Leaves are
//   column OP literal       OP one of = != < <= > >=
//   column IN (literals)
//   column IS NULL / column IS NOT NULL
// and inner nodes combine children with AND or OR (an empty AND is true, an empty OR false).
//
// Semantics are CQL's ALLOW FILTERING: a comparison or IN with a null cell is false (even
// for !=); IS [NOT] NULL tests presence; values are ordered by CompareValues (value.h).
#pragma once

#include <string>
#include <vector>

#include "filter/compare_op.h"
#include "table_format/value.h"

namespace columnar {

struct Predicate {
  enum class Kind : uint8_t { kComparison, kIn, kIsNull, kIsNotNull, kAnd, kOr };

  Kind kind = Kind::kAnd;
  std::string column;               // leaves
  CompareOp op = CompareOp::kEq;    // kComparison
  Value literal;                    // kComparison
  std::vector<Value> in_list;       // kIn
  std::vector<Predicate> children;  // kAnd, kOr

  static Predicate Compare(std::string column, CompareOp op, Value literal);
  static Predicate In(std::string column, std::vector<Value> values);
  static Predicate IsNull(std::string column);
  static Predicate IsNotNull(std::string column);
  static Predicate And(std::vector<Predicate> children);
  static Predicate Or(std::vector<Predicate> children);

  bool is_leaf() const { return kind != Kind::kAnd && kind != Kind::kOr; }

  // CQL-like text: status >= 500 AND (method = 'GET' OR user_id IS NULL).
  std::string ToString() const;
};

}  // namespace columnar
