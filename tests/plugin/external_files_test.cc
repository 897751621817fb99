// External ColumnarTable files and whole-database copies: SstFileWriter + IngestExternalFile
// into a ColumnarTable database (into an empty key range, over keys in the memtable so that
// RocksDB assigns a global sequence number -- written into the file or not), and
// Checkpoint::CreateCheckpoint. Reads must match a model before and after reopen and
// compaction. The ingestion tests run on BlockBasedTable too, which checks the model.
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/checkpoint.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "tests/plugin/sst_file_fixtures.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

using Model = std::map<std::string, std::string>;

// Parameters: the table format ("ColumnarTable" or "BlockBasedTable"), and
// IngestExternalFileOptions::write_global_seqno.
class ExternalFilesTest : public ::testing::TestWithParam<std::tuple<std::string, bool>> {
 protected:
  ExternalFilesTest() : options_(ColumnarFileOptions(/*compressed=*/true)) {
    if (std::get<0>(GetParam()) == "BlockBasedTable") {
      options_.table_factory.reset(rocksdb::NewBlockBasedTableFactory());
    }
  }

  void Open() {
    RenewTableFactory(&options_);
    db_ = OpenDb(options_, dir_.Sub("db"));
    ASSERT_NE(db_, nullptr);
  }

  // Writes keys [first, first + count) of the fixture to a file and ingests it.
  void Ingest(int first, int count, const rocksdb::IngestExternalFileOptions& ingest) {
    const std::string path = dir_.Sub("ingest-" + std::to_string(first) + ".sst");
    const FixtureContents contents = MakeFixtureContents(first, count);
    WriteFixture(options_, path, contents);
    const rocksdb::Status s = db_->IngestExternalFile({path}, ingest);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ApplyFixture(contents, &model_);
  }

  void PutInMemtable(int first, int count, int step) {
    for (int i = first; i < first + count; i += step) {
      const std::string value = "memtable" + std::to_string(i);
      ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), FixtureKey(i), value).ok());
      model_[FixtureKey(i)] = value;
    }
  }

  // Largest sequence number among the live files whose smallest key is `smallest`.
  uint64_t LargestSeqnoOfFileStartingAt(const std::string& smallest) {
    std::vector<rocksdb::LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    for (const auto& file : files) {
      if (file.smallestkey == smallest) return file.largest_seqno;
    }
    ADD_FAILURE() << "no file starts at " << smallest;
    return 0;
  }

  void ExpectMatchesAfterReopenAndCompaction() {
    ExpectReadsMatch(db_.get(), model_, "after ingestion");
    db_.reset();
    Open();
    ExpectReadsMatch(db_.get(), model_, "after reopen");
    ASSERT_TRUE(db_->VerifyChecksum().ok());
    rocksdb::CompactRangeOptions compact;
    compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    ASSERT_TRUE(db_->CompactRange(compact, nullptr, nullptr).ok());
    ExpectReadsMatch(db_.get(), model_, "after compaction");
  }

  TempDir dir_{"external"};
  rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
  Model model_;
};

TEST_P(ExternalFilesTest, IngestsIntoEmptyRangeAndOverMemtableKeys) {
  Open();
  rocksdb::IngestExternalFileOptions ingest;
  ingest.write_global_seqno = std::get<1>(GetParam());
  ingest.verify_checksums_before_ingest = true;
  ASSERT_NO_FATAL_FAILURE(Ingest(0, 1000, ingest));
  ExpectReadsMatch(db_.get(), model_, "first file");

  // Keys [1500, 2500) in the memtable, then a file over [2000, 3000): RocksDB flushes the
  // memtable and gives the file a sequence number above it.
  ASSERT_NO_FATAL_FAILURE(PutInMemtable(1500, 1000, 3));
  ASSERT_NO_FATAL_FAILURE(Ingest(2000, 1000, ingest));
  EXPECT_GT(LargestSeqnoOfFileStartingAt(FixtureKey(2000)), 0u);
  ExpectReadsMatch(db_.get(), model_, "overlapping file");

  // And over keys that are only in the memtable, with snapshots alive.
  ASSERT_NO_FATAL_FAILURE(PutInMemtable(3100, 300, 2));
  const rocksdb::Snapshot* snapshot = db_->GetSnapshot();
  const Model before = model_;
  ASSERT_NO_FATAL_FAILURE(Ingest(3000, 500, ingest));
  rocksdb::ReadOptions at_snapshot;
  at_snapshot.snapshot = snapshot;
  for (const auto& [key, value] : before) {
    std::string got;
    ASSERT_TRUE(db_->Get(at_snapshot, key, &got).ok()) << key;
    ASSERT_EQ(got, value);
  }
  db_->ReleaseSnapshot(snapshot);
  ASSERT_NO_FATAL_FAILURE(ExpectMatchesAfterReopenAndCompaction());
}

