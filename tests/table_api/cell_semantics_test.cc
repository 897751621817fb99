// Cassandra's write semantics through CQL and the Table API, on both table formats, with the
// results Cassandra documents (shared/notes/cassandra-semantics.md): writes set the cells they
// name, per cell the higher write timestamp wins whatever the arrival order, UPDATE writes no
// row liveness, deletions hide what is at or below their timestamp; in the memtable, after a
// flush and with predicate pushdown over files holding older versions.
#include <gtest/gtest.h>

#include "table_api/cql_session.h"
#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

using test::ManualClock;

constexpr int64_t kNowSeconds = 1'700'000'000;

class CellSemanticsTest : public ::testing::TestWithParam<TableFormat> {
 protected:
  void SetUp() override {
    options_.now_micros = clock_.Function();
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    session_ = std::make_unique<CqlSession>(db_.get());
    Exec(
        "CREATE TABLE ks.e (s text, ts int, a int, b text, PRIMARY KEY (s, ts)) WITH "
        "sstable_format = '" +
        std::string(GetParam() == TableFormat::kColumnarTable ? "columnar" : "block_based") + "'");
    ASSERT_TRUE(db_->GetTable("ks.e", &table_).ok());
  }

  void Exec(const std::string& cql) {
    ResultSet ignored;
    const Status s = session_->Execute(cql, &ignored);
    ASSERT_TRUE(s.ok()) << cql << ": " << s.ToString();
  }

  ResultSet Query(const std::string& cql) {
    ResultSet result;
    const Status s = session_->Execute(cql, &result);
    EXPECT_TRUE(s.ok()) << cql << ": " << s.ToString();
    return result;
  }

  void Flush() {
    ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), table_->column_family()).ok());
  }
  void Compact() {
    ASSERT_TRUE(db_->db()
                    ->CompactRange(rocksdb::CompactRangeOptions(), table_->column_family(), nullptr,
                                   nullptr)
                    .ok());
  }

  // The rows of partition 'x' as "ts:a:b" (null as '-').
  std::string Rows(const std::string& where = "") {
    ResultSet result = Query("SELECT ts, a, b FROM ks.e WHERE s = 'x'" + where);
    std::string out;
    for (const Row& row : result.rows) {
      out += out.empty() ? "" : " ";
      out += std::to_string(row[0].int32_value()) + ":" +
             (row[1].is_null() ? "-" : std::to_string(row[1].int32_value())) + ":" +
             (row[2].is_null() ? "-" : row[2].bytes());
    }
    return out;
  }

  // Each check in the memtable, after a flush, and after a compaction.
  template <typename Check>
  void Everywhere(const Check& check) {
    check("memtable");
    Flush();
    check("flushed");
    Compact();
    check("compacted");
  }

  TempDir dir_{"cell-semantics"};
  ManualClock clock_{kNowSeconds * 1000000};
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<CqlSession> session_;
  Table* table_ = nullptr;
};

// Issue 13's first example: the second INSERT writes only a; b keeps 'keep'.
TEST_P(CellSemanticsTest, PartialInsertKeepsTheOtherCells) {
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 10, 'keep')");
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 11)");
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "1:11:keep") << when; });
}

// Issue 13's second example: a write USING TIMESTAMP 5 after a write made now loses.
TEST_P(CellSemanticsTest, OlderClientTimestampLosesWhateverTheArrivalOrder) {
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 10, 'now')");
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 12) USING TIMESTAMP 5");
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "1:10:now") << when; });
  // A later timestamp wins, cell by cell; writetime() is per cell.
  const int64_t later = clock_.now_micros() + 1000;
  Exec("UPDATE ks.e USING TIMESTAMP " + std::to_string(later) +
       " SET b = 'later' WHERE s = 'x' AND ts = 1");
  EXPECT_EQ(Rows(), "1:10:later");
  ResultSet times = Query("SELECT writetime(a), writetime(b) FROM ks.e WHERE s = 'x'");
  ASSERT_EQ(times.rows.size(), 1u);
  EXPECT_EQ(times.rows[0][0], Value::BigInt(clock_.now_micros()));
  EXPECT_EQ(times.rows[0][1], Value::BigInt(later));
  // Equal timestamps, both live: the greater value wins (here 'z' > 'later'), either order.
  Exec("UPDATE ks.e USING TIMESTAMP " + std::to_string(later) +
       " SET b = 'z' WHERE s = 'x' AND ts = 1");
  Exec("UPDATE ks.e USING TIMESTAMP " + std::to_string(later) +
       " SET b = 'a' WHERE s = 'x' AND ts = 1");
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "1:10:z") << when; });
}

