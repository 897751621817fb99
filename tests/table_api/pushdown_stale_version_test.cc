// The source documents' pushdown flaw, as named regression tests: a row matches the filter
// in an older file, and something newer (an update to a non-matching value, a row delete, a
// partition range delete) sits in a newer file, the memtable, or the same file after a
// compaction. With pushdown on, the filtered query must not return the old version: a reader
// that evaluated each file on its own and skipped the newer, failing version would let the
// older matching one through. Run for ColumnarTable (where pushdown happens) and for
// BlockBasedTable (the reference), with the old version at a non-zero sequence number (L0)
// and at sequence number 0 (bottom level after a compaction).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr int kStaleVersionRows = 300;  // several row groups
constexpr int kStaleRow = 137;          // the row that matches in the older file
constexpr int kOkStatus = 200;
constexpr int kErrorStatus = 503;

enum class Newer { kUpdateToNonMatching, kDeleteRow, kDeletePartition, kUpdateStillMatching };
enum class Where { kNewerFile, kMemtable, kCompactedTogether };

const char* NewerName(Newer newer) {
  switch (newer) {
    case Newer::kUpdateToNonMatching:
      return "UpdateToNonMatching";
    case Newer::kDeleteRow:
      return "DeleteRow";
    case Newer::kDeletePartition:
      return "DeletePartitionRange";
    case Newer::kUpdateStillMatching:
      return "UpdateStillMatching";
  }
  return "?";
}

const char* WhereName(Where where) {
  switch (where) {
    case Where::kNewerFile:
      return "NewerFile";
    case Where::kMemtable:
      return "Memtable";
    case Where::kCompactedTogether:
      return "CompactedTogether";
  }
  return "?";
}

// format, what the newer write is, where it ends up, whether the old file was compacted to the
// bottom level first (sequence numbers zeroed).
using Param = std::tuple<TableFormat, Newer, Where, bool>;

class PushdownStaleVersionTest : public ::testing::TestWithParam<Param> {
 protected:
  TableFormat format() const { return std::get<0>(GetParam()); }
  Newer newer() const { return std::get<1>(GetParam()); }
  Where where() const { return std::get<2>(GetParam()); }
  bool old_file_at_bottom() const { return std::get<3>(GetParam()); }

  void SetUp() override {
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    TableStorage storage;
    storage.format = format();
    storage.columnar.rows_per_group = 32;
    const Status s = db_->CreateTable(
        "CREATE TABLE logs.requests (service text, hour int, seq bigint, status int, "
        "latency_ms int, PRIMARY KEY ((service, hour), seq))",
        storage, &table_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  static NamedRow RowOf(int seq, int status, int latency_ms) {
    return NamedRow{{"service", Value::Text("api")},
                    {"hour", Value::Int(7)},
                    {"seq", Value::BigInt(seq)},
                    {"status", Value::Int(status)},
                    {"latency_ms", Value::Int(latency_ms)}};
  }

  void Flush() {
    ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), table_->column_family()).ok());
  }

  void CompactAll() {
    ASSERT_TRUE(db_->db()
                    ->CompactRange(rocksdb::CompactRangeOptions(), table_->column_family(), nullptr,
                                   nullptr)
                    .ok());
  }

  // The older file: every row OK except kStaleRow, a slow server error.
  void WriteOlderFile() {
    std::vector<NamedRow> rows;
    for (int seq = 0; seq < kStaleVersionRows; seq++) {
      rows.push_back(seq == kStaleRow ? RowOf(seq, kErrorStatus, 2500) : RowOf(seq, kOkStatus, 20));
    }
    ASSERT_TRUE(table_->InsertBatch(rows).ok());
    Flush();
    if (old_file_at_bottom()) CompactAll();
  }

  void WriteNewer() {
    switch (newer()) {
      case Newer::kUpdateToNonMatching:
        ASSERT_TRUE(table_->Insert(RowOf(kStaleRow, kOkStatus, 15)).ok());
        break;
      case Newer::kDeleteRow:
        ASSERT_TRUE(
            table_->DeleteRow({Value::Text("api"), Value::Int(7)}, {Value::BigInt(kStaleRow)})
                .ok());
        break;
      case Newer::kDeletePartition:
        ASSERT_TRUE(table_->DeletePartition({Value::Text("api"), Value::Int(7)}).ok());
        break;
      case Newer::kUpdateStillMatching:
        ASSERT_TRUE(table_->Insert(RowOf(kStaleRow, 504, 3000)).ok());
        break;
    }
    if (where() == Where::kMemtable) return;
    Flush();
    if (where() == Where::kCompactedTogether) CompactAll();
  }

  // status >= 500 AND latency_ms > 1000 over the partition, as (seq, status, latency_ms).
  std::vector<std::vector<Value>> SlowErrors(const rocksdb::Snapshot* snapshot = nullptr,
                                             SelectStats* stats = nullptr) {
    SelectQuery query = SelectQuery::ForPartition({Value::Text("api"), Value::Int(7)});
    query.columns = {"seq", "status", "latency_ms"};
    query.filter =
        Predicate::And({Predicate::Compare("status", CompareOp::kGe, Value::Int(500)),
                        Predicate::Compare("latency_ms", CompareOp::kGt, Value::Int(1000))});
    query.snapshot = snapshot;
    ResultSet result;
    const Status s = table_->Select(query, &result, stats);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return result.rows;
  }

  std::vector<std::vector<Value>> Expected() const {
    if (newer() != Newer::kUpdateStillMatching) return {};
    return {{Value::BigInt(kStaleRow), Value::Int(504), Value::Int(3000)}};
  }

  TempDir dir_{"pushdown-stale-version"};
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
  Table* table_ = nullptr;
};

