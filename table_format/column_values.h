// Moving single values between ColumnVectors and Values: what the typed layout and the
// columnar scan path need when a column meets row-at-a-time code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "table_format/column_vector.h"
#include "table_format/value.h"

namespace columnar {

// Value `row` of a fixed-width column as a bit pattern, zero-extended (the row codec's
// RowCell::fixed_bits convention). Inline, as the next one: both run once per cell.
inline uint64_t FixedBitsAt(const ColumnVector& column, size_t row) {
  if (FixedWidth(column.type()) == 4) {
    uint32_t narrow;
    std::memcpy(&narrow, column.fixed_bytes() + row * 4, 4);
    return narrow;
  }
  uint64_t wide;
  std::memcpy(&wide, column.fixed_bytes() + row * 8, 8);
  return wide;
}

// Appends `bits` (zero-extended, as above) to a fixed-width column.
inline void AppendFixedBits(uint64_t bits, ColumnVector* column) {
  switch (column->type()) {
    case PhysicalType::kInt32:
      column->Append<int32_t>(static_cast<int32_t>(static_cast<uint32_t>(bits)));
      break;
    case PhysicalType::kInt64:
      column->Append<int64_t>(static_cast<int64_t>(bits));
      break;
    case PhysicalType::kFloat32: {
      const auto narrow = static_cast<uint32_t>(bits);
      float f;
      std::memcpy(&f, &narrow, sizeof(f));
      column->Append<float>(f);
      break;
    }
    case PhysicalType::kFloat64: {
      double d;
      std::memcpy(&d, &bits, sizeof(d));
      column->Append<double>(d);
      break;
    }
    case PhysicalType::kBytes:
      break;
  }
}

// Appends `value` (null or of a logical type whose physical type is the column's).
void AppendValue(const Value& value, ColumnVector* column);

// Value `row` of `column` as a Value of logical type `type` (null when the row is null), into
// *out, reusing its buffer.
void AssignValueAt(const ColumnVector& column, size_t row, LogicalType type, Value* out);

}  // namespace columnar
