// The columnar scan path (plugin/column_scan.h, table_api/scan_executor.h), one test per way
// another source can overlap a ColumnarTable file's rows: each asserts through SelectStats
// which path served which rows, and that the result equals the row path's (the same query with
// allow_columnar_scan = false). Also: scans across partitions (no partition key), in the Table
// API and in CQL.
#include <gtest/gtest.h>
#include <rocksdb/env.h>

#include <atomic>
#include <thread>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr int64_t kScanStartSeconds = 1'700'000'000;
constexpr int kScanRows = 640;  // one partition's rows: 40 groups of 16

class ColumnarScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_ = test::ManualDatabaseOptions(clock_, env_.get());
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    TableStorage storage = test::ColumnarStorage();
    storage.columnar.rows_per_group = 16;
    ASSERT_TRUE(db_->CreateTable(test::MetricsTableCql("m.t"), storage).ok());
    table_ = test::MustGetTable(db_.get(), "m.t");
  }

  static std::vector<Value> Series(int64_t id) {
    return {Value::Text("org"), Value::BigInt(1), Value::BigInt(id)};
  }

  void Write(int64_t series, int time, float value, std::optional<int64_t> ttl = std::nullopt) {
    RowWriteOptions options;
    options.ttl_seconds = ttl;
    Row row = table_->NewRow();
    const std::vector<Value> key = Series(series);
    for (size_t i = 0; i < key.size(); i++) row[i] = key[i];
    row[3] = Value::Int(time);
    row[4] = Value::Float(value);
    ASSERT_TRUE(table_->Insert(row, options).ok());
  }

  void Fill(int64_t series) {
    for (int i = 0; i < kScanRows; i++) Write(series, 1000 + i, static_cast<float>(i) / 4);
  }

  void FlushAndCompact() {
    rocksdb::DB* db = db_->db();
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions(), table_->column_family()).ok());
    ASSERT_TRUE(
        db->CompactRange(rocksdb::CompactRangeOptions(), table_->column_family(), nullptr, nullptr)
            .ok());
  }

  void Flush() {
    ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), table_->column_family()).ok());
  }

  // Selects `query` both ways; checks they agree and returns the columnar-allowed run's stats.
  SelectStats SelectBothWays(SelectQuery query, ResultSet* rows = nullptr) {
    ResultSet columnar, row_path;
    SelectStats stats, row_stats;
    query.allow_columnar_scan = true;
    EXPECT_TRUE(table_->Select(query, &columnar, &stats).ok());
    query.allow_columnar_scan = false;
    EXPECT_TRUE(table_->Select(query, &row_path, &row_stats).ok());
    EXPECT_EQ(row_stats.rows_columnar, 0u);
    EXPECT_TRUE(columnar.rows == row_path.rows &&
                SerializeRows(columnar) == SerializeRows(row_path))
        << "columnar:\n"
        << ResultSetToString(columnar) << "row path:\n"
        << ResultSetToString(row_path);
    EXPECT_EQ(stats.rows_columnar + stats.rows_row_path, columnar.rows.size());
    if (rows != nullptr) *rows = columnar;
    return stats;
  }

  TempDir dir_{"columnar-scan"};
  std::unique_ptr<rocksdb::Env> env_{rocksdb::NewMemEnv(rocksdb::Env::Default())};
  test::ManualClock clock_{kScanStartSeconds * 1000000};
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
  Table* table_ = nullptr;
};

TEST_F(ColumnarScanTest, BottommostFileServesWholeGroupsAsColumns) {
  Fill(1);
  Fill(2);
  FlushAndCompact();
  ResultSet rows;
  const SelectStats stats = SelectBothWays(SelectQuery::ForPartition(Series(1)), &rows);
  ASSERT_EQ(rows.rows.size(), static_cast<size_t>(kScanRows));
  // Every row, those of the group it shares with the next partition's rows too.
  EXPECT_EQ(stats.rows_columnar, static_cast<uint64_t>(kScanRows));
  EXPECT_EQ(stats.rows_row_path, 0u);
  EXPECT_GT(stats.columnar_row_groups, 0u);
  // Reversed, with a limit, with a filter, with writetime() / ttl().
  SelectQuery query = SelectQuery::ForPartition(Series(2));
  query.reversed = true;
  query.limit = 300;
  query.columns = {"time", "value", "writetime(value)", "ttl(value)", "metricid"};
  query.filter = Predicate::Compare("value", CompareOp::kGe, Value::Float(20));
  EXPECT_GT(SelectBothWays(query).rows_columnar, 0u);
}

