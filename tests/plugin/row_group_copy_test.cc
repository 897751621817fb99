// Compaction copies unchanged row groups (columnar_table_builder.h): a time series loaded in
// rounds, each round appending points to every series and then compacting everything, with
// overwrites, deletions, range deletions and snapshots in between. BlockBasedTable gets the same
// writes; every read must agree, and most groups of later rounds must have been copied.
#include <gtest/gtest.h>
#include <rocksdb/compaction_filter.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/sst_partitioner.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "filter/zone_map.h"
#include "filter/zone_map_set.h"
#include "plugin/cache_pin.h"
#include "plugin/columnar_table.h"
#include "plugin/columnar_table_reader.h"
#include "plugin/raw_table_entries.h"
#include "plugin/table_file.h"
#include "table_format/column_stats.h"
#include "table_format/cql_parser.h"
#include "table_format/key_codec.h"
#include "table_format/row_codec.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

// Appends the operand's bytes to the value: a merged row keeps its key and, once compacted to
// the last level without snapshots, the sequence number 0 of the row it replaces.
class AppendBytesOperator : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice& /*key*/, const rocksdb::Slice* existing,
             const rocksdb::Slice& value, std::string* new_value,
             rocksdb::Logger* /*logger*/) const override {
    new_value->assign(existing != nullptr ? existing->ToString() : "");
    new_value->append(value.data(), value.size());
    return true;
  }
  const char* Name() const override { return "test.append_bytes"; }
};

// Once enabled, marks the values of some keys (those ending in byte `last`) with a '!': a
// compaction then emits the key unchanged, sequence number included, with another value.
class MarkingFilter : public rocksdb::CompactionFilter {
 public:
  explicit MarkingFilter(const bool* enabled, char last) : enabled_(enabled), last_(last) {}
  bool Filter(int /*level*/, const rocksdb::Slice& key, const rocksdb::Slice& existing_value,
              std::string* new_value, bool* value_changed) const override {
    if (!*enabled_ || key.empty() || key[key.size() - 1] != last_ ||
        existing_value.ends_with("!")) {
      return false;
    }
    *new_value = existing_value.ToString() + "!";
    *value_changed = true;
    return false;
  }
  const char* Name() const override { return "test.marking"; }

 private:
  const bool* enabled_;
  char last_;
};

// Cuts compaction outputs before the given keys while *enabled.
class CutBeforeKeys : public rocksdb::SstPartitionerFactory {
 public:
  CutBeforeKeys(const bool* enabled, std::vector<std::string> keys)
      : enabled_(enabled), keys_(std::move(keys)) {}
  const char* Name() const override { return "CutBeforeKeys"; }
  std::unique_ptr<rocksdb::SstPartitioner> CreatePartitioner(
      const rocksdb::SstPartitioner::Context& /*context*/) const override {
    return std::make_unique<Partitioner>(this);
  }

 private:
  class Partitioner : public rocksdb::SstPartitioner {
   public:
    explicit Partitioner(const CutBeforeKeys* factory) : factory_(factory) {}
    const char* Name() const override { return "CutBeforeKeys"; }
    rocksdb::PartitionerResult ShouldPartition(
        const rocksdb::PartitionerRequest& request) override {
      if (!*factory_->enabled_) return rocksdb::kNotRequired;
      for (const std::string& key : factory_->keys_) {
        if (request.prev_user_key->compare(key) < 0 &&
            request.current_user_key->compare(key) >= 0) {
          return rocksdb::kRequired;
        }
      }
      return rocksdb::kNotRequired;
    }
    bool CanDoTrivialMove(const rocksdb::Slice&, const rocksdb::Slice&) override { return false; }

   private:
    const CutBeforeKeys* factory_;
  };
  const bool* enabled_;
  std::vector<std::string> keys_;
};

// Tag columns of few values (file dictionaries; a path's values differ from series to series,
// so files of other series have other dictionaries), a random walk, a counter,
// and a note of many values, which makes groups large enough to be copied.
const char* kPointsTable = R"(
  CREATE TABLE ts.points (series text, time int, host text, path text, value double,
    count bigint, note text, PRIMARY KEY ((series), time)))";

constexpr int kSeries = 12;
constexpr int kPointsPerRound = 200;

// The same points without the tag columns: no file dictionaries, so an output may copy the
// groups of any input file.
const char* kUntaggedPointsTable = R"(
  CREATE TABLE ts.points (series text, time int, value double, count bigint, note text,
    PRIMARY KEY ((series), time)))";

TableSchema PointsSchema(const char* table) {
  CreateTableStatement statement;
  EXPECT_TRUE(ParseCreateTable(table, &statement).ok());
  return statement.schema;
}

class RowGroupCopyTest : public testing::Test {
 protected:
  explicit RowGroupCopyTest(const char* table = kPointsTable)
      : dir_("row-group-copy"), schema_(PointsSchema(table)), codec_(schema_) {}

  void SetUp() override {
    rocksdb::Options base;
    base.create_if_missing = true;
    base.disable_auto_compactions = true;
    base.compression = rocksdb::kZSTD;
    // Several output files per compaction: copies across file boundaries, dictionaries
    // carried over from one input file and not from its neighbours.
    base.target_file_size_base = 48 << 10;
    base.merge_operator = std::make_shared<AppendBytesOperator>();
    base.compaction_filter = &marking_;
    base.sst_partitioner_factory = partitioner_;
    base.max_subcompactions = max_subcompactions_;
    reference_options_ = base;
    tested_options_ = base;
    tested_options_.statistics = rocksdb::CreateDBStatistics();
    if (zstd_dictionary_) {
      tested_options_.compression_opts.max_dict_bytes = 4096;
      tested_options_.compression_opts.zstd_max_train_bytes = 48 << 10;
    }
    ColumnarTableOptions table;
    table.rows_per_group = 128;
    table.block_size = block_size_;
    table.max_inline_value_bytes = max_inline_value_bytes_;
    table.schema = schema_.Serialize();
    tested_options_.table_factory.reset(NewColumnarTableFactory(table));
    Open();
  }

  void Open() {
    reference_ = OpenDb(reference_options_, dir_.Sub("reference"));
    tested_ = OpenDb(tested_options_, dir_.Sub("tested"));
    ASSERT_NE(reference_, nullptr);
    ASSERT_NE(tested_, nullptr);
  }

