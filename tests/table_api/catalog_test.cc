// The table catalog: tables survive reopen with their schema and storage settings; ALTER TABLE
// ADD / DROP across flushed files and reopen; CREATE TABLE duplicates and IF NOT EXISTS; table
// lookup by short name; a creation interrupted after its catalog entry; column families that
// are not tables.
#include <gtest/gtest.h>
#include <rocksdb/convenience.h>

#include <filesystem>

#include "table_api/table_catalog.h"
#include "table_format/cql_parser.h"
#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr char kTableCql[] =
    "CREATE TABLE ks.t (k text, c int, v bigint, PRIMARY KEY (k, c)) "
    "WITH CLUSTERING ORDER BY (c DESC)";

NamedRow RowOf(int c, int64_t v) {
  return NamedRow{{"k", Value::Text("p")}, {"c", Value::Int(c)}, {"v", Value::BigInt(v)}};
}

std::unique_ptr<Database> MustOpen(const DatabaseOptions& options, const std::string& path) {
  std::unique_ptr<Database> db;
  const Status s = Database::Open(options, path, &db);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return db;
}

ResultSet SelectAll(Table* table) {
  ResultSet result;
  const Status s = table->Select(SelectQuery::ForPartition({Value::Text("p")}), &result);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return result;
}

void FlushAndCompact(Database* db, Table* table) {
  ASSERT_TRUE(db->db()->Flush(rocksdb::FlushOptions(), table->column_family()).ok());
  ASSERT_TRUE(
      db->db()
          ->CompactRange(rocksdb::CompactRangeOptions(), table->column_family(), nullptr, nullptr)
          .ok());
}

TEST(TableApiCatalogTest, TablesSurviveReopenWithTheirStorageSettings) {
  TempDir dir("table-api-catalog");
  int configured = 0;
  DatabaseOptions options;
  options.configure_column_family = [&configured](const TableSchema&,
                                                  rocksdb::ColumnFamilyOptions*) { configured++; };
  {
    auto db = MustOpen(options, dir.path());
    TableStorage block_based = test::BlockBasedStorage();
    block_based.block_based.block_size = 8 * 1024;
    block_based.adjust_column_family = [](rocksdb::ColumnFamilyOptions* cf) {
      cf->compression_per_level = {rocksdb::kNoCompression, rocksdb::kLZ4Compression,
                                   rocksdb::kZSTD};
      cf->write_buffer_size = 3 << 20;
    };
    TableStorage columnar = test::ColumnarStorage();
    columnar.columnar.rows_per_group = 64;
    columnar.columnar.column_compression = "zstd";
    columnar.adjust_column_family = [](rocksdb::ColumnFamilyOptions* cf) {
      cf->compression = rocksdb::kZSTD;
      cf->compression_opts.max_dict_bytes = 64 << 10;
      cf->compression_opts.zstd_max_train_bytes = 10 << 20;
    };
    Table* table = nullptr;
    ASSERT_TRUE(db->CreateTable(kTableCql, block_based, &table).ok());
    ASSERT_TRUE(table->Insert(RowOf(1, 10)).ok());
    ASSERT_TRUE(db->CreateTable(test::MetricsTableCql(), columnar, &table).ok());
    EXPECT_EQ(configured, 2);
  }
  auto db = MustOpen(options, dir.path());
  EXPECT_EQ(configured, 4);  // applied again at open, never stored
  EXPECT_EQ(db->ListTables(), (std::vector<std::string>{"ks.t", "metrics.v2metrics5"}));

  Table* table = test::MustGetTable(db.get(), "ks.t");
  EXPECT_EQ(SelectAll(table).rows.size(), 1u);
  rocksdb::Options stored = db->db()->GetOptions(table->column_family());
  EXPECT_EQ(stored.compression_per_level,
            (std::vector<rocksdb::CompressionType>{rocksdb::kNoCompression,
                                                   rocksdb::kLZ4Compression, rocksdb::kZSTD}));
  EXPECT_EQ(stored.write_buffer_size, size_t{3} << 20);
  ASSERT_STREQ(stored.table_factory->Name(), "BlockBasedTable");
  EXPECT_EQ(stored.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>()->block_size,
            8u * 1024);

  Table* metrics = test::MustGetTable(db.get(), "metrics.v2metrics5");
  stored = db->db()->GetOptions(metrics->column_family());
  EXPECT_EQ(stored.compression, rocksdb::kZSTD);
  EXPECT_EQ(stored.compression_opts.max_dict_bytes, 64u << 10);
  EXPECT_EQ(stored.compression_opts.zstd_max_train_bytes, 10u << 20);
  ASSERT_STREQ(stored.table_factory->Name(), kColumnarTableName);
  const auto* columnar = stored.table_factory->GetOptions<ColumnarTableOptions>();
  ASSERT_NE(columnar, nullptr);
  EXPECT_EQ(columnar->rows_per_group, 64u);
  EXPECT_EQ(columnar->column_compression, "zstd");
  EXPECT_EQ(columnar->schema, metrics->schema()->Serialize());
  EXPECT_EQ(metrics->schema()->options().default_time_to_live, 2592000);
}

