// ColumnarTable through RocksDB's option framework: a database writes its factory's options to
// its OPTIONS file, LoadLatestOptions gives back an equal factory, and the database reopens
// from that file; TableFactory::CreateFromString knows the factory and its alias; invalid
// options are errors (from CreateFromString, from loading an OPTIONS file, or from DB::Open),
// never crashes.
#include <gtest/gtest.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/utilities/options_util.h>

#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "plugin/columnar_table.h"
#include "tests/plugin/sst_file_fixtures.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

ColumnarTableOptions NonDefaultTableOptions() {
  ColumnarTableOptions table;
  table.rows_per_group = 64;
  table.group_target_bytes = 32 * 1024;
  table.block_size = 4096;
  table.column_encodings = "value:plain";
  table.column_compression = "default:zstd,value:none";
  table.column_compression_level = 5;
  table.bloom_bits_per_key = 7.5;
  table.whole_key_filter = false;
  table.partition_filter = false;
  table.cache_size = 1 << 20;
  return table;
}

rocksdb::ConfigOptions StrictConfig() {
  rocksdb::ConfigOptions config;
  config.ignore_unknown_options = false;
  config.ignore_unsupported_options = false;
  return config;
}

rocksdb::Status CreateFactory(const std::string& text,
                              std::shared_ptr<rocksdb::TableFactory>* factory) {
  return rocksdb::TableFactory::CreateFromString(StrictConfig(), text, factory);
}

std::string OptionString(const rocksdb::TableFactory& factory) {
  std::string text;
  EXPECT_TRUE(factory.GetOptionString(rocksdb::ConfigOptions(), &text).ok());
  return text;
}

const ColumnarTableOptions& TableOptionsOf(const rocksdb::TableFactory& factory) {
  const auto* options = factory.GetOptions<ColumnarTableOptions>();
  EXPECT_NE(options, nullptr) << factory.Name();
  static const ColumnarTableOptions kNone;
  return options != nullptr ? *options : kNone;
}

std::map<std::string, std::string> WriteSomeRows(rocksdb::DB* db) {
  std::map<std::string, std::string> model;
  for (int i = 0; i < 2000; i++) {
    const std::string key = FixtureKey(i * 3);
    EXPECT_TRUE(db->Put(rocksdb::WriteOptions(), key, FixtureValue(i)).ok());
    model[key] = FixtureValue(i);
  }
  EXPECT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  return model;
}