  std::string Key(int series, int time) const { return KeyIn("s" + std::to_string(series), time); }
  std::string KeyIn(const std::string& series, int time) const {
    std::string key;
    EXPECT_TRUE(
        EncodeKey(schema_, {Value::FromBytes(LogicalType::kText, series)}, {Value::Int(time)}, &key)
            .ok());
    return key;
  }

  std::string RowValue(int series, int time, double value) const {
    RowMetadata meta;
    meta.schema_version = schema_.version();
    meta.has_write_time = true;
    meta.write_time_micros = 1700000000000000 + int64_t{time} * 1000000;
    Row row(schema_.next_column_id());
    if (const ColumnDef* host = schema_.FindColumn("host")) {
      row[host->id] = Value::FromBytes(LogicalType::kText, "host-" + std::to_string(series % 5));
    }
    if (const ColumnDef* path = schema_.FindColumn("path")) {
      row[path->id] =
          Value::FromBytes(LogicalType::kText, "/api/v1/s" + std::to_string(series) + "/items/" +
                                                   std::to_string((time * 7) % 23));
    }
    const ColumnDef* gauge = schema_.FindColumn("value");
    row[gauge->id] = gauge->type == LogicalType::kFloat ? Value::Float(static_cast<float>(value))
                                                        : Value::Double(value);
    if (const ColumnDef* count = schema_.FindColumn("count")) {
      row[count->id] = Value::BigInt(1000 + time);
    }
    if (const ColumnDef* note = schema_.FindColumn("note")) {
      row[note->id] = Value::FromBytes(LogicalType::kText, Note(series, time));
    }
    std::string encoded;
    EXPECT_TRUE(codec_.EncodeRow(meta, row, &encoded).ok());
    return encoded;
  }

  // 24 letters that do not recur: about 14 bytes a row however encoded.
  static std::string Note(int series, int time) {
    uint64_t x = (static_cast<uint64_t>(series) << 32 | static_cast<uint32_t>(time)) + 1;
    std::string note;
    for (int i = 0; i < 24; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      note.push_back(static_cast<char>('a' + (x >> 59)));
    }
    return note;
  }

  void Put(const std::string& key, const std::string& value) {
    ASSERT_TRUE(reference_->Put(rocksdb::WriteOptions(), key, value).ok());
    ASSERT_TRUE(tested_->Put(rocksdb::WriteOptions(), key, value).ok());
  }
  void Delete(const std::string& key) {
    ASSERT_TRUE(reference_->Delete(rocksdb::WriteOptions(), key).ok());
    ASSERT_TRUE(tested_->Delete(rocksdb::WriteOptions(), key).ok());
  }
  void Merge(const std::string& key, const std::string& operand) {
    ASSERT_TRUE(reference_->Merge(rocksdb::WriteOptions(), key, operand).ok());
    ASSERT_TRUE(tested_->Merge(rocksdb::WriteOptions(), key, operand).ok());
  }
  void DeleteRange(const std::string& begin, const std::string& end) {
    auto cf_ref = reference_->DefaultColumnFamily();
    auto cf_tested = tested_->DefaultColumnFamily();
    ASSERT_TRUE(reference_->DeleteRange(rocksdb::WriteOptions(), cf_ref, begin, end).ok());
    ASSERT_TRUE(tested_->DeleteRange(rocksdb::WriteOptions(), cf_tested, begin, end).ok());
  }

  // Appends the round's points to every series.
  void AppendRound(int round) {
    for (int series = 0; series < kSeries; series++) {
      for (int i = 0; i < kPointsPerRound; i++) {
        const int time = round * kPointsPerRound + i;
        Put(Key(series, time), RowValue(series, time, NextValue(series)));
      }
    }
  }

  // A series' next value: a random walk.
  virtual double NextValue(int series) {
    walk_[series] += static_cast<double>(static_cast<int>(rng_() % 21) - 10) / 4.0;
    return walk_[series];
  }

  // `again`: the last level is compacted once more after the newer files joined it (as a full
  // compaction does), which copies from the files the first pass wrote.
  void FlushAndCompact(bool again = true) {
    ASSERT_TRUE(reference_->Flush(rocksdb::FlushOptions()).ok());
    ASSERT_TRUE(tested_->Flush(rocksdb::FlushOptions()).ok());
    rocksdb::CompactRangeOptions compact;
    compact.bottommost_level_compaction = again ? rocksdb::BottommostLevelCompaction::kForce
                                                : rocksdb::BottommostLevelCompaction::kSkip;
    ASSERT_TRUE(reference_->CompactRange(compact, nullptr, nullptr).ok());
    ASSERT_TRUE(tested_->CompactRange(compact, nullptr, nullptr).ok());
  }

  // Every entry of both databases (at `snapshots`, when given), in order.
  void ExpectSameContents(const rocksdb::Snapshot* reference_snapshot = nullptr,
                          const rocksdb::Snapshot* tested_snapshot = nullptr) {
    rocksdb::ReadOptions reference_read, tested_read;
    reference_read.snapshot = reference_snapshot;
    tested_read.snapshot = tested_snapshot;
    std::unique_ptr<rocksdb::Iterator> expected(reference_->NewIterator(reference_read));
    std::unique_ptr<rocksdb::Iterator> actual(tested_->NewIterator(tested_read));
    size_t entries = 0;
    for (expected->SeekToFirst(), actual->SeekToFirst(); expected->Valid();
         expected->Next(), actual->Next()) {
      ASSERT_TRUE(actual->Valid()) << "tested ends early at entry " << entries;
      ASSERT_EQ(actual->key().ToString(), expected->key().ToString()) << "entry " << entries;
      ASSERT_EQ(actual->value().ToString(), expected->value().ToString()) << "entry " << entries;
      entries++;
    }
    ASSERT_TRUE(expected->status().ok());
    ASSERT_TRUE(actual->status().ok()) << actual->status().ToString();
    ASSERT_FALSE(actual->Valid()) << "tested has more entries than " << entries;
    ASSERT_GT(entries, 0u);
  }

  // Both databases reopened: the same contents, and every block's checksum verified.
  void ExpectSameContentsAfterReopen() {
    reference_.reset();
    tested_.reset();
    Open();
    ExpectSameContents();
    EXPECT_TRUE(tested_->VerifyChecksum().ok());
  }

  // Sums a numeric user property over the tested database's live files.
  uint64_t SumOfProperty(const char* name, uint64_t* largest = nullptr) {
    rocksdb::TablePropertiesCollection files;
    EXPECT_TRUE(tested_->GetPropertiesOfAllTables(&files).ok());
    uint64_t sum = 0;
    for (const auto& [file, props] : files) {
      const auto found = props->user_collected_properties.find(name);
      if (found == props->user_collected_properties.end()) continue;
      const uint64_t value = std::stoull(found->second);
      sum += value;
      if (largest != nullptr) *largest = std::max(*largest, value);
    }
    return sum;
  }

