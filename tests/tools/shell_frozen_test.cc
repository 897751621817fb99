// Frozen collections and tuples in the shell, as cqlsh shows them: table output ([1, 2],
// {'a', 'b'}, {'a': 1}, (1, 'x'), text, timestamps and dates quoted inside), SELECT JSON,
// DESCRIBE, COPY TO (the CQL literal in each CSV cell) and COPY FROM back, and the error of a
// bad literal with its position; Parquet export; = pushed down on ColumnarTable files.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/tools/shell_test_util.h"

namespace columnar {
namespace {

using test::ReadExportedFile;
using test::ShellTest;

class ShellFrozenTest : public ShellTest {
 protected:
  void SetUp() override {
    ShellTest::SetUp();
    RunOk(
        "CREATE TABLE zoo.f (k int, c frozen<list<int>>, tags frozen<set<text>>, "
        "attrs frozen<map<text, int>>, t tuple<int, text, date>, "
        "seen frozen<list<timestamp>>, PRIMARY KEY (k, c));\n"
        "INSERT INTO zoo.f (k, c, tags, attrs, t, seen) VALUES (1, [1, 2], {'b', 'it''s'}, "
        "{'x': 1, 'a': -2}, (7, 'seven', '2024-05-01'), ['2024-05-01T10:00:05Z']);\n"
        "INSERT INTO zoo.f (k, c, tags, attrs, t) VALUES (1, [], {}, {}, (1, null, null));\n"
        "INSERT INTO zoo.f (k, c) VALUES (2, [3]);\n");
  }
};

TEST_F(ShellFrozenTest, TableOutputIsCqlshStyle) {
  EXPECT_EQ(RunOk("SELECT * FROM zoo.f WHERE k = 1;"),
            "\n"
            " k | c      | tags           | attrs             | t                          | seen\n"
            "---+--------+----------------+-------------------+----------------------------+--"
            "-----------------------------------\n"
            " 1 |     [] |             {} |                {} |            (1, null, null) |   "
            "                             null\n"
            " 1 | [1, 2] | {'b', 'it''s'} | {'a': -2, 'x': 1} | (7, 'seven', '2024-05-01') | "
            "['2024-05-01 10:00:05.000000+0000']\n"
            "\n"
            "(2 rows)\n");
}

TEST_F(ShellFrozenTest, JsonAndDescribe) {
  EXPECT_EQ(RunOk("SELECT JSON c, tags, attrs, t FROM zoo.f WHERE k = 1 AND c = [1, 2];"),
            "\n"
            " [json]\n"
            "----------------------------------------------------------------------------------"
            "-----------------\n"
            " {\"c\": [1, 2], \"tags\": [\"b\", \"it's\"], \"attrs\": {\"a\": -2, \"x\": 1}, "
            "\"t\": [7, \"seven\", \"2024-05-01\"]}\n"
            "\n"
            "(1 rows)\n");
  const std::string described = RunOk("DESCRIBE TABLE zoo.f");
  EXPECT_NE(described.find("    attrs frozen<map<text, int>>,\n"), std::string::npos) << described;
  EXPECT_NE(described.find("    t frozen<tuple<int, text, date>>,\n"), std::string::npos)
      << described;
}

TEST_F(ShellFrozenTest, CopyToWritesCqlLiteralsAndCopyFromReadsThemBack) {
  const std::string path = dir_.path() + "/f.csv";
  RunOk("COPY zoo.f (k, c, tags, attrs, t) TO '" + path + "'");
  EXPECT_EQ(ReadExportedFile(path),
            "\"k\",\"c\",\"tags\",\"attrs\",\"t\"\n"
            "1,\"[]\",\"{}\",\"{}\",\"(1, null, null)\"\n"
            "1,\"[1, 2]\",\"{'b', 'it''s'}\",\"{'a': -2, 'x': 1}\",\"(7, 'seven', "
            "'2024-05-01')\"\n"
            "2,\"[3]\",,,\n");
  RunOk(
      "CREATE TABLE zoo.g (k int, c frozen<list<int>>, tags frozen<set<text>>, "
      "attrs frozen<map<text, int>>, t tuple<int, text, date>, PRIMARY KEY (k, c));");
  EXPECT_EQ(RunOk("COPY zoo.g FROM '" + path + "' WITH HEADER = true"),
            "3 rows imported from " + path + " (12000 rows/s)\n");
  EXPECT_EQ(RunOk("SELECT * FROM zoo.g"), RunOk("SELECT k, c, tags, attrs, t FROM zoo.f"));

  const std::string bad = dir_.path() + "/bad.csv";
  std::ofstream(bad) << "5,\"[1]\",,,\n6,\"[1, 'x']\",,,\n";
  Run("COPY zoo.g (k, c, tags, attrs, t) FROM '" + bad + "'");
  EXPECT_NE(errors().find("line 2: column 'c'"), std::string::npos) << errors();
  EXPECT_NE(errors().find("invalid frozen<list<int>> literal [1, 'x']: element 2: invalid int "
                          "literal 'x'"),
            std::string::npos)
      << errors();
}

// Parquet: a frozen column is a STRING column holding the CQL literal (README).
TEST_F(ShellFrozenTest, ParquetExportWritesTheLiteralAsAString) {
  const std::string path = dir_.path() + "/f.parquet";
  const std::string out = RunOk("COPY zoo.f (k, attrs, t) TO '" + path +
                                "' WITH FORMAT = 'parquet' AND COMPRESSION = 'none'");
  EXPECT_NE(out.find("3 rows exported to " + path + " (parquet, "), std::string::npos) << out;
  const std::string file = ReadExportedFile(path);
  EXPECT_NE(file.find("{'a': -2, 'x': 1}"), std::string::npos);
  EXPECT_NE(file.find("(7, 'seven', '2024-05-01')"), std::string::npos);
}

TEST_F(ShellFrozenTest, BadLiteralIsAnErrorWithItsPosition) {
  Run("INSERT INTO zoo.f (k, c, tags)\n  VALUES (3, [1], {'a', 2});");
  EXPECT_EQ(errors(),
            "test:1:1: Invalid argument: table zoo.f: column 'tags': invalid frozen<set<text>> "
            "literal {'a', 2}: element 2: invalid text literal 2: expected a 'string' (near '2') "
            "at line 2, column 19 (near '{')\n");
}

// = on a regular frozen column is pushed down on ColumnarTable files like any byte-string
// predicate: readers skip the row groups without a match (flushed) and zone maps prune them
// (compacted), with the same rows as without pushdown.
TEST_F(ShellTest, FrozenEqualityFilterIsPushedDownOnColumnarTable) {
  options_.default_storage = test::ColumnarStorage();
  Reopen();
  RunOk(
      "CREATE TABLE logs.f (org text, time int, tags frozen<set<text>>, PRIMARY KEY (org, time));");
  std::string inserts;
  for (int i = 0; i < 300; i++) {
    inserts += "INSERT INTO logs.f (org, time, tags) VALUES ('o', " + std::to_string(i) + ", " +
               (i >= 298 ? "{'hot', 'a'}" : "{'cold'}") + ");\n";
  }
  RunOk(inserts);
  RunOk("TRACING ON");
  const std::string query =
      "SELECT time, tags FROM logs.f WHERE org = 'o' AND tags = {'a', 'hot'} ALLOW FILTERING;";
  const std::string rows =
      "\n"
      " time | tags\n"
      "------+--------------\n"
      "  298 | {'a', 'hot'}\n"
      "  299 | {'a', 'hot'}\n"
      "\n"
      "(2 rows)\n";
  RunOk("FLUSH logs.f");
  const std::string flushed = RunOk(query);
  EXPECT_EQ(flushed.substr(0, rows.size()), rows);
  EXPECT_NE(flushed.find("  row groups without match                  2\n"
                         "  row groups with match                     1\n"
                         "  rows built                                2\n"),
            std::string::npos)
      << flushed;
  RunOk("COMPACT");
  const std::string compacted = RunOk(query);
  EXPECT_EQ(compacted.substr(0, rows.size()), rows);
  EXPECT_NE(compacted.find("  row groups pruned                         2\n"), std::string::npos)
      << compacted;
}

}  // namespace
}  // namespace columnar