TEST(OptionsFileTest, OptionsFileRoundTripsTheFactoryAndReopensTheDatabase) {
  TempDir dir("options-file");
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kZSTD;
  options.table_factory.reset(NewColumnarTableFactory(NonDefaultTableOptions()));
  const std::string written = OptionString(*options.table_factory);
  std::map<std::string, std::string> model;
  {
    auto db = OpenDb(options, dir.path());
    ASSERT_NE(db, nullptr);
    model = WriteSomeRows(db.get());
  }

  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  ASSERT_TRUE(rocksdb::LoadLatestOptions(StrictConfig(), dir.path(), &db_options, &families).ok());
  ASSERT_EQ(families.size(), 1u);
  const std::shared_ptr<rocksdb::TableFactory>& loaded = families[0].options.table_factory;
  ASSERT_NE(loaded, nullptr);
  EXPECT_STREQ(loaded->Name(), kColumnarTableName);
  EXPECT_EQ(OptionString(*loaded), written);
  EXPECT_EQ(TableOptionsOf(*loaded).rows_per_group, 64u);
  EXPECT_EQ(TableOptionsOf(*loaded).column_compression, "default:zstd,value:none");
  EXPECT_EQ(TableOptionsOf(*loaded).bloom_bits_per_key, 7.5);
  EXPECT_FALSE(TableOptionsOf(*loaded).whole_key_filter);
  std::string mismatch;
  EXPECT_TRUE(
      options.table_factory->AreEquivalent(rocksdb::ConfigOptions(), loaded.get(), &mismatch))
      << mismatch;

  rocksdb::DB* raw = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  ASSERT_TRUE(rocksdb::DB::Open(db_options, dir.path(), families, &handles, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  ExpectReadsMatch(db.get(), model, "reopened from the OPTIONS file");
  // Files written after the reopen use the loaded options too.
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "after-reopen", "x").ok());
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  model["after-reopen"] = "x";
  ASSERT_TRUE(db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
  ExpectReadsMatch(db.get(), model, "after compaction");
  rocksdb::TablePropertiesCollection properties;
  ASSERT_TRUE(db->GetPropertiesOfAllTables(&properties).ok());
  for (const auto& [file, table] : properties) {
    EXPECT_EQ(table->user_collected_properties.at("columnar.rows_per_group"), "64") << file;
  }
  for (auto* handle : handles) db->DestroyColumnFamilyHandle(handle);
}

TEST(OptionsFileTest, CreateFromStringKnowsTheFactoryAndItsAlias) {
  std::shared_ptr<rocksdb::TableFactory> factory;
  ASSERT_TRUE(
      CreateFactory("id=ColumnarTable;rows_per_group=64;column_compression=zstd", &factory).ok());
  ASSERT_NE(factory, nullptr);
  EXPECT_STREQ(factory->Name(), kColumnarTableName);
  EXPECT_EQ(TableOptionsOf(*factory).rows_per_group, 64u);
  EXPECT_EQ(TableOptionsOf(*factory).column_compression, "zstd");
  EXPECT_EQ(TableOptionsOf(*factory).block_size, ColumnarTableOptions().block_size);

  std::shared_ptr<rocksdb::TableFactory> alias;
  ASSERT_TRUE(CreateFactory("id=columnar;block_size=8192", &alias).ok());
  ASSERT_NE(alias, nullptr);
  EXPECT_STREQ(alias->Name(), kColumnarTableName);
  EXPECT_EQ(TableOptionsOf(*alias).block_size, 8192u);

  std::shared_ptr<rocksdb::TableFactory> by_name;
  ASSERT_TRUE(CreateFactory("ColumnarTable", &by_name).ok());
  ASSERT_NE(by_name, nullptr);
  EXPECT_EQ(OptionString(*by_name),
            OptionString(*std::unique_ptr<rocksdb::TableFactory>(NewColumnarTableFactory())));

  // In a column family options string, as OPTIONS files and ldb spell it.
  rocksdb::ColumnFamilyOptions cf_options;
  ASSERT_TRUE(rocksdb::GetColumnFamilyOptionsFromString(
                  StrictConfig(), rocksdb::ColumnFamilyOptions(),
                  "table_factory={id=ColumnarTable;rows_per_group=16}", &cf_options)
                  .ok());
  ASSERT_NE(cf_options.table_factory, nullptr);
  EXPECT_STREQ(cf_options.table_factory->Name(), kColumnarTableName);
  EXPECT_EQ(TableOptionsOf(*cf_options.table_factory).rows_per_group, 16u);
}

TEST(OptionsFileTest, InvalidOptionsAreErrorsAtCreation) {
  for (const char* text : {
           "id=ColumnarTable;rows_per_group=0",
           "id=ColumnarTable;rows_per_group=-3",
           "id=ColumnarTable;rows_per_group=many",
           "id=ColumnarTable;block_size=0",
           "id=ColumnarTable;column_compression=lz77",
           "id=ColumnarTable;column_encodings=x:nope",
           "id=ColumnarTable;column_encodings=value",
           "id=ColumnarTable;bloom_bits_per_key=-1",
           "id=ColumnarTable;schema=CREATE TABLE broken (",
           "id=ColumnarTable;no_such_option=1",
       }) {
    std::shared_ptr<rocksdb::TableFactory> factory;
    const rocksdb::Status s = CreateFactory(text, &factory);
    // InvalidArgument for bad values, NotFound for unknown option names (RocksDB's choice).
    EXPECT_TRUE(s.IsInvalidArgument() || s.IsNotFound()) << text << ": " << s.ToString();
  }
}

TEST(OptionsFileTest, InvalidOptionsFailDatabaseOpen) {
  TempDir dir("options-invalid");
  for (const auto& [name, table] : std::vector<std::pair<std::string, ColumnarTableOptions>>{
           {"rows_per_group=0",
            [] {
              ColumnarTableOptions t;
              t.rows_per_group = 0;
              return t;
            }()},
           {"column_compression=lz77",
            [] {
              ColumnarTableOptions t;
              t.column_compression = "lz77";
              return t;
            }()},
           {"column_encodings=x:nope",
            [] {
              ColumnarTableOptions t;
              t.column_encodings = "x:nope";
              return t;
            }()},
       }) {
    rocksdb::Options options;
    options.create_if_missing = true;
    options.table_factory.reset(NewColumnarTableFactory(table));
    rocksdb::Status s;
    auto db = OpenDb(options, dir.Sub(name), &s);
    EXPECT_EQ(db, nullptr) << name;
    EXPECT_TRUE(s.IsInvalidArgument()) << name << ": " << s.ToString();
  }
}

TEST(OptionsFileTest, InvalidOptionsInAnOptionsFileAreErrors) {
  TempDir dir("options-invalid-file");
  const std::string path = dir.Sub("OPTIONS-bad");
  {
    std::ofstream file(path);
    file << "[Version]\n  rocksdb_version=7.8.3\n  options_file_version=1.1\n"
            "[DBOptions]\n  create_if_missing=true\n"
            "[CFOptions \"default\"]\n  table_factory=ColumnarTable\n"
            "[TableOptions/ColumnarTable \"default\"]\n  column_compression=lz77\n";
  }
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  rocksdb::Status s = rocksdb::LoadOptionsFromFile(StrictConfig(), path, &db_options, &families);
  if (s.ok()) {
    // Loading left the check to the database.
    rocksdb::DB* raw = nullptr;
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    s = rocksdb::DB::Open(db_options, dir.Sub("db"), families, &handles, &raw);
    EXPECT_EQ(raw, nullptr);
  }
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

}  // namespace
}  // namespace columnar
