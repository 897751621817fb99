#include "table_api/cql_writes.h"

#include <optional>
#include <variant>

#include "table_api/statement_binding.h"
#include "table_api/status_context.h"

namespace columnar {
namespace {

// The table `statements` (a CqlStatement's or a BatchedStatement's variant) names, when it
// holds a Statement.
template <typename Statement, typename Variant>
bool NameOf(const Variant& statements, std::string* keyspace, std::string* table) {
  const auto* named = std::get_if<Statement>(&statements);
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

// A DELETE of a row or of cells as the RowWrite of a batch.
Status DeleteWrite(const TableSchema& schema, const DeleteStatement& remove, RowWrite* write) {
  DeleteTarget target;
  Status s = BindDelete(schema, remove, &target);
  if (!s.ok()) return s;
  if (target.whole_partition) {
    return Status::NotSupported(
        "a partition DELETE in a BATCH is not supported (it deletes a range of rows, not one "
        "row): run it on its own");
  }
  s = KeyRow(schema, target.partition_key, target.clustering_key, &write->values);
  if (!s.ok()) return s;
  write->options = target.options;
  write->kind = target.columns.empty() ? WriteKind::kDeleteRow : WriteKind::kDeleteCells;
  write->named.assign(schema.columns().size(), false);
  for (const std::string& name : target.columns) write->named[schema.FindColumn(name)->id] = true;
  return Status::OK();
}

// One statement of a batch as a RowWrite, with the batch's timestamp when it has one.
Status BatchedWrite(const TableSchema& schema, const BatchedStatement& statement,
                    const std::optional<int64_t>& batch_timestamp, RowWrite* write) {
  Status s;
  const std::optional<int64_t>* timestamp = nullptr;
  if (const auto* insert = std::get_if<InsertStatement>(&statement)) {
    s = BindInsert(schema, *insert, write);
    timestamp = &insert->timestamp_micros;
  } else if (const auto* update = std::get_if<UpdateStatement>(&statement)) {
    s = BindUpdate(schema, *update, write);
    timestamp = &update->timestamp_micros;
  } else {
    const auto& remove = std::get<DeleteStatement>(statement);
    s = DeleteWrite(schema, remove, write);
    timestamp = &remove.timestamp_micros;
  }
  if (!s.ok() || !batch_timestamp.has_value()) return s;
  if (timestamp->has_value()) {
    // Cassandra's rule: one or the other, so that a batch's writes never disagree by accident.
    return Status::InvalidArgument(
        "a timestamp is given on both the BATCH and one of its statements: give it on one");
  }
  write->options.write_time_micros = batch_timestamp;
  return Status::OK();
}

void BatchedTable(const BatchedStatement& statement, std::string* keyspace, std::string* table) {
  NameOf<InsertStatement>(statement, keyspace, table) ||
      NameOf<UpdateStatement>(statement, keyspace, table) ||
      NameOf<DeleteStatement>(statement, keyspace, table);
}

// Every statement of `batch` as one WriteBatch of `table` (ApplyBatch): all or nothing.
Status RunBatch(Table* table, const TableSchema& schema, const BatchStatement& batch) {
  std::vector<RowWrite> writes;
  writes.reserve(batch.statements.size());
  for (size_t i = 0; i < batch.statements.size(); i++) {
    std::string keyspace, name;
    BatchedTable(batch.statements[i], &keyspace, &name);
    if (name != schema.table() || (!keyspace.empty() && keyspace != schema.keyspace())) {
      return CqlNotSupportedAt(batch.statement_tokens[i],
                               "a BATCH writes one table here (applied as one atomic write of "
                               "that table); this statement writes another");
    }
    writes.emplace_back(Row());
    Status s = BatchedWrite(schema, batch.statements[i], batch.timestamp_micros, &writes.back());
    if (!s.ok()) {
      const Token& token = batch.statement_tokens[i];
      return WithContext("table " + table->name() + ", statement " + std::to_string(i + 1) +
                             " of the BATCH (line " + std::to_string(token.line) + ", column " +
                             std::to_string(token.column) + ")",
                         s);
    }
  }
  return table->ApplyBatch(writes);
}

}  // namespace

bool WriteStatementTable(const CqlStatement& statement, std::string* keyspace, std::string* table) {
  if (const auto* batch = std::get_if<BatchStatement>(&statement.statement)) {
    // The batch's table is its first statement's (RunBatch refuses others).
    if (batch->statements.empty()) return false;
    BatchedTable(batch->statements[0], keyspace, table);
    return true;
  }
  return NameOf<InsertStatement>(statement.statement, keyspace, table) ||
         NameOf<UpdateStatement>(statement.statement, keyspace, table) ||
         NameOf<DeleteStatement>(statement.statement, keyspace, table);
}

Status ExecuteCqlWrite(Table* table, const CqlStatement& statement) {
  const std::shared_ptr<const TableSchema> schema = table->schema();
  if (const auto* remove = std::get_if<DeleteStatement>(&statement.statement)) {
    return RunDelete(table, *schema, *remove);
  }
  if (const auto* batch = std::get_if<BatchStatement>(&statement.statement)) {
    return RunBatch(table, *schema, *batch);
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