class TableApiAlterTest : public ::testing::TestWithParam<TableFormat> {
 protected:
  TableStorage Storage() const {
    TableStorage storage;
    storage.format = GetParam();
    return storage;
  }
};

TEST_P(TableApiAlterTest, AddedColumnsReadNullInOldRowsAndDroppedColumnsDisappear) {
  TempDir dir("table-api-alter");
  auto db = MustOpen(DatabaseOptions(), dir.path());
  Table* table = nullptr;
  ASSERT_TRUE(db->CreateTable(kTableCql, Storage(), &table).ok());
  ASSERT_TRUE(table->Insert(RowOf(1, 10)).ok());
  FlushAndCompact(db.get(), table);
  ASSERT_TRUE(table->Insert(RowOf(2, 20)).ok());  // in the memtable

  ASSERT_TRUE(db->AlterTable("ALTER TABLE ks.t ADD (x text, y double)").ok());
  ASSERT_TRUE(table
                  ->Insert(NamedRow{{"k", Value::Text("p")},
                                    {"c", Value::Int(3)},
                                    {"v", Value::BigInt(30)},
                                    {"x", Value::Text("new")}})
                  .ok());
  ResultSet result = SelectAll(table);
  EXPECT_EQ(result.column_names, (std::vector<std::string>{"k", "c", "v", "x", "y"}));
  ASSERT_EQ(result.rows.size(), 3u);
  EXPECT_EQ(result.rows[0][3], Value::Text("new"));
  EXPECT_EQ(result.rows[1][3], Value());
  EXPECT_EQ(result.rows[2],
            (Row{Value::Text("p"), Value::Int(1), Value::BigInt(10), Value(), Value()}));
  // The factory ALTER updates is the one RocksDB builds files with.
  EXPECT_EQ(db->db()->GetOptions(table->column_family()).table_factory, table->table_factory());
  if (GetParam() == TableFormat::kColumnarTable) {
    const auto* options = table->table_factory()->GetOptions<ColumnarTableOptions>();
    ASSERT_NE(options, nullptr);
    EXPECT_EQ(options->schema, table->schema()->Serialize());  // new files use the new schema
  }
  FlushAndCompact(db.get(), table);

  ASSERT_TRUE(db->AlterTable("ALTER TABLE ks.t DROP v").ok());
  result = SelectAll(table);
  EXPECT_EQ(result.column_names, (std::vector<std::string>{"k", "c", "x", "y"}));
  ASSERT_EQ(result.rows.size(), 3u);
  EXPECT_EQ(result.rows[0], (Row{Value::Text("p"), Value::Int(3), Value::Text("new"), Value()}));
  SelectQuery dropped = SelectQuery::ForPartition({Value::Text("p")});
  dropped.columns = {"v"};
  EXPECT_TRUE(table->Select(dropped, &result).IsInvalidArgument());
  EXPECT_TRUE(table->Insert(RowOf(4, 40)).IsInvalidArgument());

  // Re-adding the name makes a new, empty column: old values do not come back.
  ASSERT_TRUE(db->AlterTable("ALTER TABLE ks.t ADD v bigint").ok());
  db.reset();
  db = MustOpen(DatabaseOptions(), dir.path());
  table = test::MustGetTable(db.get(), "ks.t");
  EXPECT_EQ(table->schema()->version(), 4u);
  result = SelectAll(table);
  EXPECT_EQ(result.column_names, (std::vector<std::string>{"k", "c", "x", "y", "v"}));
  ASSERT_EQ(result.rows.size(), 3u);
  for (const Row& row : result.rows) EXPECT_EQ(row[4], Value());
  EXPECT_EQ(result.rows[0][2], Value::Text("new"));
}

