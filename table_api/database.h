// The Table API: Cassandra-style tables on RocksDB, created from CQL text, each stored in its
// own column family as BlockBasedTable or ColumnarTable, with typed reads and writes.
//
//   DatabaseOptions options;
//   std::unique_ptr<Database> db;
//   Status s = Database::Open(options, "/path/to/db", &db);
//   TableStorage storage;
//   storage.format = TableFormat::kColumnarTable;
//   s = db->CreateTable("CREATE TABLE metrics.v2metrics5 (orgid text, clusterhash bigint, "
//                       "metricid bigint, time int, value float, PRIMARY KEY ((orgid, "
//                       "clusterhash, metricid), time)) WITH CLUSTERING ORDER BY (time DESC)",
//                       storage);
//   Table* table;
//   s = db->GetTable("metrics.v2metrics5", &table);
//   s = table->Insert(NamedRow{{"orgid", Value::Text("org1")}, ...}, RowWriteOptions{});
//   SelectQuery query = SelectQuery::ForPartition({Value::Text("org1"), ...});
//   query.limit = 1;
//   ResultSet rows;
//   s = table->Select(query, &rows);
//   s = db->Execute("SELECT time, value FROM metrics.v2metrics5 WHERE orgid = 'org1' AND "
//                   "clusterhash = 1 AND metricid = 2 AND time > 1700000000", &rows);
//
// Row semantics (writes whole rows, expiry, ordering) are described in table.h, row_writer.h
// and select_query.h. Tables, their schema and their storage settings are kept in a catalog
// column family and survive reopen (table_catalog.h, table_storage.h).
//
// Keyspaces. CREATE KEYSPACE stores the keyspace with its replication options (keyspace_catalog.h;
// this store is one node: they are shown by DESCRIBE and change nothing else). A table may
// also name a keyspace that was never created, as tables always could here: that keyspace
// exists implicitly (listed by ListKeyspaces, described without replication options) for as
// long as it has tables, and a CREATE KEYSPACE of it records its options. DROP KEYSPACE drops
// every table of the keyspace, created or implicit.
//
// Table names. "ks.t" names table t of keyspace ks. An unqualified name "t" means, in a
// session with a current keyspace (USE ks, cql_session.h), the table ks.t (CREATE TABLE t
// creates ks.t); without one (Execute here), the table t created without a keyspace, or the
// only table called t in any keyspace.
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "table_api/cql_ddl_statements.h"
#include "table_api/result_set.h"
#include "table_api/row_writer.h"
#include "table_api/select_query.h"
#include "table_api/table.h"
#include "table_api/table_storage.h"

namespace columnar {

class KeyspaceCatalog;
class TableCatalog;
struct CqlStatement;

struct DatabaseOptions {
  // The write-ahead logs kept at most before RocksDB flushes the column families that hold the
  // oldest one. The default column family takes a table's write high-water bound about once a
  // second under ingestion (write_order.h) and rarely fills its memtable: RocksDB's own default
  // (four times every memtable's budget) let about 1.4 GB of logs pile up behind it for a
  // 128 MB table, all replayed at reopen.
  static constexpr uint64_t kDefaultMaxTotalWalSize = uint64_t{256} << 20;

  DatabaseOptions();

  // create_if_missing is true by default here; create_missing_column_families is managed by
  // Open. max_total_wal_size is kDefaultMaxTotalWalSize by default here.
  rocksdb::DBOptions db_options;
  // The base of every table's column family options (and of the default column family).
  rocksdb::ColumnFamilyOptions column_family_options;
  // Applied to every table's options when it is created and each time it is opened, after its
  // stored settings; never stored. For objects without a string form: block caches,
  // statistics, compaction filters.
  std::function<void(const TableSchema& schema, rocksdb::ColumnFamilyOptions* options)>
      configure_column_family;
  // The storage of tables created with Execute("CREATE TABLE ..."); the table option
  // sstable_format = 'columnar' | 'block_based' picks the format.
  TableStorage default_storage;
  // Used for row writes and deletes (catalog writes are always synced).
  rocksdb::WriteOptions write_options;
  // The clock: microseconds since the epoch. Default write times, TTLs and expiry checks use
  // it (tests replace it to control time).
  std::function<int64_t()> now_micros;
  // Scans of ColumnarTable tables read key spans that one file alone holds as column vectors
  // (plugin/column_scan.h); false reads everything through RocksDB iterators. Results are the
  // same either way.
  bool columnar_scan = true;
};

class Database {
 public:
  // Opens or creates the database at `path`, with every table of its catalog.
  static Status Open(const DatabaseOptions& options, const std::string& path,
                     std::unique_ptr<Database>* database);
  // Closes the database. The default column family (the tables' write bounds) is flushed
  // first; the tables' memtables are not: their writes stay in the write-ahead log, replayed by
  // the next Open, as RocksDB's own close leaves them.
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // CREATE TABLE [IF NOT EXISTS] ...; a table that exists already is InvalidArgument unless
  // IF NOT EXISTS is given (then OK, and the existing table is kept as it is). *table (when not
  // null) gets the table. The statement's sstable_format option picks the format when
  // storage.format is unset; when both are given and differ, InvalidArgument.
  Status CreateTable(const std::string& cql, const TableStorage& storage, Table** table = nullptr);
  // ALTER TABLE ... ADD / DROP columns or WITH options. Rows written before keep their values:
  // an added column reads as null in them, a dropped column is no longer returned. Changing
  // sstable_format is NotSupported (a column family's table format is fixed).
  Status AlterTable(const std::string& cql);

