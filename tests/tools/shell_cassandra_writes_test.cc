// Issue 13's examples typed into the shell as a Cassandra user types them, with the results
// Cassandra documents: a keyspace, UPDATE, aggregates and SELECTs over every partition, and the
// two writes that used to lose data (a partial INSERT keeps the other cells; an older USING
// TIMESTAMP loses). Then the write statements a Cassandra user relies on (cell DELETE, BATCH,
// partition DELETE USING TIMESTAMP, default_time_to_live) and SELECT DISTINCT, PER PARTITION
// LIMIT and SELECT JSON, each checked on the printed table; refusals name what and where.
#include <gtest/gtest.h>

#include "tests/tools/shell_test_util.h"

namespace columnar {
namespace {

using test::ShellTest;

TEST_F(ShellTest, IssueExamplesMeanWhatTheyMeanInCassandra) {
  RunOk(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1};\n"
      "CREATE TABLE ks.events (sensor text, day date, ts timestamp, temp double,\n"
      "    PRIMARY KEY ((sensor, day), ts));\n"
      "INSERT INTO ks.events (sensor, day, ts, temp)\n"
      "    VALUES ('s1', '2024-05-01', '2024-05-01T10:00:00Z', 21.5);\n"
      "UPDATE ks.events SET temp = 22 WHERE sensor = 's1' AND day = '2024-05-01'\n"
      "    AND ts = '2024-05-01T10:00:00Z';\n"
      "INSERT INTO ks.events (sensor, day, ts, temp)\n"
      "    VALUES ('s2', '2024-05-01', '2024-05-01T11:00:00Z', 21.0);\n"
      "INSERT INTO ks.events (sensor, day, ts, temp)\n"
      "    VALUES ('s1', '2024-05-01', '2024-05-01T10:05:00Z', 21.7);\n");
  EXPECT_EQ(RunOk("SELECT count(*), max(temp) FROM ks.events;"),
            "\n"
            " count(*) | max(temp)\n"
            "----------+-----------\n"
            "        3 |        22\n"
            "\n"
            "(1 rows)\n");
  EXPECT_EQ(RunOk("SELECT * FROM ks.events;"),
            "\n"
            " sensor | day        | ts                              | temp\n"
            "--------+------------+---------------------------------+------\n"
            "     s1 | 2024-05-01 | 2024-05-01 10:00:00.000000+0000 |   22\n"
            "     s1 | 2024-05-01 | 2024-05-01 10:05:00.000000+0000 | 21.7\n"
            "     s2 | 2024-05-01 | 2024-05-01 11:00:00.000000+0000 |   21\n"
            "\n"
            "(3 rows)\n");
  EXPECT_EQ(RunOk("SELECT * FROM ks.events WHERE temp > 21.6 ALLOW FILTERING;"),
            "\n"
            " sensor | day        | ts                              | temp\n"
            "--------+------------+---------------------------------+------\n"
            "     s1 | 2024-05-01 | 2024-05-01 10:00:00.000000+0000 |   22\n"
            "     s1 | 2024-05-01 | 2024-05-01 10:05:00.000000+0000 | 21.7\n"
            "\n"
            "(2 rows)\n");

