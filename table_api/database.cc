#include "table_api/database.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <set>

#include "plugin/columnar_table.h"
#include "table_api/cql_statements.h"
#include "table_api/cql_writes.h"
#include "table_api/keyspace_catalog.h"
#include "table_api/statement_binding.h"
#include "table_api/status_context.h"
#include "table_api/table_catalog.h"

namespace columnar {
namespace {

int64_t SystemNowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string QualifiedName(const std::string& keyspace, const std::string& table) {
  return keyspace.empty() ? table : keyspace + "." + table;
}

// Column families of the database at `path`: none (a new database) when it cannot list them.
std::vector<std::string> ExistingColumnFamilies(const rocksdb::DBOptions& options,
                                                const std::string& path) {
  std::vector<std::string> names;
  if (!rocksdb::DB::ListColumnFamilies(options, path, &names).ok()) names.clear();
  return names;
}

using MaintenanceByTable = std::map<std::string, std::shared_ptr<TableMaintenance>>;

// One descriptor per column family to open: the existing ones, the catalog's tables (a table
// whose creation stopped after its catalog entry gets its column family now) and the catalog.
Status BuildDescriptors(const DatabaseOptions& options, std::vector<std::string> names,
                        const std::vector<CatalogEntry>& entries,
                        std::vector<rocksdb::ColumnFamilyDescriptor>* descriptors,
                        MaintenanceByTable* maintenance) {
  std::map<std::string, const CatalogEntry*> tables;
  for (const CatalogEntry& entry : entries) {
    tables[entry.schema.QualifiedName()] = &entry;
    names.push_back(entry.schema.QualifiedName());
  }
  names.push_back(rocksdb::kDefaultColumnFamilyName);
  names.push_back(kCatalogColumnFamilyName);
  std::set<std::string> seen;
  for (const std::string& name : names) {
    if (!seen.insert(name).second) continue;
    rocksdb::ColumnFamilyOptions cf_options = options.column_family_options;
    const auto table = tables.find(name);
    if (name == kCatalogColumnFamilyName || name == kKeyspaceColumnFamilyName) {
      cf_options = rocksdb::ColumnFamilyOptions();
    } else if (table != tables.end()) {
      Status s =
          RestoreTableColumnFamilyOptions(options.column_family_options, table->second->settings,
                                          table->second->schema, &cf_options);
      if (!s.ok()) return WithContext("restoring the storage settings of table " + name, s);
      auto table_maintenance =
          std::make_shared<TableMaintenance>(table->second->schema, options.now_micros);
      table_maintenance->Install(&cf_options);
      (*maintenance)[name] = std::move(table_maintenance);
      if (options.configure_column_family) {
        options.configure_column_family(table->second->schema, &cf_options);
      }
    }
    descriptors->emplace_back(name, cf_options);
  }
  return Status::OK();
}

// The write options of a table's writes. A write to a column family that DROP TABLE dropped
// (through a Table* kept by a caller, or racing with the drop) is ignored: RocksDB would
// otherwise fail it after its WAL write and stop every later write of the database.
rocksdb::WriteOptions TableWriteOptions(rocksdb::WriteOptions options) {
  options.ignore_missing_column_families = true;
  return options;
}

// Deletes every key of the column family with one range deletion, [first key, last key + \0),
// then compacts it so the space is freed now.
Status TruncateColumnFamily(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                            const rocksdb::WriteOptions& write_options) {
  std::string end;
  {
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), column_family));
    it->SeekToLast();
    if (!it->status().ok()) return it->status();
    if (!it->Valid()) return Status::OK();  // empty already
    end = it->key().ToString() + '\0';
  }
  Status s = db->DeleteRange(TableWriteOptions(write_options), column_family, "", end);
  if (s.ok()) s = db->Flush(rocksdb::FlushOptions(), column_family);
  if (s.ok()) {
    rocksdb::CompactRangeOptions compact;
    compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    s = db->CompactRange(compact, column_family, nullptr, nullptr);
  }
  return s;
}

// The table a data statement of type `Statement` names, when `statement` is one.
template <typename Statement>
bool TableNameOf(const CqlStatement& statement, std::string* keyspace, std::string* table) {
  const auto* parsed = std::get_if<Statement>(&statement.statement);
  if (parsed == nullptr) return false;
  *keyspace = parsed->keyspace;
  *table = parsed->table;
  return true;
}

}  // namespace

