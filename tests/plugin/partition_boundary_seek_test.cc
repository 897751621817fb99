// Seeks at partition boundaries (ColumnarTableReader::GroupForLowerBound). A seek for the start
// of a partition that begins a row group lands, by the index's first keys, in the group before
// it; once that group has been decoded, or its partition slot read (which a cold seek does), the
// reader knows the group ends another partition and starts the seek in the next group instead.
// The answers must not change: every seek (to a partition's start, to each row, between rows,
// past a partition), Prev after it, SeekForPrev and Get are compared with BlockBasedTable's on
// the same rows, before and after the groups are known, with partitions that start groups and
// partitions that do not.
#include <gtest/gtest.h>
#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/table.h>

#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "plugin/columnar_table.h"
#include "plugin/pushdown.h"
#include "table_format/cql_parser.h"
#include "table_format/key_codec.h"
#include "table_format/row_codec.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

constexpr size_t kRowsPerGroup = 8;

TableSchema SeriesSchema() {
  CreateTableStatement statement;
  EXPECT_TRUE(ParseCreateTable("CREATE TABLE ks.series (name text, time int, value double, "
                               "PRIMARY KEY ((name), time))",
                               &statement)
                  .ok());
  return statement.schema;
}

std::string PartitionStart(const TableSchema& schema, const std::string& name) {
  std::string key;
  EXPECT_TRUE(EncodePartitionKey(schema, {Value::FromBytes(LogicalType::kText, name)}, &key).ok());
  return key;
}

std::string RowKey(const TableSchema& schema, const std::string& name, int32_t time) {
  std::string key;
  EXPECT_TRUE(
      EncodeKey(schema, {Value::FromBytes(LogicalType::kText, name)}, {Value::Int(time)}, &key)
          .ok());
  return key;
}

// Partitions of whole groups (which then start groups) and of other sizes, in key order.
struct SeriesData {
  std::vector<std::string> names;
  std::vector<std::vector<int32_t>> times;  // even times: odd ones fall between rows
};

SeriesData MakeSeries() {
  SeriesData data;
  std::mt19937_64 rng(11);
  const size_t sizes[] = {8, 16, 8, 5, 11, 8, 24, 3, 8, 8, 13, 1, 8, 16};
  for (size_t p = 0; p < sizeof(sizes) / sizeof(sizes[0]); p++) {
    data.names.push_back("series-" + std::to_string(100 + p));
    data.times.emplace_back();
    for (size_t r = 0; r < sizes[p]; r++) {
      data.times.back().push_back(static_cast<int32_t>(2 * r + 2 * (rng() % 3)) +
                                  (r == 0 ? 0 : data.times.back().back()));
    }
  }
  return data;
}

class PartitionBoundarySeekTest : public ::testing::Test {
 protected:
  void SetUp() override {
    schema_ = SeriesSchema();
    cache_ = rocksdb::NewLRUCache(64 << 20);
    rocksdb::Options block_based;
    block_based.create_if_missing = true;
    tested_ = OpenDb(ColumnarOptions(), dir_.Sub("columnar"));
    reference_ = OpenDb(block_based, dir_.Sub("block_based"));
    ASSERT_NE(tested_, nullptr);
    ASSERT_NE(reference_, nullptr);
    const RowCodec codec(schema_);
    for (size_t p = 0; p < data_.names.size(); p++) {
      for (int32_t time : data_.times[p]) {
        RowMetadata meta;
        meta.schema_version = schema_.version();
        Row row(schema_.next_column_id());
        row[schema_.FindColumn("value")->id] = Value::Double(time * 0.5);
        std::string value;
        ASSERT_TRUE(codec.EncodeRow(meta, row, &value).ok());
        const std::string key = RowKey(schema_, data_.names[p], time);
        for (rocksdb::DB* db : {tested_.get(), reference_.get()}) {
          ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
        }
      }
    }
    for (rocksdb::DB* db : {tested_.get(), reference_.get()}) {
      ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
    }
  }

