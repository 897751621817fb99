// Runs the CQL write statements (INSERT, UPDATE, DELETE) on a table: binds them to its schema
// (statement_binding.h) and makes the Table API call, with Cassandra's cell semantics
// (table.h). Shared by Database::Execute and the shell.
#pragma once

#include <string>

#include "table_api/cql_statements.h"
#include "table_api/table.h"

namespace columnar {

// The table an INSERT, UPDATE or DELETE names; false for other statements.
bool WriteStatementTable(const CqlStatement& statement, std::string* keyspace, std::string* table);

// Runs an INSERT, UPDATE or DELETE on `table`. Errors name the table; a refused statement
// writes nothing. InvalidArgument for any other statement.
Status ExecuteCqlWrite(Table* table, const CqlStatement& statement);

}  // namespace columnar