DatabaseOptions::DatabaseOptions() : now_micros(SystemNowMicros) {
  db_options.create_if_missing = true;
  db_options.max_total_wal_size = kDefaultMaxTotalWalSize;
}

Database::Database(const DatabaseOptions& options, std::unique_ptr<rocksdb::DB> db,
                   std::vector<rocksdb::ColumnFamilyHandle*> handles)
    : options_(options), db_(std::move(db)), handles_(std::move(handles)) {
  for (rocksdb::ColumnFamilyHandle* handle : handles_) {
    if (handle->GetName() == kCatalogColumnFamilyName) {
      catalog_ = std::make_unique<TableCatalog>(db_.get(), handle);
    } else if (handle->GetName() == kKeyspaceColumnFamilyName) {
      keyspace_catalog_ = std::make_unique<KeyspaceCatalog>(db_.get(), handle);
    }
  }
}

Database::~Database() {
  // The default column family holds the tables' write high-water bounds (write_order.h), a few
  // bytes taken about once a second under ingestion. Left in its memtable, the oldest of them
  // keeps its write-ahead log alive, and every log after it, for the next Open to replay: up to
  // max_total_wal_size, read twice (the catalog's read-only pass, then the open). Flushed, the
  // logs the tables' own flushes made obsolete go.
  rocksdb::FlushOptions flush;
  flush.allow_write_stall = true;
  db_->Flush(flush, db_->DefaultColumnFamily()).PermitUncheckedError();
  tables_.clear();
  dropped_tables_.clear();
  for (rocksdb::ColumnFamilyHandle* handle : handles_) db_->DestroyColumnFamilyHandle(handle);
  for (rocksdb::ColumnFamilyHandle* handle : dropped_handles_) {
    db_->DestroyColumnFamilyHandle(handle);
  }
  db_->Close().PermitUncheckedError();  // nothing to report it to; the WAL keeps every write
}

Status Database::Open(const DatabaseOptions& options, const std::string& path,
                      std::unique_ptr<Database>* database) {
  database->reset();
  // Tables reopen with their factories found by name (OPTIONS, catalog): register them here so
  // that linking the static plugin library needs no --whole-archive.
  RegisterColumnarTableFactories();
  if (!options.now_micros) return Status::InvalidArgument("DatabaseOptions::now_micros is empty");
  const std::vector<std::string> existing = ExistingColumnFamilies(options.db_options, path);
  std::vector<CatalogEntry> entries;
  Status s = ReadCatalogOfClosedDatabase(options.db_options, path, existing, &entries);
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  MaintenanceByTable maintenance;
  if (s.ok()) s = BuildDescriptors(options, existing, entries, &descriptors, &maintenance);
  if (!s.ok()) return s;

  rocksdb::DBOptions db_options = options.db_options;
  db_options.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  s = rocksdb::DB::Open(db_options, path, descriptors, &handles, &raw);
  if (!s.ok()) return s;
  std::unique_ptr<Database> opened(
      new Database(options, std::unique_ptr<rocksdb::DB>(raw), std::move(handles)));
  std::map<std::string, TableSchema> schemas;
  for (CatalogEntry& entry : entries) {
    schemas[entry.schema.QualifiedName()] = std::move(entry.schema);
  }
  opened->OpenTables(descriptors, schemas, maintenance);
  s = opened->LoadKeyspaces();
  if (!s.ok()) return s;
  *database = std::move(opened);
  return Status::OK();
}

Status Database::LoadKeyspaces() {
  if (keyspace_catalog_ == nullptr) return Status::OK();
  std::vector<KeyspaceDefinition> keyspaces;
  Status s = keyspace_catalog_->ReadAll(&keyspaces);
  for (KeyspaceDefinition& keyspace : keyspaces) {
    const std::string name = keyspace.name;
    keyspaces_[name] = std::move(keyspace);
  }
  return s;
}

