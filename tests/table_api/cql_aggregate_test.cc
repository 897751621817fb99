// CQL aggregates end to end through Database::Execute, on both formats, with the rows in the
// memtable and again in flushed and compacted files: count(*) / count(1) / count(col), min,
// max, sum, avg; GROUP BY primary key prefixes (columns fixed by = left out) and a time bucket
// floor(col, width); aliases; selectors in any order; LIMIT on groups and ORDER BY; SELECT
// without a WHERE clause (a whole-table scan, as Cassandra runs it without ALLOW FILTERING);
// and the statements refused, with what the error names.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr int64_t kBaseMillis = 1'714'521'600'000;  // 2024-05-01T00:00:00Z
constexpr int kRowsPerHost = 24;                    // every 20 minutes: 8 hours
const char* const kHosts[] = {"a", "b", "c"};

class CqlAggregateTest : public ::testing::TestWithParam<TableFormat> {
 protected:
  void SetUp() override {
    DatabaseOptions options;
    ASSERT_TRUE(Database::Open(options, dir_.path(), &db_).ok());
    TableStorage storage;
    storage.format = GetParam();
    ASSERT_TRUE(db_->CreateTable("CREATE TABLE ks.m (host text, ts timestamp, cpu double, "
                                 "region text, PRIMARY KEY ((host), ts))",
                                 storage, &metrics_)
                    .ok());
    ASSERT_TRUE(db_->CreateTable("CREATE TABLE ks.n (s text, t int, v int, PRIMARY KEY (s, t))",
                                 storage, &seconds_)
                    .ok());
    // Host h, row i: cpu 100 * h + i; region null on every fifth row.
    for (int h = 0; h < 3; h++) {
      for (int i = 0; i < kRowsPerHost; i++) {
        const std::string region = i % 5 == 0 ? "null" : "'eu-" + std::to_string(i % 3) + "'";
        Run("INSERT INTO ks.m (host, ts, cpu, region) VALUES ('" + std::string(kHosts[h]) + "', " +
            std::to_string(kBaseMillis + i * 1'200'000) + ", " + std::to_string(100 * h + i) +
            ", " + region + ")");
      }
    }
    // Seconds since the epoch in an int: 10 rows 25 s apart.
    for (int i = 0; i < 10; i++) {
      Run("INSERT INTO ks.n (s, t, v) VALUES ('x', " + std::to_string(1'714'521'600 + 25 * i) +
          ", " + std::to_string(i) + ")");
    }
  }

  ResultSet Run(const std::string& cql) {
    ResultSet result;
    const Status s = db_->Execute(cql, &result);
    EXPECT_TRUE(s.ok()) << cql << "\n" << s.ToString();
    return result;
  }

  // The result as text: a header line of the column names, then one line a row.
  std::string Rendered(const std::string& cql) {
    const ResultSet result = Run(cql);
    std::string text;
    for (const std::string& name : result.column_names) text += name + "|";
    for (const Row& row : result.rows) {
      text += "\n";
      for (const Value& value : row) text += value.ToCqlLiteral() + "|";
    }
    return text;
  }

  Status Refused(const std::string& cql) {
    ResultSet result;
    return db_->Execute(cql, &result);
  }

  void FlushAndCompact() {
    for (Table* table : {metrics_, seconds_}) {
      ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), table->column_family()).ok());
      ASSERT_TRUE(db_->db()
                      ->CompactRange(rocksdb::CompactRangeOptions(), table->column_family(),
                                     nullptr, nullptr)
                      .ok());
    }
  }

  void CheckAggregates() {
    EXPECT_EQ(Rendered("SELECT count(*) FROM ks.m"), "count(*)|\n72|");
    EXPECT_EQ(Rendered("SELECT count(1) AS n, count(region) FROM ks.m WHERE host = 'a'"),
              "n|count(region)|\n24|19|");
    // Sums of 100 h + i over i < 24: 2400 h + 276.
    EXPECT_EQ(Rendered("SELECT host, count(*), min(cpu), max(cpu) AS peak, sum(cpu), avg(cpu) "
                       "FROM ks.m GROUP BY host"),
              "host|count(*)|min(cpu)|peak|sum(cpu)|avg(cpu)|\n"
              "'a'|24|0|23|276|11.5|\n"
              "'b'|24|100|123|2676|111.5|\n"
              "'c'|24|200|223|5076|211.5|");
    // The aggregate first, the group column after it; LIMIT counts groups.
    EXPECT_EQ(Rendered("SELECT max(cpu), host FROM ks.m GROUP BY host LIMIT 2"),
              "max(cpu)|host|\n23|'a'|\n123|'b'|");
    // Hours of host b: three rows each, the hour's start shown by floor().
    EXPECT_EQ(Rendered("SELECT max(cpu), floor(ts, 1h) AS hour, count(*) FROM ks.m "
                       "WHERE host = 'b' GROUP BY floor(ts, 60m) LIMIT 3"),
              "max(cpu)|hour|count(*)|\n"
              "102|'2024-05-01T00:00:00.000Z'|3|\n"
              "105|'2024-05-01T01:00:00.000Z'|3|\n"
              "108|'2024-05-01T02:00:00.000Z'|3|");
    EXPECT_EQ(Rendered("SELECT floor(ts, 2h), min(cpu) FROM ks.m WHERE host = 'c' AND ts >= "
                       "'2024-05-01 04:00:00+0000' GROUP BY floor(ts, 2h) ORDER BY ts DESC"),
              "floor(ts, 2h)|min(cpu)|\n"
              "'2024-05-01T06:00:00.000Z'|218|\n"
              "'2024-05-01T04:00:00.000Z'|212|");
    // Every partition, bucketed: GROUP BY names the partition key, then the bucket.
    EXPECT_EQ(Rendered("SELECT host, floor(ts, 4h), count(*) FROM ks.m GROUP BY host, "
                       "floor(ts, 4h) LIMIT 3"),
              "host|floor(ts, 4h)|count(*)|\n"
              "'a'|'2024-05-01T00:00:00.000Z'|12|\n"
              "'a'|'2024-05-01T04:00:00.000Z'|12|\n"
              "'b'|'2024-05-01T00:00:00.000Z'|12|");
    EXPECT_EQ(Rendered("SELECT count(*), sum(cpu) FROM ks.m WHERE cpu > 150 ALLOW FILTERING"),
              "count(*)|sum(cpu)|\n24|5076|");
    // An int time column: durations are seconds; an integer width is in the column's units.
    EXPECT_EQ(Rendered("SELECT floor(t, 1m), sum(v) FROM ks.n WHERE s = 'x' GROUP BY floor(t, 1m)"),
              "floor(t, 1m)|sum(v)|\n1714521600|3|\n1714521660|7|\n1714521720|18|\n1714521780|17|");
    EXPECT_EQ(Rendered("SELECT floor(t, 100) AS b, count(*) FROM ks.n WHERE s = 'x' "
                       "GROUP BY floor(t, 100)"),
              "b|count(*)|\n1714521600|4|\n1714521700|4|\n1714521800|2|");
  }

  void CheckWholeTableSelects() {
    EXPECT_EQ(Run("SELECT * FROM ks.m").rows.size(), 72u);
    EXPECT_EQ(Rendered("SELECT host AS h, cpu FROM ks.m LIMIT 2"), "h|cpu|\n'a'|0|\n'a'|1|");
  }

  TempDir dir_{"cql-aggregate"};
  std::unique_ptr<Database> db_;
  Table* metrics_ = nullptr;
  Table* seconds_ = nullptr;
};