TEST_P(CellSemanticsTest, UpdateWritesNoRowLiveness) {
  Exec("UPDATE ks.e SET a = 1 WHERE s = 'x' AND ts = 1");  // an upsert: creates the row
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 2, 2)");
  EXPECT_EQ(Rows(), "1:1:- 2:2:-");
  // Deleting the only cell: the updated row disappears, the inserted one stays (all null).
  Exec("DELETE a FROM ks.e WHERE s = 'x' AND ts = 1");
  Exec("DELETE a FROM ks.e WHERE s = 'x' AND ts = 2");
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "2:-:-") << when; });
}

TEST_P(CellSemanticsTest, DeletionsHideOnlyWhatIsAtOrBelowTheirTimestamp) {
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 1, 'old') USING TIMESTAMP 100");
  Exec("UPDATE ks.e USING TIMESTAMP 300 SET b = 'new' WHERE s = 'x' AND ts = 1");
  Exec("DELETE FROM ks.e USING TIMESTAMP 200 WHERE s = 'x' AND ts = 1");
  EXPECT_EQ(Rows(), "1:-:new");  // a (100) and the liveness (100) are hidden; b (300) is not
  // Writes arriving later at or below the deletion stay hidden; above it they show.
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 5) USING TIMESTAMP 200");
  EXPECT_EQ(Rows(), "1:-:new");
  Exec("DELETE b FROM ks.e USING TIMESTAMP 299 WHERE s = 'x' AND ts = 1");  // older than b
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "1:-:new") << when; });
  Exec("DELETE b FROM ks.e USING TIMESTAMP 300 WHERE s = 'x' AND ts = 1");  // tie: deletion
  EXPECT_EQ(Rows(), "");  // nothing live, no liveness
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 7) USING TIMESTAMP 201");
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "1:7:-") << when; });
}

TEST_P(CellSemanticsTest, PerCellTtl) {
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 1, 'b')");
  Exec("UPDATE ks.e USING TTL 10 SET a = 2 WHERE s = 'x' AND ts = 1");
  ResultSet ttl = Query("SELECT ttl(a), ttl(b) FROM ks.e WHERE s = 'x'");
  ASSERT_EQ(ttl.rows.size(), 1u);
  EXPECT_EQ(ttl.rows[0][0], Value::Int(10));
  EXPECT_EQ(ttl.rows[0][1], Value());
  clock_.AdvanceSeconds(10);
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "1:-:b") << when; });
}

// Predicate pushdown over a file holding the older version: a row whose matching cell a newer
// partial write changed must not match, and a row whose cell a newer write made match must.
TEST_P(CellSemanticsTest, FiltersSeeTheReconciledRow) {
  for (int ts = 1; ts <= 20; ts++) {
    Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', " + std::to_string(ts) + ", " +
         std::to_string(ts == 3 ? 99 : 0) + ", 'b')");
  }
  Flush();
  Compact();
  Exec("UPDATE ks.e SET a = 1 WHERE s = 'x' AND ts = 3");   // no longer matches a = 99
  Exec("UPDATE ks.e SET a = 99 WHERE s = 'x' AND ts = 7");  // now matches
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 9, 98) USING TIMESTAMP 5");  // older: loses
  auto check = [&](const char* when) {
    EXPECT_EQ(Rows(" AND a = 99 ALLOW FILTERING"), "7:99:b") << when;
    EXPECT_EQ(Rows(" AND a >= 98 ALLOW FILTERING"), "7:99:b") << when;
    EXPECT_EQ(Rows(" AND a = 1 ALLOW FILTERING"), "3:1:b") << when;
  };
  check("memtable over the file");
  Flush();
  check("two files");
  Compact();
  check("compacted");
}

TEST_P(CellSemanticsTest, SnapshotsSeeTheRowAsItWas) {
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 1, 'b')");
  const rocksdb::Snapshot* snapshot = db_->db()->GetSnapshot();
  Exec("UPDATE ks.e SET a = 2 WHERE s = 'x' AND ts = 1");
  SelectQuery query = SelectQuery::ForPartition({Value::Text("x")});
  query.columns = {"a", "b"};
  query.snapshot = snapshot;
  ResultSet result;
  ASSERT_TRUE(table_->Select(query, &result).ok());
  EXPECT_EQ(result.rows, (std::vector<Row>{{Value::Int(1), Value::Text("b")}}));
  query.snapshot = nullptr;
  ASSERT_TRUE(table_->Select(query, &result).ok());
  EXPECT_EQ(result.rows, (std::vector<Row>{{Value::Int(2), Value::Text("b")}}));
  db_->db()->ReleaseSnapshot(snapshot);
}

