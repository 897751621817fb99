// Table API reads and writes on a small hand-checked table, for both table formats: clustering
// order (DESC then ASC), clustering ranges, IN lists on the last partition column, LIMIT,
// reversed order, projections, writetime() and ttl(), whole-row writes and deletes, in the
// memtable and after a flush.
#include <gtest/gtest.h>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

using test::ManualClock;

constexpr char kEventsCql[] =
    "CREATE TABLE ks.events (p text, q int, c1 int, c2 text, v double, w text, "
    "PRIMARY KEY ((p, q), c1, c2)) WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC)";
constexpr int64_t kSelectNowSeconds = 1'700'000'000;

class TableApiSelectTest : public ::testing::TestWithParam<TableFormat> {
 protected:
  void SetUp() override {
    options_.now_micros = clock_.Function();
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    TableStorage storage;
    storage.format = GetParam();
    ASSERT_TRUE(db_->CreateTable(kEventsCql, storage, &table_).ok());
    // Partitions ("a", 1..3), rows c1 in 1..4, c2 in {"x", "y"}; v = 10 * c1 + (c2 == "y").
    for (int q = 1; q <= 3; q++) {
      for (int c1 = 1; c1 <= 4; c1++) {
        for (const char* c2 : {"x", "y"}) {
          RowWriteOptions write;
          write.write_time_micros = 1000 * q + 10 * c1 + (c2[0] == 'y');
          ASSERT_TRUE(table_->Insert(EventRow(q, c1, c2, 10.0 * c1 + (c2[0] == 'y')), write).ok());
        }
      }
    }
  }

  // A row of partition ("a", q) of the events table; w left unset.
  static NamedRow EventRow(int q, int c1, const char* c2, double v) {
    return NamedRow{{"p", Value::Text("a")},
                    {"q", Value::Int(q)},
                    {"c1", Value::Int(c1)},
                    {"c2", Value::Text(c2)},
                    {"v", Value::Double(v)}};
  }

  static SelectQuery Partition(int q) {
    return SelectQuery::ForPartition({Value::Text("a"), Value::Int(q)});
  }

  // "c1/c2" of every row of the result, whose first columns must be c1 and c2.
  static std::string Keys(const ResultSet& result) {
    std::string out;
    for (const Row& row : result.rows) {
      out += (out.empty() ? "" : " ") + std::to_string(row[0].int32_value()) + "/" + row[1].bytes();
    }
    return out;
  }

  std::string SelectKeys(SelectQuery query) {
    query.columns = {"c1", "c2"};
    ResultSet result;
    const Status s = table_->Select(query, &result);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return Keys(result);
  }

  void Flush() {
    ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), table_->column_family()).ok());
  }

  TempDir dir_{"table-api-select"};
  ManualClock clock_{kSelectNowSeconds * 1000000};
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
  Table* table_ = nullptr;
};

TEST_P(TableApiSelectTest, WholePartitionInClusteringOrder) {
  for (bool flushed : {false, true}) {
    if (flushed) Flush();
    ResultSet result;
    ASSERT_TRUE(table_->Select(Partition(2), &result).ok());
    EXPECT_EQ(result.column_names, (std::vector<std::string>{"p", "q", "c1", "c2", "v", "w"}));
    EXPECT_EQ(result.column_types[4], LogicalType::kDouble);
    ASSERT_EQ(result.rows.size(), 8u);
    EXPECT_EQ(result.rows[0], (Row{Value::Text("a"), Value::Int(2), Value::Int(4), Value::Text("x"),
                                   Value::Double(40), Value()}));
    EXPECT_EQ(SelectKeys(Partition(2)), "4/x 4/y 3/x 3/y 2/x 2/y 1/x 1/y");
    SelectQuery reversed = Partition(2);
    reversed.reversed = true;
    EXPECT_EQ(SelectKeys(reversed), "1/y 1/x 2/y 2/x 3/y 3/x 4/y 4/x");
  }
}