  uint64_t RowGroups() { return SumOfProperty("columnar.row_groups"); }

  // Calls visit(reader, group, view) for every row group of the tested database's live files,
  // each parsed from its block read with `read_options`; returns how many groups it visited.
  size_t ForEachLiveGroup(
      const rocksdb::ReadOptions& read_options,
      const std::function<void(const ColumnarTableReader&, size_t, const RowGroupView&)>& visit) {
    std::vector<rocksdb::LiveFileMetaData> files;
    tested_->GetLiveFilesMetaData(&files);
    size_t groups = 0;
    for (const rocksdb::LiveFileMetaData& file : files) {
      TableFile table;
      EXPECT_TRUE(table.Open(tested_options_, file.db_path + "/" + file.name).ok()) << file.name;
      const auto* reader = dynamic_cast<const ColumnarTableReader*>(table.reader());
      if (reader == nullptr) {
        ADD_FAILURE() << file.name << " is not a ColumnarTable file";
        continue;
      }
      for (size_t group = 0; group < reader->index().num_row_groups(); group++) {
        CachePin<RawBlock> block;
        RowGroupView view;
        const rocksdb::Status s = reader->ViewRowGroup(group, read_options, &block, &view);
        EXPECT_TRUE(s.ok()) << file.name << " group " << group << ": " << s.ToString();
        if (!s.ok()) continue;
        visit(*reader, group, view);
        groups++;
      }
    }
    return groups;
  }
  // How many subcompactions the compactions so far were split into.
  rocksdb::HistogramData Subcompactions() {
    rocksdb::HistogramData split;
    tested_options_.statistics->histogramData(rocksdb::NUM_SUBCOMPACTIONS_SCHEDULED, &split);
    return split;
  }

  // Data blocks of the tested database's live files.
  uint64_t DataBlocks() {
    rocksdb::TablePropertiesCollection files;
    EXPECT_TRUE(tested_->GetPropertiesOfAllTables(&files).ok());
    uint64_t blocks = 0;
    for (const auto& [file, props] : files) blocks += props->num_data_blocks;
    return blocks;
  }

  // Live files of the tested database.
  size_t DataFiles() {
    std::vector<rocksdb::LiveFileMetaData> files;
    tested_->GetLiveFilesMetaData(&files);
    return files.size();
  }

  // Both databases compacted whole once more, nothing written since.
  void CompactAllAgain() {
    rocksdb::CompactRangeOptions compact;
    compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    ASSERT_TRUE(reference_->CompactRange(compact, nullptr, nullptr).ok());
    ASSERT_TRUE(tested_->CompactRange(compact, nullptr, nullptr).ok());
  }

  // Both databases compacted whole once more: the blocks and the groups that pass copied.
  std::pair<uint64_t, uint64_t> CopiesOfAnotherFullCompaction() {
    const uint64_t blocks_before = SumOfProperty("columnar.copied_blocks");
    const uint64_t groups_before = SumOfProperty("columnar.copied_row_groups");
    CompactAllAgain();
    return {SumOfProperty("columnar.copied_blocks") - blocks_before,
            SumOfProperty("columnar.copied_row_groups") - groups_before};
  }

  // A numeric user property of the tested database's live file holding the smallest key.
  uint64_t PropertyOfFirstFile(const char* name) {
    const std::string value = RawPropertyOfFirstFile(name);
    return value.empty() ? 0 : std::stoull(value);
  }

  // The chunks of `column` in the file holding the smallest key, by encoding name.
  std::map<std::string, uint64_t> EncodingsInFirstFile(const std::string& column) {
    ColumnStats stats;
    EXPECT_TRUE(ColumnStats::Parse(RawPropertyOfFirstFile(kColumnStatsProperty), &stats).ok());
    const auto found = stats.columns().find(column);
    return found == stats.columns().end() ? std::map<std::string, uint64_t>()
                                          : found->second.encodings;
  }

  std::string RawPropertyOfFirstFile(const char* name) {
    std::vector<rocksdb::LiveFileMetaData> files;
    tested_->GetLiveFilesMetaData(&files);
    EXPECT_FALSE(files.empty());
    if (files.empty()) return "";
    const auto first = std::min_element(
        files.begin(), files.end(),
        [](const auto& a, const auto& b) { return a.smallestkey < b.smallestkey; });
    rocksdb::TablePropertiesCollection tables;
    EXPECT_TRUE(tested_->GetPropertiesOfAllTables(&tables).ok());
    for (const auto& [path, props] : tables) {
      if (path.size() < first->name.size() ||
          path.compare(path.size() - first->name.size(), std::string::npos, first->name) != 0) {
        continue;
      }
      const auto found = props->user_collected_properties.find(name);
      return found == props->user_collected_properties.end() ? "" : found->second;
    }
    ADD_FAILURE() << "no properties for " << first->name;
    return "";
  }

  // Appends the round's points to every `step`-th series only: the other series' groups come
  // back unchanged.
  void AppendToSomeSeries(int round, int step) {
    for (int series = 0; series < kSeries; series += step) {
      for (int i = 0; i < kPointsPerRound; i++) {
        const int time = round * kPointsPerRound + i;
        Put(Key(series, time), RowValue(series, time, 0.25 * i));
      }
    }
  }

  // Two rounds of every series compacted into the last level (files of `first_target` bytes;
  // 0: the fixture's), then a round of every 4th series compacted into them with cutting_enabled_
  // (outputs of `second_target` bytes): how many of the last level's groups were copied, of how
  // many.
  std::pair<uint64_t, uint64_t> CopiesAfterAppendingToSomeSeries(
      uint64_t first_target, uint64_t second_target,
      const std::function<void()>& reshape_inputs = [] {}) {
    if (first_target > 0) SetTargetFileSize(first_target);
    AppendRound(0);
    AppendRound(1);
    FlushAndCompact();
    reshape_inputs();
    cutting_enabled_ = true;
    SetTargetFileSize(second_target);
    AppendToSomeSeries(2, 4);
    FlushAndCompact(/*again=*/false);
    return {SumOfProperty("columnar.copied_row_groups"), RowGroups()};
  }