// While only flushed files hold a partition (no file of sequence number 0), its scan takes the
// row path without an implicit snapshot: releasing one would have RocksDB mark the flushed
// file, still bottommost, for a compaction that zeroes its sequence numbers (a rewrite the
// row path's reads never cause). Once a compaction wrote the partition, the columnar path.
TEST_F(ColumnarScanTest, ScansOfOnlyFlushedFilesTakeNoSnapshot) {
  Fill(1);
  Flush();
  Write(2, 1000, 1);  // writes go on: the flushed file's sequence numbers are now below the last
  rocksdb::DB* db = db_->db();
  std::string pending;
  ASSERT_TRUE(db->GetProperty(table_->column_family(), "rocksdb.compaction-pending", &pending));
  ASSERT_EQ(pending, "0");
  SelectQuery query = SelectQuery::ForPartition(Series(1));
  query.filter = Predicate::Compare("value", CompareOp::kGe, Value::Float(20));
  const SelectStats stats = SelectBothWays(query);
  EXPECT_EQ(stats.rows_columnar, 0u);
  EXPECT_GT(stats.rows_row_path, 0u);
  ASSERT_TRUE(db->GetProperty(table_->column_family(), "rocksdb.compaction-pending", &pending));
  EXPECT_EQ(pending, "0");

  FlushAndCompact();
  EXPECT_GT(SelectBothWays(query).rows_columnar, 0u);
}

// Clustering bounds that begin and end inside row groups: the rows of those groups outside the
// bounds are found by their keys and left out, on the columns (no iterator).
TEST_F(ColumnarScanTest, BoundsInsideRowGroupsAreCutOnTheColumns) {
  Fill(1);
  Fill(2);
  Fill(3);
  FlushAndCompact();
  for (const bool reversed : {false, true}) {
    for (const auto& [low, high] :
         {std::pair<int, int>{1005, 1100}, {1000, 1001}, {1003, 1004}, {1630, 2000}, {900, 1007}}) {
      SelectQuery query = SelectQuery::ForPartition(Series(2));
      query.lower_bound = ClusteringBound{Value::Int(low), false};
      query.upper_bound = ClusteringBound{Value::Int(high), true};
      query.reversed = reversed;
      ResultSet rows;
      const SelectStats stats = SelectBothWays(query, &rows);
      const int expected = std::max(0, std::min(high, 1000 + kScanRows - 1) - std::max(low, 999));
      EXPECT_EQ(rows.rows.size(), static_cast<size_t>(expected)) << low << ".." << high;
      EXPECT_EQ(stats.rows_columnar, static_cast<uint64_t>(expected)) << low << ".." << high;
      EXPECT_EQ(stats.rows_row_path, 0u);
      // With a limit and a filter.
      query.limit = 7;
      query.filter = Predicate::Compare("value", CompareOp::kGe, Value::Float(2));
      SelectBothWays(query);
    }
  }
  // A memtable entry inside the partition: the pieces around it end and begin inside groups.
  Write(2, 1000 + 300, 1);
  ResultSet rows;
  const SelectStats stats = SelectBothWays(SelectQuery::ForPartition(Series(2)), &rows);
  EXPECT_EQ(rows.rows.size(), static_cast<size_t>(kScanRows));
  EXPECT_EQ(stats.rows_row_path, 1u);
  EXPECT_EQ(stats.rows_columnar, static_cast<uint64_t>(kScanRows - 1));
}

