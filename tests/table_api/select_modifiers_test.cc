// PER PARTITION LIMIT, SELECT DISTINCT and SELECT JSON, through the Table API and CQL, on both
// formats, with rows in the memtable and in compacted files (where the columnar scan path
// serves them), against what the same query returns without the modifier (the model: the
// first n rows of each partition, in query order, then LIMIT).
#include <gtest/gtest.h>

#include <map>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr int64_t kModifiersNowSeconds = 1'714'600'000;
constexpr int kSensors = 5;
constexpr int kRowsPerSensor = 300;  // several 128-row groups per partition

class SelectModifiersTest : public ::testing::TestWithParam<TableFormat> {
 protected:
  void SetUp() override {
    options_.now_micros = clock_.Function();
    options_.default_storage.format = GetParam();
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    Run("CREATE TABLE ks.events (sensor text, day int, ts bigint, temp double, note text, "
        "PRIMARY KEY ((sensor, day), ts)) WITH CLUSTERING ORDER BY (ts DESC)");
    table_ = test::MustGetTable(db_.get(), "ks.events");
  }

  ResultSet Run(const std::string& cql) {
    ResultSet result;
    const Status s = db_->Execute(cql, &result);
    EXPECT_TRUE(s.ok()) << cql << "\n" << s.ToString();
    return result;
  }

  Status Refused(const std::string& cql) {
    ResultSet result;
    return db_->Execute(cql, &result);
  }

  // Sensors s0..s4, two days each; sensor s3 has no rows on day 2. temp rises with ts.
  void Load(bool compact) {
    for (int sensor = 0; sensor < kSensors; sensor++) {
      for (int day = 1; day <= 2; day++) {
        if (sensor == 3 && day == 2) continue;
        for (int i = 0; i < kRowsPerSensor; i++) {
          NamedRow row{{"sensor", Value::Text("s" + std::to_string(sensor))},
                       {"day", Value::Int(day)},
                       {"ts", Value::BigInt(day * 100000 + i)},
                       {"temp", Value::Double(i * 0.5)}};
          if (i % 7 == 0) row.emplace("note", Value::Text("n" + std::to_string(i)));
          ASSERT_TRUE(table_->Insert(row).ok());
        }
      }
    }
    if (compact) {
      rocksdb::CompactRangeOptions options;
      options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
      ASSERT_TRUE(db_->db()->CompactRange(options, table_->column_family(), nullptr, nullptr).ok());
    }
  }

  // The model: `full` (the query without the modifiers) cut to the first `per_partition` rows
  // of each partition (the first two columns name it), then to `limit` rows (0 = all).
  static std::vector<Row> FirstRowsOfEachPartition(const ResultSet& full, size_t per_partition,
                                                   size_t limit) {
    std::vector<Row> rows;
    std::map<std::pair<std::string, int32_t>, size_t> seen;
    for (const Row& row : full.rows) {
      size_t& count = seen[{row[0].bytes(), row[1].int32_value()}];
      if (count++ >= per_partition) continue;
      if (limit != 0 && rows.size() >= limit) break;
      rows.push_back(row);
    }
    return rows;
  }

  void ExpectSameRows(const std::vector<Row>& expected, const ResultSet& actual,
                      const std::string& what) {
    ASSERT_EQ(actual.rows.size(), expected.size()) << what;
    for (size_t i = 0; i < expected.size(); i++) {
      EXPECT_EQ(actual.rows[i], expected[i]) << what << ", row " << i;
    }
  }

