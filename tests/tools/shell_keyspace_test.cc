// The shell with the keyspace and table statements of a Cassandra user, each checked against
// what cqlsh documents: CREATE KEYSPACE (with the one-node note), DESCRIBE KEYSPACES /
// KEYSPACE / TABLES, USE and its prompt, DROP TABLE, TRUNCATE, DROP KEYSPACE, CONSISTENCY;
// refused statements name what is unsupported and where in the script, and change nothing.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/tools/shell_test_util.h"

namespace columnar {
namespace {

using test::ShellTest;

constexpr char kCreateKeyspace[] =
    "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 1} AND durable_writes = true;\n";
constexpr char kKeyspaceCql[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
    "'1'} AND durable_writes = true;";
constexpr char kOneNodeNote[] =
    "Note: keyspace ks: this database is one node, so its replication options are stored and "
    "shown by DESCRIBE but every table keeps a single copy of its rows (and every write goes "
    "to the write-ahead log, whatever durable_writes says).\n";
constexpr char kTableCql[] =
    "CREATE TABLE ks.t (\n"
    "    k int,\n"
    "    v text,\n"
    "    PRIMARY KEY (k)\n"
    ");";

TEST_F(ShellTest, KeyspaceLifecycle) {
  EXPECT_EQ(RunOk("DESCRIBE KEYSPACES"), "(no keyspaces)\n");
  EXPECT_EQ(RunOk(kCreateKeyspace), kOneNodeNote);
  EXPECT_EQ(RunOk("DESCRIBE KEYSPACES"), "ks\n");
  EXPECT_EQ(RunOk("DESCRIBE KEYSPACE ks"), std::string(kKeyspaceCql) + "\n");

  EXPECT_EQ(RunOk("USE ks;"), "");
  EXPECT_EQ(shell_->keyspace(), "ks");
  RunOk(
      "CREATE TABLE IF NOT EXISTS t (k int PRIMARY KEY, v text);\n"
      "CREATE TABLE IF NOT EXISTS t (other int PRIMARY KEY);\n"
      "INSERT INTO t (k, v) VALUES (1, 'one');\n"
      "INSERT INTO ks.t (k, v) VALUES (2, 'two');\n"
      "CREATE TABLE elsewhere.t (k int PRIMARY KEY);\n");
  EXPECT_EQ(RunOk("SELECT * FROM t WHERE k IN (1, 2);"),
            "\n"
            " k | v\n"
            "---+-----\n"
            " 1 | one\n"
            " 2 | two\n"
            "\n"
            "(2 rows)\n");
  EXPECT_EQ(RunOk("DESCRIBE TABLES"), "ks.t\n");  // the current keyspace's
  EXPECT_EQ(RunOk("DESCRIBE KEYSPACES"), "elsewhere\nks\n");
  const std::string table = std::string("-- storage: ColumnarTable\n") + kTableCql + "\n";
  EXPECT_EQ(RunOk("DESCRIBE TABLE t"), table);
  EXPECT_EQ(RunOk("DESC KEYSPACE"), std::string(kKeyspaceCql) + "\n\n" + table);
  RunOk("FLUSH t\nCOMPACT t");

  Reopen();  // the keyspace and its table survive; the session starts without a keyspace
  EXPECT_EQ(shell_->keyspace(), "");
  EXPECT_EQ(RunOk("DESCRIBE KEYSPACE ks"), std::string(kKeyspaceCql) + "\n\n" + table);
  EXPECT_EQ(RunOk("DESCRIBE TABLES"), "elsewhere.t\nks.t\n");
  RunOk("use ks");
  EXPECT_EQ(RunOk("TRUNCATE t;\nSELECT * FROM t WHERE k IN (1, 2);"),
            "\n"
            " k | v\n"
            "---+---\n"
            "\n"
            "(0 rows)\n");
  EXPECT_EQ(RunOk("DESCRIBE TABLE t"), table);  // the schema stays
  RunOk("INSERT INTO t (k, v) VALUES (3, 'three');\nDROP TABLE t;\nDROP TABLE IF EXISTS t;");
  EXPECT_EQ(RunOk("DESCRIBE TABLES"), "(no tables)\n");
  RunOk("CREATE TABLE t (k int PRIMARY KEY, v text);");
  EXPECT_NE(RunOk("SELECT * FROM t WHERE k = 3;").find("(0 rows)"), std::string::npos);
  RunOk("DROP KEYSPACE ks;\nDROP KEYSPACE IF EXISTS ks;");
  EXPECT_EQ(RunOk("DESCRIBE KEYSPACES"), "elsewhere\n");
  EXPECT_EQ(db_->ListTables(), (std::vector<std::string>{"elsewhere.t"}));

  // The dropped keyspace stays current, as in Cassandra; its tables are gone.
  Run("SELECT * FROM t WHERE k = 3;\nUSE nope;\nDESCRIBE KEYSPACE nope");
  EXPECT_EQ(errors(),
            "test:1:1: NotFound: unknown table ks.t\n"
            "test:2:1: NotFound: unknown keyspace nope\n"
            "test:3:1: NotFound: unknown keyspace nope\n");
}

TEST_F(ShellTest, PromptShowsTheCurrentKeyspace) {
  RunOk(kCreateKeyspace);
  std::istringstream in("USE ks;\nSELECT k\nFROM t WHERE k = 1;\n");
  out_.str("");
  shell_->Run(in, "<stdin>", /*prompt=*/true);
  EXPECT_EQ(out_.str(), "cql> cql:ks> ...> cql:ks> \n");
  EXPECT_EQ(errors(), "<stdin>:2:1: NotFound: unknown table ks.t\n");
}

TEST_F(ShellTest, ConsistencyIsAcceptedAndIgnored) {
  EXPECT_EQ(RunOk("CONSISTENCY"), "Current consistency level is ONE.\n");
  EXPECT_EQ(RunOk("consistency local_quorum;"),
            "Consistency level set to LOCAL_QUORUM. Note: this database is one node, so every "
            "level reads and writes its single copy of each row; the level is ignored.\n");
  Run("CONSISTENCY MOST");
  EXPECT_EQ(errors(),
            "test:1:1: Invalid argument: unknown consistency level (ANY, ONE, TWO, THREE, QUORUM, "
            "ALL, LOCAL_QUORUM, EACH_QUORUM, SERIAL, LOCAL_SERIAL, LOCAL_ONE) at line 1, column "
            "13 (near 'most')\n");
}

TEST_F(ShellTest, RefusedStatementsSayWhatAndWhereAndChangeNothing) {
  RunOk(kCreateKeyspace);
  RunOk(
      "CREATE TABLE ks.t (k int PRIMARY KEY, v text);\nINSERT INTO ks.t (k, v) VALUES (1, 'one');");
  const std::string before = test::DatabaseFingerprint(db_.get());
  const std::string out =
      Run("INSERT INTO ks.t (k, v) VALUES (2, 'two') IF NOT EXISTS;\n"
          "UPDATE ks.t SET v = 'x'\n"
          "  WHERE k = 1 IF v = 'one';\n"
          "CREATE TABLE ks.c (k int PRIMARY KEY,\n"
          "  hits counter);\n"
          "ALTER TABLE ks.t ADD tags set<text>;\n"
          "  UPDATE ks.t SET v = v + 'x' WHERE k = 1;\n"
          "CREATE KEYSPACE k2 WITH replication = {'class': 'Everywhere'};\n"
          "CREATE TABLE ks.m (k int PRIMARY KEY, m map<text, int>);\n");
  EXPECT_EQ(out, "");  // no note: the keyspace was not created
  EXPECT_EQ(
      errors(),
      "test:1:1: Not implemented: lightweight transactions (INSERT ... IF NOT EXISTS) are not "
      "supported: they need a Paxos round between replicas, and this store is one node without "
      "one at line 1, column 43 (near 'if')\n"
      "test:2:1: Not implemented: lightweight transactions (UPDATE ... IF) are not supported: "
      "they need a Paxos round between replicas, and this store is one node without one at line "
      "3, column 15 (near 'if')\n"
      "test:4:1: Invalid argument: counter columns are not supported: a counter is changed by "
      "UPDATE ... SET c = c + n, a read-modify-write this store does not run (use a bigint "
      "written by INSERT) at line 5, column 8 (near 'counter')\n"
      "test:6:1: Invalid argument: non-frozen collection type set<text> is not supported (a "
      "cell holds one value here, so its elements cannot be added or removed one by one); the "
      "alternative is frozen<set<text>>: the whole collection is one value, written and "
      "replaced at once at line 6, column 27 (near 'set')\n"
      "test:7:3: Not implemented: SET c = c + n (a counter or collection update) is not "
      "supported: assign whole values (SET c = literal) at line 7, column 23 (near 'v')\n"
      "test:8:1: Invalid argument: unknown replication strategy class 'Everywhere' (use "
      "'SimpleStrategy' or 'NetworkTopologyStrategy') at line 8, column 49 (near string "
      "'Everywhere')\n"
      "test:9:1: Invalid argument: non-frozen collection type map<text, int> is not supported "
      "(a cell holds one value here, so its elements cannot be added or removed one by one); "
      "the alternative is frozen<map<text, int>>: the whole collection is one value, written "
      "and replaced at once at line 9, column 41 (near 'map')\n");
  EXPECT_EQ(shell_->failures(), 7u);
  EXPECT_EQ(test::DatabaseFingerprint(db_.get()), before);
  EXPECT_EQ(RunOk("DESCRIBE KEYSPACES"), "ks\n");
  EXPECT_EQ(RunOk("DESCRIBE TABLES"), "ks.t\n");
}

TEST_F(ShellTest, SchemaStatementErrorsNameTheirPositionInTheScript) {
  Run("\n\nCREATE TABLE ks.x (k int PRIMARY KEY,\n  v nosuchtype);\n");
  EXPECT_EQ(errors(),
            "test:3:1: Invalid argument: unsupported column type 'nosuchtype' (supported: "
            "boolean, int, bigint, float, double, timestamp, date, text, varchar, ascii, blob, "
            "uuid, frozen<list<T>>, frozen<set<T>>, frozen<map<K, V>>, tuple<T, ...>) at line 4, "
            "column 5 (near 'nosuchtype')\n");
}

}  // namespace
}  // namespace columnar