TEST_P(TableApiSelectTest, ClusteringRanges) {
  Flush();
  SelectQuery query = Partition(1);
  query.lower_bound = ClusteringBound{Value::Int(2), /*inclusive=*/false};
  query.upper_bound = ClusteringBound{Value::Int(4), /*inclusive=*/true};
  EXPECT_EQ(SelectKeys(query), "4/x 4/y 3/x 3/y");
  query.lower_bound->inclusive = true;
  query.upper_bound->inclusive = false;
  EXPECT_EQ(SelectKeys(query), "3/x 3/y 2/x 2/y");
  query.reversed = true;
  EXPECT_EQ(SelectKeys(query), "2/y 2/x 3/y 3/x");

  SelectQuery prefix = Partition(1);
  prefix.clustering_prefix = {Value::Int(3)};
  EXPECT_EQ(SelectKeys(prefix), "3/x 3/y");
  prefix.lower_bound = ClusteringBound{Value::Text("x"), /*inclusive=*/false};
  EXPECT_EQ(SelectKeys(prefix), "3/y");
  prefix.lower_bound->inclusive = true;
  prefix.upper_bound = ClusteringBound{Value::Text("x"), /*inclusive=*/true};
  EXPECT_EQ(SelectKeys(prefix), "3/x");

  SelectQuery empty = Partition(1);
  empty.lower_bound = ClusteringBound{Value::Int(3), /*inclusive=*/false};
  empty.upper_bound = ClusteringBound{Value::Int(3), /*inclusive=*/false};
  EXPECT_EQ(SelectKeys(empty), "");
  empty.lower_bound = ClusteringBound{Value::Int(4), /*inclusive=*/true};
  empty.upper_bound = ClusteringBound{Value::Int(1), /*inclusive=*/true};
  EXPECT_EQ(SelectKeys(empty), "");
}

TEST_P(TableApiSelectTest, InListReadsPartitionsInAscendingKeyOrderOnce) {
  SelectQuery query;
  query.partition_key = {{Value::Text("a")}, {Value::Int(3), Value::Int(1), Value::Int(3)}};
  query.columns = {"q", "c1", "c2"};
  query.clustering_prefix = {Value::Int(2)};
  ResultSet result;
  ASSERT_TRUE(table_->Select(query, &result).ok());
  ASSERT_EQ(result.rows.size(), 4u);
  EXPECT_EQ(result.rows[0][0], Value::Int(1));
  EXPECT_EQ(result.rows[1][0], Value::Int(1));
  EXPECT_EQ(result.rows[2][0], Value::Int(3));
  // Reversing changes the order inside each partition, not the partition order.
  query.reversed = true;
  ASSERT_TRUE(table_->Select(query, &result).ok());
  EXPECT_EQ(result.rows[0][0], Value::Int(1));
  EXPECT_EQ(result.rows[0][2], Value::Text("y"));
  EXPECT_EQ(result.rows[3][0], Value::Int(3));
}

TEST_P(TableApiSelectTest, LimitCountsRowsAcrossPartitions) {
  SelectQuery query;
  query.partition_key = {{Value::Text("a")}, {Value::Int(1), Value::Int(2)}};
  query.columns = {"q", "c1", "c2"};
  query.limit = 10;
  ResultSet result;
  ASSERT_TRUE(table_->Select(query, &result).ok());
  ASSERT_EQ(result.rows.size(), 10u);
  EXPECT_EQ(result.rows[7][0], Value::Int(1));
  EXPECT_EQ(result.rows[8][0], Value::Int(2));
  query.limit = 1;
  query.reversed = true;
  ASSERT_TRUE(table_->Select(query, &result).ok());
  ASSERT_EQ(result.rows.size(), 1u);
  EXPECT_EQ(result.rows[0], (Row{Value::Int(1), Value::Int(1), Value::Text("y")}));
}

TEST_P(TableApiSelectTest, ProjectionWriteTimeAndTtl) {
  ASSERT_TRUE(table_
                  ->Insert(NamedRow{{"p", Value::Text("a")},
                                    {"q", Value::Int(9)},
                                    {"c1", Value::Int(1)},
                                    {"c2", Value::Text("z")},
                                    {"w", Value::Text("only w")}},
                           RowWriteOptions{123456789, 100, std::nullopt})
                  .ok());
  Flush();
  SelectQuery query = Partition(9);
  query.columns = {"w", "writetime(w)", "WRITETIME( v )", "ttl(w)", "ttl(v)", "c2", "p"};
  ResultSet result;
  ASSERT_TRUE(table_->Select(query, &result).ok());
  EXPECT_EQ(result.column_names, (std::vector<std::string>{"w", "writetime(w)", "writetime(v)",
                                                           "ttl(w)", "ttl(v)", "c2", "p"}));
  EXPECT_EQ(result.column_types[1], LogicalType::kBigInt);
  EXPECT_EQ(result.column_types[3], LogicalType::kInt);
  ASSERT_EQ(result.rows.size(), 1u);
  EXPECT_EQ(result.rows[0], (Row{Value::Text("only w"), Value::BigInt(123456789), Value(),
                                 Value::Int(100), Value(), Value::Text("z"), Value::Text("a")}));
  clock_.AdvanceSeconds(30);
  ASSERT_TRUE(table_->Select(query, &result).ok());
  EXPECT_EQ(result.rows[0][3], Value::Int(70));

  // Rows written without a TTL have none.
  query = Partition(1);
  query.columns = {"writetime(v)", "ttl(v)"};
  query.limit = 1;
  ASSERT_TRUE(table_->Select(query, &result).ok());
  EXPECT_EQ(result.rows[0], (Row{Value::BigInt(1040), Value()}));
}