  void SetTargetFileSize(uint64_t bytes) {
    const std::unordered_map<std::string, std::string> options = {
        {"target_file_size_base", std::to_string(bytes)}};
    ASSERT_TRUE(reference_->SetOptions(options).ok());
    ASSERT_TRUE(tested_->SetOptions(options).ok());
  }

  TempDir dir_;
  TableSchema schema_;
  RowCodec codec_;
  rocksdb::Options reference_options_, tested_options_;
  std::unique_ptr<rocksdb::DB> reference_, tested_;
  uint32_t block_size_ = 4096;
  uint32_t max_inline_value_bytes_ = 256u << 20;
  uint32_t max_subcompactions_ = 1;
  bool zstd_dictionary_ = false;  // blocks compressed with a trained zstd dictionary
  std::mt19937_64 rng_{7};
  bool marking_enabled_ = false;
  bool cutting_enabled_ = false;
  std::shared_ptr<rocksdb::SstPartitionerFactory> partitioner_;
  MarkingFilter marking_{&marking_enabled_, '\x2a'};
  std::map<int, double> walk_;
};

TEST_F(RowGroupCopyTest, AppendedSeriesCopyOlderGroups) {
  for (int round = 0; round < 4; round++) {
    AppendRound(round);
    FlushAndCompact();
    ExpectSameContents();
  }
  const uint64_t copied = SumOfProperty("columnar.copied_row_groups");
  const uint64_t groups = RowGroups();
  // Rounds 1-3 copy the groups of the rounds before, but those around each series' end and
  // the output files' starts: well over a third of the final files' groups.
  EXPECT_GT(copied * 3, groups) << copied << " of " << groups;
  uint64_t carries = 0;
  SumOfProperty("columnar.dictionary_carries", &carries);
  EXPECT_GE(carries, 1u);  // the path and host dictionaries were carried over
  ExpectSameContents();
}

TEST_F(RowGroupCopyTest, CopiedGroupsKeepTheZoneMapsTheirValuesGive) {
  // A copied group takes the zone maps its input file stored (ZoneMapCollector::
  // OfferStoredZoneMaps): every group's stored zone maps must still be those built from its
  // values, in every file, after rounds of copies.
  for (int round = 0; round < 3; round++) {
    AppendRound(round);
    FlushAndCompact();
  }
  ASSERT_GT(SumOfProperty("columnar.copied_row_groups"), 0u);
  size_t compared = 0;
  const size_t groups = ForEachLiveGroup(
      rocksdb::ReadOptions(),
      [&](const ColumnarTableReader& reader, size_t group, const RowGroupView& view) {
        ZoneMapSet stored;
        ASSERT_TRUE(reader.StoredZoneMaps(group, &stored).ok());
        for (const auto& [column_id, zone_map] : stored.columns()) {
          const ColumnDef* column = schema_.ColumnById(column_id);
          if (column == nullptr || column->is_key()) continue;  // row expiry, clustering keys
          CachePin<ColumnVector> values;
          ASSERT_TRUE(
              reader.DecodeScanColumn(group, view, column_id, nullptr, false, &values).ok());
          ZoneMapOptions options;
          options.integer_sum =
              column->type == LogicalType::kInt || column->type == LogicalType::kBigInt;
          EXPECT_EQ(zone_map, BuildZoneMap(*values.get(), options))
              << "group " << group << " column " << column->name;
          compared++;
        }
      });
  EXPECT_GT(groups, 0u);
  EXPECT_GT(compared, 100u);
  ExpectSameContents();
}

TEST_F(RowGroupCopyTest, BlocksOfCopiedGroupsAreWrittenAsStored) {
  // Appended series: blocks made of the groups of an input block, all copied, come back as
  // their files stored them (block_copy.h).
  for (int round = 0; round < 4; round++) {
    AppendRound(round);
    FlushAndCompact(/*again=*/false);
  }
  const uint64_t copied = SumOfProperty("columnar.copied_blocks");
  const uint64_t blocks = DataBlocks();
  // 32 of 76 (the copied groups: 39 of 87).
  EXPECT_GT(copied * 4, blocks) << copied << " of " << blocks;
  ExpectSameContents();
  // Nothing changed since: nearly every block of groups copied again is an input block.
  const auto [blocks_again, groups_again] = CopiesOfAnotherFullCompaction();
  // Blocks of 4 kB hold one or two of these groups: when every group copied comes in a block
  // copied as stored, the blocks are at least half the groups (33 blocks for 44 groups; none
  // when blocks are not copied).
  EXPECT_GE(blocks_again * 2, groups_again) << blocks_again << " for " << groups_again;
  EXPECT_GT(groups_again, 0u);
  ExpectSameContentsAfterReopen();  // every block's checksum verified
}

TEST_F(RowGroupCopyTest, BlocksOfFilesCompressedOtherwiseAreCompressedAgain) {
  for (int round = 0; round < 2; round++) AppendRound(round);
  FlushAndCompact();
  // Outputs at another zstd level: the groups are still copied, their blocks compressed anew.
  tested_.reset();
  tested_options_.compression_opts.level = 7;
  tested_ = OpenDb(tested_options_, dir_.Sub("tested"));
  ASSERT_NE(tested_, nullptr);
  const uint64_t groups_before = SumOfProperty("columnar.copied_row_groups");
  CompactAllAgain();
  EXPECT_GT(SumOfProperty("columnar.copied_row_groups"), groups_before);
  EXPECT_EQ(SumOfProperty("columnar.copied_blocks"), 0u);
  // At that level from now on: the next pass copies blocks again.
  CompactAllAgain();
  EXPECT_GT(SumOfProperty("columnar.copied_blocks"), 0u);
  ExpectSameContentsAfterReopen();
}

TEST_F(RowGroupCopyTest, OutputsCloseWhereTheyMeetAnotherInputFile) {
  // Input files a quarter of the outputs' target size: an output seeded from one meets the next
  // file's groups long before its target, and closes at the first, so that the next output
  // seeds from that file and copies its groups (instead of none).
  const auto [copied, groups] = CopiesAfterAppendingToSomeSeries(16 << 10, 64 << 10);
  // 36 of 53 (32 closing from a quarter of the target on; without the close: 8 of 52). Each
  // series' last group, 16 rows, is too small to be copied.
  EXPECT_GE(copied * 3, groups) << copied << " of " << groups;
  ExpectSameContentsAfterReopen();
}

