#include "table_api/column_batch.h"

#include "table_format/column_values.h"

namespace columnar {

void ColumnBatch::Reset(const std::vector<std::string>& names,
                        const std::vector<LogicalType>& types) {
  column_names = names;
  column_types = types;
  columns.resize(types.size());
  for (size_t i = 0; i < types.size(); i++) columns[i].Reset(PhysicalTypeOfLogical(types[i]));
  row_count = 0;
}

void ColumnBatch::Clear() {
  for (ColumnVector& column : columns) column.Clear();
  row_count = 0;
}

void ColumnBatch::AppendRow(const Row& row) {
  for (size_t i = 0; i < columns.size(); i++) AppendValue(row[i], &columns[i]);
  row_count++;
}

void ColumnBatch::GetValue(size_t column, size_t row, Value* out) const {
  AssignValueAt(columns[column], row, column_types[column], out);
}

void ColumnBatch::GetRow(size_t row, Row* out) const {
  out->resize(columns.size());
  for (size_t i = 0; i < columns.size(); i++) GetValue(i, row, &(*out)[i]);
}

}  // namespace columnar