TEST_P(CellSemanticsTest, OlderWriteAfterAddColumn) {
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 1, 'b') USING TIMESTAMP 1000");
  Exec("ALTER TABLE ks.e ADD c double");
  Exec("INSERT INTO ks.e (s, ts, a, b, c) VALUES ('x', 1, 2, 'c', 1.5) USING TIMESTAMP 500");
  Everywhere([&](const char* when) {
    ResultSet result = Query("SELECT a, b, c, writetime(c) FROM ks.e WHERE s = 'x'");
    ASSERT_EQ(result.rows.size(), 1u) << when;
    EXPECT_EQ(result.rows[0],
              (Row{Value::Int(1), Value::Text("b"), Value::Double(1.5), Value::BigInt(500)}))
        << when;
  });
}

TEST_P(CellSemanticsTest, RefusedWritesChangeNothing) {
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 1, 'b')");
  const std::string before = test::DatabaseFingerprint(db_.get());
  ResultSet ignored;
  for (const char* cql : {
           "DELETE FROM ks.e USING TTL 5 WHERE s = 'x'",       // a deletion takes no TTL
           "DELETE a FROM ks.e WHERE s = 'x'",                 // cells need the whole key
           "UPDATE ks.e SET a = 1 WHERE s = 'x'",              // needs the whole key
           "UPDATE ks.e SET ts = 1 WHERE s = 'x' AND ts = 1",  // a key column
           "UPDATE ks.e SET a = a + 1 WHERE s = 'x' AND ts = 1",
           "DELETE s FROM ks.e WHERE s = 'x' AND ts = 1",
           "DELETE FROM ks.e USING TTL 5 WHERE s = 'x' AND ts = 1",
           "UPDATE ks.e SET zz = 1 WHERE s = 'x' AND ts = 1",
       }) {
    const Status s = session_->Execute(cql, &ignored);
    EXPECT_FALSE(s.ok()) << cql;
  }
  EXPECT_EQ(test::DatabaseFingerprint(db_.get()), before);
  const Status s =
      session_->Execute("UPDATE ks.e SET a = 1 WHERE s = 'x' AND ts = 1 AND b = 'b'", &ignored);
  EXPECT_NE(s.ToString().find("line 1, column"), std::string::npos) << s.ToString();
}

// A row merged from writes of different schema versions and timestamps (per-cell exceptions)
// is filtered on its merged cells.
TEST_P(CellSemanticsTest, FilterOnAMergedRowOfTwoSchemaVersions) {
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 1, 'b') USING TIMESTAMP 9000000000000000");
  Exec("ALTER TABLE ks.e ADD c text");
  Exec("ALTER TABLE ks.e ADD d int");
  Exec("INSERT INTO ks.e (s, ts, a, b, c, d) VALUES ('x', 1, 2, 'n', 'cc', 4)");
  Exec("ALTER TABLE ks.e DROP d");
  Everywhere([&](const char* when) {
    EXPECT_EQ(Rows(" AND c > '' ALLOW FILTERING"), "1:1:b") << when;
    EXPECT_EQ(Rows(" AND c = 'cc' ALLOW FILTERING"), "1:1:b") << when;
    EXPECT_EQ(Rows(" AND a = 1 ALLOW FILTERING"), "1:1:b") << when;
  });
  Exec("ALTER TABLE ks.e DROP a");
  Everywhere([&](const char* when) {
    ResultSet result = Query("SELECT ts, c FROM ks.e WHERE s = 'x' AND c > '' ALLOW FILTERING");
    ASSERT_EQ(result.rows.size(), 1u) << when;
    EXPECT_EQ(result.rows[0][1], Value::Text("cc")) << when;
  });
}