TEST_F(RowGroupCopyTest, OutputsCloseAtAnEighthOfTheirTarget) {
  // Input files a seventh of the outputs' target size: an output meets the next file's groups
  // with less than a quarter of its target, and still closes there.
  const auto [copied, groups] = CopiesAfterAppendingToSomeSeries(16 << 10, 112 << 10);
  // 36 of 53 (closing from a quarter of the target on: 22 of 54).
  EXPECT_GE(copied * 5, groups * 3) << copied << " of " << groups;
  ExpectSameContentsAfterReopen();
}

TEST_F(RowGroupCopyTest, OutputsSeededFromSmallFilesCloseBeforeALargeOne) {
  // Input files of 32 kB, the first of them compacted again into small ones (2 kB targets);
  // outputs of 1 MB. The first output takes its dictionaries from a small file and meets the
  // next large file far below an eighth of its target; it closes there all the same, as that
  // file has more groups ahead than it copied, and the next output copies them.
  const auto [copied, groups] = CopiesAfterAppendingToSomeSeries(32 << 10, 1 << 20, [&] {
    SetTargetFileSize(2 << 10);
    rocksdb::CompactRangeOptions compact;
    compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    const std::string begin = Key(0, 0);
    const std::string end = Key(1, 0);
    const rocksdb::Slice begin_slice(begin);
    const rocksdb::Slice end_slice(end);
    ASSERT_TRUE(tested_->CompactRange(compact, &begin_slice, &end_slice).ok());
  });
  // 30 of 53 (closing by size alone: 3 of 52, every group after the first output's seed
  // refused).
  EXPECT_GE(copied * 3, groups) << copied << " of " << groups;
  ExpectSameContentsAfterReopen();
}

TEST_F(RowGroupCopyTest, OutputsStartingWithAFilesTailSeedFromTheNextFile) {
  // An output closed where it met another input file's group (as above) leaves the next output
  // that file's last few groups. Seeded from them, it would copy those and none of the next
  // file's; it holds them back instead, and the next file seeds it.
  const auto [copied, groups] = CopiesAfterAppendingToSomeSeries(32 << 10, 240 << 10);
  // 24 of 52 (seeding from the tail: 14 of 52).
  EXPECT_GE(copied * 9, groups * 4) << copied << " of " << groups;
  ExpectSameContentsAfterReopen();
}

// Outputs cut before the start of every series, inside the input files (once cutting_enabled_).
class RowGroupCopyCutTest : public RowGroupCopyTest {
 protected:
  RowGroupCopyCutTest() {
    std::vector<std::string> keys;
    for (int series = 0; series < kSeries; series++) keys.push_back(Key(series, 0));
    partitioner_ = std::make_shared<CutBeforeKeys>(&cutting_enabled_, keys);
  }
};

TEST_F(RowGroupCopyCutTest, OutputsCutByAPartitionerStillCopy) {
  // Each output holds one series and starts inside an input file, often near its end: it
  // copies from that file (the output ends before any other file's groups come). Outputs of
  // 1 GB: cut only at the series' starts.
  const auto [copied, groups] = CopiesAfterAppendingToSomeSeries(0, uint64_t{1} << 30);
  // 27 of 52 (15 when an output would not seed from a file's last 128 groups).
  EXPECT_GE(copied * 5, groups * 2) << copied << " of " << groups;
  ExpectSameContentsAfterReopen();
}

TEST_F(RowGroupCopyCutTest, LastGroupsBeforeACutAreCopied) {
  // Series of 600 points (last groups of 88 rows, worth copying) in outputs cut before every
  // series: each output ends with its series' last group, which waits for an entry that never
  // comes; the output's end ends the group as well.
  for (int round = 0; round < 3; round++) AppendRound(round);
  FlushAndCompact();
  const uint64_t before = SumOfProperty("columnar.copied_row_groups");
  cutting_enabled_ = true;
  AppendToSomeSeries(3, 4);
  FlushAndCompact(/*again=*/false);
  ExpectSameContents();
  const uint64_t copied = SumOfProperty("columnar.copied_row_groups") - before;
  // 50 of the 66 groups (43 when the last group is encoded again).
  EXPECT_GE(copied, 48u) << copied << " of " << RowGroups();
  ExpectSameContentsAfterReopen();
}

// The points newest first, as time series are mostly declared: each round's points land at the
// start of every series, before the groups the compaction copies.
const char* kNewestFirstPointsTable = R"(
  CREATE TABLE ts.points (series text, time int, host text, path text, value double,
    count bigint, note text, PRIMARY KEY ((series), time)) WITH CLUSTERING ORDER BY (time DESC))";

class RowGroupCopyNewestFirstTest : public RowGroupCopyTest {
 protected:
  RowGroupCopyNewestFirstTest() : RowGroupCopyTest(kNewestFirstPointsTable) {}
};

TEST_F(RowGroupCopyNewestFirstTest, NewRowsBeforeCopiesAddNoGroup) {
  // A series' new rows are cut with the short group first, so the groups after them, and the
  // copies, are whole: every series keeps one short group, its newest, however many rounds
  // were compacted (the short group last, each round's rows would leave one more).
  for (int round = 0; round < 5; round++) {
    AppendRound(round);
    FlushAndCompact(/*again=*/false);
  }
  ExpectSameContents();
  const uint64_t copied = SumOfProperty("columnar.copied_row_groups");
  const uint64_t groups = RowGroups();
  // 1,000 points a series: 7 whole groups and one of 104, 96 in all; a file (of 48 kB) may
  // begin inside a series, with one more group cut there. 99 groups in 8 files, 52 copied (115
  // groups, 35 copied, when the short group is cut last).
  const uint64_t fewest = kSeries * ((5 * kPointsPerRound + 127) / 128);
  EXPECT_LE(groups, fewest + DataFiles()) << groups << " groups, " << DataFiles() << " files";
  EXPECT_GE(copied * 3, groups) << copied << " of " << groups;
  ExpectSameContentsAfterReopen();
}

// float32 gauges walking by normal steps, as db_bench_ext's metrics: their chunks are
// rice_delta_anchored, anchored to the group's zone-map minimum.
const char* kFloatGaugeTable = R"(
  CREATE TABLE ts.points (series text, time int, value float, PRIMARY KEY ((series), time)))";

class RowGroupCopyFloatGaugeTest : public RowGroupCopyTest {
 protected:
  RowGroupCopyFloatGaugeTest() : RowGroupCopyTest(kFloatGaugeTable) {}

  double NextValue(int series) override {
    walk_[series] = static_cast<float>(walk_[series] + 0.5 * normal_(rng_));
    return walk_[series];
  }

