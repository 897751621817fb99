// The shell session on the source documents' access16 table (000_...): CQL statements with
// ranges, LIMIT, ORDER BY, ALLOW FILTERING, writetime() and TTL; exact output of a small
// table; errors with their source positions; DESCRIBE parsed back; TRACING counters on a
// ColumnarTable table; SOURCE, EXIT, prompts; reopening the database.
#include "tools/shell_session.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "table_format/cql_parser.h"
#include "tests/tools/shell_test_util.h"

namespace columnar {
namespace {

using test::May1Partition;
using test::ShellTest;

TEST_F(ShellTest, SmallTableExactOutput) {
  RunOk(
      "CREATE TABLE zoo.pets (owner text, id int, name text, weight double, born date, "
      "vaccinated boolean, PRIMARY KEY (owner, id));\n"
      "INSERT INTO zoo.pets (owner, id, name, weight, born, vaccinated) "
      "VALUES ('ann', 2, 'Rex', 31.5, '2019-03-04', true);\n"
      "INSERT INTO zoo.pets (owner, id, name, weight) VALUES ('ann', 1, 'O''Malley', -0.25);\n"
      "INSERT INTO zoo.pets (owner, id, name, weight, vaccinated) "
      "VALUES ('ann', 10, 'Zoë', 1e10, false);\n");
  EXPECT_EQ(RunOk("SELECT * FROM zoo.pets WHERE owner = 'ann';"),
            "\n"
            " owner | id | name     | weight      | born       | vaccinated\n"
            "-------+----+----------+-------------+------------+------------\n"
            "   ann |  1 | O'Malley |       -0.25 |       null |       null\n"
            "   ann |  2 |      Rex |        31.5 | 2019-03-04 |       True\n"
            "   ann | 10 |      Zoë | 10000000000 |       null |      False\n"
            "\n"
            "(3 rows)\n");
  EXPECT_EQ(RunOk("select name from zoo.pets where owner = 'bob'"),
            "\n"
            " name\n"
            "------\n"
            "\n"
            "(0 rows)\n");
}

TEST_F(ShellTest, Access16TimeRanges) {
  LoadAccessLogs();
  // Newest first (CLUSTERING ORDER BY time DESC); the range excludes 10:00:10 and includes
  // 10:00:30.
  EXPECT_EQ(RunOk("SELECT time, status, latency_ms FROM logs.access16 WHERE " + May1Partition() +
                  " AND time > '2024-05-01T10:00:10Z' AND time <= '2024-05-01T10:00:30Z';"),
            "\n"
            " time                            | status | latency_ms\n"
            "---------------------------------+--------+------------\n"
            " 2024-05-01 10:00:30.000000+0000 |    200 |         16\n"
            " 2024-05-01 10:00:25.000000+0000 |    200 |         15\n"
            " 2024-05-01 10:00:20.000000+0000 |    500 |         14\n"
            " 2024-05-01 10:00:15.000000+0000 |    200 |         13\n"
            "\n"
            "(4 rows)\n");
  // Two daily partitions, as in the source document's range query.
  const std::string both_days = RunOk(
      "SELECT time FROM logs.access16 WHERE orgid = 'org-1' AND service = 'api' AND "
      "instance = 'i-1' AND day IN ('2024-05-01', '2024-05-02') AND "
      "time >= '2024-05-01T10:00:50Z' AND time < '2024-05-02T10:00:10Z';");
  EXPECT_EQ(both_days,
            "\n"
            " time\n"
            "---------------------------------\n"
            " 2024-05-01 10:00:55.000000+0000\n"
            " 2024-05-01 10:00:50.000000+0000\n"
            " 2024-05-02 10:00:05.000000+0000\n"
            " 2024-05-02 10:00:00.000000+0000\n"
            "\n"
            "(4 rows)\n");
}

TEST_F(ShellTest, Access16LatestRequestAndOrderBy) {
  LoadAccessLogs();
  // The source document's latest-request query: LIMIT 1 in the table's DESC order.
  EXPECT_EQ(
      RunOk("SELECT time, method, path, status, user_id, error_message FROM logs.access16 "
            "WHERE " +
            May1Partition() + " LIMIT 1;"),
      "\n"
      " time                            | method | path      | status | user_id | error_message\n"
      "---------------------------------+--------+-----------+--------+---------+---------------\n"
      " 2024-05-01 10:00:55.000000+0000 |    GET | /v1/items |    200 |    null |          null\n"
      "\n"
      "(1 rows)\n");
  EXPECT_EQ(RunOk("SELECT time, user_id FROM logs.access16 WHERE " + May1Partition() +
                  " ORDER BY time ASC LIMIT 2;"),
            "\n"
            " time                            | user_id\n"
            "---------------------------------+---------\n"
            " 2024-05-01 10:00:00.000000+0000 |  user-0\n"
            " 2024-05-01 10:00:05.000000+0000 |    null\n"
            "\n"
            "(2 rows)\n");
  EXPECT_EQ(Run("SELECT time FROM logs.access16 WHERE " + May1Partition() + " ORDER BY status;"),
            "");
  EXPECT_EQ(errors(),
            "test:1:1: Invalid argument: table logs.access16: ORDER BY must list the table's "
            "clustering columns in key order at line 1, column 127 (near 'status')\n");
}

TEST_F(ShellTest, AllowFilteringOnRegularColumns) {
  LoadAccessLogs();
  const std::string filtered =
      "SELECT time, status, latency_ms, error_message FROM "
      "logs.access16 WHERE " +
      May1Partition() + " AND status >= 500 AND latency_ms > 12";
  EXPECT_EQ(RunOk(filtered + " ALLOW FILTERING;"),
            "\n"
            " time                            | status | latency_ms | error_message\n"
            "---------------------------------+--------+------------+------------------\n"
            " 2024-05-01 10:00:40.000000+0000 |    500 |         18 | upstream timeout\n"
            " 2024-05-01 10:00:20.000000+0000 |    500 |         14 | upstream timeout\n"
            "\n"
            "(2 rows)\n");
  // Without ALLOW FILTERING the statement fails, and the shell says why and where.
  EXPECT_EQ(Run(filtered + ";"), "");
  EXPECT_EQ(shell_->failures(), 1u);
  EXPECT_NE(errors().find("test:1:1: Invalid argument: table logs.access16: "), std::string::npos)
      << errors();
  EXPECT_NE(errors().find("ALLOW FILTERING"), std::string::npos) << errors();
}

TEST_F(ShellTest, WriteTimeAndTtl) {
  LoadAccessLogs();
  RunOk(
      "INSERT INTO logs.access16 (orgid, service, instance, day, time, status) VALUES "
      "('org-1', 'api', 'i-9', '2024-05-01', '2024-05-01T12:00:00Z', 404) "
      "USING TTL 100 AND TIMESTAMP 1714600000123456;");
  const std::string query =
      "SELECT status, writetime(status), ttl(status) FROM logs.access16 WHERE orgid = 'org-1' "
      "AND service = 'api' AND instance = 'i-9' AND day = '2024-05-01';";
  EXPECT_EQ(RunOk(query),
            "\n"
            " status | writetime(status) | ttl(status)\n"
            "--------+-------------------+-------------\n"
            "    404 |  1714600000123456 |         100\n"
            "\n"
            "(1 rows)\n");
  clock_.AdvanceSeconds(40);
  EXPECT_NE(RunOk(query).find("|          60\n"), std::string::npos);
  clock_.AdvanceSeconds(60);
  EXPECT_NE(RunOk(query).find("(0 rows)"), std::string::npos);
  // Rows written without a TTL: writetime() is the table's server clock (the clock's now, one
  // microsecond apart per write call while the clock stands still), ttl() null.
  EXPECT_NE(RunOk("SELECT writetime(status), ttl(status) FROM logs.access16 WHERE " +
                  May1Partition() + " LIMIT 1;")
                .find(" 171460000000"),
            std::string::npos);
  EXPECT_NE(RunOk("SELECT writetime(status), ttl(status) FROM logs.access16 WHERE " +
                  May1Partition() + " LIMIT 1;")
                .find(" |        null\n"),
            std::string::npos);
}

TEST_F(ShellTest, ErrorsNameTheirSourcePositionAndTheRestStillRuns) {
  RunOk("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c));");
  const std::string out =
      Run("INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'a');\n"
          "SELECT v FROM ks.t\n"
          "  WHERE k = 1 AND;\n"
          "INSERT INTO ks.t (k, c, v)\n"
          "  VALUES (1, 'two', 'b');\n"
          "   SELECT * FROM ks.nope WHERE k = 1;\n"
          "INSERT INTO ks.t (k, c, v) VALUES (1, 3, 'unterminated);\n"
          "SELECT c, v FROM ks.t WHERE k = 1;\n");
  EXPECT_EQ(errors(),
            "test:2:1: Invalid argument: expected column name at line 3, column 18 (near ';')\n"
            "test:4:1: Invalid argument: table ks.t: column 'c': invalid int literal 'two': "
            "expected a 32-bit integer at line 5, column 14 (near string 'two')\n"
            "test:6:4: NotFound: unknown table ks.nope\n"
            "test:7:1: Invalid argument: unterminated string literal at line 7, column 42\n");
  EXPECT_EQ(shell_->failures(), 4u);
  // The unterminated string swallowed the last line: only the first INSERT is there.
  EXPECT_EQ(out, "");
  EXPECT_EQ(RunOk("SELECT c, v FROM ks.t WHERE k = 1;"),
            "\n"
            " c | v\n"
            "---+---\n"
            " 1 | a\n"
            "\n"
            "(1 rows)\n");
}

TEST_F(ShellTest, CommandErrors) {
  Run("TRACING maybe\nDESCRIBE TABLE nope;\n  describe views\nSOURCE missing.cql\n");
  EXPECT_EQ(errors(),
            "test:1:1: Invalid argument: expected ON or OFF at line 1, column 9 (near 'maybe')\n"
            "test:2:1: NotFound: unknown table nope\n"
            "test:3:3: Invalid argument: expected TABLES, TABLE name, KEYSPACES or KEYSPACE "
            "[name] at line 3, column 12 (near 'views')\n"
            "test:4:1: Invalid argument: expected the file name as a quoted string at line 4, "
            "column 8 (near 'missing')\n");
  EXPECT_EQ(shell_->failures(), 4u);
}

TEST_F(ShellTest, DescribeOutputParsesBack) {
  options_.default_storage = test::ColumnarStorage();
  Reopen();
  RunOk(test::Access16TableCql());
  RunOk(test::MetricsTableCql());
  RunOk("CREATE TABLE ks.rows (k int PRIMARY KEY, v text) WITH sstable_format = 'block_based';");
  EXPECT_EQ(RunOk("DESCRIBE TABLES"), "ks.rows\nlogs.access16\nmetrics.v2metrics5\n");
  EXPECT_EQ(RunOk("desc tables;"), "ks.rows\nlogs.access16\nmetrics.v2metrics5\n");

  const std::pair<const char*, const char*> expected[] = {
      {"logs.access16", "ColumnarTable"},  // the database's default storage
      {"metrics.v2metrics5", "ColumnarTable"},
      {"ks.rows", "BlockBasedTable"}};
  for (const auto& [name, format] : expected) {
    SCOPED_TRACE(name);
    const std::string described = RunOk(std::string("DESCRIBE TABLE ") + name);
    EXPECT_EQ(described.rfind(std::string("-- storage: ") + format + "\n", 0), 0u) << described;
    CreateTableStatement parsed;
    const Status s = ParseCreateTable(described, &parsed);
    ASSERT_TRUE(s.ok()) << s.ToString() << "\n" << described;
    Table* table = test::MustGetTable(db_.get(), name);
    EXPECT_EQ(parsed.schema.ToCql(), table->schema()->ToCql());
    EXPECT_EQ(parsed.schema.QualifiedName(), name);
  }
  EXPECT_EQ(RunOk("DESCRIBE TABLE logs.access16"),
            "-- storage: ColumnarTable\n" +
                test::MustGetTable(db_.get(), "logs.access16")->schema()->ToCql() + "\n");
}

TEST_F(ShellTest, DescribeTablesOfAnEmptyDatabase) {
  EXPECT_EQ(RunOk("DESCRIBE TABLES"), "(no tables)\n");
}

TEST_F(ShellTest, TracingShowsPushdownCountersOnColumnarTable) {
  options_.default_storage = test::ColumnarStorage();
  Reopen();
  RunOk(
      "CREATE TABLE logs.t (org text, time int, status int, latency int, "
      "PRIMARY KEY (org, time));");
  std::string inserts;
  for (int i = 0; i < 300; i++) {
    inserts += "INSERT INTO logs.t (org, time, status, latency) VALUES ('o', " + std::to_string(i) +
               ", " + (i >= 290 ? "500" : "200") + ", " + std::to_string(i) + ");\n";
  }
  RunOk(inserts);
  EXPECT_EQ(RunOk("TRACING ON"), "Tracing is on.\n");
  EXPECT_TRUE(shell_->tracing());
  const std::string query =
      "SELECT time, status FROM logs.t WHERE org = 'o' AND status >= 500 AND latency > 297 "
      "ALLOW FILTERING;";
  const std::string rows =
      "\n"
      " time | status\n"
      "------+--------\n"
      "  298 |    500\n"
      "  299 |    500\n"
      "\n"
      "(2 rows)\n";
  // Flushed, the rows have sequence numbers: the reader keeps placeholders for the others.
  RunOk("FLUSH logs.t");
  EXPECT_EQ(RunOk(query), rows +
                              "Tracing: logs.t (ColumnarTable)\n"
                              "  files skipped                             0\n"
                              "  row groups pruned                         0\n"
                              "  row groups without match                  2\n"
                              "  row groups with match                     1\n"
                              "  rows built                                2\n"
                              "  placeholders                            298\n"
                              "  rows dropped by readers                   0\n"
                              "  rows rejected after the merge             0\n"
                              "  rows read as column vectors               0\n"
                              "  rows read through iterators               2\n"
                              "  columns decoded                           0\n"
                              "  columns from the cache                    0\n"
                              "  elapsed                               0.250 ms\n");
  // Compacted into the last level (sequence number 0), the partition's row groups are all in
  // one file that nothing else overlaps: the columnar scan path reads them as column vectors
  // (zone maps prune the groups without a match; no iterator, so no other reader pushdown
  // counters), and a file without a match is skipped.
  RunOk("COMPACT");
  EXPECT_EQ(RunOk(query), rows +
                              "Tracing: logs.t (ColumnarTable)\n"
                              "  files skipped                             0\n"
                              "  row groups pruned                         2\n"
                              "  row groups without match                  0\n"
                              "  row groups with match                     0\n"
                              "  rows built                                0\n"
                              "  placeholders                              0\n"
                              "  rows dropped by readers                   0\n"
                              "  rows rejected after the merge             0\n"
                              "  rows read as column vectors               2\n"
                              "  rows read through iterators               0\n"
                              "  columns decoded                           1\n"
                              "  columns from the cache                    0\n"
                              "  elapsed                               0.250 ms\n");
  // Again: the group's decoded `status` column is taken from the cache.
  EXPECT_NE(RunOk(query).find("  columns decoded                           0\n"
                              "  columns from the cache                    1\n"),
            std::string::npos);
  EXPECT_NE(RunOk("SELECT time FROM logs.t WHERE org = 'o' AND status > 500 ALLOW FILTERING;")
                .find("  files skipped                             1\n"),
            std::string::npos);
  EXPECT_EQ(RunOk("tracing off;"), "Tracing is off.\n");
  EXPECT_EQ(RunOk(query), rows);
}

TEST_F(ShellTest, ReopenedDatabaseHasTheSameTables) {
  LoadAccessLogs();
  RunOk(
      "CREATE TABLE ks.c (k int PRIMARY KEY, v text) WITH sstable_format = 'columnar';\n"
      "INSERT INTO ks.c (k, v) VALUES (7, 'seven');\n"
      "ALTER TABLE ks.c ADD extra bigint;\n");
  const std::string tables = RunOk("DESCRIBE TABLES");
  const std::string described = RunOk("DESCRIBE TABLE ks.c");
  const std::string access = RunOk("SELECT * FROM logs.access16 WHERE " + May1Partition() + ";");
  Reopen();
  EXPECT_EQ(RunOk("DESCRIBE TABLES"), tables);
  EXPECT_EQ(RunOk("DESCRIBE TABLE ks.c"), described);
  EXPECT_EQ(RunOk("SELECT * FROM logs.access16 WHERE " + May1Partition() + ";"), access);
  EXPECT_EQ(RunOk("SELECT * FROM ks.c WHERE k = 7;"),
            "\n"
            " k | v     | extra\n"
            "---+-------+-------\n"
            " 7 | seven |  null\n"
            "\n"
            "(1 rows)\n");
}

TEST_F(ShellTest, DeleteRowsAndPartitions) {
  LoadAccessLogs();
  RunOk("DELETE FROM logs.access16 WHERE " + May1Partition() +
        " AND time = '2024-05-01T10:00:55Z';");
  EXPECT_NE(RunOk("SELECT time FROM logs.access16 WHERE " + May1Partition() + " LIMIT 1;")
                .find("2024-05-01 10:00:50.000000+0000"),
            std::string::npos);
  RunOk("DELETE FROM logs.access16 WHERE " + May1Partition() + ";");
  EXPECT_NE(RunOk("SELECT time FROM logs.access16 WHERE " + May1Partition() + ";").find("(0 rows)"),
            std::string::npos);
}

TEST_F(ShellTest, SourceRunsFilesAndNamesThemInErrors) {
  const std::string path = dir_.Sub("setup.cql");
  std::ofstream(path) << "CREATE TABLE ks.s (k int PRIMARY KEY, v int);\n"
                         "INSERT INTO ks.s (k, v) VALUES (1, 10);\n"
                         "\n"
                         "  INSERT INTO ks.s (k, v) VALUES (2, 'x');\n";
  Run("SOURCE '" + path + "'\nSELECT v FROM ks.s WHERE k = 1;");
  EXPECT_EQ(errors(), path +
                          ":4:3: Invalid argument: table ks.s: column 'v': invalid int literal "
                          "'x': expected a 32-bit integer at line 4, column 38 (near string "
                          "'x')\n");
  EXPECT_EQ(shell_->failures(), 1u);

  Run("SOURCE '" + dir_.Sub("absent.cql") + "';");
  EXPECT_EQ(errors().rfind("test:1:1: IO error: cannot read " + dir_.Sub("absent.cql"), 0), 0u)
      << errors();

  const std::string loop = dir_.Sub("loop.cql");
  std::ofstream(loop) << "SOURCE '" + loop + "'\n";
  Run("SOURCE '" + loop + "'");
  EXPECT_NE(errors().find("SOURCE nested more than 16 files deep"), std::string::npos) << errors();
}

TEST_F(ShellTest, ExitStopsTheSession) {
  RunOk(
      "CREATE TABLE ks.e (k int PRIMARY KEY);\nINSERT INTO ks.e (k) VALUES (1);\nQUIT\n"
      "INSERT INTO ks.e (k) VALUES (2);\n");
  EXPECT_TRUE(shell_->exit_requested());
  Run("SELECT * FROM ks.e WHERE k = 1;");
  EXPECT_EQ(out_.str(), "");  // nothing runs after EXIT
  Reopen();
  EXPECT_EQ(RunOk("SELECT k FROM ks.e WHERE k IN (1, 2);"),
            "\n"
            " k\n"
            "---\n"
            " 1\n"
            "\n"
            "(1 rows)\n");
}

TEST_F(ShellTest, InteractivePrompts) {
  std::istringstream in(
      "CREATE TABLE ks.p (k int PRIMARY KEY, v text);\n"
      "INSERT INTO ks.p (k, v)\n"
      "  VALUES (1, 'multi\n"
      "line');\n"
      "SELECT v FROM ks.p WHERE k = 1\n"
      ";\n");
  shell_->Run(in, "<stdin>", /*prompt=*/true);
  EXPECT_EQ(out_.str(),
            "cql> cql> ...> ...> cql> ...> \n"
            " v\n"
            "-------------\n"
            " multi\\nline\n"
            "\n"
            "(1 rows)\n"
            "cql> \n");
  EXPECT_EQ(err_.str(), "");
}

// cqlsh's EXPAND and PAGING, with cqlsh's messages.
TEST_F(ShellTest, ExpandAndPagingCommands) {
  RunOk(
      "CREATE TABLE ks.p (k int PRIMARY KEY, v text);\n"
      "INSERT INTO ks.p (k, v) VALUES (1, 'one');\n"
      "INSERT INTO ks.p (k, v) VALUES (2, 'two');\n");
  EXPECT_EQ(RunOk("EXPAND"), "Expanded output is currently disabled. Use EXPAND ON to enable.\n");
  EXPECT_EQ(RunOk("EXPAND ON"), "Now Expanded output is enabled\n");
  EXPECT_EQ(RunOk("SELECT * FROM ks.p"),
            "\n"
            "@ Row 1\n"
            "---+-----\n"
            " k | 1\n"
            " v | one\n"
            "\n"
            "@ Row 2\n"
            "---+-----\n"
            " k | 2\n"
            " v | two\n"
            "\n"
            "(2 rows)\n");
  EXPECT_EQ(RunOk("expand off;"), "Disabled Expanded output.\n");
  EXPECT_EQ(RunOk("PAGING"),
            "Query paging is currently enabled. Use PAGING OFF to disable\nPage size: 100\n");
  EXPECT_EQ(RunOk("PAGING OFF"), "Disabled Query paging.\n");
  EXPECT_EQ(RunOk("PAGING"), "Query paging is currently disabled. Use PAGING ON to enable.\n");
  EXPECT_EQ(RunOk("PAGING 1"), "Page size: 1\n");
  // Scripts are not paged.
  EXPECT_EQ(RunOk("SELECT k FROM ks.p"), "\n k\n---\n 1\n 2\n\n(2 rows)\n");
  Run("PAGING 0");
  EXPECT_NE(errors().find("page size must be 1 to 1000000"), std::string::npos) << errors();
  Run("EXPAND maybe");
  EXPECT_NE(errors().find("expected ON or OFF"), std::string::npos) << errors();
}

// On a terminal, a long result is shown a page at a time; a line of input shows the next
// page, "q" stops.
TEST_F(ShellTest, PagingOnATerminal) {
  RunOk(
      "CREATE TABLE ks.p (k int PRIMARY KEY, v text);\n"
      "INSERT INTO ks.p (k, v) VALUES (1, 'one');\n"
      "INSERT INTO ks.p (k, v) VALUES (2, 'two');\n"
      "INSERT INTO ks.p (k, v) VALUES (3, 'three');\n");
  std::istringstream in(
      "PAGING 2\n"
      "SELECT k FROM ks.p;\n"
      "\n"
      "SELECT k FROM ks.p;\n"
      "q\n");
  shell_->Run(in, "<stdin>", /*prompt=*/true);
  EXPECT_EQ(out_.str(),
            "cql> Page size: 2\n"
            "cql> \n k\n---\n 1\n 2\n\n---MORE---\n k\n---\n 3\n\n(3 rows)\n"
            "cql> \n k\n---\n 1\n 2\n\n---MORE---\n(3 rows)\n"
            "cql> \n");
  EXPECT_EQ(err_.str(), "");
}

TEST_F(ShellTest, HelpListsCommandsAndStatements) {
  const std::string help = RunOk("help");
  for (const char* item :
       {"DESCRIBE TABLE", "TRACING ON | OFF", "SOURCE 'file'", "EXIT | QUIT", "EXPAND ON | OFF",
        "PAGING", "INSERT INTO", "ALLOW FILTERING", "WRITETIME(col)", "USING TTL",
        "CREATE KEYSPACE", "DROP KEYSPACE", "USE ks", "DROP TABLE", "TRUNCATE",
        "DESCRIBE KEYSPACES", "CONSISTENCY", "counter"}) {
    EXPECT_NE(help.find(item), std::string::npos) << item;
  }
}

}  // namespace
}  // namespace columnar
