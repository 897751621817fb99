// cql_shell's command line and whole run (shell_program.h) in-process: flags, -e and -f in
// order, piped and interactive standard input, --storage, exit statuses.
#include "tools/shell_program.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

TEST(ShellFlagsTest, EveryFlag) {
  ShellFlags flags;
  ASSERT_TRUE(ParseShellFlags({"--db=/tmp/x", "--storage=columnar", "--format", "json", "-e",
                               "SELECT 1;", "--file=a.cql", "-f", "b.cql", "--execute=HELP"},
                              &flags)
                  .ok());
  EXPECT_EQ(flags.db_path, "/tmp/x");
  EXPECT_EQ(flags.storage, TableFormat::kColumnarTable);
  EXPECT_EQ(flags.format, OutputFormat::kJson);
  ASSERT_EQ(flags.inputs.size(), 4u);
  EXPECT_FALSE(flags.inputs[0].is_file);
  EXPECT_EQ(flags.inputs[0].text, "SELECT 1;");
  EXPECT_TRUE(flags.inputs[1].is_file);
  EXPECT_EQ(flags.inputs[1].text, "a.cql");
  EXPECT_TRUE(flags.inputs[2].is_file);
  EXPECT_EQ(flags.inputs[2].text, "b.cql");
  EXPECT_FALSE(flags.inputs[3].is_file);
  EXPECT_EQ(flags.inputs[3].text, "HELP");
  EXPECT_FALSE(flags.help);

  ASSERT_TRUE(ParseShellFlags({"--db", "d", "--storage=block_based", "--format=csv"}, &flags).ok());
  EXPECT_EQ(flags.db_path, "d");
  EXPECT_EQ(flags.storage, TableFormat::kBlockBasedTable);
  EXPECT_EQ(flags.format, OutputFormat::kCsv);
  EXPECT_TRUE(flags.inputs.empty());

  ASSERT_TRUE(ParseShellFlags({"--help"}, &flags).ok());
  EXPECT_TRUE(flags.help);
}

TEST(ShellFlagsTest, Errors) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{}, "--db=PATH is required"},
      {{"-e", "SELECT 1;"}, "--db=PATH is required"},
      {{"--db=d", "--storage=parquet"}, "--storage wants columnar or block_based, got 'parquet'"},
      {{"--db=d", "--format=xml"}, "--format wants table, csv or json, got 'xml'"},
      {{"--db=d", "-e"}, "-e needs a value"},
      {{"--db"}, "--db needs a value"},
      {{"--db=d", "--verbose"}, "unknown argument '--verbose'"},
      {{"--db=d", "stray"}, "unknown argument 'stray'"},
  };
  for (const auto& [args, message] : cases) {
    ShellFlags flags;
    const Status s = ParseShellFlags(args, &flags);
    EXPECT_TRUE(s.IsInvalidArgument()) << message;
    EXPECT_EQ(s.getState() != nullptr ? s.getState() : "", message);
  }
}

class ShellProgramTest : public ::testing::Test {
 protected:
  // Runs the shell with `args` (the database is added) and standard input `input`.
  int Run(std::vector<std::string> args, const std::string& input = "", bool interactive = false) {
    args.insert(args.begin(), "--db=" + dir_.Sub("db"));
    ShellFlags flags;
    const Status s = ParseShellFlags(args, &flags);
    EXPECT_TRUE(s.ok()) << s.ToString();
    std::istringstream in(input);
    out_.str("");
    err_.str("");
    return RunCqlShell(flags, DatabaseOptions(), in, interactive, out_, err_);
  }

