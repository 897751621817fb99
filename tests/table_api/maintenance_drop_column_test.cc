// ALTER TABLE ... DROP and the compaction filter, on BlockBasedTable, ColumnarTable and
// TieredTable tables: after a compaction the dropped column's values are no longer stored
// (rows holding one are rewritten with those cells null, at their own schema version, keeping their
// write time, expiry and other columns), rows without one are left alone, expired rows are removed
// rather than rewritten, and a column added after the drop -- even under the dropped column's name
// -- reads as null in the old rows.
#include <gtest/gtest.h>

#include <map>

#include "tests/table_api/maintenance_test_util.h"

namespace columnar {
namespace {

using test::TableKind;

constexpr int64_t kStart = 1'700'000'000;
constexpr int kPartitions = 3;
constexpr int kRowsPerPartition = 20;

class MaintenanceDropColumnTest : public ::testing::TestWithParam<TableKind> {
 protected:
  void SetUp() override {
    table_ = db_.Create(
        "CREATE TABLE ks.t (k int, c int, a text, b bigint, d double, PRIMARY KEY (k, c))",
        GetParam());
    ASSERT_NE(table_, nullptr);
    dropped_id_ = table_->schema()->FindColumn("b")->id;
  }

  // Row (k, c): b is null in every 4th row; rows with c % 7 == 6 expire after 5 seconds.
  void InsertInitialRows() {
    for (int k = 0; k < kPartitions; k++) {
      for (int c = 0; c < kRowsPerPartition; c++) {
        NamedRow row{{"k", Value::Int(k)},
                     {"c", Value::Int(c)},
                     {"a", Value::Text("a" + std::to_string(c))},
                     {"d", Value::Double(c * 0.5)}};
        if (c % 4 != 0) row["b"] = Value::BigInt(int64_t{1} << (c + 20));
        Insert(row, c % 7 == 6 ? 5 : 0);
        if (c % 4 != 0 && c % 7 != 6) rows_with_b_++;
      }
    }
  }

  void Insert(const NamedRow& named, int64_t ttl) {
    const RowWriteOptions options{std::nullopt, ttl, std::nullopt};
    ASSERT_TRUE(table_->Insert(named, options).ok());
    Row row;
    ASSERT_TRUE(RowFromNamedRow(*table_->schema(), named, &row).ok());
    model_.Insert(*table_->schema(), row, options, db_.clock().now_micros());
  }

  void Alter(const std::string& change) {
    const Status s = db_.get()->AlterTable("ALTER TABLE ks.t " + change);
    ASSERT_TRUE(s.ok()) << change << ": " << s.ToString();
  }

  void ExpectMatchesModel(const std::string& when) {
    std::vector<std::vector<Value>> partitions;
    for (int k = 0; k < kPartitions; k++) partitions.push_back({Value::Int(k)});
    test::ExpectPartitionsMatchModel(table_, model_, partitions, db_.clock().now_micros(), when);
  }

  struct StoredRow {
    RowMetadata meta;
    bool holds_dropped = false;
  };

  // What the files hold, by key, decoded with the current schema.
  std::map<std::string, StoredRow> Stored() const {
    const RowCodec codec(*table_->schema());
    std::map<std::string, StoredRow> rows;
    for (const auto& [key, value] : db_.RawEntries(table_)) {
      StoredRow& row = rows[key];
      std::vector<RowCell> cells;
      EXPECT_TRUE(codec.DecodeCells(value, &row.meta, &cells).ok());
      for (const RowCell& cell : cells) {
        row.holds_dropped |= cell.column_id == dropped_id_ && cell.present;
      }
    }
    return rows;
  }

  test::MaintenanceDb db_{kStart};
  Table* table_ = nullptr;
  test::TableModel model_;
  uint32_t dropped_id_ = 0;
  size_t rows_with_b_ = 0;  // rows that still hold a value of b when it is dropped
};

TEST_P(MaintenanceDropColumnTest, CompactionRemovesDroppedValues) {
  InsertInitialRows();
  db_.FlushAndCompact(table_);
  const std::map<std::string, StoredRow> before = Stored();
  Alter("DROP b");
  ExpectMatchesModel("after DROP, before the compaction");
  db_.clock().AdvanceSeconds(5);  // the rows with c % 7 == 6 expire
  db_.Compact(table_);
  ExpectMatchesModel("after the compaction");

  const RowCompactionFilterFactory::Stats& stats = table_->compaction_filter_stats();
  const size_t expired = kPartitions * (kRowsPerPartition / 7);
  EXPECT_EQ(stats.rows_rewritten.load(), rows_with_b_);
  EXPECT_EQ(stats.rows_expired.load(), expired);
  const std::map<std::string, StoredRow> after = Stored();
  EXPECT_EQ(after.size(), before.size() - expired);
  EXPECT_EQ(db_.EntriesInFiles(table_), after.size());
  for (const auto& [key, row] : after) {
    const StoredRow& old = before.at(key);
    EXPECT_FALSE(row.holds_dropped);
    // Rewritten rows keep their version (the dropped value becomes a null: at a newer version
    // a format-1 row would delete the columns added since), and their metadata.
    EXPECT_EQ(row.meta.schema_version, 1u);
    EXPECT_EQ(row.meta.write_time_micros, old.meta.write_time_micros);
    EXPECT_EQ(row.meta.has_expiry, old.meta.has_expiry);
  }

  // ADD after DROP, the old name included: null in every old row.
  Alter("ADD b bigint");
  Alter("ADD e text");
  ASSERT_NE(table_->schema()->FindColumn("b")->id, dropped_id_);
  ExpectMatchesModel("after ADD b, e");
  Insert({{"k", Value::Int(0)}, {"c", Value::Int(100)}, {"b", Value::BigInt(7)}}, 0);
  db_.FlushAndCompact(table_);
  EXPECT_EQ(stats.rows_rewritten.load(), rows_with_b_);  // nothing left to rewrite
  ExpectMatchesModel("after ADD and a second compaction");
}

TEST_P(MaintenanceDropColumnTest, ColumnAddedUnderTheDroppedNameBeforeCompactionReadsNull) {
  InsertInitialRows();
  db_.Flush(table_);
  Alter("DROP b");
  Alter("ADD b bigint");
  ExpectMatchesModel("old values still stored under the dropped column's id");
  // New rows hold the new b; the compaction must keep them and drop only the old b.
  for (int c = 0; c < kRowsPerPartition; c += 3) {
    Insert({{"k", Value::Int(1)}, {"c", Value::Int(c)}, {"b", Value::BigInt(-c)}}, 0);
  }
  db_.FlushAndCompact(table_);
  ExpectMatchesModel("after the compaction");
  for (const auto& [key, row] : Stored()) EXPECT_FALSE(row.holds_dropped);
  EXPECT_GT(table_->compaction_filter_stats().rows_rewritten.load(), 0u);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, MaintenanceDropColumnTest, test::AllTableKinds(),
                         test::TableKindParamName);

}  // namespace
}  // namespace columnar
