#include "table_format/column_values.h"

#include <cstring>

namespace columnar {

uint64_t FixedBitsAt(const ColumnVector& column, size_t row) {
  const size_t width = FixedWidth(column.type());
  if (width == 4) {
    uint32_t narrow;
    std::memcpy(&narrow, column.fixed_bytes() + row * 4, 4);
    return narrow;
  }
  uint64_t wide;
  std::memcpy(&wide, column.fixed_bytes() + row * 8, 8);
  return wide;
}

void AppendFixedBits(uint64_t bits, ColumnVector* column) {
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

void AppendValue(const Value& value, ColumnVector* column) {
  if (value.is_null()) {
    column->AppendNull();
  } else if (column->type() == PhysicalType::kBytes) {
    column->AppendBytes(value.bytes());
  } else {
    AppendFixedBits(value.FixedBits(), column);
  }
}

void AssignValueAt(const ColumnVector& column, size_t row, LogicalType type, Value* out) {
  if (column.IsNull(row)) {
    out->AssignNull();
  } else if (column.type() == PhysicalType::kBytes) {
    out->AssignBytes(type, column.GetBytes(row));
  } else {
    out->AssignFixedBits(type, FixedBitsAt(column, row));
  }
}

}  // namespace columnar
