// TieredTable: flush output row-oriented, deeper compaction output columnar, both formats read
// side by side; a block-based database migrates when opened with it.
#include <gtest/gtest.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>

#include <map>

#include "plugin/columnar_table.h"
#include "plugin/tiered_table_factory.h"
#include "tests/plugin/differential_harness.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

// Files by format: columnar files carry the columnar.layout property.
std::pair<int, int> CountFormats(rocksdb::DB* db) {
  rocksdb::TablePropertiesCollection files;
  EXPECT_TRUE(db->GetPropertiesOfAllTables(&files).ok());
  int columnar = 0, row = 0;
  for (const auto& entry : files) {
    (entry.second->user_collected_properties.count("columnar.layout") ? columnar : row)++;
  }
  return {row, columnar};
}

TEST(TieredTableTest, MatchesBlockBasedTableWithBothFormatsPresent) {
  DifferentialOptions options;
  options.seed = 31;
  options.operations = 6000;
  options.verify_every = 1000;
  options.configure_test = [](rocksdb::Options* o) {
    TieredTableOptions tiered;
    tiered.columnar_from_level = 1;
    ColumnarTableOptions columnar;
    columnar.rows_per_group = 16;
    tiered.columnar_table.reset(NewColumnarTableFactory(columnar));
    o->table_factory.reset(NewTieredTableFactory(tiered));
  };
  DifferentialHarness harness("tiered", options);
  bool saw_both = false;
  for (int round = 0; round < 6 && !saw_both; round++) {
    for (int i = 0; i < 1000; i++) harness.Step();
    ASSERT_TRUE(harness.VerifyAll());
    // Fresh flush output is row-oriented; compacted data columnar.
    ASSERT_TRUE(harness.tested()->Flush(rocksdb::FlushOptions()).ok());
    const auto [row, columnar] = CountFormats(harness.tested());
    saw_both = row > 0 && columnar > 0;
  }
  EXPECT_TRUE(saw_both);
  EXPECT_TRUE(harness.VerifyAll());
}

TEST(TieredTableTest, BlockBasedDatabaseMigrates) {
  TempDir dir("tiered-migrate");
  std::map<std::string, std::string> model;
  rocksdb::Options options;
  options.create_if_missing = true;
  {
    auto db = OpenDb(options, dir.path());
    ASSERT_NE(db, nullptr);
    for (int i = 0; i < 5000; i++) {
      const std::string key = "key" + std::to_string(i * 7919 % 10007);
      const std::string value = "value" + std::to_string(i);
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
      model[key] = value;
    }
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  }
  options.table_factory.reset(NewTieredTableFactory());
  auto db = OpenDb(options, dir.path());
  ASSERT_NE(db, nullptr);
  auto check = [&]() { ExpectScanMatches(db.get(), model); };
  check();
  EXPECT_EQ(CountFormats(db.get()), std::make_pair(1, 0));
  rocksdb::CompactRangeOptions cro;
  cro.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  ASSERT_TRUE(db->CompactRange(cro, nullptr, nullptr).ok());
  check();
  const auto [row, columnar] = CountFormats(db.get());
  EXPECT_EQ(row, 0);
  EXPECT_GT(columnar, 0);
}

TEST(TieredTableTest, CreatedByNameWithNestedFactories) {
  rocksdb::ConfigOptions config;
  std::shared_ptr<rocksdb::TableFactory> factory;
  ASSERT_TRUE(
      rocksdb::TableFactory::CreateFromString(config,
                                              "id=TieredTable;columnar_from_level=3;"
                                              "columnar_table={id=ColumnarTable;rows_per_group=64}",
                                              &factory)
          .ok());
  ASSERT_NE(factory, nullptr);
  EXPECT_STREQ(factory->Name(), "TieredTable");
  std::string serialized;
  ASSERT_TRUE(factory->GetOptionString(config, &serialized).ok());
  EXPECT_NE(serialized.find("columnar_from_level=3"), std::string::npos) << serialized;
  EXPECT_NE(serialized.find("rows_per_group=64"), std::string::npos) << serialized;
  auto* tiered = static_cast<TieredTableFactory*>(factory.get());
  EXPECT_FALSE(tiered->WritesColumnar(rocksdb::TableFileCreationReason::kFlush, 0));
  EXPECT_FALSE(tiered->WritesColumnar(rocksdb::TableFileCreationReason::kCompaction, 2));
  EXPECT_TRUE(tiered->WritesColumnar(rocksdb::TableFileCreationReason::kCompaction, 3));
}

}  // namespace
}  // namespace columnar
