// Whole-file expiry (Table::DropExpiredFiles, expired_files.h) on BlockBasedTable,
// ColumnarTable and TieredTable tables of access logs, PRIMARY KEY ((host, day), time), loaded
// day by day in time order and compacted with the time-window partitioner, so every file of
// the bottom level holds one day:
//   - once a day's rows have all expired, exactly that day's files are removed (count and
//     bytes), without a compaction; reads before the removal skip them unread, and reads
//     before and after give the model's rows;
//   - a file holding a live row, a row without expiry or a deletion is never removed, nor is
//     a file whose sequence numbers are not zero (written under a snapshot, or not
//     bottommost), nor an expired file whose key range holds such a file;
//   - late writes into an old day stay readable through removals and compactions.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "table_format/key_codec.h"
#include "tests/table_api/maintenance_test_util.h"

namespace columnar {
namespace {

using test::TableKind;

constexpr int64_t kSecondsPerDay = 86400;
constexpr int32_t kFirstFileDay = 19700;  // 2023-12-09
constexpr int kDays = 5;
constexpr int kExpiryRowsPerPartition = 40;
constexpr int kRetentionDays = 10;
const char* const kExpiryHosts[] = {"h0", "h1"};

int64_t DayStart(int32_t day) { return int64_t{day} * kSecondsPerDay; }

class MaintenanceExpiredFilesTest : public ::testing::TestWithParam<TableKind> {
 protected:
  void SetUp() override {
    table_ = db_.Create(
        "CREATE TABLE ks.logs (host text, day date, time timestamp, status int, msg text, "
        "PRIMARY KEY ((host, day), time)) WITH gc_grace_seconds = 0",
        GetParam());
    ASSERT_NE(table_, nullptr);
  }

  // Rows of (host, day) written at the clock's now, at times `first` + i seconds of the day,
  // with `options` (by default: expiring kRetentionDays after the day ends).
  void InsertRows(const std::string& host, int32_t day, int first, int count,
                  std::optional<RowWriteOptions> options = std::nullopt) {
    const RowWriteOptions write =
        options.value_or(RowWriteOptions{std::nullopt, std::nullopt, ExpiryOfDay(day)});
    for (int i = first; i < first + count; i++) {
      Row row = table_->NewRow();
      const TableSchema& schema = *table_->schema();
      row[schema.FindColumn("host")->id] = Value::Text(host);
      row[schema.FindColumn("day")->id] = Value::Date(day);
      row[schema.FindColumn("time")->id] = Value::Timestamp((DayStart(day) + i) * 1000);
      row[schema.FindColumn("status")->id] = Value::Int(200 + i % 3);
      row[schema.FindColumn("msg")->id] = Value::Text("request " + std::to_string(i));
      ASSERT_TRUE(table_->Insert(row, write).ok());
      model_.Insert(schema, row, write, db_.clock().now_micros());
    }
    partitions_.insert({host, day});
  }

  static int64_t ExpiryOfDay(int32_t day) { return DayStart(day + 1 + kRetentionDays); }

  // Days kFirstFileDay.. kFirstFileDay + kDays - 1, each written during its day, then flushed and
  // compacted, as a daily job would.
  void LoadDays() {
    for (int32_t day = kFirstFileDay; day < kFirstFileDay + kDays; day++) {
      db_.clock().SetSeconds(DayStart(day) + 3600);
      for (const char* host : kExpiryHosts) InsertRows(host, day, 0, kExpiryRowsPerPartition);
      db_.FlushAndCompact(table_);
    }
  }

  // The day of a key of the table.
  int32_t DayOf(const std::string& key) const {
    std::vector<Value> partition, clustering;
    EXPECT_TRUE(DecodeKey(*table_->schema(), key, &partition, &clustering).ok());
    return partition[1].int32_value();
  }

