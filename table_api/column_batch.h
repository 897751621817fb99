// ColumnBatch: rows of a query result as typed column vectors, one per selected column (in
// SELECT order), each holding `row_count` values or nulls. Table::Scan hands results out this
// way: straight from ColumnarTable row groups on the columnar scan path, or gathered from rows
// read through RocksDB iterators. Column vectors use the physical type of the column's logical
// type (PhysicalTypeOfLogical); floats keep their exact bit patterns.
#pragma once

#include <string>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/value.h"

namespace columnar {

struct ColumnBatch {
  std::vector<std::string> column_names;
  std::vector<LogicalType> column_types;
  std::vector<ColumnVector> columns;
  size_t row_count = 0;

  // Empties the batch and gives it these columns (memory is kept).
  void Reset(const std::vector<std::string>& names, const std::vector<LogicalType>& types);
  // Empties the batch, keeping its columns.
  void Clear();
  // Appends one row (one value per column, null or of the column's type).
  void AppendRow(const Row& row);
  // Value `column` of row `row`, into *out.
  void GetValue(size_t column, size_t row, Value* out) const;
  // Row `row`, into *out (resized to the column count).
  void GetRow(size_t row, Row* out) const;
};

}  // namespace columnar
