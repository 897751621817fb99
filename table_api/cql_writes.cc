#include "table_api/cql_writes.h"

#include <variant>

#include "table_api/statement_binding.h"
#include "table_api/status_context.h"

namespace columnar {
namespace {

template <typename Statement>
bool NameOf(const CqlStatement& statement, std::string* keyspace, std::string* table) {
  const auto* named = std::get_if<Statement>(&statement.statement);
  if (named == nullptr) return false;
  *keyspace = named->keyspace;
  *table = named->table;
  return true;
}

Status RunDelete(Table* table, const TableSchema& schema, const DeleteStatement& remove) {
  DeleteTarget target;
  Status s = BindDelete(schema, remove, &target);
  if (!s.ok()) return WithContext("table " + table->name(), s);
  if (!target.columns.empty()) {
    return table->DeleteCells(target.partition_key, target.clustering_key, target.columns,
                              target.options);
  }
  return target.whole_partition
             ? table->DeletePartition(target.partition_key, target.options)
             : table->DeleteRow(target.partition_key, target.clustering_key, target.options);
}

}  // namespace

bool WriteStatementTable(const CqlStatement& statement, std::string* keyspace, std::string* table) {
  return NameOf<InsertStatement>(statement, keyspace, table) ||
         NameOf<UpdateStatement>(statement, keyspace, table) ||
         NameOf<DeleteStatement>(statement, keyspace, table);
}

Status ExecuteCqlWrite(Table* table, const CqlStatement& statement) {
  const std::shared_ptr<const TableSchema> schema = table->schema();
  if (const auto* remove = std::get_if<DeleteStatement>(&statement.statement)) {
    return RunDelete(table, *schema, *remove);
  }
  RowWrite write{Row()};
  Status s;
  if (const auto* insert = std::get_if<InsertStatement>(&statement.statement)) {
    s = BindInsert(*schema, *insert, &write);
  } else if (const auto* update = std::get_if<UpdateStatement>(&statement.statement)) {
    s = BindUpdate(*schema, *update, &write);
  } else {
    return Status::InvalidArgument("not an INSERT, UPDATE or DELETE");
  }
  if (!s.ok()) return WithContext("table " + table->name(), s);
  return table->ApplyBatch({write});
}

}  // namespace columnar
