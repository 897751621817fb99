// Expiry with a controlled clock: a row is returned while now < expiry and never once
// expiry <= now, in the memtable, after a flush and after compaction, for both formats; TTLs,
// absolute expiries, the table's default_time_to_live and USING TTL 0.
#include <gtest/gtest.h>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

using test::ManualClock;

constexpr int64_t kTtlStart = 1'700'000'000;

class TableApiTtlTest : public ::testing::TestWithParam<TableFormat> {
 protected:
  void SetUp() override {
    options_.now_micros = clock_.Function();
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    TableStorage storage;
    storage.format = GetParam();
    ASSERT_TRUE(db_->CreateTable("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))",
                                 storage, &table_)
                    .ok());
    ASSERT_TRUE(db_->CreateTable("CREATE TABLE ks.d (k int, c int, v text, PRIMARY KEY (k, c)) "
                                 "WITH default_time_to_live = 50",
                                 storage, &with_default_)
                    .ok());
  }

  static NamedRow RowOf(int c) {
    return NamedRow{{"k", Value::Int(1)}, {"c", Value::Int(c)}, {"v", Value::Text("v")}};
  }

  // The clustering values of partition 1, ascending.
  static std::vector<int> Visible(Table* table) {
    ResultSet result;
    SelectQuery query = SelectQuery::ForPartition({Value::Int(1)});
    query.columns = {"c"};
    const Status s = table->Select(query, &result);
    EXPECT_TRUE(s.ok()) << s.ToString();
    std::vector<int> out;
    for (const Row& row : result.rows) out.push_back(row[0].int32_value());
    return out;
  }

  void FlushAndCompact(Table* table) {
    rocksdb::DB* db = db_->db();
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions(), table->column_family()).ok());
    ASSERT_TRUE(
        db->CompactRange(rocksdb::CompactRangeOptions(), table->column_family(), nullptr, nullptr)
            .ok());
  }

  TempDir dir_{"table-api-ttl"};
  ManualClock clock_{kTtlStart * 1000000 + 999999};  // just before kTtlStart + 1
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
  Table* table_ = nullptr;
  Table* with_default_ = nullptr;
};

TEST_P(TableApiTtlTest, RowsDisappearExactlyAtExpiry) {
  // TTL counts from the clock's whole second: expiry = kTtlStart + ttl.
  ASSERT_TRUE(table_->Insert(RowOf(1), RowWriteOptions{std::nullopt, 10, std::nullopt}).ok());
  ASSERT_TRUE(
      table_->Insert(RowOf(2), RowWriteOptions{std::nullopt, std::nullopt, kTtlStart + 20}).ok());
  ASSERT_TRUE(table_->Insert(RowOf(3)).ok());  // never expires
  // USING TTL 0: no expiry.
  ASSERT_TRUE(table_->Insert(RowOf(4), RowWriteOptions{std::nullopt, 0, std::nullopt}).ok());
  for (int round = 0; round < 2; round++) {
    if (round == 1) FlushAndCompact(table_);
    clock_.SetSeconds(kTtlStart + 9);
    EXPECT_EQ(Visible(table_), (std::vector<int>{1, 2, 3, 4}));
    clock_.SetSeconds(kTtlStart + 10);
    EXPECT_EQ(Visible(table_), (std::vector<int>{2, 3, 4}));
    clock_.SetSeconds(kTtlStart + 19);
    EXPECT_EQ(Visible(table_), (std::vector<int>{2, 3, 4}));
    clock_.SetSeconds(kTtlStart + 20);
    EXPECT_EQ(Visible(table_), (std::vector<int>{3, 4}));
    clock_.SetSeconds(kTtlStart + 1'000'000'000);
    EXPECT_EQ(Visible(table_), (std::vector<int>{3, 4}));
    clock_.SetSeconds(kTtlStart);  // going back in time shows them again (they are still stored)
  }
}

TEST_P(TableApiTtlTest, DefaultTimeToLiveAppliesWhenNoneIsGiven) {
  clock_.SetSeconds(kTtlStart);
  ASSERT_TRUE(with_default_->Insert(RowOf(1)).ok());  // kTtlStart + 50
  ASSERT_TRUE(with_default_->Insert(RowOf(2), {std::nullopt, 5, std::nullopt}).ok());
  ASSERT_TRUE(with_default_->Insert(RowOf(3), {std::nullopt, 0, std::nullopt}).ok());
  ASSERT_TRUE(with_default_->Insert(RowOf(4), {std::nullopt, std::nullopt, kTtlStart + 100}).ok());
  FlushAndCompact(with_default_);
  clock_.SetSeconds(kTtlStart + 4);
  EXPECT_EQ(Visible(with_default_), (std::vector<int>{1, 2, 3, 4}));
  clock_.SetSeconds(kTtlStart + 5);
  EXPECT_EQ(Visible(with_default_), (std::vector<int>{1, 3, 4}));
  clock_.SetSeconds(kTtlStart + 50);
  EXPECT_EQ(Visible(with_default_), (std::vector<int>{3, 4}));
  clock_.SetSeconds(kTtlStart + 100);
  EXPECT_EQ(Visible(with_default_), (std::vector<int>{3}));
}

TEST_P(TableApiTtlTest, ExpiredRowsDoNotCountTowardsLimit) {
  clock_.SetSeconds(kTtlStart);
  for (int c = 1; c <= 6; c++) {
    const std::optional<int64_t> ttl = c % 2 == 1 ? std::optional<int64_t>(1) : std::nullopt;
    ASSERT_TRUE(table_->Insert(RowOf(c), RowWriteOptions{std::nullopt, ttl, std::nullopt}).ok());
  }
  clock_.AdvanceSeconds(1);
  SelectQuery query = SelectQuery::ForPartition({Value::Int(1)});
  query.columns = {"c"};
  query.limit = 2;
  query.reversed = true;
  ResultSet result;
  ASSERT_TRUE(table_->Select(query, &result).ok());
  EXPECT_EQ(result.rows, (std::vector<Row>{{Value::Int(6)}, {Value::Int(4)}}));
}

INSTANTIATE_TEST_SUITE_P(BothFormats, TableApiTtlTest, test::BothFormats(), test::FormatParamName);

}  // namespace
}  // namespace columnar
