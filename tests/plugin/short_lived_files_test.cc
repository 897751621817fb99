// Flushed files are short-lived: compaction rewrites them soon, so their chunks leave out
// template, the chooser's costliest analysis (ChunkWriteOptions::short_lived), their string
// and floating-point columns left to auto are written plain (or constant) when lz4 compresses
// them (ShortLivedColumnSettings),
// and their zone maps stay row-major (ZoneMapCollector::FinishRowMajor). Compaction's files
// choose every encoding again and store their zone maps column-major; the values read back
// the same from both.
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/table.h>

#include <map>
#include <memory>
#include <string>

#include "plugin/columnar_table.h"
#include "plugin/zone_map_block.h"
#include "rocksdb/table_properties.h"
#include "table/format.h"
#include "table_format/column_stats.h"
#include "table_format/cql_parser.h"
#include "table_format/data_block.h"
#include "table_format/file_root.h"
#include "table_format/key_codec.h"
#include "table_format/row_codec.h"
#include "tests/plugin/sst_file_fixtures.h"
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
std::string RequestLine(int i) {
  return "GET /api/v1/users/" + std::to_string(i * 7 % 1000) + "/orders/" +
         std::to_string(i * 31 % 977) + "?page=" + std::to_string(i % 9) + " HTTP/1.1";
}

// Chunks of `column` by encoding, over every live file.
std::map<std::string, uint64_t> ValueEncodings(rocksdb::DB* db,
                                               const std::string& column = "value") {
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
    if (stats.columns().count(column) == 0) {
      continue;
    }
    for (const auto& [encoding, count] : stats.columns().at(column).encodings) {
      chunks[encoding] += count;
    }
  }
  return chunks;
}

void ExpectEveryValue(rocksdb::DB* db) {
  for (int i = 0; i < kRows; i++) {
    std::string value;
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), Key(i), &value).ok()) << Key(i);
    ASSERT_EQ(value, RequestLine(i)) << Key(i);
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
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), Key(i), RequestLine(i)).ok());
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

// Row i's status line, one of the first `lines` (at most four) in turn: auto never writes
// such a column plain (dictionary and rle are a fraction of its size).
std::string StatusLine(int i, int lines) {
  static const char* const kLines[] = {"200 OK", "404 Not Found", "500 Internal Server Error",
                                       "302 Found"};
  return kLines[i % lines];
}

// Puts kRows status lines (StatusLine(i, lines)) into a fresh database with `options` and
// flushes them; the chunks of the "value" column by encoding, after the flush and after a full
// compaction (every row read back after each).
struct FlushedAndCompacted {
  std::map<std::string, uint64_t> flushed;
  std::map<std::string, uint64_t> compacted;
};
FlushedAndCompacted StatusLineEncodings(rocksdb::Options options, const std::string& name,
                                        int lines = 4) {
  TempDir dir(name);
  options.create_if_missing = true;
  auto db = OpenDb(options, dir.path());
  EXPECT_NE(db, nullptr);
  FlushedAndCompacted out;
  if (db == nullptr) return out;
  const auto expect_every_value = [&](const char* where) {
    for (int i = 0; i < kRows; i++) {
      std::string value;
      EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), Key(i), &value).ok()) << where << Key(i);
      EXPECT_EQ(value, StatusLine(i, lines)) << where << Key(i);
    }
  };
  for (int i = 0; i < kRows; i++) {
    EXPECT_TRUE(db->Put(rocksdb::WriteOptions(), Key(i), StatusLine(i, lines)).ok());
  }
  EXPECT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  out.flushed = ValueEncodings(db.get());
  expect_every_value("flushed ");
  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  EXPECT_TRUE(db->CompactRange(compact, nullptr, nullptr).ok());
  out.compacted = ValueEncodings(db.get());
  expect_every_value("compacted ");
  return out;
}

uint64_t ChunksNotPlain(const std::map<std::string, uint64_t>& chunks) {
  uint64_t count = 0;
  for (const auto& [encoding, n] : chunks) count += encoding == "plain" ? 0 : n;
  return count;
}

// Auto chose the flushed chunks' encodings: none is plain (never the smallest for these
// values), some chunk has another.
void ExpectFlushChose(const FlushedAndCompacted& encodings, const char* what) {
  EXPECT_EQ(encodings.flushed.count("plain"), 0u) << what << " wrote plain";
  EXPECT_GT(ChunksNotPlain(encodings.flushed), 0u) << what;
}