TEST_P(PushdownStaleVersionTest, OlderMatchingVersionIsNeverReturned) {
  WriteOlderFile();
  const std::vector<std::vector<Value>> before = {
      {Value::BigInt(kStaleRow), Value::Int(kErrorStatus), Value::Int(2500)}};
  ASSERT_EQ(SlowErrors(), before);

  WriteNewer();
  SelectStats stats;
  EXPECT_EQ(SlowErrors(nullptr, &stats), Expected());

  if (format() == TableFormat::kColumnarTable && where() == Where::kNewerFile &&
      newer() == Newer::kUpdateToNonMatching) {
    // Pushdown ran: the failing newer version came back as a placeholder shadowing the old one
    // (its sequence number is not 0), and the file without matches was skipped whole.
    EXPECT_GE(stats.placeholders, 1u);
    EXPECT_GT(stats.row_groups_pruned + stats.row_groups_without_match, 0u);
  }

  // Reopened (readers rebuilt from the files): the same answer.
  db_.reset();
  ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
  table_ = test::MustGetTable(db_.get(), "logs.requests");
  EXPECT_EQ(SlowErrors(), Expected());
}

TEST_P(PushdownStaleVersionTest, SnapshotBeforeTheNewerWriteStillSeesTheOldVersion) {
  WriteOlderFile();
  const rocksdb::Snapshot* snapshot = db_->db()->GetSnapshot();
  WriteNewer();
  const std::vector<std::vector<Value>> old_version = {
      {Value::BigInt(kStaleRow), Value::Int(kErrorStatus), Value::Int(2500)}};
  EXPECT_EQ(SlowErrors(snapshot), old_version);
  EXPECT_EQ(SlowErrors(), Expected());
  db_->db()->ReleaseSnapshot(snapshot);
  CompactAll();
  EXPECT_EQ(SlowErrors(), Expected());
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PushdownStaleVersionTest,
    ::testing::Combine(
        ::testing::Values(TableFormat::kColumnarTable, TableFormat::kBlockBasedTable),
        ::testing::Values(Newer::kUpdateToNonMatching, Newer::kDeleteRow, Newer::kDeletePartition,
                          Newer::kUpdateStillMatching),
        ::testing::Values(Where::kNewerFile, Where::kMemtable, Where::kCompactedTogether),
        ::testing::Bool()),
    [](const ::testing::TestParamInfo<Param>& info) {
      return std::string(TableFormatName(std::get<0>(info.param))) + "_" +
             NewerName(std::get<1>(info.param)) + "_" + WhereName(std::get<2>(info.param)) +
             (std::get<3>(info.param) ? "_OldAtBottom" : "_OldInL0");
    });

}  // namespace
}  // namespace columnar