// An INSERTed row stays while its liveness lives, also when every column it wrote is dropped.
TEST_P(CellSemanticsTest, InsertedRowOutlivesItsDroppedColumns) {
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 1, 'b') USING TIMESTAMP 9000000000000000");
  Exec("ALTER TABLE ks.e DROP a");
  Exec("ALTER TABLE ks.e DROP b");
  Exec("ALTER TABLE ks.e ADD c text");
  auto rows = [&] {
    ResultSet result = Query("SELECT ts, c FROM ks.e WHERE s = 'x'");
    std::string out;
    for (const Row& row : result.rows) {
      out += std::to_string(row[0].int32_value()) + ":" + (row[1].is_null() ? "-" : row[1].bytes());
    }
    return out;
  };
  Everywhere([&](const char* when) { EXPECT_EQ(rows(), "1:-") << when; });
  Exec("INSERT INTO ks.e (s, ts, c) VALUES ('x', 1, 'cc')");  // older than the liveness
  Everywhere([&](const char* when) { EXPECT_EQ(rows(), "1:cc") << when; });
}

// Tombstones hide late writes with older timestamps until gc_grace_seconds have passed since
// the deletion; then compaction purges them (Cassandra's rule), and such a late write shows.
TEST_P(CellSemanticsTest, CompactionPurgesTombstonesAfterGcGrace) {
  Exec("ALTER TABLE ks.e WITH gc_grace_seconds = 100");
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 1, 'b') USING TIMESTAMP 1000");
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 2, 2, 'b') USING TIMESTAMP 1000");
  Exec("DELETE FROM ks.e WHERE s = 'x' AND ts = 1");  // at the server clock (now)
  Exec("DELETE b FROM ks.e WHERE s = 'x' AND ts = 2");
  Flush();
  Compact();
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 5) USING TIMESTAMP 2000");  // late, older
  Exec("UPDATE ks.e USING TIMESTAMP 2000 SET b = 'late' WHERE s = 'x' AND ts = 2");
  EXPECT_EQ(Rows(), "2:2:-");
  clock_.AdvanceSeconds(99);
  Flush();
  Compact();
  EXPECT_EQ(Rows(), "2:2:-");  // within gc_grace: still hidden
  clock_.AdvanceSeconds(2);    // the deletions were made a few microseconds after the start
  Compact();
  EXPECT_EQ(Rows(), "2:2:-");  // the late writes were merged under the tombstones
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 6) USING TIMESTAMP 2000");
  Exec("UPDATE ks.e USING TIMESTAMP 2000 SET b = 'later' WHERE s = 'x' AND ts = 2");
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "1:6:- 2:2:later") << when; });
}

// gc_grace_seconds counts from when a deletion was made on this node, not from its timestamp
// (Cassandra's local deletion time): a deletion at an old client timestamp still hides late
// writes older than it for gc_grace_seconds.
TEST_P(CellSemanticsTest, GcGraceCountsFromWhenTheDeletionWasMade) {
  Exec("ALTER TABLE ks.e WITH gc_grace_seconds = 100");
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 1, 'b') USING TIMESTAMP 1000");
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 2, 2, 'b') USING TIMESTAMP 1000");
  // Timestamps decades before the clock's now.
  Exec("DELETE FROM ks.e USING TIMESTAMP 5000 WHERE s = 'x' AND ts = 1");
  Exec("DELETE b FROM ks.e USING TIMESTAMP 5000 WHERE s = 'x' AND ts = 2");
  clock_.AdvanceSeconds(50);
  Flush();
  Compact();  // within gc_grace of the deletions: kept
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 5) USING TIMESTAMP 2000");  // late, older
  Exec("UPDATE ks.e USING TIMESTAMP 2000 SET b = 'late' WHERE s = 'x' AND ts = 2");
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "2:2:-") << when; });
  clock_.AdvanceSeconds(51);
  Compact();  // past gc_grace: purged
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 6) USING TIMESTAMP 2000");
  Exec("UPDATE ks.e USING TIMESTAMP 2000 SET b = 'later' WHERE s = 'x' AND ts = 2");
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "1:6:- 2:2:later") << when; });
}