TEST_P(TableApiAlterTest, AlterOptionsAndUnsupportedChanges) {
  TempDir dir("table-api-alter-options");
  auto db = MustOpen(DatabaseOptions(), dir.path());
  ASSERT_TRUE(db->CreateTable(kTableCql, Storage()).ok());
  ASSERT_TRUE(db->AlterTable("ALTER TABLE ks.t WITH default_time_to_live = 60 AND "
                             "column_encodings = {'v': 'delta'}")
                  .ok());
  Table* table = test::MustGetTable(db.get(), "ks.t");
  EXPECT_EQ(table->schema()->options().default_time_to_live, 60);
  const std::string before = test::DatabaseFingerprint(db.get());
  EXPECT_TRUE(db->AlterTable("ALTER TABLE ks.t WITH sstable_format = 'columnar'").IsNotSupported());
  EXPECT_TRUE(db->AlterTable("ALTER TABLE ks.t DROP k").IsInvalidArgument());
  EXPECT_TRUE(db->AlterTable("ALTER TABLE ks.t DROP nope").IsInvalidArgument());
  EXPECT_TRUE(db->AlterTable("ALTER TABLE ks.t ADD c int").IsInvalidArgument());
  EXPECT_TRUE(db->AlterTable("ALTER TABLE ks.nope ADD z int").IsNotFound());
  EXPECT_TRUE(db->AlterTable("ALTER TABLE ks.t ADD").IsInvalidArgument());
  EXPECT_EQ(test::DatabaseFingerprint(db.get()), before);
  EXPECT_EQ(table->schema()->version(), 2u);
}

INSTANTIATE_TEST_SUITE_P(BothFormats, TableApiAlterTest, test::BothFormats(),
                         test::FormatParamName);

TEST(TableApiCatalogTest, DuplicatesIfNotExistsAndLookupByName) {
  TempDir dir("table-api-names");
  auto db = MustOpen(DatabaseOptions(), dir.path());
  Table* first = nullptr;
  ASSERT_TRUE(db->CreateTable(kTableCql, test::BlockBasedStorage(), &first).ok());
  const std::string before = test::DatabaseFingerprint(db.get());
  const Status duplicate = db->CreateTable(kTableCql, test::ColumnarStorage());
  EXPECT_TRUE(duplicate.IsInvalidArgument());
  EXPECT_NE(duplicate.ToString().find("ks.t already exists"), std::string::npos);
  Table* again = nullptr;
  ASSERT_TRUE(db->CreateTable("CREATE TABLE IF NOT EXISTS ks.t (z int PRIMARY KEY)",
                              test::ColumnarStorage(), &again)
                  .ok());
  EXPECT_EQ(again, first);
  EXPECT_EQ(again->schema()->columns().size(), 3u);
  EXPECT_EQ(test::DatabaseFingerprint(db.get()), before);

  EXPECT_EQ(test::MustGetTable(db.get(), "t"), first);
  ASSERT_TRUE(db->CreateTable("CREATE TABLE other.t (k int PRIMARY KEY)", TableStorage()).ok());
  ASSERT_TRUE(db->CreateTable("CREATE TABLE solo (k int PRIMARY KEY)", TableStorage()).ok());
  Table* table = nullptr;
  const Status ambiguous = db->GetTable("t", &table);
  EXPECT_TRUE(ambiguous.IsInvalidArgument());
  EXPECT_NE(ambiguous.ToString().find("ks.t, other.t"), std::string::npos) << ambiguous.ToString();
  EXPECT_TRUE(db->GetTable("nope", &table).IsNotFound());
  EXPECT_TRUE(db->GetTable("other.nope", &table).IsNotFound());
  EXPECT_EQ(test::MustGetTable(db.get(), "solo")->name(), "solo");
  EXPECT_EQ(test::MustGetTable(db.get(), "other.t")->name(), "other.t");
  EXPECT_EQ(db->ListTables(), (std::vector<std::string>{"ks.t", "other.t", "solo"}));
}

