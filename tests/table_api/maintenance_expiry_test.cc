// Row expiry with a controlled clock, on BlockBasedTable, ColumnarTable and TieredTable tables:
// a row is hidden from the second its expiry is reached (expiry <= now) and shown one
// microsecond earlier, in the memtable, in flushed files and in compacted files; once the clock
// has passed a row's expiry, a compaction removes it from the files, the table's compaction
// filter and RocksDB's statistics count the removal, and no row that has not expired is lost.
#include <gtest/gtest.h>

#include "tests/table_api/maintenance_test_util.h"

namespace columnar {
namespace {

using test::TableKind;

constexpr int64_t kExpiryStart = 1'700'000'000;

class MaintenanceExpiryTest : public ::testing::TestWithParam<TableKind> {
 protected:
  void SetUp() override {
    table_ = db_.Create("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))", GetParam());
    ASSERT_NE(table_, nullptr);
  }

  void Insert(int k, int c, const RowWriteOptions& options) {
    Row row = table_->NewRow();
    const TableSchema& schema = *table_->schema();
    row[schema.FindColumn("k")->id] = Value::Int(k);
    row[schema.FindColumn("c")->id] = Value::Int(c);
    row[schema.FindColumn("v")->id] = Value::Text("v" + std::to_string(k * 1000 + c));
    ASSERT_TRUE(table_->Insert(row, options).ok());
    model_.Insert(schema, row, options, db_.clock().now_micros());
  }

  static RowWriteOptions Ttl(int64_t seconds) { return {std::nullopt, seconds, std::nullopt}; }
  static RowWriteOptions ExpiresAt(int64_t seconds) {
    return {std::nullopt, std::nullopt, seconds};
  }

  // The clustering values partition 0 shows now.
  std::vector<int> Visible() const {
    SelectQuery query = SelectQuery::ForPartition({Value::Int(0)});
    query.columns = {"c"};
    ResultSet result;
    const Status s = table_->Select(query, &result);
    EXPECT_TRUE(s.ok()) << s.ToString();
    std::vector<int> out;
    for (const Row& row : result.rows) out.push_back(row[0].int32_value());
    return out;
  }

  void ExpectMatchesModel(const std::string& when) {
    std::vector<std::vector<Value>> partitions;
    for (int k = 0; k < 6; k++) partitions.push_back({Value::Int(k)});
    test::ExpectPartitionsMatchModel(table_, model_, partitions, db_.clock().now_micros(), when);
  }

  // Latest versions of keys, in the memtable or in files, whose expiry has been reached.
  size_t ExpiredLatestVersions() const {
    const RowCodec codec(*table_->schema());
    size_t expired = 0;
    for (const auto& [key, value] : db_.RawEntries(table_)) {
      RowMetadata meta;
      EXPECT_TRUE(codec.DecodeMetadata(value, &meta).ok());
      expired +=
          meta.has_expiry && static_cast<int64_t>(meta.expiry_seconds) <= db_.clock().now_seconds();
    }
    return expired;
  }

  // Rows the model shows now.
  size_t LiveRows() const {
    size_t live = 0;
    for (int k = 0; k < 6; k++) {
      live += model_
                  .Select(*table_->schema(), SelectQuery::ForPartition({Value::Int(k)}), {},
                          db_.clock().now_micros())
                  .rows.size();
    }
    return live;
  }