  TempDir dir_{"cql-shell-program"};
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(ShellProgramTest, InputsRunInOrderAndSetTheExitStatus) {
  const std::string file = dir_.Sub("rows.cql");
  std::ofstream(file) << "INSERT INTO ks.t (k, v) VALUES (1, 'one');\n";
  EXPECT_EQ(Run({"-e", "CREATE TABLE ks.t (k int PRIMARY KEY, v text);", "-f", file, "-e",
                 "SELECT v FROM ks.t WHERE k = 1;", "--format=csv"}),
            kShellExitOk);
  EXPECT_EQ(out_.str(), "v\none\n");
  EXPECT_EQ(err_.str(), "");

  // A failed statement: the next ones still run, and the exit status says so.
  EXPECT_EQ(Run({"-e", "SELECT v FROM ks.t WHERE k = 'x'; SELECT v FROM ks.t WHERE k = 1;",
                 "--format=json"}),
            kShellExitFailure);
  EXPECT_EQ(out_.str(), "{\"v\": \"one\"}\n");
  EXPECT_EQ(err_.str().rfind("-e:1:1: Invalid argument: table ks.t: column 'k'", 0), 0u)
      << err_.str();

  // A file that cannot be read stops the run.
  EXPECT_EQ(Run({"-f", dir_.Sub("absent.cql"), "-e", "SELECT v FROM ks.t WHERE k = 1;"}),
            kShellExitFailure);
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(err_.str().rfind("cql_shell: IO error: cannot read " + dir_.Sub("absent.cql"), 0), 0u)
      << err_.str();

  // EXIT ends the run: later inputs are not run.
  EXPECT_EQ(Run({"-e", "EXIT", "-e", "SELECT v FROM ks.t WHERE k = 1;"}), kShellExitOk);
  EXPECT_EQ(out_.str(), "");
}

TEST_F(ShellProgramTest, StandardInput) {
  EXPECT_EQ(Run({}, "CREATE TABLE ks.t (k int PRIMARY KEY, v text);\nDESCRIBE TABLES\n"),
            kShellExitOk);
  EXPECT_EQ(out_.str(), "ks.t\n");  // piped: no greeting, no prompts
  EXPECT_EQ(Run({}, "SELECT * FROM ks.nope WHERE k = 1;\n"), kShellExitFailure);
  EXPECT_EQ(err_.str(), "<stdin>:1:1: NotFound: unknown table ks.nope\n");

  // Interactive: a greeting and prompts; errors are shown but do not change the exit status.
  EXPECT_EQ(Run({}, "SELECT * FROM ks.nope WHERE k = 1;\ndescribe tables\n", true), kShellExitOk);
  EXPECT_EQ(out_.str(), "Connected to " + dir_.Sub("db") +
                            " (new tables: ColumnarTable). HELP for help, EXIT to leave.\n"
                            "cql> cql> ks.t\ncql> \n");
  EXPECT_EQ(err_.str(), "<stdin>:1:1: NotFound: unknown table ks.nope\n");
}

TEST_F(ShellProgramTest, StorageChoosesTheFormatOfNewTables) {
  EXPECT_EQ(Run({"--storage=block_based", "-e", "CREATE TABLE ks.b (k int PRIMARY KEY);"}),
            kShellExitOk);
  EXPECT_EQ(Run({"-e",
                 "CREATE TABLE ks.c (k int PRIMARY KEY);"
                 "CREATE TABLE ks.explicit (k int PRIMARY KEY) WITH sstable_format = 'block_based';"
                 "DESCRIBE TABLE ks.c; DESCRIBE TABLE ks.b; DESCRIBE TABLE ks.explicit"}),
            kShellExitOk);
  const std::string out = out_.str();
  const size_t c = out.find("-- storage: ColumnarTable\nCREATE TABLE ks.c ");
  const size_t b = out.find("-- storage: BlockBasedTable\nCREATE TABLE ks.b ");
  const size_t explicit_block_based =
      out.find("-- storage: BlockBasedTable\nCREATE TABLE ks.explicit ");
  EXPECT_NE(c, std::string::npos) << out;
  EXPECT_NE(b, std::string::npos) << out;
  EXPECT_NE(explicit_block_based, std::string::npos) << out;
}

TEST_F(ShellProgramTest, DatabaseThatCannotBeOpened) {
  std::ofstream(dir_.Sub("db")) << "not a directory";
  EXPECT_EQ(Run({"-e", "DESCRIBE TABLES"}), kShellExitFailure);
  EXPECT_EQ(err_.str().rfind("cql_shell: cannot open the database " + dir_.Sub("db") + ": ", 0), 0u)
      << err_.str();
}

}  // namespace
}  // namespace columnar