  rocksdb::Options ColumnarOptions() const {
    ColumnarTableOptions table;
    table.schema = schema_.Serialize();
    table.rows_per_group = kRowsPerGroup;
    table.block_size = 1;  // a block per group: the cache holds decoded groups only
    table.cache = cache_;
    rocksdb::Options options;
    options.create_if_missing = true;
    options.table_factory.reset(NewColumnarTableFactory(table));
    return options;
  }

  void ReopenTested() {
    ASSERT_TRUE(tested_->Close().ok());
    tested_.reset();
    tested_ = OpenDb(ColumnarOptions(), dir_.Sub("columnar"));
    ASSERT_NE(tested_, nullptr);
  }

  // Every seek target: each partition's start, each row, the gaps between rows, and past each
  // partition's last row.
  std::vector<std::string> Targets() const {
    std::vector<std::string> targets;
    for (size_t p = 0; p < data_.names.size(); p++) {
      targets.push_back(PartitionStart(schema_, data_.names[p]));
      for (int32_t time : data_.times[p]) {
        targets.push_back(RowKey(schema_, data_.names[p], time));
        targets.push_back(RowKey(schema_, data_.names[p], time + 1));
      }
    }
    targets.push_back(PartitionStart(schema_, "series-999"));
    return targets;
  }

  // What an iterator shows after `position`: up to three entries forward, or a description of
  // its end.
  static std::string Show(rocksdb::Iterator* it) {
    std::string shown;
    for (int i = 0; i < 3 && it->Valid(); i++, it->Next()) {
      shown += it->key().ToString() + "=" + it->value().ToString() + ";";
    }
    return shown + (it->status().ok() ? "end" : it->status().ToString());
  }

  // Read options of the two read paths of a typed table's iterator: RocksDB's own reads (whose
  // Seek reads a cold group's row at the bound alone) and the Table API's scans, which carry a
  // pushdown spec (here without a predicate) and load groups whole (ColumnarTableIterator::
  // Enter, LowerBoundRow).
  static std::vector<std::pair<std::string, rocksdb::ReadOptions>> ReadPaths() {
    rocksdb::ReadOptions scan;
    scan.table_filter = PushdownTableFilter(std::make_shared<ScanSpec>());
    return {{"point-read path", rocksdb::ReadOptions()}, {"scan path", scan}};
  }

  void ExpectSameAnswers(const std::string& when) {
    for (const auto& [path, read_options] : ReadPaths()) {
      ExpectSameAnswers(when + ", " + path, read_options);
    }
  }

  void ExpectSameAnswers(const std::string& when, const rocksdb::ReadOptions& read_options) {
    for (const std::string& target : Targets()) ExpectSameAnswers(when, read_options, target);
  }

  void ExpectSameAnswers(const std::string& when, const rocksdb::ReadOptions& read_options,
                         const std::string& target) {
    std::string answers[2];
    rocksdb::DB* dbs[2] = {reference_.get(), tested_.get()};
    for (int d = 0; d < 2; d++) {
      std::unique_ptr<rocksdb::Iterator> it(dbs[d]->NewIterator(read_options));
      it->Seek(target);
      answers[d] += "seek:" + Show(it.get());
      it->Seek(target);
      if (it->Valid()) it->Prev();
      answers[d] += " prev:" + Show(it.get());
      it->SeekForPrev(target);
      answers[d] += " seek_for_prev:" + Show(it.get());
      std::string value;
      const rocksdb::Status s = dbs[d]->Get(read_options, target, &value);
      answers[d] += " get:" + (s.ok() ? value : s.ToString());
    }
    EXPECT_EQ(answers[0], answers[1])
        << when << ", target " << rocksdb::Slice(target).ToString(true);
  }