 private:
  std::normal_distribution<double> normal_;
};

TEST_F(RowGroupCopyFloatGaugeTest, CompactionsLeaveNothingInTheCache) {
  // Compactions read with fill_cache=false: nothing they decode may stay in the cache, the
  // zone maps that give anchored chunks their anchors included (they once went to the cache
  // for every group compacted; after a load, the first reads evicted them a hundred a block).
  // Files of more than kZoneMapSampleGroups groups (a flush's are fewer) have anchored chunks.
  for (int round = 0; round < 3; round++) {
    AppendRound(round);
    FlushAndCompact();
  }
  AppendRound(3);
  ASSERT_TRUE(tested_->Flush(rocksdb::FlushOptions()).ok());
  uint64_t before = 0, after = 0;
  ASSERT_TRUE(tested_->GetIntProperty("rocksdb.block-cache-usage", &before));
  FlushAndCompact();
  ASSERT_TRUE(tested_->GetIntProperty("rocksdb.block-cache-usage", &after));
  EXPECT_EQ(after, before);
  // The files have anchored chunks, as the last compaction's inputs, made alike, had: their
  // zone maps were read.
  rocksdb::ReadOptions uncached;
  uncached.fill_cache = false;
  size_t anchored = 0;
  const size_t groups =
      ForEachLiveGroup(uncached, [&](const ColumnarTableReader&, size_t, const RowGroupView& view) {
        anchored += view.anchored_count();
      });
  EXPECT_GT(groups, 0u);
  EXPECT_GT(anchored, 0u);
  ExpectSameContents();
}

// A metrics series: a time and a gauge, newest first.
const char* kNewestFirstGaugeTable = R"(
  CREATE TABLE ts.points (series text, time int, value double, PRIMARY KEY ((series), time))
  WITH CLUSTERING ORDER BY (time DESC))";

class RowGroupCopySmallGroupsTest : public RowGroupCopyTest {
 protected:
  RowGroupCopySmallGroupsTest() : RowGroupCopyTest(kNewestFirstGaugeTable) { block_size_ = 1024; }

  // Gauges of two decimals up to 100,000: a group of 128 points is about 0.5 kB, a 1 kB block
  // holds about two, and a series' 1,200 points span about five.
  double NextValue(int /*series*/) override { return static_cast<double>(rng_() % 10000000) / 100; }

  // The tested database reopened with copy_row_groups=false and compacted whole: every group
  // encoded, every block compressed anew.
  void EncodeEverythingAgain() {
    tested_.reset();
    ASSERT_TRUE(tested_options_.table_factory
                    ->ConfigureFromString(rocksdb::ConfigOptions(), "copy_row_groups=false")
                    .ok());
    tested_ = OpenDb(tested_options_, dir_.Sub("tested"));
    ASSERT_NE(tested_, nullptr);
    CompactAllAgain();
  }
};

TEST_F(RowGroupCopySmallGroupsTest, NewRowsBeforeCopiesKeepBlocksWhole) {
  // Each round's points come before a series' copied groups, inside the data block holding
  // the series' start: that block stays open to its input block's end, so the blocks after it
  // are copied as they were stored, and the copies leave no short block behind.
  for (int round = 0; round < 6; round++) {
    AppendRound(round);
    FlushAndCompact(/*again=*/false);
  }
  ExpectSameContents();
  const uint64_t copied_blocks = SumOfProperty("columnar.copied_blocks");
  const uint64_t copied_groups = SumOfProperty("columnar.copied_row_groups");
  const uint64_t blocks = DataBlocks();
  // 23 of 48 blocks copied as stored, 84 of 120 groups copied. With groups under 2 kB encoded
  // again, none; with a block closed wherever a copied input block starts, 68 blocks.
  EXPECT_GE(copied_blocks * 3, blocks) << copied_blocks << " of " << blocks;
  EXPECT_GE(copied_groups * 4, RowGroups()) << copied_groups << " of " << RowGroups();
  EncodeEverythingAgain();
  const uint64_t encoded_blocks = DataBlocks();
  // 55 blocks: the blocks kept open to an input block's end hold up to one and a half blocks.
  EXPECT_LE(blocks * 8, encoded_blocks * 9)
      << blocks << " blocks copying, " << encoded_blocks << " encoding everything";
  ExpectSameContentsAfterReopen();
}

// Every file one block: block 0.
class RowGroupCopyOneBlockTest : public RowGroupCopyTest {
 protected:
  RowGroupCopyOneBlockTest() { block_size_ = 1 << 20; }
};

TEST_F(RowGroupCopyOneBlockTest, GroupsFoundInTheCacheAreCopiedFromTheirOwnFile) {
  // A scan first puts the decoded groups in the cache: the compaction's iterators then hold no
  // block of theirs, and the builder reads the blocks it copies from (block 0 of every file).
  for (int round = 0; round < 4; round++) {
    AppendRound(round);
    ExpectSameContents();
    ASSERT_TRUE(tested_->Flush(rocksdb::FlushOptions()).ok());
    ExpectSameContents();
    FlushAndCompact();
    ExpectSameContents();
  }
  EXPECT_GT(SumOfProperty("columnar.copied_row_groups"), 0u);
}

// Compactions split into subcompactions: each range's outputs copy from the files it reads,
// several builders at once reading the same input files (also run under ThreadSanitizer, `make
// tsan`, by its suite's name).
class RowGroupCopyConcurrencyTest : public RowGroupCopyTest {
 protected:
  RowGroupCopyConcurrencyTest() { max_subcompactions_ = 3; }
};

TEST_F(RowGroupCopyConcurrencyTest, SplitCompactionsCopyAndKeepEveryEntry) {
  for (int round = 0; round < 4; round++) {
    AppendRound(round);
    FlushAndCompact();
    ExpectSameContents();
  }
  const rocksdb::HistogramData split = Subcompactions();
  EXPECT_GE(split.count, 4u);  // every round's compactions were split
  EXPECT_GE(split.max, 3.0);
  const uint64_t copied = SumOfProperty("columnar.copied_row_groups");
  const uint64_t groups = RowGroups();
  // 64 of 81.
  EXPECT_GT(copied * 2, groups) << copied << " of " << groups;
  ExpectSameContentsAfterReopen();
}