  test::MaintenanceDb db_{kExpiryStart};
  Table* table_ = nullptr;
  test::TableModel model_;
};

TEST_P(MaintenanceExpiryTest, RowsExpireOnReadAtTheExactSecond) {
  db_.clock().SetSeconds(kExpiryStart);
  // Row c expires at kExpiryStart + c + 1 (TTLs count from the clock's whole second).
  for (int c = 0; c < 8; c++) Insert(0, c, Ttl(c + 1));
  Insert(0, 8, ExpiresAt(kExpiryStart + 4));  // an absolute expiry, shared with row 3
  Insert(0, 9, Ttl(0));                       // never expires
  const char* const phases[] = {"in the memtable", "flushed", "compacted"};
  for (const char* phase : phases) {
    SCOPED_TRACE(phase);
    db_.clock().SetSeconds(kExpiryStart);
    if (std::string(phase) == "flushed") db_.Flush(table_);
    if (std::string(phase) == "compacted") db_.Compact(table_);
    for (int64_t second = 1; second <= 9; second++) {
      std::vector<int> before, at;
      for (int c = 0; c < 8; c++) {
        if (c + 1 >= second) before.push_back(c);
        if (c + 1 > second) at.push_back(c);
      }
      if (second <= 4) before.push_back(8);
      if (second < 4) at.push_back(8);
      before.push_back(9);
      at.push_back(9);
      // One microsecond before the expiry second: still there; at it: gone.
      db_.clock().SetSeconds(kExpiryStart + second);
      db_.clock().AdvanceMicros(-1);
      EXPECT_EQ(Visible(), before) << "just before second " << second;
      db_.clock().AdvanceMicros(1);
      EXPECT_EQ(Visible(), at) << "at second " << second;
      ExpectMatchesModel(std::string(phase) + ", second " + std::to_string(second));
    }
  }
  // The compaction ran before anything expired: every row is still stored.
  EXPECT_EQ(db_.RawEntries(table_).size(), 10u);
  EXPECT_EQ(db_.EntriesInFiles(table_), 10u);
  EXPECT_EQ(table_->compaction_filter_stats().rows_expired.load(), 0u);
  EXPECT_EQ(table_->compaction_filter_stats().rows_kept.load(), 10u);
}

TEST_P(MaintenanceExpiryTest, CompactionRemovesExpiredRowsAndCountsThem) {
  // 4 partitions of 50 rows expiring over 20 seconds; every 10th row never expires.
  for (int k = 0; k < 4; k++) {
    for (int c = 0; c < 50; c++) Insert(k, c, Ttl(c % 10 == 0 ? 0 : 1 + (c * 7 + k) % 20));
  }
  db_.FlushAndCompact(table_);
  EXPECT_EQ(db_.EntriesInFiles(table_), 200u);
  const RowCompactionFilterFactory::Stats& stats = table_->compaction_filter_stats();
  EXPECT_EQ(stats.rows_expired.load(), 0u);
  for (int step = 1; step <= 8; step++) {
    SCOPED_TRACE("step " + std::to_string(step));
    db_.clock().AdvanceSeconds(3);
    if (step == 3) {
      // New partitions and overwrites with fresh TTLs, in an L0 file and in the memtable.
      for (int c = 0; c < 50; c += 2) Insert(4, c, Ttl(1 + c % 15));
      for (int c = 1; c < 50; c += 5) Insert(1, c, Ttl(30));
      db_.Flush(table_);
      for (int c = 1; c < 50; c += 2) Insert(5, c, Ttl(1 + c % 15));
    }
    ExpectMatchesModel("before the compaction");
    // The filter sees the latest version of each key (older ones are dropped as overwritten):
    // it must remove exactly the expired ones among them.
    const size_t expired = ExpiredLatestVersions();
    const uint64_t expired_before = stats.rows_expired.load();
    db_.FlushAndCompact(table_);
    ExpectMatchesModel("after the compaction");
    EXPECT_EQ(stats.rows_expired.load() - expired_before, expired);
    EXPECT_EQ(db_.Ticker(rocksdb::COMPACTION_KEY_DROP_USER), stats.rows_expired.load());
    // Only live rows are left in the files, and every live row is there.
    const size_t live = LiveRows();
    EXPECT_EQ(db_.EntriesInFiles(table_), live);
    EXPECT_EQ(db_.RawEntries(table_).size(), live);
  }
  // Left: the rows without expiry and the overwrites (they expire at kExpiryStart + 39).
  EXPECT_EQ(LiveRows(), 20u + 10u);
  EXPECT_GT(stats.rows_expired.load(), 200u);
  EXPECT_EQ(stats.rows_rewritten.load(), 0u);
  EXPECT_EQ(stats.other_entries.load(), 0u);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, MaintenanceExpiryTest, test::AllTableKinds(),
                         test::TableKindParamName);

}  // namespace
}  // namespace columnar