TEST_P(CqlAggregateTest, InMemtableAndInFiles) {
  {
    SCOPED_TRACE("memtable");
    CheckAggregates();
    CheckWholeTableSelects();
  }
  FlushAndCompact();
  {
    SCOPED_TRACE("files");
    CheckAggregates();
    CheckWholeTableSelects();
  }
}

// A time bucket that would start below the smallest timestamp (or int) is labelled with it
// (the product overflowed before: undefined behaviour, caught by UBSan).
TEST_P(CqlAggregateTest, BucketsAtTheBottomOfTheRange) {
  Run("INSERT INTO ks.m (host, ts, cpu) VALUES ('z', -9223372036854775807, 1)");
  Run("INSERT INTO ks.m (host, ts, cpu) VALUES ('z', 0, 2)");
  EXPECT_EQ(Rendered("SELECT floor(ts, 3ms), count(*) FROM ks.m WHERE host = 'z' "
                     "GROUP BY floor(ts, 3ms)"),
            "floor(ts, 3ms)|count(*)|\n-9223372036854775808|1|\n'1970-01-01T00:00:00.000Z'|1|");
  Run("INSERT INTO ks.n (s, t, v) VALUES ('low', -2147483647, 1)");
  EXPECT_EQ(Rendered("SELECT floor(t, 1000), sum(v) FROM ks.n WHERE s = 'low' "
                     "GROUP BY floor(t, 1000)"),
            "floor(t, 1000)|sum(v)|\n-2147483648|1|");
}

