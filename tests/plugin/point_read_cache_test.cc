// What point reads leave in the shared cache. In a cache without room to spare, a read of a
// group that is not cached keeps only the raw block (as BlockBasedTable's cache would), reads
// served by that cached block decode the group whole once they are frequent
// (ColumnarTableReader::LoadRowsForPointRead), and the decoded group then replaces its block
// (one copy of the group, not two). In a cache with room, the first read decodes it whole.
#include <gtest/gtest.h>
#include <rocksdb/cache.h>
#include <rocksdb/db.h>

#include <string>

#include "plugin/cache_room.h"
#include "plugin/columnar_table.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

// Entries in `cache` and their total charge.
struct CacheContents {
  size_t entries = 0;
  size_t charge = 0;
};

CacheContents ContentsOf(rocksdb::Cache* cache) {
  CacheContents contents;
  cache->ApplyToAllEntries(
      [&contents](const rocksdb::Slice&, void*, size_t charge, rocksdb::Cache::DeleterFn) {
        contents.entries++;
        contents.charge += charge;
      },
      rocksdb::Cache::ApplyToAllEntriesOptions());
  return contents;
}

// 64 keys in groups of 16 rows, a block each, cached in `cache`; *base: what the open file
// keeps pinned in it, if anything.
std::unique_ptr<rocksdb::DB> OpenFilledDb(const TempDir& dir,
                                          const std::shared_ptr<rocksdb::Cache>& cache,
                                          CacheContents* base) {
  ColumnarTableOptions table;
  table.cache = cache;
  table.rows_per_group = 16;
  table.block_size = 1;  // a block per group
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kNoCompression;
  options.table_factory.reset(NewColumnarTableFactory(table));
  rocksdb::Status s;
  auto db = OpenDb(options, dir.path(), &s);
  EXPECT_NE(db, nullptr) << s.ToString();
  if (db == nullptr) return db;
  for (int i = 0; i < 64; i++) {
    EXPECT_TRUE(db->Put(rocksdb::WriteOptions(), "key" + std::to_string(100 + i),
                        std::string(200, static_cast<char>('a' + i % 26)))
                    .ok());
  }
  EXPECT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  cache->EraseUnRefEntries();
  *base = ContentsOf(cache.get());
  return db;
}

// A cache without room to spare (ColumnarTableReader::LoadRowsForPointRead): cold groups are
// read for their key columns; the decoded group comes after eight reads from the block.
TEST(PointReadCacheTest, ColdGroupsLeaveTheirBlockAndHotOnesTheirDecodedGroupOnly) {
  TempDir dir("point-read-cache");
  const size_t capacity = 4 << 20;
  auto cache = rocksdb::NewLRUCache(capacity, 0);
  // Most of the capacity taken by an entry kept pinned: the cache has no room to spare.
  rocksdb::Cache::Handle* filler = nullptr;
  ASSERT_TRUE(cache->Insert("filler", nullptr, capacity - capacity / 32, nullptr, &filler).ok());
  CacheContents base;
  auto db = OpenFilledDb(dir, cache, &base);
  ASSERT_NE(db, nullptr);

  std::string value;
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "key120", &value).ok());
  EXPECT_EQ(value, std::string(200, 'u'));
  const CacheContents cold = ContentsOf(cache.get());
  EXPECT_EQ(cold.entries, base.entries + 1) << "the block only, no decoded group";
  // 16 rows of 200-byte values.
  EXPECT_GE(cold.charge - base.charge, 16u * 200);
  EXPECT_LT(cold.charge - base.charge, 2u * 16 * 200);

  // Reads served by the cached block: eight (kCachedReadsBeforeDecoding) keep only it; the
  // ninth decodes the group whole, which then stands in for the block.
  for (int read = 1; read <= 8; read++) {
    ASSERT_TRUE(
        db->Get(rocksdb::ReadOptions(), "key" + std::to_string(117 + (read - 1) % 3), &value).ok());
    EXPECT_EQ(ContentsOf(cache.get()).entries, base.entries + 1) << read;
    EXPECT_EQ(ContentsOf(cache.get()).charge, cold.charge) << read;
  }
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "key125", &value).ok());
  EXPECT_EQ(value, std::string(200, 'z'));
  const CacheContents hot = ContentsOf(cache.get());
  EXPECT_EQ(hot.entries, base.entries + 1) << "the decoded group only";
  EXPECT_NE(hot.charge, cold.charge);
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "key126", &value).ok());
  EXPECT_EQ(value, std::string(200, 'a'));
  EXPECT_EQ(ContentsOf(cache.get()).charge, hot.charge);

  // A seek into another cold group also keeps its block only.
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
  it->Seek("key150");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key().ToString(), "key150");
  EXPECT_EQ(ContentsOf(cache.get()).entries, base.entries + 2);
  // Moving on enters the whole group, which stands in for its block.
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key().ToString(), "key151");
  EXPECT_EQ(ContentsOf(cache.get()).entries, base.entries + 2);
  it.reset();
  cache->Release(filler);
}

