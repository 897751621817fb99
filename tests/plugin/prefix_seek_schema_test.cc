// A ColumnarTable factory with a schema, used from plain RocksDB with a prefix extractor
// shorter than the schema's encoded partition key: a prefix-mode Seek is confined to the
// extractor's prefix, not to the target's schema partition, so the file's partition filter
// (built on schema partitions) must not end it when the target's own partition is absent.
// Differential against BlockBasedTable with the same extractor.
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>

#include <algorithm>
#include <string>
#include <vector>

#include "plugin/columnar_table.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

constexpr char kSchema[] = "CREATE TABLE ks.t (p text, c int, v text, PRIMARY KEY ((p), c))";

// A key of partition `p` (text component: bytes, then 0x00 0x01) followed by `rest`.
std::string KeyOf(const std::string& p, const std::string& rest) {
  return p + std::string("\x00\x01", 2) + rest;
}

// What prefix-mode seeks to `targets` return: the key found when it has the target's prefix,
// else "-" (past the prefix the result of a prefix-mode seek is undefined).
std::vector<std::string> Seeks(rocksdb::TableFactory* factory, size_t prefix_length,
                               const std::vector<std::string>& targets) {
  TempDir dir("prefix-seek-schema");
  rocksdb::Options options;
  options.create_if_missing = true;
  options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(prefix_length));
  options.table_factory.reset(factory);
  rocksdb::Status s;
  auto db = OpenDb(options, dir.path(), &s);
  EXPECT_NE(db, nullptr) << s.ToString();
  if (db == nullptr) return {};
  for (const char* p : {"aa", "ac", "ae", "ba", "bc"}) {
    for (int i = 0; i < 50; i++) {
      EXPECT_TRUE(db->Put(rocksdb::WriteOptions(), KeyOf(p, std::to_string(1000 + i)), "v").ok());
    }
  }
  EXPECT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  std::vector<std::string> out;
  for (bool same_as_start : {false, true}) {
    rocksdb::ReadOptions read;
    read.prefix_same_as_start = same_as_start;
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(read));
    for (const std::string& target : targets) {
      it->Seek(target);
      const bool in_prefix =
          it->Valid() && it->key().starts_with(
                             rocksdb::Slice(target.data(), std::min(prefix_length, target.size())));
      std::string found = in_prefix ? it->key().ToString(true) : "-";
      EXPECT_TRUE(it->status().ok()) << it->status().ToString();
      out.push_back(target + " -> " + found);
    }
  }
  return out;
}

TEST(PrefixSeekSchemaTest, SeekToAbsentPartitionFindsTheNextKeyOfItsPrefix) {
  // Partitions "ab", "ad", "bb" are absent; "ab" and "ad" share the extractor prefix "a" with
  // present partitions.
  // (Every target is in the extractors' domain: RocksDB's prefix_same_as_start needs it.)
  const std::vector<std::string> targets = {KeyOf("ab", "0"),    KeyOf("ab", "1003"),
                                            KeyOf("ad", "0"),    KeyOf("bb", "9"),
                                            KeyOf("ac", "1010"), KeyOf("zz", "0")};
  for (size_t prefix_length : {size_t{1}, size_t{2}, size_t{5}}) {
    SCOPED_TRACE("prefix length " + std::to_string(prefix_length));
    rocksdb::BlockBasedTableOptions block_based;
    block_based.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
    const auto expected =
        Seeks(rocksdb::NewBlockBasedTableFactory(block_based), prefix_length, targets);
    ColumnarTableOptions columnar;
    columnar.schema = kSchema;
    const auto actual = Seeks(NewColumnarTableFactory(columnar), prefix_length, targets);
    EXPECT_EQ(actual, expected);
  }
}

}  // namespace
}  // namespace columnar