void Database::OpenTables(
    const std::vector<rocksdb::ColumnFamilyDescriptor>& descriptors,
    const std::map<std::string, TableSchema>& schemas,
    const std::map<std::string, std::shared_ptr<TableMaintenance>>& maintenance) {
  for (size_t i = 0; i < descriptors.size(); i++) {
    const auto schema = schemas.find(descriptors[i].name);
    if (schema == schemas.end()) continue;  // default, catalog, or not a table of this API
    tables_[schema->first] =
        std::make_unique<Table>(NewTableContext(handles_[i], descriptors[i].options.table_factory,
                                                maintenance.at(schema->first)),
                                schema->second);
  }
}

Table::Context Database::NewTableContext(rocksdb::ColumnFamilyHandle* handle,
                                         std::shared_ptr<rocksdb::TableFactory> factory,
                                         std::shared_ptr<TableMaintenance> maintenance) const {
  Table::Context context;
  context.maintenance = std::move(maintenance);
  context.db = db_.get();
  context.column_family = handle;
  context.table_factory = std::move(factory);
  context.now_micros = options_.now_micros;
  context.write_options = TableWriteOptions(options_.write_options);
  context.columnar_scan = options_.columnar_scan;
  context.write_order = std::make_shared<WriteOrder>(db_.get(), db_->DefaultColumnFamily(),
                                                     handle->GetName(), options_.now_micros);
  // A malformed stored mark leaves every write merging (write_order.h): slower, never wrong.
  context.write_order->Load().PermitUncheckedError();
  context.partition_deletions = std::make_shared<PartitionDeletions>(
      db_.get(), db_->DefaultColumnFamily(), handle->GetName());
  // On an error the lookups stay on (every merge asks): slower, never wrong.
  if (!context.partition_deletions->Load().ok()) {
    context.partition_deletions->AssumeSome();
  }
  return context;
}

Status Database::CreateTable(const std::string& cql, const TableStorage& storage, Table** table) {
  CreateTableStatement statement;
  Status s = ParseCreateTable(cql, &statement);
  TableStorage chosen;
  if (s.ok()) s = StorageForCreateTable(storage, statement.schema, &chosen);
  if (!s.ok()) return s;
  std::lock_guard<std::mutex> lock(mutex_);
  return CreateTableLocked(statement.schema, statement.if_not_exists, chosen, table);
}

Status Database::CreateTableLocked(const TableSchema& schema, bool if_not_exists,
                                   const TableStorage& storage, Table** table) {
  const std::string name = schema.QualifiedName();
  const auto existing = tables_.find(name);
  if (existing != tables_.end()) {
    if (!if_not_exists) return Status::InvalidArgument("table " + name + " already exists");
    if (table != nullptr) *table = existing->second.get();
    return Status::OK();
  }
  if (name == kCatalogColumnFamilyName || name == kKeyspaceColumnFamilyName) {
    return Status::InvalidArgument("table name " + name + " is reserved for the catalog");
  }
  for (rocksdb::ColumnFamilyHandle* handle : handles_) {
    if (handle->GetName() == name) {
      return Status::InvalidArgument("table name " + name +
                                     " is taken by a column family that is not a table");
    }
  }
  CatalogEntry entry;
  entry.schema = schema;
  rocksdb::ColumnFamilyOptions cf_options;
  Status s =
      NewTableColumnFamilyOptions(options_.column_family_options, storage, schema, &cf_options);
  if (s.ok()) s = StoreTableSettings(cf_options, &entry.settings);
  std::string encoded;
  if (s.ok()) s = EncodeCatalogEntry(entry, &encoded);  // checked before anything is written
  if (!s.ok()) return WithContext("table " + name, s);
  auto maintenance = std::make_shared<TableMaintenance>(schema, options_.now_micros);
  maintenance->Install(&cf_options);
  if (options_.configure_column_family) options_.configure_column_family(schema, &cf_options);

  // A dropped table of this name may have left partition deletions behind (DROP removes them
  // best effort): a new table starts without any.
  s = PartitionDeletions(db_.get(), db_->DefaultColumnFamily(), name)
          .DeleteAll(TableWriteOptions(options_.write_options));
  if (!s.ok()) return WithContext("creating table " + name, s);
  // Catalog first: a crash before the column family exists leaves an entry that the next
  // Open completes.
  s = catalog_->Put(entry);
  rocksdb::ColumnFamilyHandle* handle = nullptr;
  if (s.ok()) s = db_->CreateColumnFamily(cf_options, name, &handle);
  if (!s.ok()) {
    catalog_->Delete(name).PermitUncheckedError();  // best effort: the error below matters
    return WithContext("creating table " + name, s);
  }
  handles_.push_back(handle);
  auto created = std::make_unique<Table>(
      NewTableContext(handle, cf_options.table_factory, std::move(maintenance)), schema);
  if (table != nullptr) *table = created.get();
  tables_[name] = std::move(created);
  return Status::OK();
}

