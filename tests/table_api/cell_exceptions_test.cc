// Rows written by INSERTs that name some of the columns (the others get no cell, row codec
// format 2 with "no cell" exceptions), and such rows with some cells UPDATEd later (another
// write time): ColumnarTable stores them as typed rows (slot 23 of the typed layout keeps their
// cell exceptions), so the readers filter them and the columnar scan path reads those whose
// cells share the row's write time, and they mean what they mean on BlockBasedTable: a later
// write with an older timestamp still fills a cell that had none, where a null written hides it,
// and writetime() is each cell's.
#include <gtest/gtest.h>
#include <rocksdb/env.h>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace cell_exceptions_test {
namespace {

constexpr int64_t kStartSeconds = 1'714'557'600;  // 2024-05-01T10:00:00Z
constexpr int kRows = 720;                        // an hour, one request every 5 s

class CellExceptionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_ = test::ManualDatabaseOptions(clock_, env_.get());
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    TableStorage columnar = test::ColumnarStorage();
    columnar.columnar.rows_per_group = 64;
    ASSERT_TRUE(db_->CreateTable(test::Access16TableCql("logs.c"), columnar).ok());
    ASSERT_TRUE(db_->CreateTable(test::Access16TableCql("logs.b"), test::BlockBasedStorage()).ok());
    tables_[0] = test::MustGetTable(db_.get(), "logs.c");
    tables_[1] = test::MustGetTable(db_.get(), "logs.b");
  }

  // The statement `cql` (with TABLE for the table's name) on both tables.
  void ExecuteOnBoth(const std::string& cql) {
    for (const char* name : {"logs.c", "logs.b"}) {
      std::string statement = cql;
      statement.replace(statement.find("TABLE"), 5, name);
      ResultSet ignored;
      const Status s = db_->Execute(statement, &ignored);
      ASSERT_TRUE(s.ok()) << statement << ": " << s.ToString();
    }
  }

  static std::string Time(int i) { return std::to_string((kStartSeconds + 5 * i) * 1000); }

  // The README's example: 9 of the 21 columns; an incident of 503s from row 480 to 539; every
  // 9th request slow. Every 50th row also writes error_message as null (a cell deletion) and
  // every 70th is written whole.
  void WriteHour() {
    for (int i = 0; i < kRows; i++) {
      const std::string status = (i >= 480 && i < 540) ? "503" : "200";
      const std::string latency = std::to_string(i % 9 == 0 ? 1500 : 20 + i % 50);
      std::string columns = "orgid, service, instance, day, time, method, path, status, latency_ms";
      std::string values = "'org-1', 'api', 'i-1', '2024-05-01', " + Time(i) +
                           ", 'GET', '/v1/items', " + status + ", " + latency;
      if (i % 50 == 0) {
        columns += ", error_message";
        values += ", null";
      }
      if (i % 70 == 0) {
        columns +=
            ", user_agent, client_ip, country, referrer, request_id, trace_id, user_id, "
            "host, protocol, content_type, bytes_sent";
        values += ", 'curl', '10.0.0.1', 'FR', null, 'r', 't', 'u', 'h', 'HTTP/2', 'json', 7";
        if (i % 50 != 0) {
          columns += ", error_message";
          values += ", 'none'";
        }
      }
      ExecuteOnBoth("INSERT INTO TABLE (" + columns + ") VALUES (" + values + ")");
    }
  }

  void CompactBoth() {
    for (Table* table : tables_) {
      ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), table->column_family()).ok());
      ASSERT_TRUE(db_->db()
                      ->CompactRange(rocksdb::CompactRangeOptions(), table->column_family(),
                                     nullptr, nullptr)
                      .ok());
    }
  }

  static SelectQuery Hour() {
    return SelectQuery::ForPartition(
        {Value::Text("org-1"), Value::Text("api"), Value::Text("i-1"), Value::Date(19844)});
  }

  // `query` on the ColumnarTable table, columnar path allowed and not, and on the
  // BlockBasedTable one: the same rows; returns the columnar-allowed run's stats.
  SelectStats SelectEverywhere(SelectQuery query, ResultSet* rows = nullptr) {
    ResultSet expected;
    EXPECT_TRUE(tables_[1]->Select(query, &expected).ok());
    SelectStats stats;
    for (const bool columnar : {true, false}) {
      query.allow_columnar_scan = columnar;
      ResultSet got;
      SelectStats got_stats;
      const Status s = tables_[0]->Select(query, &got, &got_stats);
      EXPECT_TRUE(s.ok()) << s.ToString();
      EXPECT_TRUE(got.rows == expected.rows && SerializeRows(got) == SerializeRows(expected))
          << (columnar ? "columnar allowed" : "row path") << "\ngot:\n"
          << ResultSetToString(got) << "expected:\n"
          << ResultSetToString(expected);
      if (columnar) stats = got_stats;
    }
    if (rows != nullptr) *rows = expected;
    return stats;
  }

  TempDir dir_{"cell-exceptions"};
  std::unique_ptr<rocksdb::Env> env_{rocksdb::NewMemEnv(rocksdb::Env::Default())};
  test::ManualClock clock_{kStartSeconds * 1000000 + 3600 * 1000000LL};
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
  Table* tables_[2] = {nullptr, nullptr};
};

