// RowScanner: rows written at a schema version newer than the scanner's codec (ALTER TABLE
// ran while a Select was starting) are decoded with the table's latest schema; entries that
// are not rows of the table are Corruption naming their key.
#include <gtest/gtest.h>

#include "table_api/row_scanner.h"
#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

class TableApiScannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Database::Open(DatabaseOptions(), dir_.path(), &db_).ok());
    ASSERT_TRUE(db_->CreateTable("CREATE TABLE ks.t (p int, c int, v text, PRIMARY KEY (p, c))",
                                 test::ColumnarStorage(), &table_)
                    .ok());
    old_codec_ = std::make_shared<const RowCodec>(*table_->schema());
    ASSERT_TRUE(db_->AlterTable("ALTER TABLE ks.t ADD w bigint").ok());
    ASSERT_TRUE(table_
                    ->Insert(NamedRow{{"p", Value::Int(1)},
                                      {"c", Value::Int(2)},
                                      {"v", Value::Text("v")},
                                      {"w", Value::BigInt(7)}})
                    .ok());
    ASSERT_TRUE(EncodePartitionKey(*table_->schema(), {Value::Int(1)}, &range_.start).ok());
    ASSERT_TRUE(PrefixSuccessor(range_.start, &range_.limit));
  }

  Status ScanAll(RowScanner* scanner, std::vector<Row>* rows) {
    const uint32_t v = table_->schema()->FindColumn("v")->id;
    const uint32_t w = table_->schema()->FindColumn("w")->id;
    return scanner->Scan(rocksdb::ReadOptions(), range_, false, [&](const ScannedRow& row) {
      rows->push_back({row.clustering[0], row.ValueOf(v), row.ValueOf(w)});
      return true;
    });
  }

  TempDir dir_{"table-api-scanner"};
  std::unique_ptr<Database> db_;
  Table* table_ = nullptr;
  std::shared_ptr<const RowCodec> old_codec_;
  KeyRange range_;
};

TEST_F(TableApiScannerTest, RowsOfANewerSchemaUseTheLatestCodec) {
  RowScanner scanner(
      db_->db(), table_->column_family(), old_codec_,
      [this] { return std::make_shared<const RowCodec>(*table_->schema()); }, 0);
  std::vector<Row> rows;
  ASSERT_TRUE(ScanAll(&scanner, &rows).ok());
  EXPECT_EQ(rows, (std::vector<Row>{{Value::Int(2), Value::Text("v"), Value::BigInt(7)}}));
}

TEST_F(TableApiScannerTest, EntriesThatAreNotRowsAreCorruption) {
  RowScanner without_latest(db_->db(), table_->column_family(), old_codec_, nullptr, 0);
  std::vector<Row> rows;
  Status s = ScanAll(&without_latest, &rows);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("row at key 0x80000001"), std::string::npos) << s.ToString();

  ASSERT_TRUE(
      db_->db()->Put(rocksdb::WriteOptions(), table_->column_family(), range_.start, "raw").ok());
  ResultSet result;
  s = table_->Select(SelectQuery::ForPartition({Value::Int(1)}), &result);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("table ks.t: row at key 0x80000001:"), std::string::npos)
      << s.ToString();
  EXPECT_TRUE(result.rows.empty());
}

}  // namespace
}  // namespace columnar