TEST_P(CqlAggregateTest, RefusedWithTheReason) {
  const std::pair<const char*, const char*> kRefused[] = {
      {"SELECT host, cpu, count(*) FROM ks.m GROUP BY host", "'cpu' is neither aggregated"},
      {"SELECT count(*) FROM ks.m GROUP BY ts", "'ts' is not the next one"},
      {"SELECT * FROM ks.m GROUP BY host", "SELECT * with GROUP BY"},
      {"SELECT host FROM ks.m GROUP BY host", "GROUP BY needs an aggregate"},
      {"SELECT count(*) FROM ks.m WHERE host = 'a' GROUP BY floor(ts, 1mo)", "no fixed length"},
      {"SELECT count(*) FROM ks.m WHERE host = 'a' GROUP BY floor(ts, 0)", "must be positive"},
      {"SELECT count(*) FROM ks.m WHERE host = 'a' GROUP BY floor(ts, 1x)", "expected a unit"},
      {"SELECT count(*) FROM ks.m WHERE host = 'a' GROUP BY floor(ts, 1500us)",
       "not a whole number"},
      {"SELECT count(*) FROM ks.m GROUP BY floor(host, 1h)", "first clustering column"},
      {"SELECT ts, count(*) FROM ks.m WHERE host = 'a' GROUP BY floor(ts, 1h)",
       "select that floor()"},
      {"SELECT floor(ts, 2h), count(*) FROM ks.m WHERE host = 'a' GROUP BY floor(ts, 1h)",
       "another width"},
      {"SELECT floor(ts, 1h) FROM ks.m WHERE host = 'a'", "needs GROUP BY floor"},
      {"SELECT writetime(cpu), count(*) FROM ks.m", "cannot be selected with aggregates"},
      {"SELECT sum(region) FROM ks.m", "numeric"},
      {"SELECT count(nope) FROM ks.m", "unknown column 'nope'"},
      {"SELECT median(cpu) FROM ks.m", "unsupported function"},
      {"SELECT count(*) FROM ks.m WHERE cpu > 1", "ALLOW FILTERING"},
  };
  for (const auto& [cql, reason] : kRefused) {
    const Status s = Refused(cql);
    EXPECT_FALSE(s.ok()) << cql;
    EXPECT_NE(s.ToString().find(reason), std::string::npos) << cql << "\n" << s.ToString();
  }
}

INSTANTIATE_TEST_SUITE_P(BothFormats, CqlAggregateTest, test::BothFormats(), test::FormatParamName);

}  // namespace
}  // namespace columnar