// A scan leaves the groups' decoded columns in the cache; the next scan of them decodes
// nothing, whatever it projects.
TEST_F(ColumnarScanTest, ScannedColumnsAreCachedForTheNextScan) {
  Fill(1);
  FlushAndCompact();
  const SelectQuery query = SelectQuery::ForPartition(Series(1));
  const SelectStats first = SelectBothWays(query);
  EXPECT_GT(first.columnar_row_groups, 0u);
  EXPECT_EQ(first.columnar_columns_decoded, first.columnar_row_groups);  // `value`, per group
  EXPECT_EQ(first.columnar_columns_cached, 0u);
  const SelectStats second = SelectBothWays(query);
  EXPECT_EQ(second.columnar_columns_decoded, 0u);
  EXPECT_EQ(second.columnar_columns_cached, first.columnar_columns_decoded);
  // Other key and metadata columns (an entry of their own), the same regular column.
  SelectQuery metadata = query;
  metadata.columns = {"writetime(value)", "ttl(value)", "value", "metricid"};
  metadata.reversed = true;
  const SelectStats third = SelectBothWays(metadata);
  EXPECT_EQ(third.columnar_columns_decoded, 0u);
  EXPECT_GT(third.columnar_columns_cached, 0u);
  EXPECT_GT(third.rows_columnar, 0u);
}

// A table of one partition whose rows carry a text column, its ColumnarTable cache below
// CacheRoom::kMinRoom (never room to spare): `code` is i % 3, `note` differs from row to row.
void CreateSmallCacheTable(Database* db, Table** table) {
  TableStorage storage = test::ColumnarStorage();
  storage.columnar.rows_per_group = 16;
  storage.columnar.cache_size = 512 << 10;
  ASSERT_TRUE(db->CreateTable("CREATE TABLE m.notes (series bigint, time int, code int, "
                              "note text, PRIMARY KEY (series, time))",
                              storage)
                  .ok());
  *table = test::MustGetTable(db, "m.notes");
  for (int i = 0; i < kScanRows; i++) {
    Row row = (*table)->NewRow();
    row[0] = Value::BigInt(1);
    row[1] = Value::Int(i);
    row[2] = Value::Int(i % 3);
    // Digit runs in a fixed frame: template-encoded, which decodes only the wanted rows.
    row[3] = Value::Text("GET /api/v1/items/" + std::to_string(100000 + i * 7919 % 100003) +
                         "/parts/" + std::to_string(i * 31 % 977) + " HTTP/1.1");
    ASSERT_TRUE((*table)->Insert(row).ok());
  }
  rocksdb::DB* rocks = db->db();
  ASSERT_TRUE(rocks->Flush(rocksdb::FlushOptions(), (*table)->column_family()).ok());
  ASSERT_TRUE(rocks
                  ->CompactRange(rocksdb::CompactRangeOptions(), (*table)->column_family(), nullptr,
                                 nullptr)
                  .ok());
}

SelectQuery NotesWithCode(CompareOp op, int code) {
  SelectQuery query = SelectQuery::ForPartition({Value::BigInt(1)});
  query.filter = Predicate::Compare("code", op, Value::Int(code));
  return query;
}

// A filtered scan of a cold group decodes the selected rows only and caches nothing: such a
// partly decoded column must never serve a later scan (the unfiltered scan below would return
// other rows' notes empty).
TEST_F(ColumnarScanTest, FilteredColdGroupsDecodeOnlyTheirSelectedRows) {
  CreateSmallCacheTable(db_.get(), &table_);
  ResultSet rows;
  const SelectStats cold = SelectBothWays(NotesWithCode(CompareOp::kGe, 1), &rows);
  EXPECT_GT(rows.rows.size(), static_cast<size_t>(kScanRows / 2));
  EXPECT_GT(cold.columnar_columns_decoded, 0u);
  // Unfiltered: nothing cached to take (the filtered scan's columns were partial).
  const SelectStats whole = SelectBothWays(SelectQuery::ForPartition({Value::BigInt(1)}));
  EXPECT_EQ(whole.columnar_columns_cached, 0u);
  EXPECT_GT(whole.columnar_columns_decoded, 0u);
  // The unfiltered scan cached every group it read whole; the filtered one now finds them.
  const SelectStats hot = SelectBothWays(NotesWithCode(CompareOp::kGe, 1));
  EXPECT_EQ(hot.columnar_columns_decoded, 0u);
  EXPECT_EQ(hot.columnar_columns_cached, cold.columnar_columns_decoded);
}

