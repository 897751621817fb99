// Aggregates answered from row-group statistics (table_api/aggregation.h, AddStatistics): one
// test per case where a row group of the columnar path is or is not taken from its zone maps.
// Each asserts the counters (SelectStats::row_groups_from_stats / rows_from_stats) and that the
// result equals the row path's (the same query with allow_columnar_scan = false), which never
// uses statistics.
#include <gtest/gtest.h>
#include <rocksdb/env.h>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr int64_t kStatisticsStartSeconds = 1'700'000'000;
constexpr int kRowsPerGroup = 16;
constexpr int kStatisticsRows = 640;  // one partition's rows: 40 groups of 16

class AggregateStatisticsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_ = test::ManualDatabaseOptions(clock_, env_.get());
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    TableStorage storage = test::ColumnarStorage();
    storage.columnar.rows_per_group = kRowsPerGroup;
    const Status s = db_->CreateTable(
        "CREATE TABLE s.t (host text, ts int, status int, bytes bigint, latency double, "
        "path text, noise int, PRIMARY KEY ((host), ts))",
        storage);
    ASSERT_TRUE(s.ok()) << s.ToString();
    table_ = test::MustGetTable(db_.get(), "s.t");
  }

  // Row i of a host: status 200 + (i % 4) * 100 (200..500, never all >= 500 in a group),
  // bytes large enough that sums need 64 bits, latency a double, path sometimes null; all with
  // zone maps that can prune (zone_map_usefulness.h), except `noise`, uniform in every group.
  void Write(const std::string& host, int i, std::optional<int64_t> ttl = std::nullopt) {
    RowWriteOptions options;
    options.ttl_seconds = ttl;
    Row row = table_->NewRow();
    row[0] = Value::Text(host);
    row[1] = Value::Int(i);
    row[2] = Value::Int(200 + (i % 4) * 100);
    row[3] = Value::BigInt((int64_t{1} << 40) + i * 1000 + i % 7);
    row[4] = Value::Double(0.1 * i + (i % 3));
    if (i % 5 != 0) row[5] = Value::Text("/p/" + std::to_string(i / 32));
    // Both extremes in every group: its bounds span the whole column.
    row[6] = Value::Int(i % kRowsPerGroup == 0 ? -1000000 : i % kRowsPerGroup == 1 ? 1000000 : i);
    ASSERT_TRUE(table_->Insert(row, options).ok());
  }

  void Fill(const std::string& host) {
    for (int i = 0; i < kStatisticsRows; i++) Write(host, i);
  }

  void Flush() {
    ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), table_->column_family()).ok());
  }

  void FlushAndCompact() {
    Flush();
    ASSERT_TRUE(db_->db()
                    ->CompactRange(rocksdb::CompactRangeOptions(), table_->column_family(), nullptr,
                                   nullptr)
                    .ok());
  }

  static SelectQuery Aggregates(const std::string& host) {
    SelectQuery query = SelectQuery::ForPartition({Value::Text(host)});
    query.aggregates = {
        {Aggregate::Function::kCount, ""},      {Aggregate::Function::kCount, "path"},
        {Aggregate::Function::kMin, "status"},  {Aggregate::Function::kMax, "status"},
        {Aggregate::Function::kSum, "bytes"},   {Aggregate::Function::kAvg, "status"},
        {Aggregate::Function::kMin, "latency"}, {Aggregate::Function::kMax, "path"}};
    return query;
  }

  // Selects `query` both ways (test::SelectBothWays): whole groups from statistics count all
  // their rows.
  SelectStats SelectBothWays(SelectQuery query, ResultSet* result = nullptr) {
    const SelectStats stats = test::SelectBothWays(table_, std::move(query), result);
    EXPECT_EQ(stats.rows_from_stats, stats.row_groups_from_stats * kRowsPerGroup);
    return stats;
  }

  TempDir dir_{"aggregate-statistics"};
  std::unique_ptr<rocksdb::Env> env_{rocksdb::NewMemEnv(rocksdb::Env::Default())};
  test::ManualClock clock_{kStatisticsStartSeconds * 1000000};
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
  Table* table_ = nullptr;
};

TEST_F(AggregateStatisticsTest, WithoutPredicateWholeGroupsComeFromStatistics) {
  Fill("a");
  Fill("b");
  FlushAndCompact();
  ResultSet result;
  const SelectStats stats = SelectBothWays(Aggregates("a"), &result);
  ASSERT_EQ(result.rows.size(), 1u);
  EXPECT_EQ(result.rows[0][0], Value::BigInt(kStatisticsRows));
  // Every group of the partition but the one it may share with the next partition.
  EXPECT_GE(stats.rows_from_stats, static_cast<uint64_t>(kStatisticsRows - kRowsPerGroup));
  EXPECT_LE(stats.rows_columnar, static_cast<uint64_t>(kRowsPerGroup));
  // The same over the whole table, and grouped by host.
  SelectQuery whole = Aggregates("a");
  whole.partition_key.clear();
  EXPECT_GE(SelectBothWays(whole).rows_from_stats, static_cast<uint64_t>(2 * kStatisticsRows - 32));
  whole.group_by = 1;
  EXPECT_GE(SelectBothWays(whole, &result).rows_from_stats,
            static_cast<uint64_t>(2 * kStatisticsRows - 2 * kRowsPerGroup));
  EXPECT_EQ(result.rows.size(), 2u);
}

