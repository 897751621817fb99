// ALLOW FILTERING on key columns: a filter leaf on a partition key column or a clustering
// column must give the same rows whichever table format stores them and wherever the rows are
// (memtable, flushed files with sequence numbers, bottommost files with sequence number 0).
// ColumnarTable's reader once read a partition key column, which it does not store per row, as
// all null: flushed rows came back as placeholders and bottommost ones were dropped.
#include <gtest/gtest.h>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr char kKeyFilterTableCql[] =
    "CREATE TABLE ks.t (pk text, pk2 int, ck int, ck2 text, v int, "
    "PRIMARY KEY ((pk, pk2), ck, ck2)) WITH CLUSTERING ORDER BY (ck DESC, ck2 ASC)";

class KeyColumnFilterTest : public ::testing::TestWithParam<TableFormat> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Database::Open(DatabaseOptions(), dir_.path(), &db_).ok());
    TableStorage storage;
    storage.format = GetParam();
    ASSERT_TRUE(db_->CreateTable(kKeyFilterTableCql, storage, &table_).ok());
    // Partitions (a|b|c, 1..2), 300 rows each (several row groups), v = ck % 7.
    for (const char* pk : {"a", "b", "c"}) {
      for (int pk2 = 1; pk2 <= 2; pk2++) {
        for (int ck = 0; ck < 300; ck++) {
          NamedRow row{{"pk", Value::Text(pk)},
                       {"pk2", Value::Int(pk2)},
                       {"ck", Value::Int(ck)},
                       {"ck2", Value::Text(ck % 2 ? "x" : "y")},
                       {"v", Value::Int(ck % 7)}};
          ASSERT_TRUE(table_->Insert(row, RowWriteOptions{}).ok());
        }
      }
    }
  }

  size_t Count(const char* pk, int pk2, const Predicate& filter) {
    SelectQuery query = SelectQuery::ForPartition({Value::Text(pk), Value::Int(pk2)});
    query.filter = filter;
    ResultSet result;
    const Status s = table_->Select(query, &result);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return result.rows.size();
  }

  void CheckFilters() {
    using P = Predicate;
    // Partition key leaves: true for every row of the partition, or for none.
    EXPECT_EQ(Count("a", 1, P::Compare("pk", CompareOp::kEq, Value::Text("a"))), 300u);
    EXPECT_EQ(Count("a", 1, P::Compare("pk", CompareOp::kEq, Value::Text("b"))), 0u);
    EXPECT_EQ(Count("b", 2, P::Compare("pk2", CompareOp::kGe, Value::Int(2))), 300u);
    EXPECT_EQ(Count("b", 1, P::Compare("pk2", CompareOp::kGe, Value::Int(2))), 0u);
    EXPECT_EQ(Count("c", 2, P::In("pk", {Value::Text("c"), Value::Text("z")})), 300u);
    EXPECT_EQ(Count("c", 2, P::IsNotNull("pk2")), 300u);
    EXPECT_EQ(Count("c", 2, P::IsNull("pk")), 0u);
    // Mixed with regular and clustering columns.
    EXPECT_EQ(Count("a", 2,
                    P::And({P::Compare("pk", CompareOp::kEq, Value::Text("a")),
                            P::Compare("v", CompareOp::kEq, Value::Int(3))})),
              43u);
    EXPECT_EQ(Count("a", 2,
                    P::Or({P::Compare("pk", CompareOp::kNe, Value::Text("a")),
                           P::Compare("ck", CompareOp::kLt, Value::Int(10))})),
              10u);
    // Clustering column leaves.
    EXPECT_EQ(Count("b", 1, P::Compare("ck", CompareOp::kGe, Value::Int(250))), 50u);
    EXPECT_EQ(Count("b", 1, P::Compare("ck2", CompareOp::kEq, Value::Text("x"))), 150u);
    EXPECT_EQ(Count("b", 1,
                    P::And({P::Compare("ck2", CompareOp::kEq, Value::Text("y")),
                            P::Compare("pk2", CompareOp::kEq, Value::Int(1)),
                            P::Compare("ck", CompareOp::kLt, Value::Int(100))})),
              50u);
  }

  TempDir dir_{"key-column-filter"};
  std::unique_ptr<Database> db_;
  Table* table_ = nullptr;
};

TEST_P(KeyColumnFilterTest, SameRowsInMemtableFlushedAndBottommostFiles) {
  SCOPED_TRACE("memtable");
  CheckFilters();
  ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), table_->column_family()).ok());
  {
    SCOPED_TRACE("flushed");
    CheckFilters();
  }
  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  ASSERT_TRUE(db_->db()->CompactRange(compact, table_->column_family(), nullptr, nullptr).ok());
  {
    SCOPED_TRACE("bottommost");
    CheckFilters();
  }
}

INSTANTIATE_TEST_SUITE_P(BothFormats, KeyColumnFilterTest, test::BothFormats(),
                         test::FormatParamName);

}  // namespace
}  // namespace columnar
