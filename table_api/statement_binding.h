// Binds parsed CQL data statements (cql_statements.h) to a table's schema: literals become
// typed values, WHERE clauses become key restrictions, and the result is the arguments of a
// Table API call. Errors are InvalidArgument naming the column (and its position in the
// statement), or NotSupported for CQL this API does not run.
#pragma once

#include <vector>

#include "table_api/cql_statements.h"
#include "table_api/row_writer.h"
#include "table_api/select_query.h"
#include "table_format/schema.h"

namespace columnar {

// INSERT: the row (by column id) and its write options. Key columns left out are reported by
// the write itself (row_writer.h).
Status BindInsert(const TableSchema& schema, const InsertStatement& insert, Row* row,
                  RowWriteOptions* options);

// SELECT. The WHERE clause needs = (or IN on the last partition key column) on every partition
// key column; then = on leading clustering columns and at most one lower and one upper bound on
// the next one. Restrictions of regular columns (=, <, <=, >, >=, IN) need ALLOW FILTERING and
// become the query's filter (predicate pushdown). ORDER BY names leading clustering columns, all in
// the table's order (natural) or all reversed.
Status BindSelect(const TableSchema& schema, const SelectStatement& select, SelectQuery* query);

// DELETE: = on every partition key column, and = on every clustering column (a row) or on none
// (the whole partition).
struct DeleteTarget {
  std::vector<Value> partition_key;
  std::vector<Value> clustering_key;
  bool whole_partition = false;
};
Status BindDelete(const TableSchema& schema, const DeleteStatement& remove, DeleteTarget* target);

}  // namespace columnar