INSTANTIATE_TEST_SUITE_P(FormatAndGlobalSeqno, ExternalFilesTest,
                         ::testing::Combine(::testing::Values("ColumnarTable", "BlockBasedTable"),
                                            ::testing::Bool()),
                         [](const ::testing::TestParamInfo<std::tuple<std::string, bool>>& info) {
                           return std::get<0>(info.param) +
                                  (std::get<1>(info.param) ? "_SeqnoWritten" : "_SeqnoNotWritten");
                         });

TEST(ExternalFilesErrorsTest, DamagedOrForeignFilesAreRefused) {
  TempDir dir("external-bad");
  rocksdb::Options options = ColumnarFileOptions(false);
  auto db = OpenDb(options, dir.Sub("db"));
  ASSERT_NE(db, nullptr);
  rocksdb::IngestExternalFileOptions ingest;
  ingest.verify_checksums_before_ingest = true;

  const std::string damaged = dir.Sub("damaged.sst");
  WriteFixtureFile(options, damaged, 500);
  std::string bytes = ReadFileBytes(damaged);
  bytes[100] = static_cast<char>(bytes[100] ^ 0x10);
  WriteFileBytes(damaged, bytes);
  EXPECT_TRUE(db->IngestExternalFile({damaged}, ingest).IsCorruption());

  rocksdb::Options block_based = options;
  block_based.table_factory.reset(rocksdb::NewBlockBasedTableFactory());
  const std::string foreign = dir.Sub("block_based.sst");
  WriteFixtureFile(block_based, foreign, 500);
  EXPECT_FALSE(db->IngestExternalFile({foreign}, ingest).ok());
  ExpectReadsMatch(db.get(), {}, "after refused ingestions");
}

TEST(CheckpointTest, CheckpointOpensAndReadsIdentically) {
  TempDir dir("checkpoint");
  rocksdb::Options options = ColumnarFileOptions(true);
  auto db = OpenDb(options, dir.Sub("db"));
  ASSERT_NE(db, nullptr);
  Model model;
  for (int round = 0; round < 3; round++) {
    for (int i = round; i < 3000; i += 3) {
      const std::string key = FixtureKey(i);
      const std::string value = FixtureValue(i + round);
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
      model[key] = value;
    }
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  }
  for (int i = 0; i < 3000; i += 13) {
    ASSERT_TRUE(db->Delete(rocksdb::WriteOptions(), FixtureKey(i)).ok());
    model.erase(FixtureKey(i));
  }
  ASSERT_TRUE(db->DeleteRange(rocksdb::WriteOptions(), db->DefaultColumnFamily(), FixtureKey(700),
                              FixtureKey(800))
                  .ok());
  model.erase(model.lower_bound(FixtureKey(700)), model.lower_bound(FixtureKey(800)));
  ASSERT_TRUE(db->Merge(rocksdb::WriteOptions(), FixtureKey(1), "merged").ok());
  model[FixtureKey(1)] += ",merged";  // still in the memtable: the checkpoint flushes it

  rocksdb::Checkpoint* raw = nullptr;
  ASSERT_TRUE(rocksdb::Checkpoint::Create(db.get(), &raw).ok());
  std::unique_ptr<rocksdb::Checkpoint> checkpoint(raw);
  const std::string copy_path = dir.Sub("checkpoint");
  ASSERT_TRUE(checkpoint->CreateCheckpoint(copy_path).ok());
  ExpectReadsMatch(db.get(), model, "source");
  db.reset();

  RenewTableFactory(&options);
  options.create_if_missing = false;
  auto copy = OpenDb(options, copy_path);
  ASSERT_NE(copy, nullptr);
  ExpectReadsMatch(copy.get(), model, "checkpoint");
  EXPECT_TRUE(copy->VerifyChecksum().ok());
  rocksdb::TablePropertiesCollection properties;
  ASSERT_TRUE(copy->GetPropertiesOfAllTables(&properties).ok());
  ASSERT_FALSE(properties.empty());
  for (const auto& [file, table] : properties) {
    EXPECT_EQ(table->user_collected_properties.count("columnar.layout"), 1u) << file;
  }
}

}  // namespace
}  // namespace columnar