// A group's first scan caches nothing (the cache may be smaller than what a scan touches once);
// its second scan caches its columns for the next.
TEST_F(ColumnarScanTest, GroupsScannedOnceAreNotCached) {
  CreateSmallCacheTable(db_.get(), &table_);
  const SelectQuery query = SelectQuery::ForPartition({Value::BigInt(1)});
  const SelectStats first = SelectBothWays(query);
  EXPECT_GT(first.columnar_columns_decoded, 0u);
  const SelectStats second = SelectBothWays(query);
  EXPECT_EQ(second.columnar_columns_cached, 0u);
  EXPECT_EQ(second.columnar_columns_decoded, first.columnar_columns_decoded);
  const SelectStats third = SelectBothWays(query);
  EXPECT_EQ(third.columnar_columns_decoded, 0u);
  EXPECT_EQ(third.columnar_columns_cached, first.columnar_columns_decoded);
}

// A second filtered scan of a cold group decodes it whole and caches it (the rows a filter
// selects differ from one query to the next; the cached columns must hold every row).
TEST_F(ColumnarScanTest, GroupsScannedTwiceAreCachedWhole) {
  CreateSmallCacheTable(db_.get(), &table_);
  const SelectStats first = SelectBothWays(NotesWithCode(CompareOp::kGe, 1));
  const SelectStats second = SelectBothWays(NotesWithCode(CompareOp::kGe, 1));
  EXPECT_EQ(second.columnar_columns_cached, 0u);
  EXPECT_EQ(second.columnar_columns_decoded, first.columnar_columns_decoded);
  const SelectStats third = SelectBothWays(NotesWithCode(CompareOp::kLe, 1));
  EXPECT_EQ(third.columnar_columns_decoded, 0u);
  EXPECT_EQ(third.columnar_columns_cached, first.columnar_columns_decoded);
  EXPECT_GT(third.rows_columnar, 0u);
}

TEST_F(ColumnarScanTest, MemtableEntryOverlapsGoesThroughIterators) {
  Fill(1);
  FlushAndCompact();
  Write(1, 1000 + kScanRows / 2, -1);  // an update, in the memtable
  ResultSet rows;
  const SelectStats stats = SelectBothWays(SelectQuery::ForPartition(Series(1)), &rows);
  ASSERT_EQ(rows.rows.size(), static_cast<size_t>(kScanRows));
  EXPECT_GT(stats.rows_row_path, 0u);
  EXPECT_GT(stats.rows_columnar, 0u);
  // The memtable holds one key: everything but the groups around it is columnar.
  EXPECT_LE(stats.rows_row_path, 2u * 16);
  // A deletion in the memtable, likewise.
  ASSERT_TRUE(table_->DeleteRow(Series(1), {Value::Int(1000 + 10)}).ok());
  SelectBothWays(SelectQuery::ForPartition(Series(1)), &rows);
  EXPECT_EQ(rows.rows.size(), static_cast<size_t>(kScanRows - 1));
}

TEST_F(ColumnarScanTest, LevelZeroFileOverlapGoesThroughIterators) {
  Fill(1);
  FlushAndCompact();
  Write(1, 1000 + 100, -1);
  Write(1, 1000 + 110, -2);
  Flush();  // an L0 file (sequence numbers > 0) over times 1100..1110
  const SelectStats stats = SelectBothWays(SelectQuery::ForPartition(Series(1)));
  EXPECT_GT(stats.rows_row_path, 0u);
  EXPECT_LE(stats.rows_row_path, 3u * 16);
  EXPECT_GT(stats.rows_columnar, static_cast<uint64_t>(kScanRows / 2));
}