// Options whose flushes compress blocks with `compression`, for a table with `table`'s options.
rocksdb::Options OptionsFor(rocksdb::CompressionType compression,
                            const ColumnarTableOptions& table = ColumnarTableOptions()) {
  rocksdb::Options options;
  options.compression = compression;
  options.table_factory.reset(NewColumnarTableFactory(table));
  return options;
}

TEST(ShortLivedFilesTest, CompressedFlushesWritePlainBodiesAndCompactionsChooseAgain) {
  const rocksdb::Options options = OptionsFor(rocksdb::kLZ4Compression);
  const FlushedAndCompacted lz4 = StatusLineEncodings(options, "short-lived-lz4");
  EXPECT_GT(lz4.flushed.count("plain"), 0u);
  EXPECT_EQ(ChunksNotPlain(lz4.flushed), 0u) << "an lz4 flush chose an encoding";
  EXPECT_EQ(lz4.compacted.count("plain"), 0u) << "compaction's file kept the flush's plain";
  EXPECT_GT(ChunksNotPlain(lz4.compacted), 0u);

  // One value in every row: constant, as auto would have it.
  const FlushedAndCompacted one_value = StatusLineEncodings(options, "short-lived-constant", 1);
  ASSERT_EQ(one_value.flushed.size(), 1u);
  EXPECT_EQ(one_value.flushed.begin()->first, "constant") << "a tag constant over a group";
}

TEST(ShortLivedFilesTest, ZstdFlushesAndZstdColumnsStillChoose) {
  // zstd over plain strings costs more than the encodings save: auto still chooses.
  ExpectFlushChose(StatusLineEncodings(OptionsFor(rocksdb::kZSTD), "short-lived-zstd"),
                   "a zstd flush");
  ColumnarTableOptions zstd_columns;
  zstd_columns.column_compression = "zstd";
  ExpectFlushChose(StatusLineEncodings(OptionsFor(rocksdb::kLZ4Compression, zstd_columns),
                                       "short-lived-zstd-cols"),
                   "zstd columns of an lz4 flush");
}

TEST(ShortLivedFilesTest, UncompressedFlushesAndGivenEncodingsStillChoose) {
  // Nothing would take what plain bodies leave: auto still chooses.
  ExpectFlushChose(StatusLineEncodings(OptionsFor(rocksdb::kNoCompression), "short-lived-raw"),
                   "an uncompressed flush");

  // A column given an encoding keeps it in a compressed flush too.
  ColumnarTableOptions rle;
  rle.column_encodings = "value:rle";
  const FlushedAndCompacted given =
      StatusLineEncodings(OptionsFor(rocksdb::kLZ4Compression, rle), "short-lived-given");
  ASSERT_EQ(given.flushed.size(), 1u) << "a given encoding was not kept in a flush";
  EXPECT_EQ(given.flushed.begin()->first, "rle");
}

// The first byte of a table file's zone map block, decompressed: a row-major block starts
// with its group count (a varint, non-zero), a column-major one with its marker.
uint8_t ZoneMapBlockFirstByte(const std::string& path) {
  const std::string file = ReadFileBytes(path);
  const FileRoot root = ReadFileRoot(file).root;
  const BlockLocation& zone_maps = root.at(FileBlock::kZoneMaps);
  EXPECT_TRUE(zone_maps.present()) << path;
  std::string zone_map_buffer;
  Slice block;
  EXPECT_TRUE(ReadBlock(Slice(file.data() + zone_maps.offset, zone_maps.size), nullptr, true,
                        &zone_map_buffer, &block)
                  .ok());
  EXPECT_FALSE(block.empty());
  return block.empty() ? 0 : static_cast<uint8_t>(block[0]);
}

std::vector<std::string> LiveFiles(rocksdb::DB* db) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  std::vector<std::string> paths;
  for (const rocksdb::LiveFileMetaData& file : files) paths.push_back(file.db_path + file.name);
  return paths;
}