// A catalog change is flushed when written, and CREATE TABLE writes nothing else, so that no
// write-ahead log is kept for them. (Left in a memtable, a change kept its log and every later
// one alive until RocksDB's max_total_wal_size forced a flush, which by RocksDB's default let
// 1.4 GB of logs pile up for a 128 MB table in db_bench_ext's access16 load; the Database
// bounds them at kDefaultMaxTotalWalSize.)
TEST(TableApiCatalogTest, CatalogChangesLeaveNothingInMemtables) {
  TempDir dir("table-api-catalog-wal");
  const auto unflushed_entries = [](Database* db) {
    uint64_t entries = 0;
    EXPECT_TRUE(
        db->db()->GetAggregatedIntProperty("rocksdb.num-entries-active-mem-table", &entries));
    return entries;
  };
  {
    auto db = MustOpen(DatabaseOptions(), dir.path());
    Table* table = nullptr;
    ASSERT_TRUE(db->CreateTable(kTableCql, test::ColumnarStorage(), &table).ok());
    EXPECT_EQ(unflushed_entries(db.get()), 0u);
    ResultSet altered;
    ASSERT_TRUE(db->Execute("ALTER TABLE ks.t ADD w int", &altered).ok());
    EXPECT_EQ(unflushed_entries(db.get()), 0u);
    ASSERT_TRUE(table->Insert(RowOf(1, 10)).ok());
    EXPECT_EQ(db->db()->GetDBOptions().max_total_wal_size,
              DatabaseOptions::kDefaultMaxTotalWalSize);
  }
  auto db = MustOpen(DatabaseOptions(), dir.path());
  Table* table = test::MustGetTable(db.get(), "ks.t");
  EXPECT_EQ(table->schema()->columns().size(), 4u);
  EXPECT_EQ(SelectAll(table).rows.size(), 1u);
}

// The bytes of the write-ahead logs in `dir`.
uint64_t WalBytes(const std::string& dir) {
  uint64_t bytes = 0;
  for (const auto& file : std::filesystem::directory_iterator(dir)) {
    if (file.path().extension() == ".log") bytes += file.file_size();
  }
  return bytes;
}

// A clean close leaves no log behind a table whose rows were flushed: the write high-water
// bound the inserts stored in the default column family (write_order.h) is flushed at close,
// instead of keeping its log, and with it every later one, to be replayed by the next Open.
TEST(TableApiCatalogTest, ACleanCloseLeavesNoLogBehindFlushedTables) {
  TempDir dir("table-api-close-wal");
  {
    auto db = MustOpen(DatabaseOptions(), dir.path());
    Table* table = nullptr;
    ASSERT_TRUE(db->CreateTable(kTableCql, test::ColumnarStorage(), &table).ok());
    for (int c = 0; c < 100; c++) ASSERT_TRUE(table->Insert(RowOf(c, c)).ok());
    ASSERT_TRUE(db->db()->Flush(rocksdb::FlushOptions(), table->column_family()).ok());
  }
  EXPECT_EQ(WalBytes(dir.path()), 0u);
  auto db = MustOpen(DatabaseOptions(), dir.path());
  EXPECT_EQ(SelectAll(test::MustGetTable(db.get(), "ks.t")).rows.size(), 100u);
}