// A partition DELETE hides what is written at or before its timestamp, keeps newer cells, and
// goes on hiding older writes that arrive after it, across flushes, compactions and reopens.
TEST_P(CellSemanticsTest, PartitionDeleteHidesOnlyWhatIsAtOrBelowItsTimestamp) {
  const int64_t now = clock_.now_micros();
  const std::string future = std::to_string(now + 10'000'000);
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 1, 'one') USING TIMESTAMP 1000");
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 2, 2) USING TIMESTAMP 1000");
  Exec("UPDATE ks.e USING TIMESTAMP " + future + " SET b = 'new' WHERE s = 'x' AND ts = 2");
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('y', 1, 1)");  // another partition: untouched
  Exec("DELETE FROM ks.e USING TIMESTAMP 2000 WHERE s = 'x'");
  // The cell written after 2000 stays (its row has no liveness now: it lives by that cell).
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "2:-:new") << when; });
  // Late writes at or before 2000 stay hidden; later ones show.
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 3, 3, 'old') USING TIMESTAMP 2000");
  Exec("UPDATE ks.e USING TIMESTAMP 1500 SET a = 9 WHERE s = 'x' AND ts = 2");
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 4, 4) USING TIMESTAMP 2001");
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "2:-:new 4:4:-") << when; });
  EXPECT_EQ(Query("SELECT a FROM ks.e WHERE s = 'y'").rows.size(), 1u);
  // The deletion outlives a reopen.
  session_.reset();
  db_.reset();
  ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
  session_ = std::make_unique<CqlSession>(db_.get());
  ASSERT_TRUE(db_->GetTable("ks.e", &table_).ok());
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 5, 5) USING TIMESTAMP 1999");
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "2:-:new 4:4:-") << when; });
  // A deletion at the server clock hides everything written so far, and late older writes.
  Exec("DELETE FROM ks.e WHERE s = 'x'");
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 6, 6) USING TIMESTAMP " + std::to_string(now));
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "2:-:new") << when; });
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 7, 7)");  // the server clock moved on
  EXPECT_EQ(Rows(), "2:-:new 7:7:-");
}

// Past gc_grace_seconds (from when it was made) a partition deletion no longer hides late
// writes; TRUNCATE and DROP TABLE forget partition deletions (Cassandra's TRUNCATE is no
// deletion: later writes show whatever their timestamps).
TEST_P(CellSemanticsTest, PartitionDeletionsEndWithGcGraceTruncateAndDrop) {
  Exec("ALTER TABLE ks.e WITH gc_grace_seconds = 100");
  Exec("DELETE FROM ks.e USING TIMESTAMP 2000 WHERE s = 'x'");
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 1) USING TIMESTAMP 1000");
  EXPECT_EQ(Rows(), "");
  clock_.AdvanceSeconds(101);
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 1) USING TIMESTAMP 1000");
  EXPECT_EQ(Rows(), "1:1:-");

  Exec("DELETE FROM ks.e USING TIMESTAMP 3000 WHERE s = 'x'");
  EXPECT_EQ(Rows(), "");
  Exec("TRUNCATE ks.e");
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 2, 2) USING TIMESTAMP 1000");
  EXPECT_EQ(Rows(), "2:2:-");

  Exec("DELETE FROM ks.e USING TIMESTAMP 3000 WHERE s = 'x'");
  Exec("DROP TABLE ks.e");
  Exec("CREATE TABLE ks.e (s text, ts int, a int, b text, PRIMARY KEY (s, ts))");
  Exec("INSERT INTO ks.e (s, ts, a) VALUES ('x', 3, 3) USING TIMESTAMP 1000");
  EXPECT_EQ(Rows(), "3:3:-");
}

// gc_grace_seconds is checked where it is given, as default_time_to_live is.
TEST_P(CellSemanticsTest, GcGraceSecondsIsValidated) {
  const std::string before = test::DatabaseFingerprint(db_.get());
  ResultSet ignored;
  for (const char* cql :
       {"ALTER TABLE ks.e WITH gc_grace_seconds = -1",
        "ALTER TABLE ks.e WITH gc_grace_seconds = 'ten days'",
        "ALTER TABLE ks.e WITH gc_grace_seconds = 2147483648",
        "ALTER TABLE ks.e WITH gc_grace_seconds = 1.5",
        "CREATE TABLE ks.f (k int PRIMARY KEY) WITH gc_grace_seconds = {'a': 1}"}) {
    const Status s = session_->Execute(cql, &ignored);
    EXPECT_TRUE(s.IsInvalidArgument()) << cql;
    EXPECT_NE(s.ToString().find("gc_grace_seconds must be an integer between 0 and 2147483647 at "
                                "line 1"),
              std::string::npos)
        << s.ToString();
  }
  EXPECT_EQ(test::DatabaseFingerprint(db_.get()), before);
  Exec("ALTER TABLE ks.e WITH gc_grace_seconds = 0");
  Exec("ALTER TABLE ks.e WITH gc_grace_seconds = 2147483647");
}