// A series table (name text, time int, value double, count bigint) of 2000 rows in groups of
// 16, opened at `dir` with `compression` and every row put; `model` gets the rows' bytes. The
// values repeat (a dictionary or a few bits a value beat plain for both columns).
std::unique_ptr<rocksdb::DB> OpenSeriesWithRows(const TempDir& dir,
                                                rocksdb::CompressionType compression,
                                                std::map<std::string, std::string>* model) {
  CreateTableStatement statement;
  EXPECT_TRUE(ParseCreateTable("CREATE TABLE ks.series (name text, time int, value double, "
                               "count bigint, PRIMARY KEY ((name), time))",
                               &statement)
                  .ok());
  const TableSchema& schema = statement.schema;
  ColumnarTableOptions table;
  table.schema = schema.Serialize();
  table.rows_per_group = 16;
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = compression;
  options.table_factory.reset(NewColumnarTableFactory(table));
  auto db = OpenDb(options, dir.path());
  EXPECT_NE(db, nullptr);
  if (db == nullptr) return db;
  const RowCodec codec(schema);
  for (int32_t time = 0; time < 2000; time++) {
    Row row(schema.next_column_id());
    row[schema.FindColumn("value")->id] = Value::Double(time % 97);
    row[schema.FindColumn("count")->id] = Value::BigInt(1000 + time % 13);
    RowMetadata meta;
    meta.schema_version = schema.version();
    std::string key;
    std::string value;
    EXPECT_TRUE(EncodeKey(schema,
                          {Value::FromBytes(LogicalType::kText, "s" + std::to_string(time % 4))},
                          {Value::Int(time)}, &key)
                    .ok());
    EXPECT_TRUE(codec.EncodeRow(meta, row, &value).ok());
    EXPECT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
    (*model)[key] = value;
  }
  return db;
}

TEST(ShortLivedFilesTest, CompressedFlushesWriteDoublesPlainAndIntegersStillChoose) {
  TempDir dir("short-lived-fixed");
  std::map<std::string, std::string> model;
  auto db = OpenSeriesWithRows(dir, rocksdb::kLZ4Compression, &model);
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  // The double column plain, as the strings; the bigint column still chosen (its encodings are
  // cheap, and lz4 takes little from plain integers).
  const std::map<std::string, uint64_t> doubles = ValueEncodings(db.get());
  EXPECT_GT(doubles.count("plain"), 0u);
  EXPECT_EQ(ChunksNotPlain(doubles), 0u) << "an lz4 flush chose a double column's encoding";
  const std::map<std::string, uint64_t> integers = ValueEncodings(db.get(), "count");
  EXPECT_EQ(integers.count("plain"), 0u) << "a flushed bigint column was written plain";
  EXPECT_GT(ChunksNotPlain(integers), 0u);
  ExpectReadsMatch(db.get(), model, "flushed");

  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  ASSERT_TRUE(db->CompactRange(compact, nullptr, nullptr).ok());
  EXPECT_EQ(ValueEncodings(db.get()).count("plain"), 0u) << "compaction kept the flush's plain";
  ExpectReadsMatch(db.get(), model, "compacted");

  // With zstd blocks the double column is still chosen.
  TempDir zstd_dir("short-lived-fixed-zstd");
  std::map<std::string, std::string> zstd_model;
  auto zstd_db = OpenSeriesWithRows(zstd_dir, rocksdb::kZSTD, &zstd_model);
  ASSERT_NE(zstd_db, nullptr);
  ASSERT_TRUE(zstd_db->Flush(rocksdb::FlushOptions()).ok());
  EXPECT_EQ(ValueEncodings(zstd_db.get()).count("plain"), 0u) << "a zstd flush wrote plain";
  ExpectReadsMatch(zstd_db.get(), zstd_model, "flushed with zstd");
}

TEST(ShortLivedFilesTest, FlushesKeepZoneMapsRowMajorAndCompactionsColumnMajor) {
  TempDir dir("short-lived-zone-maps");
  std::map<std::string, std::string> model;
  auto db = OpenSeriesWithRows(dir, rocksdb::Options().compression, &model);
  ASSERT_NE(db, nullptr);
  // Everything reads back (a file opens only if its zone map block parses: one entry per
  // group, each well formed).
  const auto expect_reads = [&](const char* where) { ExpectReadsMatch(db.get(), model, where); };
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  std::vector<std::string> files = LiveFiles(db.get());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(ZoneMapBlockFirstByte(files[0]), kZoneMapBlockColumnMajorMarker)
      << "a flushed file's zone maps are column-major";
  expect_reads("flushed");

  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  ASSERT_TRUE(db->CompactRange(compact, nullptr, nullptr).ok());
  files = LiveFiles(db.get());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(ZoneMapBlockFirstByte(files[0]), kZoneMapBlockColumnMajorMarker)
      << "a compaction's file's zone maps are row-major";
  expect_reads("compacted");
}

}  // namespace
}  // namespace columnar