TEST_F(AggregateStatisticsTest, FloatSumsAreNeverTakenFromStatistics) {
  Fill("a");
  FlushAndCompact();
  SelectQuery query = SelectQuery::ForPartition({Value::Text("a")});
  query.aggregates = {{Aggregate::Function::kAvg, "latency"}};
  SelectStats stats = SelectBothWays(query);
  EXPECT_EQ(stats.rows_from_stats, 0u);
  EXPECT_EQ(stats.rows_columnar, static_cast<uint64_t>(kStatisticsRows));
  query.aggregates = {{Aggregate::Function::kSum, "latency"}, {Aggregate::Function::kCount, ""}};
  EXPECT_EQ(SelectBothWays(query).rows_from_stats, 0u);
  // MIN / MAX of the same column are.
  query.aggregates = {{Aggregate::Function::kMin, "latency"},
                      {Aggregate::Function::kMax, "latency"}};
  EXPECT_EQ(SelectBothWays(query).rows_from_stats, static_cast<uint64_t>(kStatisticsRows));
}

// Columns whose zone maps cannot prune are left out of them (zone_map_collector.h): their
// aggregates decode.
TEST_F(AggregateStatisticsTest, ColumnsWithoutZoneMapsDecode) {
  Fill("a");
  FlushAndCompact();
  SelectQuery query = SelectQuery::ForPartition({Value::Text("a")});
  query.aggregates = {{Aggregate::Function::kMax, "noise"}};
  EXPECT_EQ(SelectBothWays(query).rows_from_stats, 0u);
}

TEST_F(AggregateStatisticsTest, PredicateProvablyTrueByZoneMaps) {
  Fill("a");
  FlushAndCompact();
  SelectQuery query = Aggregates("a");
  query.filter = Predicate::Compare("status", CompareOp::kGe, Value::Int(200));
  EXPECT_EQ(SelectBothWays(query).rows_from_stats, static_cast<uint64_t>(kStatisticsRows));
  // True for the groups of ts >= 320 only: the others are decoded.
  query.filter = Predicate::Compare("ts", CompareOp::kGe, Value::Int(320));
  ResultSet result;
  const SelectStats stats = SelectBothWays(query, &result);
  EXPECT_EQ(stats.rows_from_stats, static_cast<uint64_t>(kStatisticsRows / 2));
  EXPECT_EQ(result.rows[0][0], Value::BigInt(kStatisticsRows / 2));
}

TEST_F(AggregateStatisticsTest, PredicateNotProvableDecodes) {
  Fill("a");
  FlushAndCompact();
  SelectQuery query = Aggregates("a");
  query.filter = Predicate::Compare("status", CompareOp::kGe, Value::Int(500));
  ResultSet result;
  const SelectStats stats = SelectBothWays(query, &result);
  EXPECT_EQ(stats.rows_from_stats, 0u);
  EXPECT_EQ(stats.rows_columnar, static_cast<uint64_t>(kStatisticsRows / 4));
  EXPECT_EQ(result.rows[0][0], Value::BigInt(kStatisticsRows / 4));
}

TEST_F(AggregateStatisticsTest, GroupsWithExpiredRowsDecode) {
  // Rows 0..159 expire after 10 s; the other rows never do.
  for (int i = 0; i < kStatisticsRows; i++) {
    Write("a", i, i < kStatisticsRows / 4 ? std::optional<int64_t>(10) : std::nullopt);
  }
  FlushAndCompact();
  // Before the expiry every group is taken from statistics.
  EXPECT_EQ(SelectBothWays(Aggregates("a")).rows_from_stats,
            static_cast<uint64_t>(kStatisticsRows));
  clock_.AdvanceSeconds(11);
  ResultSet result;
  const SelectStats stats = SelectBothWays(Aggregates("a"), &result);
  EXPECT_EQ(result.rows[0][0], Value::BigInt(kStatisticsRows - kStatisticsRows / 4));
  EXPECT_EQ(stats.rows_from_stats, static_cast<uint64_t>(kStatisticsRows - kStatisticsRows / 4));
}

