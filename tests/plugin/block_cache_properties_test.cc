// RocksDB's block-cache DB properties on a ColumnarTable database report the factory's shared
// cache (decoded row groups and blocks), as they report the block cache of BlockBasedTable.
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/table.h>

#include <map>
#include <string>

#include "plugin/columnar_table.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

TEST(BlockCachePropertiesTest, PropertiesReportTheFactoryCache) {
  TempDir dir("block-cache-properties");
  auto cache = rocksdb::NewLRUCache(8 << 20);
  ColumnarTableOptions table;
  table.cache = cache;
  rocksdb::Options options;
  options.create_if_missing = true;
  options.table_factory.reset(NewColumnarTableFactory(table));
  rocksdb::Status s;
  auto db = OpenDb(options, dir.path(), &s);
  ASSERT_NE(db, nullptr) << s.ToString();
  for (int i = 0; i < 2000; i++) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "key" + std::to_string(i), "value").ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  std::string value;
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "key7", &value).ok());
  // Keep a group pinned while the pinned usage is read.
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());

  uint64_t capacity = 0, usage = 0, pinned = 0;
  ASSERT_TRUE(db->GetIntProperty("rocksdb.block-cache-capacity", &capacity));
  EXPECT_EQ(capacity, cache->GetCapacity());
  ASSERT_TRUE(db->GetIntProperty("rocksdb.block-cache-usage", &usage));
  EXPECT_GT(usage, 0u);
  EXPECT_EQ(usage, cache->GetUsage());
  ASSERT_TRUE(db->GetIntProperty("rocksdb.block-cache-pinned-usage", &pinned));
  EXPECT_GT(pinned, 0u);
  std::string text;
  ASSERT_TRUE(db->GetProperty("rocksdb.block-cache-entry-stats", &text));
  EXPECT_NE(text.find("Block cache"), std::string::npos) << text;
  std::map<std::string, std::string> stats;
  ASSERT_TRUE(db->GetMapProperty("rocksdb.block-cache-entry-stats", &stats));
  EXPECT_EQ(stats["capacity"], std::to_string(cache->GetCapacity()));

  // Through the factory's own cache (cache_size) as well.
  ColumnarTableOptions sized;
  sized.cache_size = 3 << 20;
  std::shared_ptr<rocksdb::TableFactory> factory(NewColumnarTableFactory(sized));
  const auto* own = factory->GetOptions<rocksdb::Cache>(rocksdb::TableFactory::kBlockCacheOpts());
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(own->GetCapacity(), size_t{3} << 20);
}

}  // namespace
}  // namespace columnar