// The README's query for slow server errors: the readers prune groups by their zone maps and
// filter the rest, and the rows come as column vectors.
TEST_F(CellExceptionsTest, PartialInsertsAreFilteredAndReadAsColumns) {
  WriteHour();
  CompactBoth();
  SelectQuery query = Hour();
  query.columns = {"time", "path", "status", "latency_ms", "user_agent"};
  query.filter =
      Predicate::And({Predicate::Compare("status", CompareOp::kGe, Value::Int(500)),
                      Predicate::Compare("latency_ms", CompareOp::kGt, Value::Int(1000))});
  ResultSet rows;
  const SelectStats stats = SelectEverywhere(query, &rows);
  EXPECT_EQ(rows.rows.size(), 6u);         // rows 486, 495, ..., 531
  EXPECT_GE(stats.row_groups_pruned, 9u);  // 12 groups of 64; the 503s are in 2
  EXPECT_EQ(stats.rows_rejected_after_merge, 0u);
  EXPECT_EQ(stats.rows_columnar, 6u);

  // Whole rows, writetime() and ttl() of cells with and without a cell, IS NULL, aggregates.
  SelectQuery whole = Hour();
  EXPECT_EQ(SelectEverywhere(whole).rows_columnar, static_cast<uint64_t>(kRows));
  whole.columns = {"time", "writetime(user_agent)", "ttl(user_agent)", "writetime(status)",
                   "error_message"};
  SelectEverywhere(whole);
  whole.columns = {};
  whole.filter = Predicate::IsNotNull("user_agent");
  SelectEverywhere(whole, &rows);
  EXPECT_EQ(rows.rows.size(), static_cast<size_t>((kRows + 69) / 70));
  whole.filter = Predicate::IsNull("error_message");
  SelectEverywhere(whole, &rows);
  EXPECT_EQ(rows.rows.size(), static_cast<size_t>(kRows - (kRows + 69) / 70 + (kRows + 349) / 350));
  SelectQuery counts = Hour();
  counts.aggregates = {{Aggregate::Function::kCount, ""},
                       {Aggregate::Function::kMax, "latency_ms"},
                       {Aggregate::Function::kCount, "user_agent"}};
  SelectEverywhere(counts, &rows);
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.rows[0][0], Value::BigInt(kRows));
}

// An unset cell is no cell: a later write of it with an older timestamp shows, where a null
// written at the row's time (error_message of every 50th row) hides such a write.
TEST_F(CellExceptionsTest, LaterOlderWritesFillOnlyUnsetCells) {
  WriteHour();
  CompactBoth();
  for (int i : {1, 50, 70, 100}) {
    ExecuteOnBoth(
        "INSERT INTO TABLE (orgid, service, instance, day, time, user_agent, "
        "error_message) VALUES ('org-1', 'api', 'i-1', '2024-05-01', " +
        Time(i) + ", 'late', 'late') USING TIMESTAMP 5");
  }
  CompactBoth();
  SelectQuery query = Hour();
  query.columns = {"time", "user_agent", "error_message", "writetime(user_agent)"};
  ResultSet rows;
  SelectEverywhere(query, &rows);
  query.filter = Predicate::Compare("user_agent", CompareOp::kEq, Value::Text("late"));
  SelectEverywhere(query, &rows);
  // Rows 1 and 100 (user_agent unset) and 50 (unset; its error_message was a null written);
  // row 70 was written whole.
  EXPECT_EQ(rows.rows.size(), 3u);
  query.filter = Predicate::Compare("error_message", CompareOp::kEq, Value::Text("late"));
  SelectEverywhere(query, &rows);
  EXPECT_EQ(rows.rows.size(), 1u);  // row 1 only: 50 and 100 wrote a null, 70 'none'
  // And across a reopen.
  db_.reset();
  ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
  tables_[0] = test::MustGetTable(db_.get(), "logs.c");
  tables_[1] = test::MustGetTable(db_.get(), "logs.b");
  SelectEverywhere(query, &rows);
  EXPECT_EQ(rows.rows.size(), 1u);
}

