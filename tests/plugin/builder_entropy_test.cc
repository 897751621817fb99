// Table files are written without the columns' entropy estimates (a reporting yardstick that
// cost 30-40% of a flush's CPU and about a seventh of a compaction's); EstimateColumnEntropy
// (plugin/column_entropy.h) computes them by reading a file back.
#include <gtest/gtest.h>
#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/table.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "plugin/column_entropy.h"
#include "plugin/columnar_table.h"
#include "table_format/column_stats.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

// 3000 rows whose values take 37 strings at random (independent of the rows' order, so that
// differences between consecutive values carry no less than the values).
constexpr int kRows = 3000;
constexpr int kDistinctValues = 37;

std::unique_ptr<rocksdb::DB> OpenFilledDb(const TempDir& dir, rocksdb::Options* options) {
  options->create_if_missing = true;
  options->table_factory.reset(NewColumnarTableFactory());
  auto db = OpenDb(*options, dir.path());
  if (db == nullptr) return db;
  std::mt19937 random(7);
  std::uniform_int_distribution<int> value(0, kDistinctValues - 1);
  for (int i = 0; i < kRows; i++) {
    EXPECT_TRUE(db->Put(rocksdb::WriteOptions(), "key" + std::to_string(i * 7919 % 100000),
                        "value-" + std::to_string(value(random)))
                    .ok());
  }
  EXPECT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  return db;
}

std::vector<std::string> LiveFiles(rocksdb::DB* db) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  std::vector<std::string> paths;
  for (const auto& file : files) paths.push_back(file.db_path + "/" + file.name);
  return paths;
}

TEST(ColumnEntropyTest, FilesCarryNoEstimateAndReadingThemBackGivesOne) {
  TempDir dir("column-entropy");
  rocksdb::Options options;
  auto db = OpenFilledDb(dir, &options);
  ASSERT_NE(db, nullptr);
  for (bool compacted : {false, true}) {
    if (compacted) {
      rocksdb::CompactRangeOptions compact;
      compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
      ASSERT_TRUE(db->CompactRange(compact, nullptr, nullptr).ok());
    }
    rocksdb::TablePropertiesCollection files;
    ASSERT_TRUE(db->GetPropertiesOfAllTables(&files).ok());
    ASSERT_EQ(files.size(), 1u);
    const auto& [path, props] = *files.begin();
    ColumnStats stats;
    ASSERT_TRUE(
        ColumnStats::Parse(props->user_collected_properties.at("columnar.column_stats"), &stats)
            .ok());
    std::map<std::string, double> bits;
    ASSERT_TRUE(EstimateColumnEntropy(options, path, &bits).ok());
    for (const auto& [column, stat] : stats.columns()) {
      EXPECT_LT(stat.entropy_bits, 0) << column << " (compacted " << compacted << ")";
      ASSERT_EQ(bits.count(column), 1u) << column;
      EXPECT_GE(bits.at(column), 0) << column;
    }
    // Every row read back: 37 equally likely values carry log2(37) bits each (the sample's
    // frequencies a little less), plus the content of each distinct value once (7 or 8
    // bytes; values of one or two digits stay whole in the template split).
    const double value_bits = kRows * std::log2(static_cast<double>(kDistinctValues));
    EXPECT_GT(bits.at("value"), 0.99 * value_bits);
    EXPECT_LT(bits.at("value"), value_bits + kDistinctValues * 8 * 8);
  }
}

// Reading a whole file back for a report leaves the shared cache as it was: a storage report
// between a load and its queries must not replace the queries' working set.
TEST(ColumnEntropyTest, ReadingAFileBackLeavesTheCacheAlone) {
  TempDir dir("column-entropy-cache");
  ColumnarTableOptions table_options;
  table_options.cache = rocksdb::NewLRUCache(64 << 20);
  rocksdb::Options options;
  options.create_if_missing = true;
  options.table_factory.reset(NewColumnarTableFactory(table_options));
  auto db = OpenDb(options, dir.path());
  ASSERT_NE(db, nullptr);
  for (int i = 0; i < kRows; i++) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "key" + std::to_string(100000 + i),
                        "value-" + std::to_string(i % kDistinctValues))
                    .ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  const std::vector<std::string> files = LiveFiles(db.get());
  ASSERT_EQ(files.size(), 1u);
  const size_t before = table_options.cache->GetUsage();
  std::map<std::string, double> bits;
  ASSERT_TRUE(EstimateColumnEntropy(options, files[0], &bits).ok());
  ASSERT_FALSE(bits.empty());
  EXPECT_EQ(table_options.cache->GetUsage(), before);
}

TEST(ColumnEntropyTest, AFileThatIsNotColumnarIsRefused) {
  TempDir dir("column-entropy-bbt");
  rocksdb::Options options;
  options.create_if_missing = true;
  auto db = OpenDb(options, dir.path());  // BlockBasedTable
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "k", "v").ok());
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  const std::vector<std::string> files = LiveFiles(db.get());
  ASSERT_EQ(files.size(), 1u);
  std::map<std::string, double> bits{{"stale", 1}};
  const rocksdb::Status s = EstimateColumnEntropy(options, files[0], &bits);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_TRUE(bits.empty());
}

}  // namespace
}  // namespace columnar