// A crash after the catalog entry was written but before its column family was created: the
// next Open creates the column family from the stored settings.
TEST(TableApiCatalogTest, OpenCompletesAnInterruptedCreation) {
  TempDir dir("table-api-interrupted");
  CatalogEntry entry;
  {
    auto db = MustOpen(DatabaseOptions(), dir.path());
    Table* table = nullptr;
    ASSERT_TRUE(db->CreateTable(kTableCql, test::ColumnarStorage(), &table).ok());
  }
  {
    // Rewrite the entry under another table name, as if its column family were never made.
    rocksdb::DBOptions db_options;
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors = {
        {rocksdb::kDefaultColumnFamilyName, {}}, {"ks.t", {}}, {kCatalogColumnFamilyName, {}}};
    descriptors[1].options.table_factory.reset(NewColumnarTableFactory());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(db_options, dir.path(), descriptors, &handles, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    TableCatalog catalog(db.get(), handles[2]);
    ASSERT_TRUE(catalog.Get("ks.t", &entry).ok());
    CreateTableStatement statement;
    ASSERT_TRUE(ParseCreateTable("CREATE TABLE ks.u (k text, c int, v bigint, PRIMARY KEY (k, c))",
                                 &statement)
                    .ok());
    entry.schema = statement.schema;
    ASSERT_TRUE(catalog.Put(entry).ok());
    for (auto* handle : handles) ASSERT_TRUE(db->DestroyColumnFamilyHandle(handle).ok());
    ASSERT_TRUE(db->Close().ok());
  }
  auto db = MustOpen(DatabaseOptions(), dir.path());
  EXPECT_EQ(db->ListTables(), (std::vector<std::string>{"ks.t", "ks.u"}));
  Table* table = test::MustGetTable(db.get(), "ks.u");
  EXPECT_STREQ(table->table_factory()->Name(), kColumnarTableName);
  ASSERT_TRUE(table->Insert(RowOf(1, 1)).ok());
  EXPECT_EQ(SelectAll(table).rows.size(), 1u);
}

TEST(TableApiCatalogTest, ColumnFamiliesThatAreNotTablesAreLeftAlone) {
  TempDir dir("table-api-foreign");
  {
    auto db = MustOpen(DatabaseOptions(), dir.path());
    rocksdb::ColumnFamilyHandle* handle = nullptr;
    ASSERT_TRUE(db->db()->CreateColumnFamily(rocksdb::ColumnFamilyOptions(), "ks.t", &handle).ok());
    ASSERT_TRUE(db->db()->Put(rocksdb::WriteOptions(), handle, "raw", "bytes").ok());
    ASSERT_TRUE(db->db()->DestroyColumnFamilyHandle(handle).ok());
  }
  auto db = MustOpen(DatabaseOptions(), dir.path());
  EXPECT_TRUE(db->ListTables().empty());
  const Status taken = db->CreateTable(kTableCql, TableStorage());
  EXPECT_TRUE(taken.IsInvalidArgument()) << taken.ToString();
  std::vector<std::string> families;
  ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir.path(), &families).ok());
  EXPECT_NE(std::find(families.begin(), families.end(), "ks.t"), families.end());
}

TEST(TableApiCatalogTest, CatalogEntriesRoundTripAndRejectDamage) {
  CreateTableStatement statement;
  ASSERT_TRUE(ParseCreateTable(test::Access16TableCql(), &statement).ok());
  CatalogEntry entry{statement.schema,
                     {"{id=BlockBasedTable;block_size=4096;}", "compression=kZSTD;"}};
  std::string encoded;
  ASSERT_TRUE(EncodeCatalogEntry(entry, &encoded).ok());
  CatalogEntry decoded;
  ASSERT_TRUE(DecodeCatalogEntry(encoded, &decoded).ok());
  EXPECT_EQ(decoded.schema, entry.schema);
  EXPECT_EQ(decoded.settings.table_factory, entry.settings.table_factory);
  EXPECT_EQ(decoded.settings.column_family, entry.settings.column_family);
  for (size_t cut = 0; cut < encoded.size(); cut++) {
    EXPECT_TRUE(DecodeCatalogEntry(encoded.substr(0, cut), &decoded).IsCorruption()) << cut;
  }
  EXPECT_TRUE(DecodeCatalogEntry(encoded + "x", &decoded).IsCorruption());
  entry.settings.column_family = "a=1\nb=2";
  EXPECT_TRUE(EncodeCatalogEntry(entry, &encoded).IsInvalidArgument());
}

}  // namespace
}  // namespace columnar