Status Database::AlterTable(const std::string& cql) {
  AlterTableStatement statement;
  Status s = ParseAlterTable(cql, &statement);
  if (!s.ok()) return s;
  std::lock_guard<std::mutex> lock(mutex_);
  return AlterTableLocked(statement.keyspace, statement.table, statement.alteration);
}

Status Database::AlterTableLocked(const std::string& keyspace, const std::string& name,
                                  const TableAlteration& alteration) {
  Table* table = nullptr;
  Status s = FindTableLocked(keyspace, name, &table);
  if (!s.ok()) return s;
  const std::shared_ptr<const TableSchema> current = table->schema();
  const auto format = alteration.other_options.find("sstable_format");
  if (format != alteration.other_options.end()) {
    const auto& other = current->options().other;
    const auto stored = other.find("sstable_format");
    if (stored == other.end() || stored->second != format->second) {
      return Status::NotSupported("table " + table->name() +
                                  ": sstable_format cannot change; a column family's table "
                                  "format is fixed when the table is created");
    }
  }
  TableSchema altered;
  s = current->Alter(alteration, &altered);
  CatalogEntry entry;
  if (s.ok()) s = catalog_->Get(table->name(), &entry);
  if (!s.ok()) return WithContext("table " + table->name(), s);
  entry.schema = altered;
  // The factory first, so no file written after the catalog change uses the old schema for
  // rows of the new one; undone when the catalog cannot be written.
  s = ApplySchemaToTableFactory(table->table_factory().get(), altered);
  if (s.ok()) {
    s = catalog_->Put(entry);
    if (!s.ok()) {
      ApplySchemaToTableFactory(table->table_factory().get(), *current).PermitUncheckedError();
    }
  }
  if (!s.ok()) return WithContext("table " + table->name(), s);
  table->maintenance().SetSchema(altered);
  table->SetSchema(std::move(altered));
  return Status::OK();
}

Status Database::FindTableLocked(const std::string& keyspace, const std::string& name,
                                 Table** table) const {
  const auto exact = tables_.find(QualifiedName(keyspace, name));
  if (exact != tables_.end()) {
    *table = exact->second.get();
    return Status::OK();
  }
  std::vector<Table*> matches;
  if (keyspace.empty()) {
    for (const auto& [qualified, candidate] : tables_) {
      if (candidate->schema()->table() == name) matches.push_back(candidate.get());
    }
  }
  if (matches.size() == 1) {
    *table = matches[0];
    return Status::OK();
  }
  if (matches.empty()) {
    return Status::NotFound("unknown table " + QualifiedName(keyspace, name));
  }
  std::string names;
  for (const Table* match : matches) names += (names.empty() ? "" : ", ") + match->name();
  return Status::InvalidArgument("table name " + name + " is ambiguous (" + names +
                                 "): qualify it with its keyspace");
}

Status Database::GetTable(const std::string& name, Table** table) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto exact = tables_.find(name);
  if (exact != tables_.end()) {
    *table = exact->second.get();
    return Status::OK();
  }
  const size_t dot = name.find('.');
  return dot == std::string::npos
             ? FindTableLocked("", name, table)
             : FindTableLocked(name.substr(0, dot), name.substr(dot + 1), table);
}

std::vector<std::string> Database::ListTables() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (const auto& entry : tables_) names.push_back(entry.first);
  return names;
}

std::vector<std::string> Database::ListKeyspaces() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::set<std::string> names;
  for (const auto& [name, keyspace] : keyspaces_) names.insert(name);
  for (const auto& [name, table] : tables_) {
    if (!table->schema()->keyspace().empty()) names.insert(table->schema()->keyspace());
  }
  return std::vector<std::string>(names.begin(), names.end());
}

bool Database::HasKeyspace(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return HasKeyspaceLocked(name);
}

bool Database::HasKeyspaceLocked(const std::string& name) const {
  return keyspaces_.count(name) > 0 || !TablesOfKeyspaceLocked(name).empty();
}