  // Files by the day they hold (each holds one: the partitioner cuts at day changes).
  std::multimap<int32_t, rocksdb::LiveFileMetaData> FilesByDay() const {
    std::multimap<int32_t, rocksdb::LiveFileMetaData> files;
    for (const rocksdb::LiveFileMetaData& file : db_.Files(table_)) {
      EXPECT_EQ(DayOf(file.smallestkey), DayOf(file.largestkey)) << file.name;
      files.emplace(DayOf(file.smallestkey), file);
    }
    return files;
  }

  void ExpectMatchesModel(const std::string& when) {
    std::vector<std::vector<Value>> partitions;
    for (const auto& [host, day] : partitions_) {
      partitions.push_back({Value::Text(host), Value::Date(day)});
    }
    test::ExpectPartitionsMatchModel(table_, model_, partitions, db_.clock().now_micros(), when);
  }

  // Reads partition (host, day); returns how many files the read skipped as fully expired.
  uint64_t FilesSkippedReading(const std::string& host, int32_t day, size_t* rows = nullptr) {
    ResultSet result;
    SelectStats stats;
    const Status s = table_->Select(
        SelectQuery::ForPartition({Value::Text(host), Value::Date(day)}), &result, &stats);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (rows != nullptr) *rows = result.rows.size();
    return stats.files_skipped;
  }

  ExpiredFilesResult DropExpiredFiles() {
    ExpiredFilesResult result;
    const Status s = table_->DropExpiredFiles(&result);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return result;
  }