  // Every query shape with PER PARTITION LIMIT, through both read paths.
  void CheckPerPartitionLimit() {
    struct Case {
      SelectQuery query;
      std::string name;
    };
    std::vector<Case> cases;
    SelectQuery whole;
    whole.columns = {"sensor", "day", "ts", "temp", "note"};
    cases.push_back({whole, "whole table"});
    SelectQuery listed = whole;
    listed.partition_key = {{Value::Text("s1"), Value::Text("s3"), Value::Text("s4")},
                            {Value::Int(1), Value::Int(2)}};
    cases.push_back({listed, "IN on both partition key columns"});
    SelectQuery reversed = listed;
    reversed.reversed = true;
    cases.push_back({reversed, "reversed"});
    SelectQuery filtered = whole;
    filtered.filter = Predicate::Compare("temp", CompareOp::kGe, Value::Double(100));
    cases.push_back({filtered, "whole table with a filter"});
    SelectQuery filtered_listed = listed;
    filtered_listed.filter = Predicate::Compare("note", CompareOp::kGe, Value::Text("n2"));
    cases.push_back({filtered_listed, "listed with a filter"});
    for (const Case& c : cases) {
      for (bool columnar : {true, false}) {
        SelectQuery full = c.query;
        full.allow_columnar_scan = columnar;
        ResultSet all;
        ASSERT_TRUE(table_->Select(full, &all).ok()) << c.name;
        ASSERT_FALSE(all.rows.empty()) << c.name;
        for (uint64_t per_partition : {1u, 3u, 200u, 1000u}) {
          for (uint64_t limit : {0u, 1u, 7u, 450u}) {
            SelectQuery query = full;
            query.per_partition_limit = per_partition;
            query.limit = limit;
            ResultSet result;
            ASSERT_TRUE(table_->Select(query, &result).ok());
            ExpectSameRows(FirstRowsOfEachPartition(all, per_partition, limit), result,
                           c.name + (columnar ? " (columnar)" : " (rows)") + ", per partition " +
                               std::to_string(per_partition) + ", limit " + std::to_string(limit));
          }
        }
      }
    }
  }

  TempDir dir_{"select-modifiers"};
  test::ManualClock clock_{kModifiersNowSeconds * 1000000};
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
  Table* table_ = nullptr;
};

TEST_P(SelectModifiersTest, PerPartitionLimitInTheMemtable) {
  Load(/*compact=*/false);
  CheckPerPartitionLimit();
}

TEST_P(SelectModifiersTest, PerPartitionLimitInCompactedFiles) {
  Load(/*compact=*/true);
  CheckPerPartitionLimit();
  // Newer versions of some rows in the memtable over the compacted ones.
  for (int i = 0; i < kRowsPerSensor; i += 3) {
    ASSERT_TRUE(table_
                    ->Insert(NamedRow{{"sensor", Value::Text("s1")},
                                      {"day", Value::Int(1)},
                                      {"ts", Value::BigInt(100000 + i)},
                                      {"temp", Value::Double(-1)}})
                    .ok());
  }
  CheckPerPartitionLimit();
}

TEST_P(SelectModifiersTest, PerPartitionLimitWithAggregatesIsRefused) {
  SelectQuery query;
  query.aggregates = {Aggregate{}};
  query.per_partition_limit = 1;
  ResultSet result;
  EXPECT_TRUE(table_->Select(query, &result).IsInvalidArgument());
  const Status s = Refused("SELECT count(*) FROM ks.events PER PARTITION LIMIT 2");
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("line 1, column 32"), std::string::npos) << s.ToString();
}

TEST_P(SelectModifiersTest, CqlPerPartitionLimit) {
  Load(/*compact=*/true);
  const ResultSet result =
      Run("SELECT sensor, day, ts FROM ks.events WHERE sensor IN ('s2', 's1') AND day = 1 "
          "PER PARTITION LIMIT 2 LIMIT 3");
  ASSERT_EQ(result.rows.size(), 3u);
  // Partitions in ascending key order (s1 before s2, as Cassandra sorts IN values), each
  // newest first (DESC), two rows each, three in all.
  EXPECT_EQ(result.rows[0], (Row{Value::Text("s1"), Value::Int(1), Value::BigInt(100299)}));
  EXPECT_EQ(result.rows[1], (Row{Value::Text("s1"), Value::Int(1), Value::BigInt(100298)}));
  EXPECT_EQ(result.rows[2], (Row{Value::Text("s2"), Value::Int(1), Value::BigInt(100299)}));
  EXPECT_EQ(Run("SELECT ts FROM ks.events PER PARTITION LIMIT 1").rows.size(), 9u);
  EXPECT_TRUE(Refused("SELECT ts FROM ks.events PER PARTITION LIMIT 0").IsInvalidArgument());
  EXPECT_TRUE(Refused("SELECT ts FROM ks.events PER LIMIT 1").IsInvalidArgument());
}