TEST_F(AggregateStatisticsTest, GroupsPartlyInRangeDecode) {
  Fill("a");
  FlushAndCompact();
  SelectQuery query = Aggregates("a");
  // ts in (100, 300]: groups [112, 128) .. [288, 304) are partial or whole; only whole groups
  // [112, 288) come from statistics.
  query.lower_bound = ClusteringBound{Value::Int(100), false};
  query.upper_bound = ClusteringBound{Value::Int(300), true};
  ResultSet result;
  const SelectStats stats = SelectBothWays(query, &result);
  EXPECT_EQ(result.rows[0][0], Value::BigInt(200));
  EXPECT_EQ(stats.rows_from_stats, static_cast<uint64_t>(288 - 112));
  EXPECT_EQ(stats.rows_columnar + stats.rows_row_path, static_cast<uint64_t>(200 - (288 - 112)));
}

TEST_F(AggregateStatisticsTest, SnapshotKeepsSequenceNumbersAndDecodesNothingFromStatistics) {
  Fill("a");
  FlushAndCompact();
  const rocksdb::Snapshot* snapshot = db_->db()->GetSnapshot();
  for (int i = 0; i < kStatisticsRows; i += 3) Write("a", i);
  FlushAndCompact();  // the bottommost file keeps both versions (sequence numbers > 0)
  SelectQuery query = Aggregates("a");
  EXPECT_EQ(SelectBothWays(query).rows_from_stats, 0u);
  query.snapshot = snapshot;
  EXPECT_EQ(SelectBothWays(query).rows_from_stats, 0u);
  db_->db()->ReleaseSnapshot(snapshot);
  FlushAndCompact();  // sequence numbers 0 again
  query.snapshot = nullptr;
  EXPECT_EQ(SelectBothWays(query).rows_from_stats, static_cast<uint64_t>(kStatisticsRows));
}

TEST_F(AggregateStatisticsTest, MemtableOverlapDecodesTheGroupsAroundIt) {
  Fill("a");
  FlushAndCompact();
  Write("a", 100);  // the same row again, in the memtable
  ResultSet result;
  SelectStats stats = SelectBothWays(Aggregates("a"), &result);
  EXPECT_EQ(result.rows[0][0], Value::BigInt(kStatisticsRows));
  EXPECT_GT(stats.rows_row_path, 0u);
  EXPECT_LE(stats.rows_row_path, 2u * kRowsPerGroup);
  EXPECT_GE(stats.rows_from_stats, static_cast<uint64_t>(kStatisticsRows - 2 * kRowsPerGroup));
  // That row now in an L0 file, a deletion in the memtable.
  Flush();
  ASSERT_TRUE(table_->DeleteRow({Value::Text("a")}, {Value::Int(400)}).ok());
  stats = SelectBothWays(Aggregates("a"), &result);
  EXPECT_EQ(result.rows[0][0], Value::BigInt(kStatisticsRows - 1));
  EXPECT_LE(stats.rows_row_path, 4u * kRowsPerGroup);
  EXPECT_GE(stats.rows_from_stats, static_cast<uint64_t>(kStatisticsRows - 4 * kRowsPerGroup));
}

TEST_F(AggregateStatisticsTest, TimeBucketsHoldingWholeGroups) {
  Fill("a");
  Fill("b");
  FlushAndCompact();
  SelectQuery query;
  query.aggregates = {{Aggregate::Function::kCount, ""},
                      {Aggregate::Function::kMax, "status"},
                      {Aggregate::Function::kSum, "bytes"}};
  query.group_by = 2;  // host, bucket of ts
  // Buckets of 64: four whole groups each.
  query.time_bucket = 64;
  ResultSet result;
  SelectStats stats = SelectBothWays(query, &result);
  EXPECT_EQ(result.rows.size(), 2u * kStatisticsRows / 64);
  EXPECT_GE(stats.rows_from_stats, static_cast<uint64_t>(2 * kStatisticsRows - 2 * kRowsPerGroup));
  // Buckets of 8: every group spans two buckets and is decoded.
  query.time_bucket = 8;
  stats = SelectBothWays(query, &result);
  EXPECT_EQ(result.rows.size(), 2u * kStatisticsRows / 8);
  EXPECT_EQ(stats.rows_from_stats, 0u);
  // Grouped by the whole key: one row per group of the GROUP BY.
  query.time_bucket.reset();
  EXPECT_EQ(SelectBothWays(query).rows_from_stats, 0u);
}

TEST_F(AggregateStatisticsTest, GroupLimitStopsAtTheRightGroup) {
  Fill("a");
  Fill("b");
  Fill("c");
  FlushAndCompact();
  SelectQuery query;
  query.aggregates = {{Aggregate::Function::kCount, ""}, {Aggregate::Function::kSum, "status"}};
  query.group_by = 1;
  query.limit = 2;
  ResultSet result;
  SelectBothWays(query, &result);
  ASSERT_EQ(result.rows.size(), 2u);
  EXPECT_EQ(result.rows[1][0], Value::Text("b"));
  EXPECT_EQ(result.rows[1][1], Value::BigInt(kStatisticsRows));
}

}  // namespace
}  // namespace columnar