TEST_F(RowGroupCopyTest, ChangedRowsAreEncodedAgain) {
  AppendRound(0);
  AppendRound(1);
  FlushAndCompact();
  const rocksdb::Snapshot* reference_snapshot = reference_->GetSnapshot();
  const rocksdb::Snapshot* tested_snapshot = tested_->GetSnapshot();
  // Overwrites with other values, deletions and a range deletion among the older rows, with a
  // snapshot keeping the versions before them.
  for (int series = 0; series < kSeries; series += 3) {
    for (int time = 5; time < 2 * kPointsPerRound; time += 37) {
      Put(Key(series, time), RowValue(series, time, -1.5 * time));
    }
    Delete(Key(series + 1, 70));
    Delete(Key(series + 1, 71));
  }
  DeleteRange(Key(2, 100), Key(2, 140));
  AppendRound(2);
  FlushAndCompact();
  ExpectSameContents();
  ExpectSameContents(reference_snapshot, tested_snapshot);
  reference_->ReleaseSnapshot(reference_snapshot);
  tested_->ReleaseSnapshot(tested_snapshot);
  // Merged rows: the same key and sequence number 0 as the rows they replace, other values.
  for (int series = 1; series < kSeries; series += 4) Merge(Key(series, 150), "+merged");
  AppendRound(3);
  FlushAndCompact();
  ExpectSameContents();
  EXPECT_GT(SumOfProperty("columnar.copied_row_groups"), 0u);
  // Values a compaction filter changes under unchanged keys (sequence number 0, as stored).
  marking_enabled_ = true;
  AppendRound(4);
  FlushAndCompact();
  marking_enabled_ = false;
  ExpectSameContents();

  ExpectSameContentsAfterReopen();
}

TEST_F(RowGroupCopyTest, LastGroupsOfUnchangedSeriesAreCopied) {
  // Series of 600 points: four groups of 128 and a last one of 88 that ends with its series
  // (partition_aligned_cuts.h), large enough to be copied. The builder learns that such a
  // group ends where it would end it only from the entry after it, the next series' first:
  // the group waits for it. Then every 4th series grows: the others' groups all come back.
  for (int round = 0; round < 3; round++) AppendRound(round);
  FlushAndCompact();
  const uint64_t before = SumOfProperty("columnar.copied_row_groups");
  AppendToSomeSeries(3, 4);
  FlushAndCompact(/*again=*/false);
  ExpectSameContents();
  const uint64_t copied = SumOfProperty("columnar.copied_row_groups") - before;
  // 48 copied (without the wait: 42) of the 57 unchanged groups: the unchanged series' 45 and
  // the grown ones' first 12; the outputs' starts (48 kB files) cost some.
  EXPECT_GE(copied, 46u) << copied;
  ExpectSameContentsAfterReopen();
}

TEST_F(RowGroupCopyTest, MergesReadPastAFollowedGroupsEnd) {
  // A key with more merge operands than a group has rows, kept apart by snapshots: they run
  // from the middle of one group over the next ones. Once the snapshots are gone, the
  // compaction merges them: its input iterator reads past the end of the group the builder
  // follows (releasing that group) before the builder sees the merged entry, which must then
  // not be compared with the released group's rows (ASan reports the read otherwise).
  AppendRound(0);
  AppendRound(1);
  FlushAndCompact();
  const std::string key = Key(3, 150);
  std::vector<std::pair<const rocksdb::Snapshot*, const rocksdb::Snapshot*>> snapshots;
  for (int i = 0; i < 300; i++) {
    Merge(key, "+" + std::to_string(i));
    snapshots.emplace_back(reference_->GetSnapshot(), tested_->GetSnapshot());
  }
  FlushAndCompact();
  ExpectSameContents();
  for (const auto& [reference_snapshot, tested_snapshot] : snapshots) {
    reference_->ReleaseSnapshot(reference_snapshot);
    tested_->ReleaseSnapshot(tested_snapshot);
  }
  AppendRound(2);
  FlushAndCompact();
  ExpectSameContents();
  EXPECT_GT(SumOfProperty("columnar.copied_row_groups"), 0u);
}

TEST_F(RowGroupCopyTest, OutputsBeginningWithNewRowsStillCopy) {
  // A compaction output that begins with new rows (here a new series sorting before the others)
  // holds their groups back while an input could still seed its dictionaries: a value they
  // admitted would rule out the seeding, and with it every copy from the files with
  // dictionaries until the output ends.
  AppendRound(0);
  AppendRound(1);
  FlushAndCompact();
  for (int time = 0; time < 3 * 128; time++) {
    Put(KeyIn("a-new", time), RowValue(time % kSeries, time, 0.5 * time));
  }
  AppendRound(2);  // the flushed file overlaps every older one
  FlushAndCompact(/*again=*/false);
  ExpectSameContents();
  EXPECT_GT(PropertyOfFirstFile("columnar.copied_row_groups"), 0u);
  EXPECT_GE(PropertyOfFirstFile("columnar.dictionary_carries"), 1u);
  // The new series' groups were held back, not written without dictionaries: once the seed
  // came they were encoded with them. (Written without, 2 more of its host chunks take a local
  // encoding: 3 instead of 1. Groups of a single host, such as some series' last groups, are
  // constant either way.)
  uint64_t local_chunks = 0;
  for (const auto& [encoding, chunks] : EncodingsInFirstFile("host")) {
    if (encoding != "file_dictionary" && encoding != "constant") local_chunks += chunks;
  }
  EXPECT_LE(local_chunks, 1u);
}

// Values over 4 kB are stored outside their groups (oversized_values.h).
class RowGroupCopyOversizedTest : public RowGroupCopyTest {
 protected:
  RowGroupCopyOversizedTest() { max_inline_value_bytes_ = 4096; }
};

TEST_F(RowGroupCopyOversizedTest, OversizedValueAmongHeldGroups) {
  // An oversized value is placed by the group it will be in: the groups held back for a seed
  // must be written before it.
  AppendRound(0);
  AppendRound(1);
  FlushAndCompact();
  for (int time = 0; time < 3 * 128; time++) {
    std::string value = RowValue(time % kSeries, time, 0.5 * time);
    if (time == 300) value.append(std::string(20000, 'x'));  // opaque bytes after the row
    Put(KeyIn("a-new", time), value);
  }
  AppendRound(2);
  FlushAndCompact(/*again=*/false);
  ExpectSameContents();
  ExpectSameContentsAfterReopen();
}

TEST_F(RowGroupCopyTest, DictionaryCarriesAreBounded) {
  // Every round's compaction may carry an input's dictionaries over, but never more than a
  // bounded number of times in a row.
  for (int round = 0; round < 12; round++) {
    AppendRound(round);
    FlushAndCompact();
  }
  uint64_t carries = 0;
  SumOfProperty("columnar.dictionary_carries", &carries);
  EXPECT_GE(carries, 1u);
  EXPECT_LE(carries, 8u);
  ExpectSameContents();
}