// Cassandra reads the partitions of an IN in ascending key order, whatever the clustering
// order: LIMIT 1 on this DESC table gives the newest row of the first (oldest) day.
TEST_P(SelectModifiersTest, MultiPartitionInWithLimitInCassandrasOrder) {
  Load(/*compact=*/false);
  const ResultSet result =
      Run("SELECT day, ts FROM ks.events WHERE sensor = 's0' AND day IN (2, 1) LIMIT 1");
  ASSERT_EQ(result.rows.size(), 1u);
  EXPECT_EQ(result.rows[0], (Row{Value::Int(1), Value::BigInt(100299)}));
}

// IN on a clustering column: each partition's rows with one of the values, in clustering
// order (or reversed), partitions in key order; with PER PARTITION LIMIT and LIMIT.
TEST_P(SelectModifiersTest, InOnAClusteringColumn) {
  Load(/*compact=*/true);
  ASSERT_TRUE(table_
                  ->Insert(NamedRow{{"sensor", Value::Text("s1")},
                                    {"day", Value::Int(1)},
                                    {"ts", Value::BigInt(100005)},
                                    {"temp", Value::Double(-5)}})
                  .ok());  // a newer version in the memtable
  for (bool columnar : {true, false}) {
    SelectQuery query;
    query.partition_key = {{Value::Text("s1"), Value::Text("s0")}, {Value::Int(1)}};
    query.clustering_in = {Value::BigInt(100005), Value::BigInt(100007), Value::BigInt(999),
                           Value::BigInt(100005), Value::BigInt(100200)};
    query.columns = {"sensor", "ts", "temp"};
    query.allow_columnar_scan = columnar;
    ResultSet result;
    ASSERT_TRUE(table_->Select(query, &result).ok());
    // s0 before s1; ts DESC within each; 999 matches nothing; 100005 once.
    const std::vector<Row> expected = {
        {Value::Text("s0"), Value::BigInt(100200), Value::Double(100)},
        {Value::Text("s0"), Value::BigInt(100007), Value::Double(3.5)},
        {Value::Text("s0"), Value::BigInt(100005), Value::Double(2.5)},
        {Value::Text("s1"), Value::BigInt(100200), Value::Double(100)},
        {Value::Text("s1"), Value::BigInt(100007), Value::Double(3.5)},
        {Value::Text("s1"), Value::BigInt(100005), Value::Double(-5)}};
    ExpectSameRows(expected, result, columnar ? "IN (columnar)" : "IN (rows)");
    query.reversed = true;
    ASSERT_TRUE(table_->Select(query, &result).ok());
    ExpectSameRows({expected[2], expected[1], expected[0], expected[5], expected[4], expected[3]},
                   result, "IN reversed");
    query.reversed = false;
    query.per_partition_limit = 2;
    query.limit = 3;
    ASSERT_TRUE(table_->Select(query, &result).ok());
    ExpectSameRows({expected[0], expected[1], expected[3]}, result, "IN with limits");
  }
  const ResultSet cql =
      Run("SELECT ts FROM ks.events WHERE sensor = 's2' AND day = 2 AND ts IN (200001, 200000) "
          "ORDER BY ts ASC");
  ExpectSameRows({{Value::BigInt(200000)}, {Value::BigInt(200001)}}, cql, "CQL IN, ASC");
  EXPECT_TRUE(
      Refused("SELECT ts FROM ks.events WHERE sensor = 's2' AND day = 2 AND ts IN (1) AND ts > 0")
          .IsInvalidArgument());
  SelectQuery bounded;
  bounded.partition_key = {{Value::Text("s1")}, {Value::Int(1)}};
  bounded.clustering_in = {Value::BigInt(1)};
  bounded.lower_bound = ClusteringBound{Value::BigInt(0), true};
  ResultSet ignored;
  EXPECT_TRUE(table_->Select(bounded, &ignored).IsInvalidArgument());
}

