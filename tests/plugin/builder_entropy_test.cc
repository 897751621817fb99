// Flushed ColumnarTable files skip the columns' entropy estimates (a reporting yardstick that
// cost 30-40% of a flush's CPU); compaction output keeps them.
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/table.h>

#include <string>

#include "plugin/columnar_table.h"
#include "table_format/column_stats.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

// Columns of every live file with (true) and without (false) an entropy estimate.
void CountEstimates(rocksdb::DB* db, int* with, int* without) {
  *with = *without = 0;
  rocksdb::TablePropertiesCollection files;
  ASSERT_TRUE(db->GetPropertiesOfAllTables(&files).ok());
  ASSERT_FALSE(files.empty());
  for (const auto& [name, props] : files) {
    ColumnStats stats;
    ASSERT_TRUE(
        ColumnStats::Parse(props->user_collected_properties.at("columnar.column_stats"), &stats)
            .ok());
    for (const auto& [column, stat] : stats.columns()) {
      (stat.entropy_bits >= 0 ? *with : *without) += 1;
    }
  }
}

TEST(BuilderEntropyTest, FlushesSkipTheEstimateCompactionsKeepIt) {
  TempDir dir("builder-entropy");
  rocksdb::Options options;
  options.create_if_missing = true;
  options.table_factory.reset(NewColumnarTableFactory());
  auto db = OpenDb(options, dir.path());
  ASSERT_NE(db, nullptr);
  for (int i = 0; i < 3000; i++) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "key" + std::to_string(i * 7919 % 100000),
                        "value-" + std::to_string(i % 37))
                    .ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  int with = 0, without = 0;
  CountEstimates(db.get(), &with, &without);
  EXPECT_EQ(with, 0);
  EXPECT_GT(without, 0);

  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  ASSERT_TRUE(db->CompactRange(compact, nullptr, nullptr).ok());
  CountEstimates(db.get(), &with, &without);
  EXPECT_GT(with, 0);
  EXPECT_EQ(without, 0);
}

}  // namespace
}  // namespace columnar