  // Decoded groups in the cache (keys: the file's 16-byte id, then the kind of entry).
  size_t DecodedGroupsCached() const {
    size_t groups = 0;
    cache_->ApplyToAllEntries(
        [&groups](const rocksdb::Slice& key, void*, size_t, rocksdb::Cache::DeleterFn) {
          groups += key.size() > 16 && key[16] == 'G';
        },
        rocksdb::Cache::ApplyToAllEntriesOptions());
    return groups;
  }

  // Decoded groups a seek to `target` leaves in an emptied cache.
  size_t GroupsDecodedBySeek(const std::string& target, const rocksdb::ReadOptions& options) {
    cache_->EraseUnRefEntries();
    std::unique_ptr<rocksdb::Iterator> it(tested_->NewIterator(options));
    it->Seek(target);
    EXPECT_TRUE(it->Valid());
    return DecodedGroupsCached();
  }

  // Decoded groups a Get of `key` leaves in an emptied cache.
  size_t GroupsDecodedByGet(const std::string& key) {
    cache_->EraseUnRefEntries();
    std::string value;
    EXPECT_TRUE(tested_->Get(rocksdb::ReadOptions(), key, &value).ok());
    return DecodedGroupsCached();
  }

  TempDir dir_{"partition-boundary-seek"};
  SeriesData data_ = MakeSeries();
  TableSchema schema_;
  std::shared_ptr<rocksdb::Cache> cache_;
  std::unique_ptr<rocksdb::DB> tested_;
  std::unique_ptr<rocksdb::DB> reference_;
};

TEST_F(PartitionBoundarySeekTest, AnswersMatchBlockBasedTableBeforeAndAfterGroupsAreKnown) {
  ExpectSameAnswers("groups not yet decoded");
  // A full scan decodes every group: every boundary is known from here on.
  std::unique_ptr<rocksdb::Iterator> it(tested_->NewIterator(rocksdb::ReadOptions()));
  size_t rows = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) rows++;
  ASSERT_TRUE(it->status().ok());
  ASSERT_GT(rows, 4 * kRowsPerGroup);
  it.reset();
  ExpectSameAnswers("every group decoded");
}

// Every target read first by a newly opened reader, on both read paths: the boundary of the
// group the search lands in is unknown then, whether the target starts a partition, lies inside
// one that spans groups (the boundary follows from the first keys alone) or between rows.
TEST_F(PartitionBoundarySeekTest, AnswersMatchBlockBasedTableOnANewReaderAtEveryTarget) {
  for (const auto& [path, read_options] : ReadPaths()) {
    for (const std::string& target : Targets()) {
      ReopenTested();
      ExpectSameAnswers("new reader, " + path, read_options, target);
    }
  }
}

// The partition directory (GroupForSeek) is built at the first seek, not by a scan (compactions
// only scan); its memory counts in the table reader's.
TEST_F(PartitionBoundarySeekTest, TheFirstSeekBuildsThePartitionDirectory) {
  auto readers_memory = [this] {
    uint64_t bytes = 0;
    EXPECT_TRUE(tested_->GetIntProperty("rocksdb.estimate-table-readers-mem", &bytes));
    return bytes;
  };
  const uint64_t opened = readers_memory();
  std::unique_ptr<rocksdb::Iterator> it(tested_->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
  }
  ASSERT_TRUE(it->status().ok());
  EXPECT_EQ(readers_memory(), opened) << "a scan built the directory";
  it->Seek(PartitionStart(schema_, data_.names[3]));
  ASSERT_TRUE(it->Valid());
  const uint64_t sought = readers_memory();
  EXPECT_GT(sought, opened) << "the seek did not build the directory";
  it->Seek(PartitionStart(schema_, data_.names[5]));
  EXPECT_EQ(readers_memory(), sought) << "built once";
}