// While the cache has room to spare, a point read decodes its group whole at once and caches
// only the decoded group: its block, read for that, never enters the cache.
TEST(PointReadCacheTest, ACacheWithRoomGetsTheDecodedGroupAtTheFirstRead) {
  TempDir dir("point-read-cache-room");
  auto cache = rocksdb::NewLRUCache(64 << 20, 0);
  CacheContents base;
  auto db = OpenFilledDb(dir, cache, &base);
  ASSERT_NE(db, nullptr);
  std::string value;
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "key120", &value).ok());
  EXPECT_EQ(value, std::string(200, 'u'));
  const CacheContents first = ContentsOf(cache.get());
  EXPECT_EQ(first.entries, base.entries + 1) << "the decoded group only";
  // The decoded group: 16 values of 200 bytes and the keys, more than the block's charge.
  EXPECT_GE(first.charge - base.charge, 16u * 200);
  // Later reads find the decoded group: nothing changes (in a cache without room the fourth
  // read would replace the block by the decoded group, of another charge).
  for (int read = 1; read <= 4; read++) {
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "key" + std::to_string(120 + read), &value).ok());
    EXPECT_EQ(value, std::string(200, static_cast<char>('u' + read)));
    EXPECT_EQ(ContentsOf(cache.get()).entries, base.entries + 1) << read;
    EXPECT_EQ(ContentsOf(cache.get()).charge, first.charge) << read;
  }
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
  it->Seek("key150");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key().ToString(), "key150");
  EXPECT_EQ(ContentsOf(cache.get()).entries, base.entries + 2);
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key().ToString(), "key151");
  EXPECT_EQ(ContentsOf(cache.get()).entries, base.entries + 2);
}

// CacheRoom: a cache below kMinRoom never has room (tests that keep nothing cached rely on it
// to take the path of cold groups); a large one has until it fills, seen at the next sample.
TEST(PointReadCacheTest, CacheRoomOfTinyLargeAndFullCaches) {
  CacheRoom tiny_room;
  auto tiny = rocksdb::NewLRUCache(1, 0);
  EXPECT_FALSE(tiny_room.HasRoom(tiny.get()));
  CacheRoom small_room;
  auto small = rocksdb::NewLRUCache(CacheRoom::kMinRoom - 1, 0);
  EXPECT_FALSE(small_room.HasRoom(small.get()));
  EXPECT_FALSE(small_room.HasRoom(nullptr));

  CacheRoom room;
  const size_t capacity = 64 << 20;
  auto large = rocksdb::NewLRUCache(capacity, 0);
  EXPECT_TRUE(room.HasRoom(large.get()));
  rocksdb::Cache::Handle* filler = nullptr;
  ASSERT_TRUE(large->Insert("filler", nullptr, capacity / 2 + 1, nullptr, &filler).ok());
  // The answer changes at the next sample only.
  for (uint32_t call = 1; call < CacheRoom::kSampleEvery; call++) {
    ASSERT_TRUE(room.HasRoom(large.get())) << call;
  }
  EXPECT_FALSE(room.HasRoom(large.get()));
  large->Release(filler);
}

}  // namespace
}  // namespace columnar