TEST_F(ColumnarScanTest, RangeTombstoneOfAnotherSourceGoesThroughIterators) {
  Fill(1);
  Fill(2);
  FlushAndCompact();
  ASSERT_TRUE(table_->DeletePartition(Series(1)).ok());  // a range tombstone in the memtable
  ResultSet rows;
  SelectStats stats = SelectBothWays(SelectQuery::ForPartition(Series(1)), &rows);
  EXPECT_TRUE(rows.rows.empty());
  EXPECT_EQ(stats.rows_columnar, 0u);
  Flush();  // now in an L0 file, whose key range covers its tombstone
  stats = SelectBothWays(SelectQuery::ForPartition(Series(1)), &rows);
  EXPECT_TRUE(rows.rows.empty());
  EXPECT_EQ(stats.rows_columnar, 0u);
  // The other partition is untouched and still columnar.
  stats = SelectBothWays(SelectQuery::ForPartition(Series(2)), &rows);
  EXPECT_EQ(rows.rows.size(), static_cast<size_t>(kScanRows));
  EXPECT_GT(stats.rows_columnar, 0u);
}

TEST_F(ColumnarScanTest, VersionsKeptForASnapshotGoThroughIterators) {
  Fill(1);
  FlushAndCompact();
  const rocksdb::Snapshot* snapshot = db_->db()->GetSnapshot();
  for (int i = 0; i < kScanRows; i += 3) Write(1, 1000 + i, -static_cast<float>(i));
  FlushAndCompact();  // the bottommost file keeps both versions (sequence numbers > 0)
  SelectQuery query = SelectQuery::ForPartition(Series(1));
  ResultSet latest;
  SelectStats stats = SelectBothWays(query, &latest);
  EXPECT_EQ(stats.rows_columnar, 0u);
  ASSERT_FALSE(latest.rows.empty());  // a failed select must fail the test, not crash it
  EXPECT_EQ(latest.rows[0][4],
            Value::Float(-static_cast<float>(kScanRows - 1 - (kScanRows - 1) % 3)));
  query.snapshot = snapshot;
  stats = SelectBothWays(query);
  EXPECT_EQ(stats.rows_columnar, 0u);
  db_->db()->ReleaseSnapshot(snapshot);
  FlushAndCompact();  // one version per key again, sequence numbers 0
  query.snapshot = nullptr;
  EXPECT_GT(SelectBothWays(query).rows_columnar, 0u);
}

TEST_F(ColumnarScanTest, ExpiredRowsAreLeftOutOnTheColumns) {
  for (int i = 0; i < kScanRows; i++) {
    Write(1, 1000 + i, static_cast<float>(i),
          (i % 2 == 0) ? std::optional<int64_t>(10 + i % 7) : std::nullopt);
  }
  FlushAndCompact();
  clock_.AdvanceSeconds(13);
  ResultSet rows;
  const SelectStats stats = SelectBothWays(SelectQuery::ForPartition(Series(1)), &rows);
  EXPECT_GT(stats.rows_columnar, 0u);
  size_t expected = 0;
  for (int i = 0; i < kScanRows; i++) expected += (i % 2 == 1) || (10 + i % 7 > 13);
  EXPECT_EQ(rows.rows.size(), expected);
}

TEST_F(ColumnarScanTest, ScanHandsOutBatches) {
  Fill(1);
  FlushAndCompact();
  Write(1, 1000 + 5, 7);  // the first rows come through the row path
  SelectQuery query = SelectQuery::ForPartition(Series(1));
  query.columns = {"time", "value"};
  size_t batches = 0, rows = 0;
  SelectStats stats;
  ASSERT_TRUE(table_
                  ->Scan(
                      query,
                      [&](const ColumnBatch& batch) {
                        EXPECT_EQ(batch.columns.size(), 2u);
                        EXPECT_EQ(batch.columns[0].size(), batch.row_count);
                        batches++;
                        rows += batch.row_count;
                        return true;
                      },
                      &stats)
                  .ok());
  EXPECT_EQ(rows, static_cast<size_t>(kScanRows));
  EXPECT_GT(batches, 2u);
  EXPECT_GT(stats.rows_columnar, 0u);
  EXPECT_GT(stats.rows_row_path, 0u);
  // The visitor can stop the scan.
  batches = 0;
  ASSERT_TRUE(table_->Scan(query, [&](const ColumnBatch&) { return ++batches < 2; }).ok());
  EXPECT_EQ(batches, 2u);
}

