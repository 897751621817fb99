#include "table_api/cql_session.h"

#include <utility>
#include <variant>

namespace columnar {
namespace {

template <typename Statement>
void QualifyTableName(const std::string& keyspace, CqlStatement* statement) {
  auto* named = std::get_if<Statement>(&statement->statement);
  if (named != nullptr && named->keyspace.empty()) named->keyspace = keyspace;
}

void QualifyBatch(const std::string& keyspace, CqlStatement* statement) {
  auto* batch = std::get_if<BatchStatement>(&statement->statement);
  if (batch == nullptr) return;
  for (BatchedStatement& batched : batch->statements) {
    std::visit(
        [&](auto& named) {
          if (named.keyspace.empty()) named.keyspace = keyspace;
        },
        batched);
  }
}

// The CREATE TABLE schema (version 1, every column live) rebuilt in `keyspace`.
Status SchemaInKeyspace(const TableSchema& schema, const std::string& keyspace,
                        TableSchema* qualified) {
  TableSchemaBuilder builder(keyspace, schema.table());
  for (const ColumnDef& column : schema.columns()) builder.AddColumn(column.name, column.type);
  std::vector<std::string> partition;
  for (size_t i = 0; i < schema.partition_key().size(); i++) {
    partition.push_back(schema.partition_column(i).name);
  }
  builder.SetPartitionKey(std::move(partition));
  for (size_t i = 0; i < schema.clustering_key().size(); i++) {
    builder.AddClusteringColumn(schema.clustering_column(i).name,
                                schema.clustering_column(i).order);
  }
  builder.SetOptions(schema.options());
  return builder.Build(qualified);
}

}  // namespace

Status CqlSession::Execute(const std::string& cql, ResultSet* result) {
  CqlStatement statement;
  Status s = ParseCqlStatement(cql, &statement);
  if (!s.ok()) {
    if (result != nullptr) result->Clear();
    return s;
  }
  return Execute(std::move(statement), result);
}

Status CqlSession::Execute(CqlStatement statement, ResultSet* result) {
  if (const auto* use = std::get_if<UseStatement>(&statement.statement)) {
    if (result != nullptr) result->Clear();
    return Use(use->keyspace);
  }
  Status s = Qualify(&statement);
  return s.ok() ? db_->Execute(statement, result) : s;
}

Status CqlSession::Use(const std::string& keyspace) {
  if (!db_->HasKeyspace(keyspace)) return Status::NotFound("unknown keyspace " + keyspace);
  keyspace_ = keyspace;
  return Status::OK();
}

Status CqlSession::Qualify(CqlStatement* statement) const {
  if (keyspace_.empty()) return Status::OK();
  QualifyTableName<InsertStatement>(keyspace_, statement);
  QualifyTableName<SelectStatement>(keyspace_, statement);
  QualifyTableName<DeleteStatement>(keyspace_, statement);
  QualifyTableName<UpdateStatement>(keyspace_, statement);
  QualifyBatch(keyspace_, statement);
  QualifyTableName<AlterTableStatement>(keyspace_, statement);
  QualifyTableName<DropTableStatement>(keyspace_, statement);
  QualifyTableName<TruncateStatement>(keyspace_, statement);
  auto* create = std::get_if<CreateTableStatement>(&statement->statement);
  if (create == nullptr || !create->schema.keyspace().empty()) return Status::OK();
  TableSchema qualified;
  Status s = SchemaInKeyspace(create->schema, keyspace_, &qualified);
  if (s.ok()) create->schema = std::move(qualified);
  return s;
}

Status CqlSession::GetTable(const std::string& name, Table** table) const {
  const bool qualified = name.find('.') != std::string::npos;
  return db_->GetTable(qualified || keyspace_.empty() ? name : keyspace_ + "." + name, table);
}

}  // namespace columnar