// A BATCH is one atomic write of its table: all its statements, or none when one is refused.
TEST_P(CellSemanticsTest, BatchAppliesAllOrNothing) {
  Exec(
      "BEGIN BATCH INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 1); UPDATE ks.e SET b = 'u' "
      "WHERE s = 'x' AND ts = 1; INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 2, 2, 'two'); "
      "DELETE b FROM ks.e WHERE s = 'x' AND ts = 2; APPLY BATCH");
  // Writes of one key in a batch combine cell by cell (one timestamp: a deletion wins the tie).
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "1:1:u 2:2:-") << when; });
  const std::string before = test::DatabaseFingerprint(db_.get());
  ResultSet ignored;
  for (const char* cql : {
           // the second statement names an unknown column: the first is not written either
           "BEGIN BATCH INSERT INTO ks.e (s, ts, a) VALUES ('x', 3, 3); "
           "UPDATE ks.e SET zz = 1 WHERE s = 'x' AND ts = 3 APPLY BATCH",
           "BEGIN BATCH USING TIMESTAMP 5 INSERT INTO ks.e (s, ts, a) VALUES ('x', 3, 3) "
           "USING TIMESTAMP 6 APPLY BATCH",                                     // two timestamps
           "BEGIN BATCH DELETE FROM ks.e WHERE s = 'x' APPLY BATCH",            // a partition
           "BEGIN BATCH INSERT INTO ks.e (s, ts, a) VALUES ('x', 3, 3) APPLY",  // unfinished
           "BEGIN BATCH SELECT * FROM ks.e APPLY BATCH",                        // not a write
           "BEGIN COUNTER BATCH UPDATE ks.e SET a = 1 WHERE s = 'x' AND ts = 1 APPLY BATCH",
           "BEGIN BATCH USING TTL 5 INSERT INTO ks.e (s, ts, a) VALUES ('x', 3, 3) APPLY BATCH",
           "BEGIN BATCH APPLY BATCH",
       }) {
    const Status s = session_->Execute(cql, &ignored);
    EXPECT_FALSE(s.ok()) << cql;
    EXPECT_NE(s.ToString().find("line 1"), std::string::npos) << s.ToString();
  }
  EXPECT_EQ(test::DatabaseFingerprint(db_.get()), before);
}

TEST_P(CellSemanticsTest, BatchTimestampAppliesToEveryStatement) {
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 1, 'b') USING TIMESTAMP 100");
  Exec(
      "BEGIN UNLOGGED BATCH USING TIMESTAMP 50 UPDATE ks.e SET a = 9 WHERE s = 'x' AND ts = 1; "
      "INSERT INTO ks.e (s, ts, a) VALUES ('x', 2, 2); APPLY BATCH");
  EXPECT_EQ(Rows(), "1:1:b 2:2:-");  // 50 loses to 100
  ResultSet times = Query("SELECT writetime(a) FROM ks.e WHERE s = 'x' AND ts = 2");
  ASSERT_EQ(times.rows.size(), 1u);
  EXPECT_EQ(times.rows[0][0], Value::BigInt(50));
}

TEST_P(CellSemanticsTest, BatchWritesOneTable) {
  Exec("CREATE TABLE ks.other (s text PRIMARY KEY, a int)");
  ResultSet ignored;
  const Status s = session_->Execute(
      "BEGIN BATCH INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 1);\n"
      "  INSERT INTO ks.other (s, a) VALUES ('x', 1); APPLY BATCH",
      &ignored);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("line 2, column 3"), std::string::npos) << s.ToString();
  EXPECT_EQ(Rows(), "");
}

// The high-water mark survives a reopen: a whole row older than what is stored merges (it
// would overwrite the newer cells if it were written blind).
TEST_P(CellSemanticsTest, OlderWholeRowAfterReopenMerges) {
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 1, 'new') USING TIMESTAMP 1000");
  session_.reset();
  table_ = nullptr;
  db_.reset();
  ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
  session_ = std::make_unique<CqlSession>(db_.get());
  ASSERT_TRUE(db_->GetTable("ks.e", &table_).ok());
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 2, 'old') USING TIMESTAMP 500");
  Exec("INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 2, 2, 'blind') USING TIMESTAMP 2000");
  Everywhere([&](const char* when) { EXPECT_EQ(Rows(), "1:1:new 2:2:blind") << when; });
}

INSTANTIATE_TEST_SUITE_P(BothFormats, CellSemanticsTest, test::BothFormats(),
                         test::FormatParamName);

}  // namespace
}  // namespace columnar
