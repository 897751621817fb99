// Aggregates as a Cassandra user types them in the shell: the columns in the order written,
// aliases as headers, the floor() bucket shown as a timestamp, before and after a flush.
#include <gtest/gtest.h>

#include "tests/tools/shell_test_util.h"

namespace columnar {
namespace {

using test::ShellTest;

TEST_F(ShellTest, AggregatesPrintInTheOrderWritten) {
  RunOk(
      "CREATE TABLE ks.m (host text, ts timestamp, cpu double, PRIMARY KEY ((host), ts));\n"
      "INSERT INTO ks.m (host, ts, cpu) VALUES ('a', '2024-05-01 00:10:00+0000', 10);\n"
      "INSERT INTO ks.m (host, ts, cpu) VALUES ('a', '2024-05-01 00:50:00+0000', 30);\n"
      "INSERT INTO ks.m (host, ts, cpu) VALUES ('a', '2024-05-01 01:20:00+0000', 50);\n"
      "INSERT INTO ks.m (host, ts, cpu) VALUES ('b', '2024-05-01 00:20:00+0000', 70);\n");
  const std::string per_host =
      "\n"
      " peak | host | count(*)\n"
      "------+------+----------\n"
      "   50 |    a |        3\n"
      "   70 |    b |        1\n"
      "\n"
      "(2 rows)\n";
  const std::string per_hour =
      "\n"
      " hour                            | avg(cpu)\n"
      "---------------------------------+----------\n"
      " 2024-05-01 00:00:00.000000+0000 |       20\n"
      " 2024-05-01 01:00:00.000000+0000 |       50\n"
      "\n"
      "(2 rows)\n";
  const char kPerHost[] = "SELECT max(cpu) AS peak, host, count(*) FROM ks.m GROUP BY host;";
  const char kPerHour[] =
      "SELECT floor(ts, 1h) AS hour, avg(cpu) FROM ks.m WHERE host = 'a' GROUP BY floor(ts, 1h);";
  EXPECT_EQ(RunOk(kPerHost), per_host);
  EXPECT_EQ(RunOk(kPerHour), per_hour);
  RunOk("FLUSH ks.m\nCOMPACT ks.m");
  EXPECT_EQ(RunOk(kPerHost), per_host);
  EXPECT_EQ(RunOk(kPerHour), per_hour);
}

}  // namespace
}  // namespace columnar
