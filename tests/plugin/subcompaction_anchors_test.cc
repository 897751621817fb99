// ColumnarTableReader::ApproximateKeyAnchors, which RocksDB uses to split a compaction into
// subcompactions: anchors weigh the bytes their rows take uncompressed, so a compaction of
// columnar files splits by its rows, not by how tightly the format packed them.
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <rocksdb/table_properties.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "plugin/columnar_table.h"
#include "plugin/raw_table_entries.h"
#include "table/table_reader.h"
#include "tests/plugin/sst_file_fixtures.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

TEST(SubcompactionAnchorsTest, AnchorsAscendAndWeighTheRowsUncompressed) {
  TempDir dir("anchors");
  const rocksdb::Options options = ColumnarFileOptions(/*compressed=*/true);
  const std::string path = dir.Sub("file.sst");
  WriteFixture(options, path, MakeFixtureContents(0, 4000));
  TableFile file;
  ASSERT_TRUE(file.Open(options, path).ok());
  const auto properties = file.reader()->GetTableProperties();
  const uint64_t raw = properties->raw_key_size + properties->raw_value_size;
  ASSERT_GT(raw, 2 * properties->data_size) << "the fixture is meant to compress";

  std::vector<rocksdb::TableReader::Anchor> anchors;
  ASSERT_TRUE(file.reader()->ApproximateKeyAnchors(rocksdb::ReadOptions(), anchors).ok());
  ASSERT_GT(anchors.size(), 10u);
  EXPECT_LE(anchors.size(), 256u);
  uint64_t weighed = 0;
  for (size_t i = 0; i < anchors.size(); i++) {
    if (i > 0) {
      EXPECT_LT(anchors[i - 1].user_key, anchors[i].user_key) << i;
    }
    EXPECT_GT(anchors[i].range_size, 0u) << i;
    weighed += anchors[i].range_size;
  }
  EXPECT_LE(anchors.back().user_key, FixtureKey(3999));
  // The ranges cover every data block once, each scaled by the file's raw / data ratio.
  EXPECT_GT(weighed, raw * 9 / 10);
  EXPECT_LT(weighed, raw * 11 / 10);
}

// Rows of 100-byte values made of one repeated letter: about 110 raw bytes a row that the
// columnar files store in a few.
std::map<std::string, std::string> WriteOverlappingFiles(rocksdb::DB* db, int files, int rows) {
  std::map<std::string, std::string> model;
  for (int f = 0; f < files; f++) {
    for (int i = 0; i < rows; i++) {
      const std::string key = NumberedKey(i * files + f);
      const std::string value(100, static_cast<char>('a' + (i / 50 + f) % 3));
      EXPECT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
      model[key] = value;
    }
    EXPECT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  }
  return model;
}

uint64_t LiveSstBytes(rocksdb::DB* db) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  uint64_t total = 0;
  for (const auto& file : files) total += file.size;
  return total;
}

// RocksDB 7.8 splits a compaction only into ranges of at least one output file each, and only
// into three or more. With the target file size set to the files' whole size, ranges weighed
// by file bytes could not be split; weighed by their rows (many times the file bytes here) they
// are, into the three subcompactions asked for.
TEST(SubcompactionAnchorsTest, ACompactionOfColumnarFilesSplitsByItsRows) {
  TempDir dir("subcompactions");
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kZSTD;
  options.disable_auto_compactions = true;
  options.statistics = rocksdb::CreateDBStatistics();
  options.table_factory.reset(NewColumnarTableFactory(ColumnarTableOptions()));
  std::unique_ptr<rocksdb::DB> db = OpenDb(options, dir.path());
  ASSERT_NE(db, nullptr);
  const std::map<std::string, std::string> model = WriteOverlappingFiles(db.get(), 4, 20000);
  const uint64_t file_bytes = LiveSstBytes(db.get());
  ASSERT_TRUE(db->SetOptions({{"target_file_size_base", std::to_string(file_bytes)}}).ok());

  rocksdb::CompactRangeOptions compact;
  compact.max_subcompactions = 3;
  ASSERT_TRUE(db->CompactRange(compact, nullptr, nullptr).ok());

  rocksdb::HistogramData scheduled;
  options.statistics->histogramData(rocksdb::NUM_SUBCOMPACTIONS_SCHEDULED, &scheduled);
  EXPECT_EQ(scheduled.count, 1u);
  EXPECT_EQ(scheduled.max, 3.0);
  ExpectReadsMatch(db.get(), model, "after the split compaction");
}

}  // namespace
}  // namespace columnar