Status Database::GetKeyspace(const std::string& name, KeyspaceDefinition* keyspace) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = keyspaces_.find(name);
  if (found == keyspaces_.end()) {
    return Status::NotFound("keyspace " + name + " was not created with CREATE KEYSPACE");
  }
  *keyspace = found->second;
  return Status::OK();
}

std::vector<Table*> Database::TablesOfKeyspaceLocked(const std::string& keyspace) const {
  std::vector<Table*> tables;  // in qualified name order
  if (keyspace.empty()) return tables;
  for (const auto& [name, table] : tables_) {
    if (table->schema()->keyspace() == keyspace) tables.push_back(table.get());
  }
  return tables;
}

std::vector<std::string> Database::ListTablesOfKeyspace(const std::string& keyspace) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (const Table* table : TablesOfKeyspaceLocked(keyspace)) names.push_back(table->name());
  return names;
}

Status Database::DescribeKeyspace(const std::string& name, std::string* cql) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!HasKeyspaceLocked(name)) return Status::NotFound("unknown keyspace " + name);
  const auto created = keyspaces_.find(name);
  *cql = created != keyspaces_.end()
             ? created->second.ToCql()
             : "-- keyspace " + CqlIdentifier(name) +
                   " was not created with CREATE KEYSPACE: its tables name it";
  for (const Table* table : TablesOfKeyspaceLocked(name)) *cql += "\n\n" + DescribeTable(*table);
  return Status::OK();
}

std::string DescribeTable(const Table& table) {
  return std::string("-- storage: ") + table.table_factory()->Name() + "\n" +
         table.schema()->ToCql();
}

Status Database::CreateKeyspaceLocked(const KeyspaceDefinition& keyspace, bool if_not_exists) {
  if (keyspaces_.count(keyspace.name) > 0) {
    if (if_not_exists) return Status::OK();
    return Status::InvalidArgument("keyspace " + keyspace.name + " already exists");
  }
  if (keyspace_catalog_ == nullptr) {
    rocksdb::ColumnFamilyHandle* handle = nullptr;
    Status s =
        db_->CreateColumnFamily(rocksdb::ColumnFamilyOptions(), kKeyspaceColumnFamilyName, &handle);
    if (!s.ok()) return WithContext("creating the keyspace catalog", s);
    handles_.push_back(handle);
    keyspace_catalog_ = std::make_unique<KeyspaceCatalog>(db_.get(), handle);
  }
  Status s = keyspace_catalog_->Put(keyspace);
  if (!s.ok()) return WithContext("creating keyspace " + keyspace.name, s);
  keyspaces_[keyspace.name] = keyspace;
  return Status::OK();
}

Status Database::DropKeyspaceLocked(const std::string& name, bool if_exists) {
  if (!HasKeyspaceLocked(name)) {
    return if_exists ? Status::OK() : Status::NotFound("unknown keyspace " + name);
  }
  // Tables first, the keyspace last: a failure part way leaves the keyspace to drop again.
  for (Table* table : TablesOfKeyspaceLocked(name)) {
    Status s = DropTableLocked(table);
    if (!s.ok()) return WithContext("dropping keyspace " + name, s);
  }
  if (keyspaces_.count(name) == 0) return Status::OK();  // an implicit keyspace
  Status s = keyspace_catalog_->Delete(name);
  if (!s.ok()) return WithContext("dropping keyspace " + name, s);
  keyspaces_.erase(name);
  return Status::OK();
}

Status Database::DropTableLocked(Table* table) {
  const std::string name = table->name();
  // The column family first: a crash before the catalog entry is deleted leaves a table that
  // the next Open recreates empty, rather than a column family that blocks the name.
  rocksdb::ColumnFamilyHandle* handle = table->column_family();
  Status s = db_->DropColumnFamily(handle);
  if (s.ok()) s = catalog_->Delete(name);
  if (!s.ok()) return WithContext("dropping table " + name, s);
  // Best effort: a mark left behind only makes a later table of this name merge its first
  // writes (write_order.h).
  table->context_.write_order->DeleteStored().PermitUncheckedError();
  table->context_.partition_deletions->DeleteAll(options_.write_options).PermitUncheckedError();
  handles_.erase(std::find(handles_.begin(), handles_.end(), handle));
  dropped_handles_.push_back(handle);
  auto entry = tables_.find(name);
  dropped_tables_.push_back(std::move(entry->second));
  tables_.erase(entry);
  return Status::OK();
}