  // By qualified name "ks.table", or by table name alone when one keyspace has it.
  Status GetTable(const std::string& name, Table** table) const;
  // Qualified names, sorted.
  std::vector<std::string> ListTables() const;

  // Keyspaces, created and implicit, sorted.
  std::vector<std::string> ListKeyspaces() const;
  bool HasKeyspace(const std::string& name) const;
  // A keyspace created with CREATE KEYSPACE; NotFound for an implicit or unknown one.
  Status GetKeyspace(const std::string& name, KeyspaceDefinition* keyspace) const;
  // Qualified names of the tables of `keyspace`, sorted.
  std::vector<std::string> ListTablesOfKeyspace(const std::string& keyspace) const;
  // The keyspace's CREATE KEYSPACE statement (a comment for an implicit keyspace), then each
  // of its tables as DescribeTable writes it, separated by blank lines. NotFound for an
  // unknown keyspace.
  Status DescribeKeyspace(const std::string& name, std::string* cql) const;

  // Runs one CQL statement (cql_statements.h): CREATE / DROP KEYSPACE, CREATE / ALTER / DROP
  // TABLE, TRUNCATE, INSERT, SELECT or DELETE. *result (may be null except for SELECT) gets
  // the rows of a SELECT and is cleared by the other statements. USE is InvalidArgument here:
  // it sets a session's keyspace (cql_session.h); this call has none.
  //   DROP TABLE removes the table's column family and catalog entry; a Table* of it stays a
  //   valid object until the Database is destroyed, but its writes fail. A crash between the
  //   two leaves the table in the catalog, empty, at the next Open (DROP it again).
  //   TRUNCATE deletes every row (one range deletion, so it is atomic) and compacts the table
  //   to free the space; the schema stays.
  Status Execute(const std::string& cql, ResultSet* result);
  // The same for a parsed statement (the shell parses with source positions). Its unqualified
  // names are resolved as above; a session qualifies them first (cql_session.h).
  Status Execute(const CqlStatement& statement, ResultSet* result);

  rocksdb::DB* db() const { return db_.get(); }

 private:
  Database(const DatabaseOptions& options, std::unique_ptr<rocksdb::DB> db,
           std::vector<rocksdb::ColumnFamilyHandle*> handles);

  // Builds a Table for every column family (descriptors[i] opened as handles_[i]) that is a
  // table of the catalog.
  void OpenTables(const std::vector<rocksdb::ColumnFamilyDescriptor>& descriptors,
                  const std::map<std::string, TableSchema>& schemas,
                  const std::map<std::string, std::shared_ptr<TableMaintenance>>& maintenance);
  Status CreateTableLocked(const TableSchema& schema, bool if_not_exists,
                           const TableStorage& storage, Table** table);
  Status LoadKeyspaces();
  Status CreateKeyspaceLocked(const KeyspaceDefinition& keyspace, bool if_not_exists);
  Status DropKeyspaceLocked(const std::string& name, bool if_exists);
  Status DropTableLocked(Table* table);
  bool HasKeyspaceLocked(const std::string& name) const;
  std::vector<Table*> TablesOfKeyspaceLocked(const std::string& keyspace) const;
  Status AlterTableLocked(const std::string& keyspace, const std::string& name,
                          const TableAlteration& alteration);
  Status FindTableLocked(const std::string& keyspace, const std::string& name, Table** table) const;
  Status ExecuteStatement(const CqlStatement& statement, ResultSet* result);
  // INSERT, SELECT or DELETE.
  Status ExecuteDataStatement(const CqlStatement& statement, ResultSet* result);
  Table::Context NewTableContext(rocksdb::ColumnFamilyHandle* handle,
                                 std::shared_ptr<rocksdb::TableFactory> factory,
                                 std::shared_ptr<TableMaintenance> maintenance) const;

  const DatabaseOptions options_;
  std::unique_ptr<rocksdb::DB> db_;
  // Every column family handle the database opened or created, destroyed before db_.
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  std::unique_ptr<TableCatalog> catalog_;
  // Null until the keyspace column family exists (the first CREATE KEYSPACE makes it).
  std::unique_ptr<KeyspaceCatalog> keyspace_catalog_;
  mutable std::mutex mutex_;  // guards the members below and serialises schema changes
  std::map<std::string, std::unique_ptr<Table>> tables_;  // by qualified name
  std::map<std::string, KeyspaceDefinition> keyspaces_;   // created ones, by name
  // Dropped tables and their column family handles, kept until the database is destroyed:
  // callers may still hold a Table* (Execute itself uses one outside the lock).
  std::vector<std::unique_ptr<Table>> dropped_tables_;
  std::vector<rocksdb::ColumnFamilyHandle*> dropped_handles_;
};

// A table as DESCRIBE shows it: "-- storage: <table factory>" and its CREATE TABLE statement.
std::string DescribeTable(const Table& table);

}  // namespace columnar
