#include "tools/shell_cql.h"

#include <utility>
#include <variant>
#include <vector>

#include "table_api/cql_statements.h"
#include "table_api/cql_writes.h"
#include "table_api/statement_binding.h"
#include "table_api/status_context.h"
#include "tools/shell_tokens.h"

namespace columnar {

namespace {

Status ParseStatement(const ShellInput& input, CqlStatement* statement) {
  std::vector<Token> tokens;
  Status s = TokenizeShellInput(input, &tokens);
  if (!s.ok()) return s;
  TokenCursor cursor(std::move(tokens));
  s = ParseCqlStatement(&cursor, statement);
  if (s.ok() && !cursor.AtEnd()) s = cursor.Error("unexpected text after the end of the statement");
  return s;
}

Status FindTable(Database* db, const std::string& keyspace, const std::string& name,
                 Table** table) {
  return db->GetTable(keyspace.empty() ? name : keyspace + "." + name, table);
}

std::string OneNodeNote(const KeyspaceDefinition& keyspace) {
  return "Note: keyspace " + keyspace.name +
         ": this database is one node, so its replication options are stored and shown by "
         "DESCRIBE but every table keeps a single copy of its rows (and every write goes to "
         "the write-ahead log, whatever durable_writes says).";
}

Status RunWrite(Database* db, const CqlStatement& statement) {
  std::string keyspace, name;
  WriteStatementTable(statement, &keyspace, &name);
  Table* table = nullptr;
  Status s = FindTable(db, keyspace, name, &table);
  return s.ok() ? ExecuteCqlWrite(table, statement) : s;
}

Status RunSelect(Database* db, const SelectStatement& select, CqlOutcome* outcome) {
  Table* table = nullptr;
  Status s = FindTable(db, select.keyspace, select.table, &table);
  if (!s.ok()) return s;
  outcome->is_select = true;
  outcome->table = table->name();
  outcome->table_format = table->table_factory()->Name();
  SelectQuery query;
  SelectOutput output;
  s = BindSelect(*table->schema(), select, &query, &output);
  if (!s.ok()) return WithContext("table " + table->name(), s);
  // Select's own errors name the table already.
  s = table->Select(query, &outcome->rows, &outcome->stats);
  if (s.ok()) ApplySelectOutput(output, &outcome->rows);
  return s;
}

}  // namespace

Status RunCqlStatement(CqlSession* session, Database* db, const ShellInput& input,
                       CqlOutcome* outcome) {
  *outcome = CqlOutcome();
  CqlStatement statement;
  Status s = ParseStatement(input, &statement);
  if (s.ok()) s = session->Qualify(&statement);
  if (!s.ok()) return s;
  std::string keyspace, name;
  if (WriteStatementTable(statement, &keyspace, &name)) return RunWrite(db, statement);
  if (const auto* select = std::get_if<SelectStatement>(&statement.statement)) {
    return RunSelect(db, *select, outcome);
  }
  // USE, and the schema statements: the session and the database apply the keyspace, the
  // default storage and the catalog rules.
  const auto* created = std::get_if<CreateKeyspaceStatement>(&statement.statement);
  const std::string note = created != nullptr ? OneNodeNote(created->keyspace) : "";
  s = session->Execute(std::move(statement), nullptr);
  if (s.ok()) outcome->note = note;
  return s;
}

}  // namespace columnar
