// Binds parsed CQL data statements (cql_statements.h) to a table's schema: literals become
// typed values, WHERE clauses become key restrictions, and the result is the arguments of a
// Table API call. Errors are InvalidArgument naming the column (and its position in the
// statement), or NotSupported for CQL this API does not run.
#pragma once

#include <vector>

#include "table_api/cql_statements.h"
#include "table_api/result_set.h"
#include "table_api/row_writer.h"
#include "table_api/select_query.h"
#include "table_format/schema.h"

namespace columnar {

// INSERT: the row (by column id) and its write options. Key columns left out are reported by
// the write itself (row_writer.h).
Status BindInsert(const TableSchema& schema, const InsertStatement& insert, Row* row,
                  RowWriteOptions* options);
// INSERT as a write of the cells it names (Cassandra's semantics: other cells keep theirs).
Status BindInsert(const TableSchema& schema, const InsertStatement& insert, RowWrite* write);
// UPDATE: = on every primary key column (one row), SET on regular columns; a write of the
// named cells without row liveness.
Status BindUpdate(const TableSchema& schema, const UpdateStatement& update, RowWrite* write);

// SELECT. The WHERE clause needs = or IN on every partition
// key column; then = on leading clustering columns and at most one lower and one upper bound,
// or one IN list, on the next one. Restrictions of regular columns (=, <, <=, >, >=, IN) need ALLOW
// FILTERING and become the query's filter (predicate pushdown). ORDER BY names leading clustering
// columns, all in the table's order (natural) or all reversed.
//
// Aggregates (count, min, max, sum, avg) make it an aggregate query (select_query.h): GROUP BY
// names primary key columns in key order, leaving out those restricted by =, and may end with
// floor(first clustering column, width), a time bucket; the other selectors must be GROUP BY
// columns (floor()ed ones as that floor()). Without a WHERE clause every partition is read,
// as with ALLOW FILTERING.
//
// The Table API returns group columns first, then aggregates, under its own names: *output
// (may be null) says which of them each selector shows and under which name (its alias);
// ApplySelectOutput turns the Table API's result into the SELECT's.
//
// PER PARTITION LIMIT n becomes SelectQuery::per_partition_limit (not with aggregates).
// DISTINCT selects partition key columns only, all of them, with relations on partition key
// columns only; it reads each partition's first row (per_partition_limit 1). JSON turns the
// result into one text column "[json]" holding each row as a JSON object (json_text.h).
struct SelectOutput {
  std::vector<size_t> source_columns;  // per selector; empty for SELECT *
  std::vector<std::string> names;      // per selector; empty: the Table API's name
  bool json = false;
};
Status BindSelect(const TableSchema& schema, const SelectStatement& select, SelectQuery* query,
                  SelectOutput* output = nullptr);
void ApplySelectOutput(const SelectOutput& output, ResultSet* result);

// DELETE: = on every partition key column, and = on every clustering column (a row) or on none
// (the whole partition). DELETE c1, c2 FROM needs the row's whole key (cell deletions).
struct DeleteTarget {
  std::vector<Value> partition_key;
  std::vector<Value> clustering_key;
  bool whole_partition = false;
  std::vector<std::string> columns;  // the cells to delete; empty: the row or partition
  RowWriteOptions options;           // USING TIMESTAMP
};
Status BindDelete(const TableSchema& schema, const DeleteStatement& remove, DeleteTarget* target);

}  // namespace columnar
