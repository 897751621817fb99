// Row groups end where long partitions do (table_format/partition_aligned_cuts.h): in a flushed
// file, and in compaction outputs that begin inside a partition, no group straddles two series,
// so none carries a partition slot (the column stats' "partition" chunks). Reads stay equal to
// a model.
#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <map>
#include <string>

#include "plugin/columnar_table.h"
#include "plugin/table_file.h"
#include "table_format/column_stats.h"
#include "table_format/cql_parser.h"
#include "table_format/key_codec.h"
#include "table_format/row_codec.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

constexpr int kSeries = 10;
constexpr int kPointsPerSeries = 300;  // two groups of 128 and one of 44

class PartitionAlignedGroupsTest : public testing::Test {
 protected:
  void SetUp() override {
    CreateTableStatement statement;
    ASSERT_TRUE(ParseCreateTable("CREATE TABLE ts.points (series text, time int, value double, "
                                 "PRIMARY KEY ((series), time))",
                                 &statement)
                    .ok());
    schema_ = statement.schema;
    ColumnarTableOptions table;
    table.rows_per_group = 128;
    table.schema = schema_.Serialize();
    options_.create_if_missing = true;
    options_.disable_auto_compactions = true;
    options_.target_file_size_multiplier = 1;
    options_.table_factory.reset(NewColumnarTableFactory(table));
    db_ = OpenDb(options_, dir_.path());
    ASSERT_NE(db_, nullptr);
  }

  void PutPoint(int series, int time) {
    std::string key;
    ASSERT_TRUE(EncodeKey(schema_,
                          {Value::FromBytes(LogicalType::kText, "s" + std::to_string(series))},
                          {Value::Int(time)}, &key)
                    .ok());
    RowMetadata meta;
    meta.schema_version = schema_.version();
    Row row(schema_.next_column_id());
    row[schema_.FindColumn("value")->id] = Value::Double(0.5 * time + series);
    std::string value;
    ASSERT_TRUE(RowCodec(schema_).EncodeRow(meta, row, &value).ok());
    ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), key, value).ok());
    model_[key] = value;
  }

  // Per live file: its row groups and the chunks of the partition slot (groups holding a
  // partition change).
  std::map<std::string, std::pair<uint64_t, uint64_t>> GroupsAndPartitionChunks() {
    rocksdb::TablePropertiesCollection properties;
    EXPECT_TRUE(db_->GetPropertiesOfAllTables(&properties).ok());
    std::map<std::string, std::pair<uint64_t, uint64_t>> files;
    for (const auto& [path, props] : properties) {
      const auto& user = props->user_collected_properties;
      ColumnStats stats;
      EXPECT_TRUE(ColumnStats::Parse(user.at(kColumnStatsProperty), &stats).ok());
      const auto partition = stats.columns().find("partition");
      files[path] = {std::stoull(user.at(kRowGroupsProperty)),
                     partition == stats.columns().end() ? 0 : partition->second.chunks};
    }
    return files;
  }

  void ExpectReadsMatchModel() { ExpectScanMatches(db_.get(), model_); }

  TempDir dir_{"partition-aligned-groups"};
  TableSchema schema_;
  rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
  std::map<std::string, std::string> model_;
};

TEST_F(PartitionAlignedGroupsTest, FlushedSeriesBeginTheirOwnGroups) {
  for (int series = 0; series < kSeries; series++) {
    for (int time = 0; time < kPointsPerSeries; time++) PutPoint(series, time);
  }
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  const auto files = GroupsAndPartitionChunks();
  ASSERT_EQ(files.size(), 1u);
  // Cut by rows alone, 24 groups, 9 of them straddling two series.
  EXPECT_EQ(files.begin()->second.first, 3u * kSeries);
  EXPECT_EQ(files.begin()->second.second, 0u);
  ExpectReadsMatchModel();
}

TEST_F(PartitionAlignedGroupsTest, CompactionOutputsBeginningInsideASeriesRealign) {
  for (int series = 0; series < kSeries; series++) {
    for (int time = 0; time < kPointsPerSeries; time++) PutPoint(series, time);
  }
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  // Outputs of a few kB: each begins wherever the previous one ended, mostly inside a series.
  ASSERT_TRUE(db_->SetOptions({{"target_file_size_base", "2048"}}).ok());
  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  ASSERT_TRUE(db_->CompactRange(compact, nullptr, nullptr).ok());
  const auto files = GroupsAndPartitionChunks();
  ASSERT_GE(files.size(), 2u);
  for (const auto& [path, counts] : files) {
    // Only a first group that begins within a few rows of its series' end may straddle.
    EXPECT_LE(counts.second, 1u) << path << ": " << counts.first << " groups";
  }
  ExpectReadsMatchModel();
  db_.reset();
  db_ = OpenDb(options_, dir_.path());
  ASSERT_NE(db_, nullptr);
  ExpectReadsMatchModel();
}

}  // namespace
}  // namespace columnar