TEST_F(RowGroupCopyTest, FilesOfOtherOptionsAreNotCopied) {
  AppendRound(0);
  FlushAndCompact();
  // Another rows_per_group: the groups of the first files must be cut anew (one compaction of
  // the flushed file and the older files, which copies nothing).
  tested_.reset();
  ColumnarTableOptions table;
  table.rows_per_group = 96;  // groups of more than 2 kB still
  table.block_size = 4096;
  table.schema = schema_.Serialize();
  tested_options_.table_factory.reset(NewColumnarTableFactory(table));
  tested_ = OpenDb(tested_options_, dir_.Sub("tested"));
  ASSERT_NE(tested_, nullptr);
  AppendRound(1);
  FlushAndCompact(/*again=*/false);
  EXPECT_EQ(SumOfProperty("columnar.copied_row_groups"), 0u);
  ExpectSameContents();
  AppendRound(2);
  FlushAndCompact();
  EXPECT_GT(SumOfProperty("columnar.copied_row_groups"), 0u);
  ExpectSameContents();
}

// Blocks compressed with zstd dictionaries (trained per output, or carried over from an input).
class RowGroupCopyZstdDictionaryTest : public RowGroupCopyTest {
 protected:
  explicit RowGroupCopyZstdDictionaryTest(const char* table = kPointsTable)
      : RowGroupCopyTest(table) {
    zstd_dictionary_ = true;
  }
};

TEST_F(RowGroupCopyZstdDictionaryTest, OutputsCarryTheDictionaryAndTheBlocksTheyCopy) {
  for (int round = 0; round < 4; round++) {
    AppendRound(round);
    FlushAndCompact(/*again=*/false);
  }
  ExpectSameContents();
  // Nothing changed since: outputs copying an input's groups take its dictionary, and with it
  // the input's blocks as stored.
  const auto [blocks_again, groups_again] = CopiesOfAnotherFullCompaction();
  // 34 blocks for 50 groups (0 blocks when each output trains its own dictionary); as in
  // BlocksOfCopiedGroupsAreWrittenAsStored, at least half as many blocks as groups.
  EXPECT_GE(blocks_again * 2, groups_again) << blocks_again << " for " << groups_again;
  EXPECT_GT(groups_again, 0u);
  uint64_t carries = 0;
  SumOfProperty(kCompressionDictionaryCarriesProperty, &carries);
  EXPECT_GE(carries, 1u);
  rocksdb::TablePropertiesCollection files;
  ASSERT_TRUE(tested_->GetPropertiesOfAllTables(&files).ok());
  for (const auto& [file, props] : files) {
    EXPECT_EQ(props->compression_name, "ZSTD+dictionary") << file;
  }
  ExpectSameContentsAfterReopen();  // every block's checksum verified
}

// Split compactions with zstd dictionaries: several builders carry dictionaries from, and copy
// the stored blocks of, the same input files at once (also run under ThreadSanitizer).
class RowGroupCopyZstdDictionaryConcurrencyTest : public RowGroupCopyZstdDictionaryTest {
 protected:
  RowGroupCopyZstdDictionaryConcurrencyTest() { max_subcompactions_ = 3; }
};

TEST_F(RowGroupCopyZstdDictionaryConcurrencyTest, SplitCompactionsCarryDictionaries) {
  for (int round = 0; round < 3; round++) {
    AppendRound(round);
    FlushAndCompact();
    ExpectSameContents();
  }
  CompactAllAgain();
  const rocksdb::HistogramData split = Subcompactions();
  EXPECT_GE(split.max, 2.0);
  EXPECT_GT(SumOfProperty("columnar.copied_blocks"), 0u);
  uint64_t carries = 0;
  SumOfProperty(kCompressionDictionaryCarriesProperty, &carries);
  EXPECT_GE(carries, 1u);
  ExpectSameContentsAfterReopen();
}

class RowGroupCopyUntaggedZstdDictionaryTest : public RowGroupCopyZstdDictionaryTest {
 protected:
  RowGroupCopyUntaggedZstdDictionaryTest() : RowGroupCopyZstdDictionaryTest(kUntaggedPointsTable) {}
};

TEST_F(RowGroupCopyUntaggedZstdDictionaryTest, BlocksOfAnotherDictionaryAreCompressedAgain) {
  // Without file dictionaries an output copies the groups of every input file, but takes the
  // dictionary of one only: the blocks of the others, compressed with their own dictionaries,
  // must be compressed again (a stored block taken from one of them would not decompress).
  for (int round = 0; round < 2; round++) AppendRound(round);
  FlushAndCompact();
  ASSERT_GE(DataFiles(), 2u);  // several files, each with its own dictionary
  // One output for all of them: it copies the groups of every file.
  SetTargetFileSize(64 << 20);
  CompactAllAgain();
  ASSERT_EQ(DataFiles(), 1u);
  const uint64_t groups = SumOfProperty("columnar.copied_row_groups");
  const uint64_t blocks = SumOfProperty("columnar.copied_blocks");
  // 35 of 48 groups copied; 15 of 37 blocks as stored: those of the file whose dictionary the
  // output took (25 when the dictionaries are not compared, and the others' fail to decompress).
  EXPECT_GT(groups * 3, RowGroups() * 2) << groups << " of " << RowGroups();
  EXPECT_GT(blocks, 0u);
  EXPECT_LT(blocks * 2, DataBlocks()) << blocks << " of " << DataBlocks();
  ExpectSameContentsAfterReopen();
}

TEST_F(RowGroupCopyUntaggedZstdDictionaryTest, CompressionDictionaryCarriesAreBounded) {
  // Rewrites of unchanged files: every output copies from its first row on, and would carry its
  // input's dictionary over every time (12 times here) but for the bound. (Untagged: with file
  // dictionaries, their own bound, the same, would end the copies and the carries.)
  for (int round = 0; round < 2; round++) AppendRound(round);
  FlushAndCompact();
  for (int pass = 0; pass < 12; pass++) CompactAllAgain();
  uint64_t carries = 0;
  SumOfProperty(kCompressionDictionaryCarriesProperty, &carries);
  EXPECT_GE(carries, 1u);
  EXPECT_LE(carries, 8u);
  ExpectSameContentsAfterReopen();
}

}  // namespace
}  // namespace columnar
