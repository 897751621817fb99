// Blocks end at the row-group boundary nearest to block_size: a point read decompresses a
// whole block, so a block much larger than block_size makes every cache miss cost more than
// BlockBasedTable's.
#include <gtest/gtest.h>
#include <rocksdb/table_properties.h>

#include <random>

#include "plugin/columnar_table.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

// Flushes `rows` keys whose values are `value_bytes` random bytes (incompressible, so a row
// group's encoded size is about rows_per_group * value_bytes) and returns the file's
// properties.
std::shared_ptr<const rocksdb::TableProperties> FlushRandomRows(const std::string& path,
                                                                uint32_t block_size,
                                                                size_t value_bytes, int rows) {
  ColumnarTableOptions table;
  table.rows_per_group = 16;
  table.block_size = block_size;
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kNoCompression;
  options.table_factory.reset(NewColumnarTableFactory(table));
  std::unique_ptr<rocksdb::DB> db = OpenDb(options, path);
  EXPECT_NE(db, nullptr);
  if (db == nullptr) return nullptr;
  std::mt19937_64 random(7);
  for (int i = 0; i < rows; i++) {
    std::string value(value_bytes, '\0');
    for (char& c : value) c = static_cast<char>(random());
    char key[16];
    std::snprintf(key, sizeof(key), "k%06d", i);
    EXPECT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
  }
  EXPECT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  rocksdb::TablePropertiesCollection collection;
  EXPECT_TRUE(db->GetPropertiesOfAllTables(&collection).ok());
  EXPECT_EQ(collection.size(), 1u);
  return collection.empty() ? nullptr : collection.begin()->second;
}

uint64_t RowGroups(const rocksdb::TableProperties& properties) {
  return std::stoull(properties.user_collected_properties.at("columnar.row_groups"));
}

// Groups of about 3.3 KB and 4 KB blocks: stopping after one group (3.3 KB) is nearer to the
// block size than going on to two (6.6 KB), so every block holds one group.
TEST(BlockBoundaryTest, BlockEndsAtTheGroupBoundaryNearestToBlockSize) {
  TempDir dir("block-boundary");
  const auto properties = FlushRandomRows(dir.Sub("db"), 4096, 200, 16 * 40);
  ASSERT_NE(properties, nullptr);
  EXPECT_EQ(RowGroups(*properties), 40u);
  EXPECT_EQ(properties->num_data_blocks, 40u);
  EXPECT_LT(properties->data_size / properties->num_data_blocks, 4096u);
}

// Groups of about 1.6 KB and 4 KB blocks: blocks hold two or three groups, on average
// within half a group of 4 KB (not one group each).
TEST(BlockBoundaryTest, SmallGroupsFillTheBlock) {
  TempDir dir("block-boundary-small");
  const auto properties = FlushRandomRows(dir.Sub("db"), 4096, 100, 16 * 40);
  ASSERT_NE(properties, nullptr);
  const uint64_t groups = RowGroups(*properties);
  ASSERT_EQ(groups, 40u);
  EXPECT_LE(properties->num_data_blocks, groups / 2);
  const double group_bytes = static_cast<double>(properties->data_size) / groups;
  const double block_bytes =
      static_cast<double>(properties->data_size) / static_cast<double>(properties->num_data_blocks);
  EXPECT_NEAR(block_bytes, 4096, group_bytes / 2);
}

}  // namespace
}  // namespace columnar
