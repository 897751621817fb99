// ResultSet: the rows a SELECT returns, with the names and types of their columns, and a
// deterministic byte form of rows for hashing (the benchmark's correctness gate compares the
// hash of every query's rows across table formats).
#pragma once

#include <string>
#include <vector>

#include "table_format/value.h"

namespace columnar {

struct ResultSet {
  // One entry per selected column, in SELECT order: the column name, or the selector as
  // written ("writetime(value)", "ttl(value)").
  std::vector<std::string> column_names;
  std::vector<LogicalType> column_types;
  // Each row has one value per column (null when unset).
  std::vector<Row> rows;

  // Empties the result; the rows' memory is kept for AppendRow.
  void Clear();
  // A new last row (its values are overwritten by the caller), reusing a cleared row's memory.
  Row* AppendRow();

 private:
  std::vector<Row> spare_rows_;
};

// Appends a self-delimiting encoding of `row`: per value one tag byte (0 = null, else
// 1 + LogicalType), then fixed-width values as 8 little-endian bytes of Value::FixedBits() and
// byte strings as a 4-byte little-endian length and the bytes. Equal rows (operator== on every
// value, so float bit patterns count) give equal bytes and different rows different bytes.
void AppendSerializedRow(const Row& row, std::string* out);

// The serialized rows of `result`, in order, preceded by the row count (8 bytes LE): what the
// benchmark hashes. Column names are not included.
std::string SerializeRows(const ResultSet& result);

// A readable rendering for logs and test failures: the column names, then one line per row
// with the values as CQL literals, separated by " | ".
std::string ResultSetToString(const ResultSet& result);

}  // namespace columnar