TEST_F(ColumnarScanTest, WholeTableScanInKeyOrder) {
  for (int64_t series : {3, 1, 2}) {
    for (int i = 0; i < 100; i++) Write(series, 1000 + i, static_cast<float>(series));
  }
  SelectQuery query;  // no partition key: every partition
  query.columns = {"metricid", "time"};
  ResultSet rows;
  SelectBothWays(query, &rows);
  ASSERT_EQ(rows.rows.size(), 300u);
  EXPECT_EQ(rows.rows[0][0], Value::BigInt(1));
  EXPECT_EQ(rows.rows[0][1], Value::Int(1099));  // time DESC
  EXPECT_EQ(rows.rows[299][0], Value::BigInt(3));
  FlushAndCompact();
  // A filter on a partition key column and a regular one; a limit.
  query.filter = Predicate::And({Predicate::Compare("metricid", CompareOp::kGe, Value::BigInt(2)),
                                 Predicate::Compare("time", CompareOp::kLt, Value::Int(1010))});
  query.limit = 15;
  const SelectStats stats = SelectBothWays(query, &rows);
  ASSERT_EQ(rows.rows.size(), 15u);
  EXPECT_EQ(rows.rows[0][0], Value::BigInt(2));
  EXPECT_EQ(rows.rows[14][0], Value::BigInt(3));
  EXPECT_GT(stats.rows_columnar, 0u);
  // Clustering restrictions and reversed order need the partition key.
  SelectQuery bad;
  bad.reversed = true;
  EXPECT_TRUE(table_->Select(bad, &rows).IsInvalidArgument());
  bad = SelectQuery();
  bad.lower_bound = ClusteringBound{Value::Int(1), true};
  EXPECT_TRUE(table_->Select(bad, &rows).IsInvalidArgument());
}

TEST_F(ColumnarScanTest, WholeTableScanInCql) {
  for (int64_t series : {1, 2}) {
    for (int i = 0; i < 50; i++) Write(series, 1000 + i, static_cast<float>(i));
  }
  FlushAndCompact();
  ResultSet rows;
  Status s = db_->Execute(
      "SELECT metricid, time FROM m.t WHERE metricid = 2 AND time >= 1040 ALLOW FILTERING", &rows);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(rows.rows.size(), 10u);
  s = db_->Execute("SELECT * FROM m.t WHERE value > 45 ALLOW FILTERING", &rows);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(rows.rows.size(), 8u);
  // Without ALLOW FILTERING a partial partition key is still an error.
  EXPECT_FALSE(db_->Execute("SELECT * FROM m.t WHERE metricid = 2", &rows).ok());
  EXPECT_FALSE(
      db_->Execute("SELECT * FROM m.t WHERE metricid = 2 ORDER BY time ASC ALLOW FILTERING", &rows)
          .ok());
}

}  // namespace
}  // namespace columnar

