// Runs one CQL statement of the shell (every statement Database::Execute supports,
// cql_statements.h). The statement is parsed here, with its tokens positioned in the shell's
// source, so errors name the line and column of the script; a SELECT also reports what
// predicate pushdown did (Database::Execute returns rows only).
#pragma once

#include <string>

#include "table_api/cql_session.h"
#include "table_api/database.h"
#include "tools/shell_input_splitter.h"

namespace columnar {

struct CqlOutcome {
  // A line to print after a statement that succeeded but does less than it says (CREATE
  // KEYSPACE on one node).
  std::string note;
  bool is_select = false;
  // SELECT only: the rows, the table read, its table format and the pushdown counters.
  ResultSet rows;
  std::string table;
  std::string table_format;
  SelectStats stats;
};

// Parses and runs `input` (a kCql piece) in `session` (its current keyspace qualifies the
// table names; USE changes it). CREATE TABLE takes the storage of the database's
// DatabaseOptions::default_storage unless its sstable_format option says otherwise.
Status RunCqlStatement(CqlSession* session, Database* db, const ShellInput& input,
                       CqlOutcome* outcome);

}  // namespace columnar
