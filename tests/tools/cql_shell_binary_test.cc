// The built cql_shell binary end to end (popen): -e statements on the source documents'
// access16 table, the printed table, and the exit status and message of a failed statement.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "tests/table_api/test_util.h"

#ifndef CQL_SHELL_BINARY
#error "CQL_SHELL_BINARY (the path of the built cql_shell) is set by tools/CMakeLists.txt"
#endif

namespace columnar {
namespace {

// `text` as one sh word.
std::string ShellWord(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `command` with sh; *output gets what it printed, the result is its exit status.
int RunCommand(const std::string& command, std::string* output) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  output->clear();
  char buffer[4096];
  size_t read = 0;
  while ((read = fread(buffer, 1, sizeof(buffer), pipe)) > 0) output->append(buffer, read);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(CqlShellBinaryTest, ExecuteStatementsAndExitStatus) {
  TempDir dir("cql-shell-binary");
  const std::string shell = std::string(CQL_SHELL_BINARY) + " --db=" + ShellWord(dir.Sub("db"));
  const std::string statements =
      test::Access16TableCql() +
      "\nINSERT INTO logs.access16 (orgid, service, instance, day, time, status, latency_ms) "
      "VALUES ('org-1', 'api', 'i-1', '2024-05-01', '2024-05-01T10:00:00Z', 500, 1500);\n"
      "INSERT INTO logs.access16 (orgid, service, instance, day, time, status, latency_ms) "
      "VALUES ('org-1', 'api', 'i-1', '2024-05-01', '2024-05-01T10:00:05Z', 200, 12);\n"
      "SELECT time, status, latency_ms FROM logs.access16 WHERE orgid = 'org-1' AND "
      "service = 'api' AND instance = 'i-1' AND day = '2024-05-01' AND status >= 500 AND "
      "latency_ms > 1000 ALLOW FILTERING;";
  std::string output;
  ASSERT_EQ(
      RunCommand(shell + " --storage=columnar -e " + ShellWord(statements) + " 2>&1", &output), 0)
      << output;
  EXPECT_EQ(output,
            "\n"
            " time                            | status | latency_ms\n"
            "---------------------------------+--------+------------\n"
            " 2024-05-01 10:00:00.000000+0000 |    500 |       1500\n"
            "\n"
            "(1 rows)\n");

  // Reopened by a second process: the table is there, stored as ColumnarTable.
  ASSERT_EQ(RunCommand(shell + " -e 'DESCRIBE TABLES; DESCRIBE TABLE logs.access16' 2>&1", &output),
            0)
      << output;
  EXPECT_EQ(
      output.rfind("logs.access16\n-- storage: ColumnarTable\nCREATE TABLE logs.access16 (", 0), 0u)
      << output;

  EXPECT_EQ(
      RunCommand(shell + " -e 'SELECT * FROM logs.nope WHERE a = 1;' 2>&1 >/dev/null", &output), 1);
  EXPECT_EQ(output, "-e:1:1: NotFound: unknown table logs.nope\n");

  EXPECT_EQ(RunCommand(shell + " --format=yaml 2>&1", &output), 2);
  EXPECT_EQ(output.rfind("cql_shell: --format wants table, csv or json, got 'yaml'\nusage: ", 0),
            0u)
      << output;
}

}  // namespace
}  // namespace columnar