// Cells UPDATEd after the INSERT (another write time) keep the rows typed: the readers still
// filter them, and their groups are read as columns unless writetime() is asked for (the row
// path has it per cell). An UPDATE with a TTL (a cell expiring before its row) leaves its row
// opaque, still filtered right.
TEST_F(CellExceptionsTest, UpdatedCellsAreFilteredInTheReaders) {
  WriteHour();
  CompactBoth();
  clock_.AdvanceSeconds(60);
  for (int i = 0; i < kRows; i += 97) {
    ExecuteOnBoth(
        "UPDATE TABLE SET user_agent = 'upd', latency_ms = 2000 WHERE orgid = 'org-1' "
        "AND service = 'api' AND instance = 'i-1' AND day = '2024-05-01' AND time = " +
        Time(i));
  }
  ExecuteOnBoth(
      "UPDATE TABLE USING TTL 3600 SET user_agent = 'ttl' WHERE orgid = 'org-1' AND "
      "service = 'api' AND instance = 'i-1' AND day = '2024-05-01' AND time = " +
      Time(3));
  CompactBoth();
  SelectQuery query = Hour();
  query.columns = {"time",
                   "user_agent",
                   "latency_ms",
                   "writetime(user_agent)",
                   "writetime(latency_ms)",
                   "writetime(status)",
                   "ttl(user_agent)"};
  query.filter = Predicate::Compare("latency_ms", CompareOp::kGe, Value::Int(2000));
  ResultSet rows;
  const SelectStats stats = SelectEverywhere(query, &rows);
  EXPECT_EQ(rows.rows.size(), static_cast<size_t>((kRows + 96) / 97));
  EXPECT_GE(stats.row_groups_pruned, 3u);
  // The updated rows are typed and filtered in the readers: no row comes back to the final
  // filter but the opaque one (row 3, whose cell has its own TTL).
  query.filter = Predicate::Compare("latency_ms", CompareOp::kEq, Value::Int(1500));
  const SelectStats slow = SelectEverywhere(query, &rows);
  EXPECT_EQ(rows.rows.size(), static_cast<size_t>((kRows + 8) / 9 - 1));  // not row 0
  EXPECT_EQ(slow.rows_rejected_after_merge, 1u);
  // Whole rows and writetime() of every kind of cell, in both directions.
  SelectQuery whole = Hour();
  whole.columns = query.columns;
  SelectEverywhere(whole);
  whole.reversed = true;
  const SelectStats whole_stats = SelectEverywhere(whole, &rows);
  EXPECT_EQ(rows.rows.size(), static_cast<size_t>(kRows));
  EXPECT_GT(whole_stats.rows_columnar, 0u);  // groups without updated cells
  EXPECT_GT(whole_stats.rows_row_path, 0u);  // the groups with them
  // Without writetime() every group but the opaque row's is read on the columns.
  whole.columns = {"time", "user_agent", "latency_ms", "ttl(user_agent)"};
  const SelectStats values_stats = SelectEverywhere(whole, &rows);
  EXPECT_GE(values_stats.rows_columnar, static_cast<uint64_t>(kRows - 64));
  query.filter = Predicate::Compare("user_agent", CompareOp::kEq, Value::Text("ttl"));
  SelectEverywhere(query, &rows);
  EXPECT_EQ(rows.rows.size(), 1u);
  clock_.AdvanceSeconds(3601);
  SelectEverywhere(query, &rows);
  EXPECT_EQ(rows.rows.size(), 0u);
}

}  // namespace
}  // namespace cell_exceptions_test
}  // namespace columnar