  // Compacts the memtable's rows into a file at `level`, above the bottom level, with
  // CompactFiles (a manual CompactRange would compact down to the bottom).
  void FlushToLevel(int level) {
    const std::vector<rocksdb::LiveFileMetaData> before = db_.Files(table_);
    db_.Flush(table_);
    std::vector<std::string> l0;
    for (const rocksdb::LiveFileMetaData& file : db_.Files(table_)) {
      if (file.level == 0) l0.push_back(file.name);
    }
    ASSERT_EQ(l0.size(), 1u);
    const Status s =
        db_.rocks()->CompactFiles(rocksdb::CompactionOptions(), table_->column_family(), l0, level);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  test::MaintenanceDb db_{DayStart(kFirstFileDay), test::UseTimeWindowPartitioner};
  Table* table_ = nullptr;
  test::TableModel model_;
  std::set<std::pair<std::string, int32_t>> partitions_;
};

TEST_P(MaintenanceExpiredFilesTest, DropsExactlyTheFilesOfExpiredDays) {
  LoadDays();
  const auto files = FilesByDay();
  ASSERT_EQ(files.size(), 2u * kDays);  // one file per host and day
  const uint64_t entries = db_.EntriesInFiles(table_);
  EXPECT_EQ(entries, 2u * kDays * kExpiryRowsPerPartition);

  // Days 0..2 have expired (day 2 at exactly this second); days 3 and 4 have not.
  db_.clock().SetSeconds(ExpiryOfDay(kFirstFileDay + 2));
  uint64_t expired_bytes = 0;
  for (const auto& [day, file] : files) expired_bytes += day <= kFirstFileDay + 2 ? file.size : 0;
  for (const char* host : kExpiryHosts) {
    size_t rows = 0;
    EXPECT_EQ(FilesSkippedReading(host, kFirstFileDay + 2, &rows), 1u) << host;
    EXPECT_EQ(rows, 0u);
    EXPECT_EQ(FilesSkippedReading(host, kFirstFileDay + 3, &rows), 0u) << host;
    EXPECT_EQ(rows, size_t{kExpiryRowsPerPartition});
  }
  ExpectMatchesModel("before the removal");
  // A reader that started before the removal keeps its files.
  std::unique_ptr<rocksdb::Iterator> reader(
      db_.rocks()->NewIterator(rocksdb::ReadOptions(), table_->column_family()));

  const ExpiredFilesResult dropped = DropExpiredFiles();
  EXPECT_EQ(dropped.files, 2u * 3);
  EXPECT_EQ(dropped.bytes, expired_bytes);
  const auto left = FilesByDay();
  ASSERT_EQ(left.size(), 2u * 2);
  for (const auto& [day, file] : left) EXPECT_GE(day, kFirstFileDay + 3) << file.name;
  EXPECT_EQ(db_.EntriesInFiles(table_), 2u * 2 * kExpiryRowsPerPartition);
  // Removed whole, not rewritten: no compaction ran.
  EXPECT_EQ(table_->compaction_filter_stats().rows_expired.load(), 0u);
  EXPECT_EQ(db_.Ticker(rocksdb::COMPACTION_KEY_DROP_USER), 0u);
  ExpectMatchesModel("after the removal");
  size_t old_entries = 0;
  for (reader->SeekToFirst(); reader->Valid(); reader->Next()) old_entries++;
  EXPECT_TRUE(reader->status().ok()) << reader->status().ToString();
  EXPECT_EQ(old_entries, entries);
  reader.reset();

  // Nothing else to remove until the next day expires; then its files go too.
  EXPECT_EQ(DropExpiredFiles().files, 0u);
  db_.clock().SetSeconds(ExpiryOfDay(kFirstFileDay + 3) - 1);
  EXPECT_EQ(DropExpiredFiles().files, 0u);
  db_.clock().AdvanceSeconds(1);
  EXPECT_EQ(DropExpiredFiles().files, 2u);
  ExpectMatchesModel("after the second removal");
  db_.Reopen();
  table_ = db_.Get("ks.logs");
  ExpectMatchesModel("after reopen");
  db_.clock().SetSeconds(ExpiryOfDay(kFirstFileDay + 4));
  EXPECT_EQ(DropExpiredFiles().files, 2u);
  EXPECT_TRUE(db_.Files(table_).empty());
  ExpectMatchesModel("with every day removed");
}

TEST_P(MaintenanceExpiredFilesTest, FilesWithALiveRowOrARowWithoutExpiryAreKept) {
  // Three files, all rows expiring with day 0 except one row without expiry in the first and
  // one row expiring a second later in the second.
  const RowWriteOptions day0{std::nullopt, std::nullopt, ExpiryOfDay(kFirstFileDay)};
  db_.clock().SetSeconds(DayStart(kFirstFileDay) + 3600);
  InsertRows("h0", kFirstFileDay, 0, kExpiryRowsPerPartition);
  InsertRows("h0", kFirstFileDay, kExpiryRowsPerPartition, 1,
             RowWriteOptions{std::nullopt, 0, std::nullopt});
  InsertRows("h0", kFirstFileDay + 1, 0, kExpiryRowsPerPartition, day0);
  InsertRows("h0", kFirstFileDay + 1, kExpiryRowsPerPartition, 1,
             RowWriteOptions{std::nullopt, std::nullopt, ExpiryOfDay(kFirstFileDay) + 1});
  InsertRows("h1", kFirstFileDay + 2, 0, kExpiryRowsPerPartition, day0);
  db_.FlushAndCompact(table_);
  ASSERT_EQ(FilesByDay().size(), 3u);
  db_.clock().SetSeconds(ExpiryOfDay(kFirstFileDay));
  ExpectMatchesModel("before");
  const ExpiredFilesResult dropped = DropExpiredFiles();
  EXPECT_EQ(dropped.files, 1u);
  std::multiset<int32_t> days;
  for (const auto& [day, file] : FilesByDay()) days.insert(day);
  EXPECT_EQ(days, (std::multiset<int32_t>{kFirstFileDay, kFirstFileDay + 1}));
  ExpectMatchesModel("after the removal");
  // A compaction leaves the two rows; once the second expires its file goes whole.
  db_.Compact(table_);
  EXPECT_EQ(db_.EntriesInFiles(table_), 2u);
  EXPECT_EQ(table_->compaction_filter_stats().rows_expired.load(), 2u * kExpiryRowsPerPartition);
  EXPECT_EQ(DropExpiredFiles().files, 0u);
  db_.clock().AdvanceSeconds(1);
  EXPECT_EQ(DropExpiredFiles().files, 1u);
  EXPECT_EQ(db_.EntriesInFiles(table_), 1u);
  ExpectMatchesModel("after the compaction and removal");
}

TEST_P(MaintenanceExpiredFilesTest, FilesWithDeletionsOrUnderASnapshotAreKept) {
  LoadDays();
  // Under a snapshot, rows rewritten by a compaction keep their sequence numbers and
  // deletions are not dropped: rewrite day 1 of h0 with a deletion, and day 2 of both hosts.
  const rocksdb::Snapshot* snapshot = db_.rocks()->GetSnapshot();
  db_.clock().SetSeconds(DayStart(kFirstFileDay + 5));
  InsertRows("h0", kFirstFileDay + 1, 0, 10);  // overwrites with the day's usual expiry
  ASSERT_TRUE(table_
                  ->DeleteRow({Value::Text("h0"), Value::Date(kFirstFileDay + 1)},
                              {Value::Timestamp((DayStart(kFirstFileDay + 1) + 10) * 1000)})
                  .ok());
  model_.DeleteRow(*table_->schema(), {Value::Text("h0"), Value::Date(kFirstFileDay + 1)},
                   {Value::Timestamp((DayStart(kFirstFileDay + 1) + 10) * 1000)},
                   db_.clock().now_micros());
  for (const char* host : kExpiryHosts)
    InsertRows(host, kFirstFileDay + 2, 0, kExpiryRowsPerPartition);
  db_.FlushAndCompact(table_);
  db_.clock().SetSeconds(ExpiryOfDay(kFirstFileDay + 2));
  // Day 0: removed. Day 1 of h1: removed. Day 1 of h0 (a deletion) and day 2 (sequence
  // numbers): kept.
  const ExpiredFilesResult dropped = DropExpiredFiles();
  EXPECT_EQ(dropped.files, 3u);
  std::multiset<int32_t> days;
  for (const auto& [day, file] : FilesByDay()) days.insert(day);
  EXPECT_EQ(days, (std::multiset<int32_t>{kFirstFileDay + 1, kFirstFileDay + 2, kFirstFileDay + 2,
                                          kFirstFileDay + 3, kFirstFileDay + 3, kFirstFileDay + 4,
                                          kFirstFileDay + 4}));
  ExpectMatchesModel("with the snapshot");
  db_.rocks()->ReleaseSnapshot(snapshot);
  ExpectMatchesModel("after the snapshot");
  // Without the snapshot, a compaction removes those rows; the filter counts them.
  const uint64_t before = table_->compaction_filter_stats().rows_expired.load();
  db_.Compact(table_);
  EXPECT_EQ(table_->compaction_filter_stats().rows_expired.load() - before,
            2u * kExpiryRowsPerPartition + kExpiryRowsPerPartition - 1);
  // The row deletion is purged too (the table's gc_grace_seconds is 0).
  EXPECT_EQ(table_->compaction_filter_stats().tombstones_purged.load(), 1u);
  EXPECT_EQ(FilesByDay().size(), 4u);
  ExpectMatchesModel("after the compaction");
}

TEST_P(MaintenanceExpiredFilesTest, FilesAboveTheBottomLevelAreKept) {
  LoadDays();
  // Expiring late rows of h0's day 0 in a file above the bottom level: they interleave with
  // the bottom file's rows, so their sequence numbers stay, and extend past its last key.
  db_.clock().SetSeconds(DayStart(kFirstFileDay + 6));
  InsertRows("h0", kFirstFileDay, kExpiryRowsPerPartition / 2, kExpiryRowsPerPartition);
  FlushToLevel(5);
  std::map<int, int> files_by_level;
  for (const rocksdb::LiveFileMetaData& file : db_.Files(table_)) files_by_level[file.level]++;
  EXPECT_EQ(files_by_level, (std::map<int, int>{{5, 1}, {6, 2 * kDays}}));
  db_.clock().SetSeconds(ExpiryOfDay(kFirstFileDay));
  // Every row of day 0 has expired; only the bottom files go.
  EXPECT_EQ(DropExpiredFiles().files, 2u);
  files_by_level.clear();
  for (const rocksdb::LiveFileMetaData& file : db_.Files(table_)) files_by_level[file.level]++;
  EXPECT_EQ(files_by_level, (std::map<int, int>{{5, 1}, {6, 2 * kDays - 2}}));
  ExpectMatchesModel("after the removal");
  db_.Compact(table_);
  EXPECT_EQ(db_.EntriesInFiles(table_), 2u * (kDays - 1) * kExpiryRowsPerPartition);
  ExpectMatchesModel("after the compaction");
}

TEST_P(MaintenanceExpiredFilesTest, LateWritesIntoAnOldDaySurvive) {
  LoadDays();
  // Day 0 is about to expire when late rows for it arrive, with a fresh expiry.
  const RowWriteOptions fresh{std::nullopt, 30 * kSecondsPerDay, std::nullopt};
  db_.clock().SetSeconds(ExpiryOfDay(kFirstFileDay) - 10);
  InsertRows("h0", kFirstFileDay, kExpiryRowsPerPartition, 5, fresh);
  db_.clock().SetSeconds(ExpiryOfDay(kFirstFileDay));
  // In the memtable, then in L0: day 0's old files go, the late rows stay.
  EXPECT_EQ(DropExpiredFiles().files, 2u);
  ExpectMatchesModel("late rows in the memtable");
  InsertRows("h0", kFirstFileDay, 2 * kExpiryRowsPerPartition, 5, fresh);
  db_.Flush(table_);
  EXPECT_EQ(DropExpiredFiles().files, 0u);
  ExpectMatchesModel("late rows in L0");
  size_t rows = 0;
  FilesSkippedReading("h0", kFirstFileDay, &rows);
  EXPECT_EQ(rows, 10u);

  // Late rows of h0's day 1 (overwrites, fresh expiry) in a file above day 1's bottom file,
  // inside its key range: removing that range would remove them, so h0's day 1 file stays
  // when day 1 expires, while h1's goes.
  db_.clock().SetSeconds(ExpiryOfDay(kFirstFileDay + 1) - 10);
  db_.Compact(table_);  // day 0's late rows to the bottom level
  InsertRows("h0", kFirstFileDay + 1, 5, 3, fresh);
  FlushToLevel(5);
  db_.clock().SetSeconds(ExpiryOfDay(kFirstFileDay + 1));
  EXPECT_EQ(DropExpiredFiles().files, 1u);
  ExpectMatchesModel("late rows of day 1 above its bottom file");
  db_.Compact(table_);
  EXPECT_EQ(DropExpiredFiles().files, 0u);
  ExpectMatchesModel("after compacting the late rows");
  // The late rows of days 0 and 1, and days 2..4, are left.
  EXPECT_EQ(db_.EntriesInFiles(table_), 10u + 3 + 2u * (kDays - 2) * kExpiryRowsPerPartition);
  db_.clock().SetSeconds(DayStart(kFirstFileDay) + 50 * kSecondsPerDay);
  const size_t files = db_.Files(table_).size();
  EXPECT_EQ(DropExpiredFiles().files, files);
  EXPECT_TRUE(db_.Files(table_).empty());
  ExpectMatchesModel("after every row expired");
}

INSTANTIATE_TEST_SUITE_P(AllKinds, MaintenanceExpiredFilesTest, test::AllTableKinds(),
                         test::TableKindParamName);

}  // namespace
}  // namespace columnar
