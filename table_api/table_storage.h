// TableStorage: how a table's column family stores its rows (table format and its options,
// plus a hook for the other column family options), and how those settings are stored in the
// catalog and rebuilt when the database is reopened.
//
// What is stored: the table factory as its option string (Customizable::ToString, recreated
// with TableFactory::CreateFromString) and every serializable column family option
// (GetStringFromColumnFamilyOptions: compression and compression per level, compression_opts,
// write buffer size, compaction settings, ...). Objects without a string form (block caches,
// statistics, listeners, a ColumnarTable `cache`) are not stored: a reopen takes them from
// DatabaseOptions (its base options and its configure_column_family hook).
#pragma once

#include <rocksdb/options.h>
#include <rocksdb/table.h>

#include <functional>
#include <optional>
#include <string>

#include "plugin/columnar_table.h"
#include "table_format/schema.h"

namespace columnar {

enum class TableFormat : uint8_t { kBlockBasedTable, kColumnarTable };

// "BlockBasedTable" or "ColumnarTable" (the factories' registry names).
const char* TableFormatName(TableFormat format);

struct TableStorage {
  // Unset: the format the CREATE TABLE's sstable_format option names, else ColumnarTable.
  // Set, it must agree with that option when the statement has one (Database::CreateTable).
  std::optional<TableFormat> format;
  rocksdb::BlockBasedTableOptions block_based;
  // The API sets `schema` itself (the table's serialized schema, updated by ALTER TABLE).
  ColumnarTableOptions columnar;
  // Adjusts the column family options after the table factory is set (compression per level,
  // write buffer size, ...). Its serializable effects are stored with the table.
  std::function<void(rocksdb::ColumnFamilyOptions*)> adjust_column_family;
};

// The stored form of a table's column family settings.
struct StoredTableSettings {
  std::string table_factory;  // e.g. "{id=ColumnarTable;rows_per_group=128;...}"
  std::string column_family;  // "compression=kZSTD;write_buffer_size=...;..."
};

// Options of a new table's column family: `base`, the table factory `storage` describes
// (a ColumnarTable factory gets `schema`), then storage.adjust_column_family.
Status NewTableColumnFamilyOptions(const rocksdb::ColumnFamilyOptions& base,
                                   const TableStorage& storage, const TableSchema& schema,
                                   rocksdb::ColumnFamilyOptions* options);

// The storable settings of `options`. InvalidArgument when they have no string form.
Status StoreTableSettings(const rocksdb::ColumnFamilyOptions& options,
                          StoredTableSettings* settings);

// Rebuilds the options of a table at reopen: `base`, the stored column family options, a table
// factory recreated from its stored string, given `schema` when it is a ColumnarTable.
Status RestoreTableColumnFamilyOptions(const rocksdb::ColumnFamilyOptions& base,
                                       const StoredTableSettings& settings,
                                       const TableSchema& schema,
                                       rocksdb::ColumnFamilyOptions* options);

// Makes files `factory` builds from now on use `schema` when it is a ColumnarTable factory;
// nothing for other factories (their files do not depend on the schema).
Status ApplySchemaToTableFactory(rocksdb::TableFactory* factory, const TableSchema& schema);

// The format the table option sstable_format names ('columnar' -> ColumnarTable;
// 'block_based', and Cassandra's row formats 'big' and 'bti' -> BlockBasedTable), unset when
// the schema has no such option. InvalidArgument for another value.
Status CqlTableFormat(const TableSchema& schema, std::optional<TableFormat>* format);

// The storage of Database::Execute("CREATE TABLE ..."): `defaults` (the database's default
// storage), with the format sstable_format names when the statement has that option.
Status StorageForCqlTable(const TableStorage& defaults, const TableSchema& schema,
                          TableStorage* storage);

// The storage of Database::CreateTable(cql, given): `given`, with the format sstable_format
// names when `given` leaves the format unset; InvalidArgument when both name a format and
// they differ (neither silently wins).
Status StorageForCreateTable(const TableStorage& given, const TableSchema& schema,
                             TableStorage* storage);

}  // namespace columnar
