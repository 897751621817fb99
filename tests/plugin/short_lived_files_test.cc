// Flushed files are short-lived: compaction rewrites them soon, so their chunks leave out
// template, the chooser's costliest analysis (ChunkWriteOptions::short_lived). Compaction's
// files weigh it again, and the values read back the same from both.
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/table.h>

#include <map>
#include <memory>
#include <string>

#include "plugin/columnar_table.h"
#include "table_format/column_stats.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

constexpr int kRows = 2000;

std::string Key(int i) {
  char key[16];
  snprintf(key, sizeof(key), "req%06d", i);
  return key;
}

// Request lines that share their text and differ in numbers: template wins on them.
std::string Value(int i) {
  return "GET /api/v1/users/" + std::to_string(i * 7 % 1000) + "/orders/" +
         std::to_string(i * 31 % 977) + "?page=" + std::to_string(i % 9) + " HTTP/1.1";
}

// Chunks of the "value" column by encoding, over every live file.
std::map<std::string, uint64_t> ValueEncodings(rocksdb::DB* db) {
  rocksdb::TablePropertiesCollection files;
  EXPECT_TRUE(db->GetPropertiesOfAllTables(&files).ok());
  EXPECT_FALSE(files.empty());
  std::map<std::string, uint64_t> chunks;
  for (const auto& [path, props] : files) {
    ColumnStats stats;
    EXPECT_TRUE(
        ColumnStats::Parse(props->user_collected_properties.at("columnar.column_stats"), &stats)
            .ok())
        << path;
    if (stats.columns().count("value") == 0) {
      continue;
    }
    for (const auto& [encoding, count] : stats.columns().at("value").encodings) {
      chunks[encoding] += count;
    }
  }
  return chunks;
}

void ExpectEveryValue(rocksdb::DB* db) {
  for (int i = 0; i < kRows; i++) {
    std::string value;
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), Key(i), &value).ok()) << Key(i);
    ASSERT_EQ(value, Value(i)) << Key(i);
  }
}

TEST(ShortLivedFilesTest, FlushesLeaveTemplateOutAndCompactionsWeighIt) {
  TempDir dir("short-lived");
  rocksdb::Options options;
  options.create_if_missing = true;
  options.table_factory.reset(NewColumnarTableFactory());
  auto db = OpenDb(options, dir.path());
  ASSERT_NE(db, nullptr);
  for (int i = 0; i < kRows; i++) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), Key(i), Value(i)).ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());

  const std::map<std::string, uint64_t> flushed = ValueEncodings(db.get());
  EXPECT_FALSE(flushed.empty());
  EXPECT_EQ(flushed.count("template"), 0u) << "a flushed file's chunk was written as template";
  ExpectEveryValue(db.get());

  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  ASSERT_TRUE(db->CompactRange(compact, nullptr, nullptr).ok());
  const std::map<std::string, uint64_t> compacted = ValueEncodings(db.get());
  EXPECT_GT(compacted.count("template"), 0u) << "compaction's file has no template chunk";
  ExpectEveryValue(db.get());

  // Reopened, both kinds of file still read (the compacted one is what is left).
  db.reset();
  db = OpenDb(options, dir.path());
  ASSERT_NE(db, nullptr);
  ExpectEveryValue(db.get());
}

}  // namespace
}  // namespace columnar
