// Row groups a compaction copies from its input files verbatim keep the statistics their rows
// make: the copy shows the output's zone maps the columns its input decode kept
// (TypedLayout::DecodeRowGroupForCopy) instead of splitting the rows again, and aggregates
// answered from those zone maps must equal the row path's, which decodes every row.
#include <gtest/gtest.h>
#include <rocksdb/env.h>

#include <string>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace copied_group_statistics_test {
namespace {

constexpr int64_t kStartSeconds = 1'700'000'000;
constexpr int kRowsPerHost = 1024;

class CopiedGroupStatisticsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_ = test::ManualDatabaseOptions(clock_, env_.get());
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    TableStorage storage = test::ColumnarStorage();
    storage.columnar.rows_per_group = 128;
    const Status s = db_->CreateTable(
        "CREATE TABLE s.points (host text, ts bigint, status int, bytes bigint, latency float, "
        "path text, note text, PRIMARY KEY ((host), ts))",
        storage);
    ASSERT_TRUE(s.ok()) << s.ToString();
    table_ = test::MustGetTable(db_.get(), "s.points");
  }

  // Row i of a host, a point a second: every third with a TTL (the expiry zone maps), some
  // cells null, three UPDATE-only rows (not typed rows), every fourth an INSERT naming only some
  // columns (cell exceptions), and a note of letters that do not repeat, which makes groups large
  // enough to be copied.
  void Write(const std::string& host, int i) {
    // Written as the point's time: write times and expiries follow the clustering time, and
    // the group stores them against it (metadata_transform.h).
    clock_.SetSeconds(kStartSeconds + i);
    NamedRow row;
    row["host"] = Value::Text(host);
    row["ts"] = Value::BigInt((kStartSeconds + i) * 1000);
    row["status"] = Value::Int(200 + (i * 37 % 5) * 100);
    row["latency"] = Value::Float(0.25f * static_cast<float>(i % 400));
    row["note"] = Value::Text(Note(host, i));
    RowWriteOptions options;
    if (i % 3 == 0) options.ttl_seconds = 86400 + i % 11;
    if (i >= 300 && i < 303) {  // UPDATEs: kept opaque (no liveness), out of the INSERTs' range
      row["status"] = Value::Int(900);
      const Status s = table_->Update(row, options);
      ASSERT_TRUE(s.ok()) << s.ToString();
      return;
    }
    if (i % 4 == 1) {  // an INSERT naming only these columns: bytes and path have no cell
      const Status s = table_->InsertCells(row, options);
      ASSERT_TRUE(s.ok()) << s.ToString();
      return;
    }
    row["bytes"] = i % 7 != 0 ? Value::BigInt((int64_t{1} << 36) + i * 1000 + i % 13) : Value();
    row["path"] = i % 5 != 0 ? Value::Text("/p/" + std::to_string(i / 64)) : Value();
    const Status s = table_->Insert(row, options);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  static std::string Note(const std::string& host, int i) {
    uint64_t x = std::hash<std::string>()(host) + static_cast<uint64_t>(i) * 7919 + 1;
    std::string note;
    for (int k = 0; k < 20; k++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      note.push_back(static_cast<char>('a' + (x >> 59)));
    }
    return note;
  }

  void Fill(const std::string& host) {
    for (int i = 0; i < kRowsPerHost; i++) Write(host, i);
  }

  void FlushAndCompactAll() {
    rocksdb::ColumnFamilyHandle* family = table_->column_family();
    ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), family).ok());
    rocksdb::CompactRangeOptions compact;
    compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    ASSERT_TRUE(db_->db()->CompactRange(compact, family, nullptr, nullptr).ok());
  }

  uint64_t CopiedRowGroups() {
    rocksdb::TablePropertiesCollection files;
    EXPECT_TRUE(db_->db()->GetPropertiesOfAllTables(table_->column_family(), &files).ok());
    uint64_t copied = 0;
    for (const auto& [file, properties] : files) {
      const auto found = properties->user_collected_properties.find("columnar.copied_row_groups");
      if (found != properties->user_collected_properties.end())
        copied += std::stoull(found->second);
    }
    return copied;
  }

  // The aggregates with the columnar path (statistics allowed) and the row path agree; returns
  // the rows the columnar run took from statistics.
  uint64_t ExpectAggregatesAgree(SelectQuery query) {
    query.aggregates = {
        {Aggregate::Function::kCount, ""},      {Aggregate::Function::kCount, "bytes"},
        {Aggregate::Function::kMin, "status"},  {Aggregate::Function::kMax, "status"},
        {Aggregate::Function::kSum, "bytes"},   {Aggregate::Function::kMax, "bytes"},
        {Aggregate::Function::kMin, "latency"}, {Aggregate::Function::kMax, "latency"},
        {Aggregate::Function::kMin, "path"},    {Aggregate::Function::kCount, "path"}};
    return test::SelectBothWays(table_, std::move(query)).rows_from_stats;
  }

  TempDir dir_{"copied-group-statistics"};
  std::unique_ptr<rocksdb::Env> env_{rocksdb::NewMemEnv(rocksdb::Env::Default())};
  test::ManualClock clock_{kStartSeconds * 1000000};
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
  Table* table_ = nullptr;
};

TEST_F(CopiedGroupStatisticsTest, AggregatesFromCopiedGroupsEqualTheRowPaths) {
  Fill("a");
  Fill("c");
  FlushAndCompactAll();
  // A host between them and one after: the full compaction copies the groups of a and c.
  Fill("b");
  Fill("d");
  FlushAndCompactAll();
  ASSERT_GT(CopiedRowGroups(), 8u);

  for (const char* host : {"a", "b", "c", "d"}) {
    EXPECT_GT(ExpectAggregatesAgree(SelectQuery::ForPartition({Value::Text(host)})), 0u) << host;
  }
  EXPECT_GT(ExpectAggregatesAgree(SelectQuery()), 0u);  // every partition
  // A predicate the zone maps decide for whole groups, and one on the TTL'd rows' expiry.
  SelectQuery ok_rows = SelectQuery::ForPartition({Value::Text("a")});
  ok_rows.filter = Predicate::Compare("status", CompareOp::kLt, Value::Int(700));
  ExpectAggregatesAgree(ok_rows);
  clock_.SetSeconds(kStartSeconds + 86400 + 500);  // some TTL'd rows expired, not all
  for (const char* host : {"a", "c"}) {
    ExpectAggregatesAgree(SelectQuery::ForPartition({Value::Text(host)}));
  }
}

}  // namespace
}  // namespace copied_group_statistics_test
}  // namespace columnar