TEST_P(SelectModifiersTest, Distinct) {
  Load(/*compact=*/true);
  ASSERT_TRUE(Run("DELETE FROM ks.events WHERE sensor = 's2' AND day = 2").rows.empty());
  const ResultSet all = Run("SELECT DISTINCT sensor, day FROM ks.events");
  std::vector<Row> expected;
  for (int sensor = 0; sensor < kSensors; sensor++) {
    for (int day = 1; day <= 2; day++) {
      if ((sensor == 3 || sensor == 2) && day == 2) continue;
      expected.push_back({Value::Text("s" + std::to_string(sensor)), Value::Int(day)});
    }
  }
  ExpectSameRows(expected, all, "DISTINCT over the whole table");
  const ResultSet swapped =
      Run("SELECT DISTINCT day, sensor FROM ks.events WHERE sensor IN ('s3', 's1') AND day IN "
          "(1, 2)");
  ExpectSameRows({{Value::Int(1), Value::Text("s1")},
                  {Value::Int(2), Value::Text("s1")},
                  {Value::Int(1), Value::Text("s3")}},
                 swapped, "DISTINCT of listed partitions, columns swapped");
  EXPECT_EQ(Run("SELECT DISTINCT sensor, day FROM ks.events LIMIT 4").rows.size(), 4u);
  // A column named like the keyword is still a column.
  Run("CREATE TABLE ks.words (distinct int PRIMARY KEY, json text)");
  Run("INSERT INTO ks.words (distinct, json) VALUES (1, 'x')");
  EXPECT_EQ(Run("SELECT distinct, json FROM ks.words").rows.at(0),
            (Row{Value::Int(1), Value::Text("x")}));
}

TEST_P(SelectModifiersTest, DistinctRefusals) {
  const char* const kRefused[] = {
      "SELECT DISTINCT * FROM ks.events",
      "SELECT DISTINCT sensor FROM ks.events",
      "SELECT DISTINCT sensor, day, ts FROM ks.events",
      "SELECT DISTINCT sensor, day FROM ks.events WHERE sensor = 'a' AND day = 1 AND ts > 3",
      "SELECT DISTINCT sensor, day FROM ks.events WHERE temp > 3 ALLOW FILTERING",
      "SELECT DISTINCT sensor, writetime(temp) FROM ks.events",
  };
  for (const char* cql : kRefused) {
    const Status s = Refused(cql);
    EXPECT_TRUE(s.IsInvalidArgument()) << cql << ": " << s.ToString();
    EXPECT_NE(s.ToString().find("DISTINCT"), std::string::npos) << s.ToString();
    EXPECT_NE(s.ToString().find("line 1, column"), std::string::npos) << s.ToString();
  }
}

TEST_P(SelectModifiersTest, Json) {
  Run("CREATE TABLE ks.typed (k int PRIMARY KEY, t text, ts timestamp, d date, b blob, "
      "ok boolean, f float, n bigint)");
  Run("INSERT INTO ks.typed (k, t, ts, d, b, ok, f, n) VALUES (1, 'say \"hi\"\n', "
      "'2024-05-01 10:00:05.250Z', '2024-05-01', 0xcafe, true, 1.5, -9000000000)");
  Run("INSERT INTO ks.typed (k, f) VALUES (2, NaN)");
  const ResultSet result = Run("SELECT JSON * FROM ks.typed");
  ASSERT_EQ(result.column_names, std::vector<std::string>{"[json]"});
  ASSERT_EQ(result.rows.size(), 2u);
  // Columns as SELECT * lists them: key columns, then regular columns in definition order.
  EXPECT_EQ(result.rows[0][0].bytes(),
            "{\"k\": 1, \"t\": \"say \\\"hi\\\"\\n\", \"ts\": \"2024-05-01 10:00:05.250Z\", "
            "\"d\": \"2024-05-01\", \"b\": \"0xcafe\", \"ok\": true, \"f\": 1.5, "
            "\"n\": -9000000000}");
  EXPECT_EQ(result.rows[1][0].bytes(),
            "{\"k\": 2, \"t\": null, \"ts\": null, \"d\": null, \"b\": null, \"ok\": null, "
            "\"f\": \"NaN\", \"n\": null}");
  const ResultSet aliased = Run("SELECT JSON k AS key, writetime(t) FROM ks.typed WHERE k = 2");
  ASSERT_EQ(aliased.rows.size(), 1u);
  EXPECT_EQ(aliased.rows[0][0].bytes(), "{\"key\": 2, \"writetime(t)\": null}");
  const ResultSet count = Run("SELECT JSON count(*) FROM ks.typed");
  EXPECT_EQ(count.rows.at(0).at(0).bytes(), "{\"count(*)\": 2}");
}

INSTANTIATE_TEST_SUITE_P(BothFormats, SelectModifiersTest, test::BothFormats(),
                         test::FormatParamName);

}  // namespace
}  // namespace columnar