namespace columnar {
namespace {

// Row groups store each partition once, not per row: predicate pushdown inside the readers
// evaluates partition key columns from the groups' partitions (read as null, rows would be
// dropped).
TEST_F(ColumnarScanTest, FilterOnPartitionKeyColumnThroughPushdown) {
  Fill(1);
  FlushAndCompact();
  SelectQuery query = SelectQuery::ForPartition(Series(1));
  query.filter = Predicate::And({Predicate::Compare("metricid", CompareOp::kEq, Value::BigInt(1)),
                                 Predicate::Compare("time", CompareOp::kLt, Value::Int(1100))});
  query.allow_columnar_scan = false;
  ResultSet rows;
  ASSERT_TRUE(table_->Select(query, &rows).ok());
  EXPECT_EQ(rows.rows.size(), 100u);
  query.filter = Predicate::Or({Predicate::Compare("metricid", CompareOp::kEq, Value::BigInt(1)),
                                Predicate::Compare("time", CompareOp::kLt, Value::Int(0))});
  ASSERT_TRUE(table_->Select(query, &rows).ok());
  EXPECT_EQ(rows.rows.size(), static_cast<size_t>(kScanRows));
}

}  // namespace
}  // namespace columnar

namespace columnar {
namespace {

// Readers scan while a writer rewrites the same rows (same values and write time, so every
// result stays the same) and flushes and compactions reshape the LSM under them: each scan
// pins its view, and its pieces move between the two paths from one scan to the next.
TEST_F(ColumnarScanTest, ScansDuringFlushesAndCompactions) {
  constexpr int kSeries = 4;
  RowWriteOptions options;
  options.write_time_micros = kScanStartSeconds * 1000000;
  auto write_all = [&](int64_t series) {
    std::vector<RowWrite> rows;
    for (int i = 0; i < kScanRows; i++) {
      Row row = table_->NewRow();
      const std::vector<Value> key = Series(series);
      for (size_t k = 0; k < key.size(); k++) row[k] = key[k];
      row[3] = Value::Int(1000 + i);
      row[4] = Value::Float(static_cast<float>(i) / 8);
      rows.emplace_back(std::move(row), options);
    }
    return table_->InsertBatch(rows);
  };
  for (int64_t series = 0; series < kSeries; series++) ASSERT_TRUE(write_all(series).ok());
  FlushAndCompact();
  SelectQuery whole;
  whole.aggregates = {{Aggregate::Function::kCount, ""}, {Aggregate::Function::kSum, "value"}};
  whole.group_by = 3;
  ResultSet expected_groups;
  ASSERT_TRUE(table_->Select(whole, &expected_groups).ok());
  ASSERT_EQ(expected_groups.rows.size(), static_cast<size_t>(kSeries));
  std::vector<ResultSet> expected(kSeries);
  for (int64_t series = 0; series < kSeries; series++) {
    ASSERT_TRUE(table_->Select(SelectQuery::ForPartition(Series(series)), &expected[series]).ok());
  }

  std::atomic<bool> stop{false};
  std::atomic<uint64_t> columnar_rows{0}, row_path_rows{0}, scans{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; t++) {
    readers.emplace_back([&, t] {
      ResultSet rows;
      for (int i = 0; !stop.load() || i < 20; i++) {
        SelectStats stats;
        if ((i + t) % 5 == 0) {
          ASSERT_TRUE(table_->Select(whole, &rows, &stats).ok());
          ASSERT_TRUE(rows.rows == expected_groups.rows);
        } else {
          const int64_t series = (i + t) % kSeries;
          ASSERT_TRUE(
              table_->Select(SelectQuery::ForPartition(Series(series)), &rows, &stats).ok());
          ASSERT_TRUE(rows.rows == expected[series].rows) << "series " << series;
        }
        columnar_rows += stats.rows_columnar;
        row_path_rows += stats.rows_row_path;
        scans++;
      }
    });
  }
  rocksdb::DB* db = db_->db();
  for (int round = 0; round < 6; round++) {
    ASSERT_TRUE(write_all(round % kSeries).ok());
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions(), table_->column_family()).ok());
    if (round % 2 == 1) {
      ASSERT_TRUE(db->CompactRange(rocksdb::CompactRangeOptions(), table_->column_family(), nullptr,
                                   nullptr)
                      .ok());
    }
  }
  stop = true;
  for (std::thread& reader : readers) reader.join();
  EXPECT_GT(scans.load(), 60u);
  EXPECT_GT(columnar_rows.load(), 0u);
  EXPECT_GT(row_path_rows.load(), 0u);
}

}  // namespace
}  // namespace columnar
