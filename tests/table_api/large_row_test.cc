// A row larger than a table may store is refused when it is written (InvalidArgument, nothing
// written, the database still writable), instead of being accepted and failing at flush as a
// background error that left the database read-only.
#include <gtest/gtest.h>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr char kBlobsTableCql[] =
    "CREATE TABLE ks.blobs (k int PRIMARY KEY, payload blob, note text)";

class LargeRowTest : public ::testing::TestWithParam<TableFormat> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Database::Open(DatabaseOptions(), dir_.path(), &db_).ok());
    TableStorage storage;
    storage.format = GetParam();
    ASSERT_TRUE(db_->CreateTable(kBlobsTableCql, storage, &table_).ok());
    ASSERT_TRUE(table_->Insert(Row(1, 16), RowWriteOptions{}).ok());
  }

  static NamedRow Row(int key, size_t payload_bytes, size_t note_bytes = 0) {
    NamedRow row{{"k", Value::Int(key)},
                 {"payload", Value::Blob(std::string(payload_bytes, '\x5a'))}};
    if (note_bytes > 0) row["note"] = Value::Text(std::string(note_bytes, 'n'));
    return row;
  }

  void ExpectStillWritable() {
    ASSERT_TRUE(table_->Insert(Row(3, 100), RowWriteOptions{}).ok());
    const Status s = db_->db()->Flush(rocksdb::FlushOptions(), table_->column_family());
    ASSERT_TRUE(s.ok()) << s.ToString();
    for (int key : {1, 3}) {
      ResultSet rows;
      ASSERT_TRUE(table_->Select(SelectQuery::ForPartition({Value::Int(key)}), &rows).ok());
      EXPECT_EQ(rows.rows.size(), 1u) << key;
    }
    ResultSet rows;
    ASSERT_TRUE(table_->Select(SelectQuery::ForPartition({Value::Int(2)}), &rows).ok());
    EXPECT_TRUE(rows.rows.empty());
  }

  TempDir dir_{"large-row"};
  std::unique_ptr<Database> db_;
  Table* table_ = nullptr;
};

TEST_P(LargeRowTest, RowOverTheLimitIsRefusedAtWriteTime) {
  const std::string before = test::DatabaseFingerprint(db_.get());
  // Two values that are over the limit together; then, in a batch, one value over it alone
  // (the whole batch is refused).
  Status s = table_->Insert(Row(2, kMaxRowBytes / 2, kMaxRowBytes / 2), RowWriteOptions{});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = table_->InsertBatch({Row(4, 10), Row(2, kMaxRowBytes)}, RowWriteOptions{});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(test::DatabaseFingerprint(db_.get()), before);
  ExpectStillWritable();
}

INSTANTIATE_TEST_SUITE_P(BothFormats, LargeRowTest, test::BothFormats(), test::FormatParamName);

}  // namespace
}  // namespace columnar
