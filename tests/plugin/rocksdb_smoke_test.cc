// Proves the toolchain end to end: the test links Debian's librocksdb.so, opens a database,
// writes, flushes, compacts and reads back.
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <cstdlib>
#include <string>

#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

TEST(RocksDbSmokeTest, OpenWriteFlushCompactRead) {
  TempDir dir("smoke");
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(options, dir.path(), &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  for (int i = 0; i < 1000; i++) {
    ASSERT_TRUE(
        db->Put(rocksdb::WriteOptions(), "key" + std::to_string(i), "v" + std::to_string(i)).ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  ASSERT_TRUE(db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
  std::string value;
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "key777", &value).ok());
  EXPECT_EQ(value, "v777");
  EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), "missing", &value).IsNotFound());
}

}  // namespace
}  // namespace columnar
