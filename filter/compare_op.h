// The six comparison operators of a filter predicate (column OP literal) and how each one
// reads a three-way comparison result.
#pragma once

#include <cstdint>

namespace columnar {

enum class CompareOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

inline constexpr CompareOp kAllCompareOps[] = {CompareOp::kEq, CompareOp::kNe, CompareOp::kLt,
                                               CompareOp::kLe, CompareOp::kGt, CompareOp::kGe};

// "=", "!=", "<", "<=", ">", ">=".
const char* CompareOpSymbol(CompareOp op);

// True when a value whose three-way comparison with the literal is `order` (<0, 0, >0)
// satisfies `value OP literal`.
inline bool OrderSatisfies(CompareOp op, int order) {
  switch (op) {
    case CompareOp::kEq:
      return order == 0;
    case CompareOp::kNe:
      return order != 0;
    case CompareOp::kLt:
      return order < 0;
    case CompareOp::kLe:
      return order <= 0;
    case CompareOp::kGt:
      return order > 0;
    case CompareOp::kGe:
      return order >= 0;
  }
  return false;
}

}  // namespace columnar
