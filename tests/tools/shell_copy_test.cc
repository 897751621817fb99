// COPY ... TO: the shell exports a table to Parquet or CSV (Table::ExportParquet / ExportCsv),
// the format from the extension or WITH FORMAT, with a column list and a compression; bad
// commands are errors with their position.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/tools/shell_test_util.h"

namespace columnar {
namespace {

using test::ReadExportedFile;
using test::ShellTest;

class ShellCopyTest : public ShellTest {
 protected:
  void SetUp() override {
    ShellTest::SetUp();
    RunOk(
        "CREATE TABLE zoo.pets (owner text, id int, name text, weight double, tag blob, "
        "PRIMARY KEY (owner, id));\n"
        "INSERT INTO zoo.pets (owner, id, name, weight, tag) VALUES ('ann', 2, 'Rex', 31.5, "
        "0x00ff);\n"
        "INSERT INTO zoo.pets (owner, id, name, weight) VALUES ('ann', 1, 'O\"Malley', -0.25);\n"
        "INSERT INTO zoo.pets (owner, id, name) VALUES ('bob', 1, '');\n");
  }
};

TEST_F(ShellCopyTest, CsvByExtensionWithColumns) {
  const std::string path = dir_.path() + "/pets.csv";
  const std::string out = RunOk("COPY zoo.pets (owner, id, name, tag) TO '" + path + "';");
  EXPECT_NE(out.find("3 rows exported to " + path + " (csv, "), std::string::npos) << out;
  EXPECT_EQ(ReadExportedFile(path),
            "\"owner\",\"id\",\"name\",\"tag\"\n"
            "\"ann\",1,\"O\"\"Malley\",\n"
            "\"ann\",2,\"Rex\",\"\\x00\\xFF\"\n"
            "\"bob\",1,\"\",\n");
  // cqlsh's HEADER option: false leaves the names out; true is the default here.
  RunOk("COPY zoo.pets (owner, id) TO '" + path + "' WITH HEADER = false");
  EXPECT_EQ(ReadExportedFile(path), "\"ann\",1\n\"ann\",2\n\"bob\",1\n");
  RunOk("COPY zoo.pets (owner, id) TO '" + path + "' WITH HEADER = true AND FORMAT = 'csv'");
  EXPECT_EQ(ReadExportedFile(path), "\"owner\",\"id\"\n\"ann\",1\n\"ann\",2\n\"bob\",1\n");
  Run("COPY zoo.pets TO '" + dir_.path() + "/p.parquet' WITH HEADER = true");
  EXPECT_NE(errors().find("HEADER applies to CSV files only"), std::string::npos) << errors();
}

TEST_F(ShellCopyTest, ParquetByExtensionOrFormat) {
  const std::string path = dir_.path() + "/pets.parquet";
  std::string out = RunOk("COPY zoo.pets TO '" + path + "'");
  EXPECT_NE(out.find("3 rows exported to " + path + " (parquet, "), std::string::npos) << out;
  std::string file = ReadExportedFile(path);
  ASSERT_GT(file.size(), 8u);
  EXPECT_EQ(file.substr(0, 4), "PAR1");
  EXPECT_EQ(file.substr(file.size() - 4), "PAR1");
  EXPECT_NE(file.find("CREATE TABLE zoo.pets"), std::string::npos);  // the CQL schema

  const std::string other = dir_.path() + "/pets.out";
  out =
      RunOk("copy zoo.pets to '" + other + "' with format = 'PARQUET' and compression = 'snappy'");
  EXPECT_NE(out.find("(parquet, "), std::string::npos) << out;
  EXPECT_EQ(ReadExportedFile(other).substr(0, 4), "PAR1");
}

TEST_F(ShellCopyTest, BadCommandsAreErrors) {
  Run("COPY zoo.pets TO '" + dir_.path() + "/x.txt'");
  EXPECT_NE(errors().find("COPY needs FORMAT"), std::string::npos) << errors();
  Run("COPY zoo.pets TO '" + dir_.path() + "/x.parquet' WITH compression = 'gzip'");
  EXPECT_NE(errors().find("unknown Parquet compression"), std::string::npos) << errors();
  Run("COPY zoo.pets (nope) TO '" + dir_.path() + "/x.parquet'");
  EXPECT_NE(errors().find("unknown column nope"), std::string::npos) << errors();
  Run("COPY zoo.nope TO '" + dir_.path() + "/x.parquet'");
  EXPECT_NE(errors().find("nope"), std::string::npos) << errors();
  Run("COPY zoo.pets TO x");
  EXPECT_NE(errors().find("quoted string"), std::string::npos) << errors();
  Run("COPY zoo.pets TO '" + dir_.path() + "/x.parquet' WITH level = '3'");
  EXPECT_NE(errors().find("unknown COPY option"), std::string::npos) << errors();
  EXPECT_FALSE(std::filesystem::exists(dir_.path() + "/x.parquet"));
}

}  // namespace
}  // namespace columnar

namespace columnar {
namespace {

// COPY ... FROM: what COPY TO wrote reads back (WITH HEADER = true), into a table of the same
// columns; without HEADER the header line is refused with a hint; a bad line stops the import
// at its line number with the rows before it imported.
TEST_F(ShellCopyTest, CsvRoundTripAndBadLines) {
  const std::string path = dir_.path() + "/pets.csv";
  RunOk("COPY zoo.pets TO '" + path + "'");
  RunOk(
      "CREATE TABLE zoo.copy (owner text, id int, name text, weight double, tag blob, "
      "PRIMARY KEY (owner, id));");
  Run("COPY zoo.copy FROM '" + path + "'");
  EXPECT_NE(errors().find("line 1: column 'id'"), std::string::npos) << errors();
  EXPECT_NE(errors().find("is it a header? COPY TO writes one"), std::string::npos) << errors();
  EXPECT_EQ(RunOk("COPY zoo.copy FROM '" + path + "' WITH HEADER = true"),
            "3 rows imported from " + path + " (12000 rows/s)\n");
  EXPECT_EQ(RunOk("SELECT * FROM zoo.copy"), RunOk("SELECT * FROM zoo.pets"));

  const std::string bad = dir_.path() + "/bad.csv";
  std::ofstream(bad) << "cat,1,Tom,4.5,\ncat,2,Kit,heavy,\ncat,3,Ann,1,\n";
  EXPECT_EQ(Run("COPY zoo.copy (owner, id, name, weight, tag) FROM '" + bad + "'"),
            "1 rows imported from " + bad + " (4000 rows/s)\n");
  EXPECT_NE(errors().find("line 2: column 'weight'"), std::string::npos) << errors();
  EXPECT_EQ(RunOk("SELECT id, name FROM zoo.copy WHERE owner = 'cat'"),
            "\n"
            " id | name\n"
            "----+------\n"
            "  1 |  Tom\n"
            "\n"
            "(1 rows)\n");
  Run("COPY zoo.copy FROM '" + bad + "' WITH FORMAT = 'csv'");
  EXPECT_NE(errors().find("unknown COPY option format = csv (FROM: HEADER = true | false)"),
            std::string::npos)
      << errors();
}

}  // namespace
}  // namespace columnar