TEST_P(TableApiSelectTest, InsertReplacesTheWholeRow) {
  // The table's server clock is monotonic: max(now, previous write + 1) microseconds.
  ResultSet before;
  SelectQuery latest = Partition(1);
  latest.columns = {"writetime(v)"};
  latest.clustering_prefix = {Value::Int(4), Value::Text("x")};
  ASSERT_TRUE(table_->Select(latest, &before).ok());
  ASSERT_EQ(before.rows.size(), 1u);
  ASSERT_TRUE(table_
                  ->Insert(NamedRow{{"p", Value::Text("a")},
                                    {"q", Value::Int(1)},
                                    {"c1", Value::Int(4)},
                                    {"c2", Value::Text("x")},
                                    {"w", Value::Text("new")}})
                  .ok());
  SelectQuery query = Partition(1);
  query.clustering_prefix = {Value::Int(4), Value::Text("x")};
  query.columns = {"v", "w", "writetime(w)"};
  ResultSet result;
  ASSERT_TRUE(table_->Select(query, &result).ok());
  ASSERT_EQ(result.rows.size(), 1u);
  EXPECT_EQ(result.rows[0][0], Value());
  EXPECT_EQ(result.rows[0][1], Value::Text("new"));
  EXPECT_GT(result.rows[0][2].FixedBits(), before.rows[0][0].FixedBits());
  EXPECT_LE(static_cast<int64_t>(result.rows[0][2].FixedBits()), clock_.now_micros() + 1000);
}

TEST_P(TableApiSelectTest, DeleteRowAndPartition) {
  Flush();
  ASSERT_TRUE(
      table_->DeleteRow({Value::Text("a"), Value::Int(1)}, {Value::Int(3), Value::Text("y")}).ok());
  ASSERT_TRUE(table_->DeletePartition({Value::Text("a"), Value::Int(2)}).ok());
  for (bool flushed : {false, true}) {
    if (flushed) {
      Flush();
      ASSERT_TRUE(db_->db()
                      ->CompactRange(rocksdb::CompactRangeOptions(), table_->column_family(),
                                     nullptr, nullptr)
                      .ok());
    }
    EXPECT_EQ(SelectKeys(Partition(1)), "4/x 4/y 3/x 2/x 2/y 1/x 1/y");
    EXPECT_EQ(SelectKeys(Partition(2)), "");
    EXPECT_EQ(SelectKeys(Partition(3)), "4/x 4/y 3/x 3/y 2/x 2/y 1/x 1/y");
  }
  // Deleting what is not there is fine.
  EXPECT_TRUE(table_->DeletePartition({Value::Text("zz"), Value::Int(7)}).ok());
}

INSTANTIATE_TEST_SUITE_P(BothFormats, TableApiSelectTest, test::BothFormats(),
                         test::FormatParamName);

// A partition key whose encoding is all 0xFF bytes has no prefix successor, so
// DeletePartition deletes its rows one by one.
TEST(TableApiDeleteTest, PartitionWithoutPrefixSuccessor) {
  TempDir dir("table-api-ff");
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Open(DatabaseOptions(), dir.path(), &db).ok());
  Table* table = nullptr;
  ASSERT_TRUE(db->CreateTable("CREATE TABLE t (k int, c text, v int, PRIMARY KEY (k, c))",
                              test::ColumnarStorage(), &table)
                  .ok());
  const int32_t kMax = std::numeric_limits<int32_t>::max();  // encodes as ff ff ff ff
  for (int32_t k : {kMax - 1, kMax}) {
    for (const char* c : {"", "a", "\xff\xff"}) {
      ASSERT_TRUE(
          table->Insert(NamedRow{{"k", Value::Int(k)}, {"c", Value::Text(c)}, {"v", Value::Int(1)}})
              .ok());
    }
  }
  ASSERT_TRUE(table->DeletePartition({Value::Int(kMax)}).ok());
  ResultSet result;
  ASSERT_TRUE(table->Select(SelectQuery::ForPartition({Value::Int(kMax)}), &result).ok());
  EXPECT_TRUE(result.rows.empty());
  ASSERT_TRUE(table->Select(SelectQuery::ForPartition({Value::Int(kMax - 1)}), &result).ok());
  EXPECT_EQ(result.rows.size(), 3u);
}

}  // namespace
}  // namespace columnar