Status Database::Execute(const std::string& cql, ResultSet* result) {
  CqlStatement statement;
  Status s = ParseCqlStatement(cql, &statement);
  if (!s.ok()) {
    if (result != nullptr) result->Clear();
    return s;
  }
  return Execute(statement, result);
}

Status Database::Execute(const CqlStatement& statement, ResultSet* result) {
  if (result != nullptr) result->Clear();
  return ExecuteStatement(statement, result);
}

Status Database::ExecuteStatement(const CqlStatement& statement, ResultSet* result) {
  if (const auto* create = std::get_if<CreateTableStatement>(&statement.statement)) {
    TableStorage storage;
    Status s = StorageForCqlTable(options_.default_storage, create->schema, &storage);
    if (!s.ok()) return s;
    std::lock_guard<std::mutex> lock(mutex_);
    return CreateTableLocked(create->schema, create->if_not_exists, storage, nullptr);
  }
  if (const auto* alter = std::get_if<AlterTableStatement>(&statement.statement)) {
    std::lock_guard<std::mutex> lock(mutex_);
    return AlterTableLocked(alter->keyspace, alter->table, alter->alteration);
  }
  if (const auto* create = std::get_if<CreateKeyspaceStatement>(&statement.statement)) {
    std::lock_guard<std::mutex> lock(mutex_);
    return CreateKeyspaceLocked(create->keyspace, create->if_not_exists);
  }
  if (const auto* drop = std::get_if<DropKeyspaceStatement>(&statement.statement)) {
    std::lock_guard<std::mutex> lock(mutex_);
    return DropKeyspaceLocked(drop->keyspace, drop->if_exists);
  }
  if (const auto* drop = std::get_if<DropTableStatement>(&statement.statement)) {
    std::lock_guard<std::mutex> lock(mutex_);
    Table* table = nullptr;
    Status s = FindTableLocked(drop->keyspace, drop->table, &table);
    if (s.IsNotFound() && drop->if_exists) return Status::OK();
    return s.ok() ? DropTableLocked(table) : s;
  }
  if (const auto* truncate = std::get_if<TruncateStatement>(&statement.statement)) {
    Table* table = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      Status s = FindTableLocked(truncate->keyspace, truncate->table, &table);
      if (!s.ok()) return s;
    }
    // Outside the lock: the compaction may take a while, and a dropped Table stays valid.
    // Cassandra's TRUNCATE is no deletion: writes after it show whatever their timestamps, so
    // the table's partition deletions go too.
    Status s = TruncateColumnFamily(db_.get(), table->column_family(), options_.write_options);
    if (s.ok()) s = table->context_.partition_deletions->DeleteAll(options_.write_options);
    return WithContext("truncating table " + table->name(), s);
  }
  if (std::holds_alternative<UseStatement>(statement.statement)) {
    return Status::InvalidArgument(
        "USE sets the current keyspace of a session: run it with a CqlSession "
        "(table_api/cql_session.h), or qualify the table names");
  }
  return ExecuteDataStatement(statement, result);
}

Status Database::ExecuteDataStatement(const CqlStatement& statement, ResultSet* result) {
  std::string keyspace, name;
  const bool write = WriteStatementTable(statement, &keyspace, &name);
  if (!write && !TableNameOf<SelectStatement>(statement, &keyspace, &name)) {
    return Status::InvalidArgument("not a data statement");
  }
  Table* table = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Status s = FindTableLocked(keyspace, name, &table);
    if (!s.ok()) return s;
  }
  if (write) return ExecuteCqlWrite(table, statement);
  const auto& select = std::get<SelectStatement>(statement.statement);
  if (result == nullptr) return Status::InvalidArgument("SELECT needs a ResultSet");
  const std::shared_ptr<const TableSchema> schema = table->schema();
  SelectQuery query;
  SelectOutput output;
  Status s = BindSelect(*schema, select, &query, &output);
  if (!s.ok()) return WithContext("table " + table->name(), s);
  // Select's own errors name the table already.
  s = table->Select(query, result);
  if (s.ok()) ApplySelectOutput(output, result);
  return s;
}

}  // namespace columnar
