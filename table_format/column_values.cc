#include "table_format/column_values.h"

#include <cstring>

namespace columnar {

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