// series-101 starts the second group (series-100 fills the first): by the index's first keys,
// a seek to its start lands in the first group. That group's partition slot alone shows it ends
// series-100, so the seek decodes the second group only, from a cold reader on; so does a Get
// of series-101's first row. A partition starting inside a group still begins in that group.
TEST_F(PartitionBoundarySeekTest, ASeekToAPartitionStartingAGroupDecodesThatGroupAlone) {
  ASSERT_EQ(data_.times[0].size(), kRowsPerGroup);
  const std::string start = PartitionStart(schema_, data_.names[1]);
  const std::string inside = PartitionStart(schema_, data_.names[4]);  // after 8+16+8+5 rows
  for (const auto& [path, read_options] : ReadPaths()) {
    ReopenTested();  // a new table reader: no boundary known
    EXPECT_EQ(GroupsDecodedBySeek(start, read_options), 1u) << path;
    EXPECT_EQ(GroupsDecodedBySeek(start, read_options), 1u) << path << ", again";
    EXPECT_EQ(GroupsDecodedBySeek(inside, read_options), 1u) << path;
  }
  ReopenTested();
  EXPECT_EQ(GroupsDecodedByGet(RowKey(schema_, data_.names[1], data_.times[1][0])), 1u);
}

// A read that may not do I/O (KeyMayExist reads with kBlockCacheTier) cannot read the group
// before either: it must say the key may exist without claiming its value, not fail, and
// find the value once the cache holds the partition's group.
TEST_F(PartitionBoundarySeekTest, ACacheOnlyReadBeforeTheBoundaryIsKnownMarksTheKeyAsMaybePresent) {
  const std::string key = RowKey(schema_, data_.names[1], data_.times[1][0]);
  ReopenTested();
  std::string value;
  bool value_found = true;
  EXPECT_TRUE(tested_->KeyMayExist(rocksdb::ReadOptions(), key, &value, &value_found));
  EXPECT_FALSE(value_found);
  std::string expected;
  ASSERT_TRUE(reference_->Get(rocksdb::ReadOptions(), key, &expected).ok());
  ASSERT_TRUE(tested_->Get(rocksdb::ReadOptions(), key, &value).ok());
  EXPECT_EQ(value, expected);
  value.clear();
  value_found = false;
  EXPECT_TRUE(tested_->KeyMayExist(rocksdb::ReadOptions(), key, &value, &value_found));
  EXPECT_TRUE(value_found);
  EXPECT_EQ(value, expected);
}

// Readers of a newly opened file learn its boundaries concurrently (the same relaxed stores from
// several threads): every thread's seeks and Gets at partition starts still match
// BlockBasedTable's. Run by make tsan (its filter takes tests named Concurrency*).
TEST_F(PartitionBoundarySeekTest, ConcurrencyOfReadersLearningBoundaries) {
  std::vector<std::string> targets;
  std::vector<std::string> expected;
  for (size_t p = 0; p < data_.names.size(); p++) {
    targets.push_back(PartitionStart(schema_, data_.names[p]));
    targets.push_back(RowKey(schema_, data_.names[p], data_.times[p][0]));
  }
  for (const std::string& target : targets) {
    std::unique_ptr<rocksdb::Iterator> it(reference_->NewIterator(rocksdb::ReadOptions()));
    it->Seek(target);
    expected.push_back(Show(it.get()));
  }
  ReopenTested();
  constexpr int kThreads = 4;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      const auto paths = ReadPaths();
      for (size_t i = 0; i < targets.size(); i++) {
        // Each thread in another order, so that threads meet at unlearned boundaries.
        const size_t k = t % 2 == 0 ? i : targets.size() - 1 - i;
        const rocksdb::ReadOptions& options = paths[static_cast<size_t>(t) / 2 % 2].second;
        std::unique_ptr<rocksdb::Iterator> it(tested_->NewIterator(options));
        it->Seek(targets[k]);
        if (Show(it.get()) != expected[k]) failures[t] += "seek " + std::to_string(k) + "; ";
        std::string value;
        const rocksdb::Status s = tested_->Get(options, targets[k], &value);
        if (k % 2 == 1 && !s.ok()) failures[t] += "get " + std::to_string(k) + "; ";
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; t++) EXPECT_EQ(failures[t], "") << "thread " << t;
}

}  // namespace
}  // namespace columnar