  // A partial INSERT writes only the cells it names; an older USING TIMESTAMP loses.
  const std::string kept =
      "\n"
      " s | ts | a  | b\n"
      "---+----+----+------\n"
      " x |  1 | 11 | keep\n"
      "\n"
      "(1 rows)\n";
  RunOk(
      "CREATE TABLE ks.e (s text, ts int, a int, b text, PRIMARY KEY (s, ts));\n"
      "INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 10, 'keep');\n"
      "INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 11);\n");
  EXPECT_EQ(RunOk("SELECT * FROM ks.e;"), kept);
  RunOk("INSERT INTO ks.e (s, ts, a) VALUES ('x', 1, 12) USING TIMESTAMP 5;");
  EXPECT_EQ(RunOk("FLUSH ks.e\nSELECT * FROM ks.e;"), kept);
}

TEST_F(ShellTest, CellWritesBatchesAndPartitionDeletes) {
  RunOk(
      "CREATE TABLE ks.e (s text, ts int, a int, b text, PRIMARY KEY (s, ts));\n"
      "INSERT INTO ks.e (s, ts, a, b) VALUES ('x', 1, 11, 'keep');\n"
      "DELETE b FROM ks.e WHERE s = 'x' AND ts = 1;\n"
      "BEGIN UNLOGGED BATCH\n"
      "  UPDATE ks.e SET b = 'two' WHERE s = 'x' AND ts = 2;\n"
      "  INSERT INTO ks.e (s, ts, a) VALUES ('y', 1, 1);\n"
      "  INSERT INTO ks.e (s, ts, a) VALUES ('y', 2, 2);\n"
      "APPLY BATCH;\n");
  const std::string x_rows =
      " x |  1 |   11 | null\n"
      " x |  2 | null |  two\n";
  const std::string header =
      "\n"
      " s | ts | a    | b\n"
      "---+----+------+------\n";
  EXPECT_EQ(RunOk("SELECT * FROM ks.e;"), header + x_rows +
                                              " y |  1 |    1 | null\n"
                                              " y |  2 |    2 | null\n"
                                              "\n"
                                              "(4 rows)\n");
  EXPECT_EQ(RunOk("SELECT DISTINCT s FROM ks.e;"),
            "\n"
            " s\n"
            "---\n"
            " x\n"
            " y\n"
            "\n"
            "(2 rows)\n");
  EXPECT_EQ(RunOk("SELECT * FROM ks.e PER PARTITION LIMIT 1;"),
            "\n"
            " s | ts | a  | b\n"
            "---+----+----+------\n"
            " x |  1 | 11 | null\n"
            " y |  1 |  1 | null\n"
            "\n"
            "(2 rows)\n");
  EXPECT_EQ(RunOk("SELECT JSON * FROM ks.e WHERE s = 'y';"),
            "\n"
            " [json]\n"
            "----------------------------------------\n"
            " {\"s\": \"y\", \"ts\": 1, \"a\": 1, \"b\": null}\n"
            " {\"s\": \"y\", \"ts\": 2, \"a\": 2, \"b\": null}\n"
            "\n"
            "(2 rows)\n");
  // A partition deletion at an old timestamp keeps the newer cells, and hides a later write
  // at or below its timestamp.
  RunOk(
      "DELETE FROM ks.e USING TIMESTAMP 6 WHERE s = 'x';\n"
      "INSERT INTO ks.e (s, ts, a) VALUES ('x', 3, 3) USING TIMESTAMP 6;\n");
  EXPECT_EQ(RunOk("SELECT * FROM ks.e WHERE s = 'x';"), header + x_rows + "\n(2 rows)\n");
  RunOk("DELETE FROM ks.e WHERE s = 'x';\nCOMPACT ks.e");
  EXPECT_EQ(RunOk("SELECT count(*) FROM ks.e WHERE s = 'x';"),
            "\n"
            " count(*)\n"
            "----------\n"
            "        0\n"
            "\n"
            "(1 rows)\n");

  RunOk(
      "ALTER TABLE ks.e WITH default_time_to_live = 100;\n"
      "INSERT INTO ks.e (s, ts, a) VALUES ('z', 1, 1);\n");
  EXPECT_EQ(RunOk("SELECT ttl(a) FROM ks.e WHERE s = 'z';"),
            "\n"
            " ttl(a)\n"
            "--------\n"
            "    100\n"
            "\n"
            "(1 rows)\n");
}

TEST_F(ShellTest, RefusedWritesSayWhatAndWhere) {
  RunOk("CREATE TABLE ks.e (s text, ts int, a int, PRIMARY KEY (s, ts));");
  Run("INSERT INTO ks.e (s, ts, a) VALUES ('z', 2, 2) IF NOT EXISTS;\n"
      "ALTER TABLE ks.e WITH gc_grace_seconds = -1;\n"
      "BEGIN BATCH DELETE FROM ks.e WHERE s = 'x'; APPLY BATCH;\n");
  EXPECT_EQ(errors(),
            "test:1:1: Not implemented: lightweight transactions (INSERT ... IF NOT EXISTS) are "
            "not supported: they need a Paxos round between replicas, and this store is one node "
            "without one at line 1, column 48 (near 'if')\n"
            "test:2:1: Invalid argument: gc_grace_seconds must be an integer between 0 and "
            "2147483647 at line 2, column 42 (near '-1')\n"
            "test:3:1: Not implemented: table ks.e, statement 1 of the BATCH (line 3, column 13): "
            "a partition DELETE in a BATCH is not supported (it deletes a range of rows, not one "
            "row): run it on its own\n");
  EXPECT_EQ(RunOk("SELECT count(*) FROM ks.e;"),
            "\n"
            " count(*)\n"
            "----------\n"
            "        0\n"
            "\n"
            "(1 rows)\n");
}

}  // namespace
}  // namespace columnar
