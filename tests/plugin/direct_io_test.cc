// ColumnarTable files read with direct I/O (use_direct_reads): every read path (table open,
// Get, iterators, VerifyChecksum, compaction, reopen) must see the same data as buffered
// reads. The reader once let RocksDB's aligned buffer go out of scope while still reading from
// it (checksum mismatches, invalid reads under ASan).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/table.h>
#include <unistd.h>

#include <map>
#include <random>
#include <string>

#include "plugin/columnar_table.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

// Whether files in `dir` can be opened with O_DIRECT (tmpfs, for one, refuses it).
bool DirectIoSupported(const std::string& dir) {
  const std::string probe = dir + "/direct-io-probe";
  const int fd = open(probe.c_str(), O_CREAT | O_RDWR | O_DIRECT, 0644);
  if (fd < 0) return false;
  close(fd);
  unlink(probe.c_str());
  return true;
}

rocksdb::Options DirectReadOptions(const std::string& schema) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.use_direct_reads = true;
  options.use_direct_io_for_flush_and_compaction = true;
  ColumnarTableOptions table;
  table.schema = schema;
  // A small cache so that reads keep going to the file.
  table.cache_size = 64 << 10;
  options.table_factory.reset(NewColumnarTableFactory(table));
  return options;
}

void CheckEverything(rocksdb::DB* db, const std::map<std::string, std::string>& model) {
  for (const auto& [key, value] : model) {
    std::string got;
    const rocksdb::Status s = db->Get(rocksdb::ReadOptions(), key, &got);
    ASSERT_TRUE(s.ok()) << key << ": " << s.ToString();
    ASSERT_EQ(got, value) << key;
  }
  rocksdb::ReadOptions scan;
  scan.fill_cache = false;  // every block from the file
  ExpectScanMatches(db, model, scan);
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(scan));
  auto reverse = model.rbegin();
  for (it->SeekToLast(); it->Valid(); it->Prev(), ++reverse) {
    ASSERT_NE(reverse, model.rend());
    ASSERT_EQ(it->key().ToString(), reverse->first);
  }
  ASSERT_TRUE(it->status().ok()) << it->status().ToString();
  EXPECT_EQ(reverse, model.rend());
  const rocksdb::Status verified = db->VerifyChecksum();
  ASSERT_TRUE(verified.ok()) << verified.ToString();
}

void RunDirectReads(const std::string& schema) {
  TempDir dir("direct-io");
  if (!DirectIoSupported(dir.path())) {
    GTEST_SKIP() << "the file system of " << dir.path() << " refuses O_DIRECT";
  }
  const rocksdb::Options options = DirectReadOptions(schema);
  std::map<std::string, std::string> model;
  std::mt19937 rng(11);
  {
    rocksdb::Status s;
    auto db = OpenDb(options, dir.path(), &s);
    ASSERT_NE(db, nullptr) << s.ToString();
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 3000; i++) {
        const std::string key = NumberedKey(static_cast<int>(rng() % 20000));
        const std::string value = "v" + std::to_string(rng()) + std::string(rng() % 300, 'x');
        ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
        model[key] = value;
      }
      ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
    }
    CheckEverything(db.get(), model);
    s = db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
    ASSERT_TRUE(s.ok()) << s.ToString();
    CheckEverything(db.get(), model);
    rocksdb::TablePropertiesCollection properties;
    s = db->GetPropertiesOfAllTables(&properties);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  // Reopen: every file's footer, root, metaindex and properties read again with direct I/O.
  rocksdb::Status s;
  auto db = OpenDb(options, dir.path(), &s);
  ASSERT_NE(db, nullptr) << s.ToString();
  CheckEverything(db.get(), model);
}

TEST(ColumnarDirectIoTest, GenericLayoutReadsWithDirectIo) { RunDirectReads(""); }

TEST(ColumnarDirectIoTest, TypedLayoutReadsWithDirectIo) {
  // Keys and values that are not rows of the schema are stored as they are: the typed layout's
  // open path (schema, dictionaries, zone maps) still runs on every file.
  RunDirectReads("CREATE TABLE ks.t (p text, c int, v text, PRIMARY KEY ((p), c))");
}

}  // namespace
}  // namespace columnar
