// Moving single values between ColumnVectors and Values: what the typed layout and the
// columnar scan path need when a column meets row-at-a-time code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "table_format/column_vector.h"
#include "table_format/value.h"

namespace columnar {

// Value `row` of a fixed-width column as a bit pattern, zero-extended (the row codec's
// RowCell::fixed_bits convention).
uint64_t FixedBitsAt(const ColumnVector& column, size_t row);

// Appends `bits` (zero-extended, as above) to a fixed-width column.
void AppendFixedBits(uint64_t bits, ColumnVector* column);

// Appends `value` (null or of a logical type whose physical type is the column's).
void AppendValue(const Value& value, ColumnVector* column);

// Value `row` of `column` as a Value of logical type `type` (null when the row is null), into
// *out, reusing its buffer.
void AssignValueAt(const ColumnVector& column, size_t row, LogicalType type, Value* out);

}  // namespace columnar
