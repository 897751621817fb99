// Database::Execute end to end with the source documents' statements: the CREATE TABLEs of
// metrics.v2metrics5 (002_..., with its storage options) and logs.access16 (000_...), INSERTs
// with USING TTL / TIMESTAMP, and the SELECTs of 000_... (latest request, time ranges over
// `day IN (...)`) written with concrete literals; ORDER BY, writetime(), DELETE and ALTER.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

using test::ManualClock;

constexpr int64_t kCqlNowSeconds = 1'714'600'000;  // 2024-05-01T21:46:40Z
constexpr int32_t kMay1 = 19844;                   // 2024-05-01 in days since the epoch
constexpr int64_t kMay1Millis = int64_t{kMay1} * 86'400'000;

const char kAllAccessColumns[] =
    "time, method, path, status, user_agent, client_ip, country, referrer, latency_ms, "
    "request_id, trace_id, user_id, host, protocol, content_type, bytes_sent, error_message";

class TableApiCqlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_.now_micros = clock_.Function();
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
  }

  ResultSet Run(const std::string& cql) {
    ResultSet result;
    const Status s = db_->Execute(cql, &result);
    EXPECT_TRUE(s.ok()) << cql << "\n" << s.ToString();
    return result;
  }

  // Requests of instance i-1 on May 1st and 2nd, every 5 s from 10:00 for 12 rows a day;
  // status 500 on every fourth row; user_id unset on odd rows.
  void LoadAccessLogs() {
    Run(test::Access16TableCql());
    for (int day = 0; day < 2; day++) {
      for (int i = 0; i < 12; i++) {
        const int64_t time = kMay1Millis + day * 86'400'000LL + 36'000'000 + i * 5000;
        const std::string user = i % 2 == 1 ? "null" : "'user-" + std::to_string(i) + "'";
        Run("INSERT INTO logs.access16 (orgid, service, instance, day, time, method, path, "
            "status, latency_ms, user_id, bytes_sent, error_message) VALUES ('org-1', 'api', "
            "'i-1', '2024-05-0" +
            std::to_string(day + 1) + "', " + std::to_string(time) + ", 'GET', '/v1/items', " +
            (i % 4 == 0 ? "500" : "200") + ", " + std::to_string(10 + i) + ", " + user +
            ", 1024, " + (i % 4 == 0 ? "'upstream timeout'" : "null") + ")");
      }
    }
  }

  TempDir dir_{"table-api-cql"};
  ManualClock clock_{kCqlNowSeconds * 1000000};
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
};

TEST_F(TableApiCqlTest, MetricsTableFromTheSourceDocument) {
  Run(test::MetricsTableCql());
  Table* table = test::MustGetTable(db_.get(), "metrics.v2metrics5");
  EXPECT_STREQ(table->table_factory()->Name(), kColumnarTableName);  // sstable_format
  EXPECT_EQ(table->schema()->options().default_time_to_live, 2592000);
  EXPECT_EQ(table->schema()->options().column_encodings.at("value"), "alp");

  const std::string key = "orgid = 'org-1' AND clusterhash = -7 AND metricid = 9000000000";
  const std::string insert =
      "INSERT INTO metrics.v2metrics5 (orgid, clusterhash, metricid, time, value) "
      "VALUES ('org-1', -7, 9000000000, ";
  Run(insert + "1714600000, 12.5) USING TTL 100 AND TIMESTAMP 1714600000123456;");
  Run(insert + "1714600005, -Infinity) USING TIMESTAMP 1714600005000001 AND TTL 200");
  Run(insert + "1714600010, NaN)");
  Run(insert + "1714600015, -NaN)");
  Run(insert + "1714600020, 1.5e-3)");

  ResultSet latest = Run("SELECT time, value FROM metrics.v2metrics5 WHERE " + key + " LIMIT 1");
  ASSERT_EQ(latest.rows.size(), 1u);
  EXPECT_EQ(latest.rows[0], (Row{Value::Int(1714600020), Value::Float(1.5e-3f)}));

  ResultSet range =
      Run("SELECT time, value, writetime(value), ttl(value) FROM "
          "metrics.v2metrics5 WHERE " +
          key + " AND time > 1714600000 AND time <= 1714600015 ORDER BY time ASC");
  EXPECT_EQ(range.column_names,
            (std::vector<std::string>{"time", "value", "writetime(value)", "ttl(value)"}));
  ASSERT_EQ(range.rows.size(), 3u);
  EXPECT_EQ(range.rows[0],
            (Row{Value::Int(1714600005), Value::Float(-std::numeric_limits<float>::infinity()),
                 Value::BigInt(1714600005000001), Value::Int(200)}));
  EXPECT_TRUE(std::isnan(range.rows[1][1].float_value()));
  EXPECT_FALSE(std::signbit(range.rows[1][1].float_value()));
  EXPECT_TRUE(std::signbit(range.rows[2][1].float_value()));
  // The table's server clock is monotonic (max(now, previous + 1) microseconds): this row is
  // one of the few written while the clock stood still.
  EXPECT_GE(static_cast<int64_t>(range.rows[1][2].FixedBits()), clock_.now_micros());
  EXPECT_LT(static_cast<int64_t>(range.rows[1][2].FixedBits()), clock_.now_micros() + 100);
  EXPECT_EQ(range.rows[1][3], Value::Int(2592000));  // the table's default_time_to_live

  // The TTL 100 row disappears once its expiry passes.
  clock_.AdvanceSeconds(100);
  ResultSet oldest =
      Run("SELECT time FROM metrics.v2metrics5 WHERE " + key + " ORDER BY time ASC LIMIT 1");
  EXPECT_EQ(oldest.rows, (std::vector<Row>{{Value::Int(1714600005)}}));

  Run("DELETE FROM metrics.v2metrics5 WHERE " + key + " AND time = 1714600005");
  EXPECT_EQ(Run("SELECT time FROM metrics.v2metrics5 WHERE " + key).rows.size(), 3u);
  Run("DELETE FROM metrics.v2metrics5 WHERE " + key);
  EXPECT_TRUE(Run("SELECT * FROM metrics.v2metrics5 WHERE " + key).rows.empty());
}

TEST_F(TableApiCqlTest, AccessLogQueriesFromTheSourceDocument) {
  LoadAccessLogs();
  Table* table = test::MustGetTable(db_.get(), "logs.access16");
  EXPECT_STREQ(table->table_factory()->Name(), "ColumnarTable");  // the default storage
  ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), table->column_family()).ok());

  // Latest request.
  ResultSet latest = Run(std::string("SELECT ") + kAllAccessColumns +
                         "\nFROM logs.access16\n"
                         "WHERE orgid = 'org-1' AND service = 'api' AND instance = 'i-1' AND "
                         "day = '2024-05-02'\nLIMIT 1;");
  ASSERT_EQ(latest.rows.size(), 1u);
  EXPECT_EQ(latest.column_names.size(), 17u);
  EXPECT_EQ(latest.rows[0][0], Value::Timestamp(kMay1Millis + 86'400'000 + 36'000'000 + 55'000));
  EXPECT_EQ(latest.rows[0][1], Value::Ascii("GET"));
  EXPECT_EQ(latest.rows[0][8], Value::Int(21));
  EXPECT_EQ(latest.rows[0][11], Value());  // user_id unset on odd rows
  EXPECT_EQ(latest.rows[0][4], Value());   // user_agent never set

  // A range over two daily partitions: each partition newest first, days in ascending order.
  ResultSet range =
      Run(std::string("SELECT ") + kAllAccessColumns +
          " FROM logs.access16 WHERE orgid = 'org-1' AND service = 'api' AND instance = 'i-1' "
          "  AND day IN ('2024-05-01', '2024-05-02') AND time <= '2024-05-02T10:00:20Z' "
          "AND time > '2024-05-01T10:00:30.000Z'");
  ASSERT_EQ(range.rows.size(), 5u + 5u);
  EXPECT_EQ(range.rows[0][0], Value::Timestamp(kMay1Millis + 36'000'000 + 55'000));
  EXPECT_EQ(range.rows[4][0], Value::Timestamp(kMay1Millis + 36'000'000 + 35'000));
  EXPECT_EQ(range.rows[5][0], Value::Timestamp(kMay1Millis + 86'400'000 + 36'000'000 + 20'000));
  EXPECT_EQ(range.rows[9][0], Value::Timestamp(kMay1Millis + 86'400'000 + 36'000'000));

  // The same query through the Table API gives the same rows.
  SelectQuery query;
  query.partition_key = {{Value::Text("org-1")},
                         {Value::Text("api")},
                         {Value::Text("i-1")},
                         {Value::Date(kMay1 + 1), Value::Date(kMay1)}};
  query.lower_bound = ClusteringBound{Value::Timestamp(kMay1Millis + 36'030'000), false};
  query.upper_bound =
      ClusteringBound{Value::Timestamp(kMay1Millis + 86'400'000 + 36'020'000), true};
  query.columns = std::vector<std::string>(range.column_names);
  ResultSet api;
  ASSERT_TRUE(table->Select(query, &api).ok());
  EXPECT_EQ(SerializeRows(api), SerializeRows(range));

  // Oldest first with ORDER BY ... ASC (the reverse of the table's DESC order).
  ResultSet oldest =
      Run("SELECT time, status, error_message FROM logs.access16 WHERE orgid = 'org-1' AND "
          "service = 'api' AND instance = 'i-1' AND day = '2024-05-01' ORDER BY time ASC LIMIT 2");
  EXPECT_EQ(
      oldest.rows,
      (std::vector<Row>{{Value::Timestamp(kMay1Millis + 36'000'000), Value::Int(500),
                         Value::Text("upstream timeout")},
                        {Value::Timestamp(kMay1Millis + 36'005'000), Value::Int(200), Value()}}));
}

TEST_F(TableApiCqlTest, SchemaChangesAndIdentifiers) {
  Run("CREATE TABLE IF NOT EXISTS ks.\"Mixed\" (\"Key\" text, n int, PRIMARY KEY (\"Key\")) "
      "WITH sstable_format = 'block_based'");
  EXPECT_STREQ(test::MustGetTable(db_.get(), "ks.Mixed")->table_factory()->Name(),
               "BlockBasedTable");  // sstable_format overrides the default storage
  Run("CREATE TABLE IF NOT EXISTS ks.\"Mixed\" (other int PRIMARY KEY)");  // kept as it is
  Run("INSERT INTO ks.\"Mixed\" (\"Key\", n) VALUES ('a', 1) -- a comment");
  Run("ALTER TABLE ks.\"Mixed\" ADD extra blob");
  Run("INSERT INTO \"Mixed\" (\"Key\", n, extra) VALUES ('b', 2, 0xcafe)");
  ResultSet a = Run("SELECT * FROM ks.\"Mixed\" WHERE \"Key\" = 'a'");
  EXPECT_EQ(a.column_names, (std::vector<std::string>{"Key", "n", "extra"}));
  EXPECT_EQ(a.rows, (std::vector<Row>{{Value::Text("a"), Value::Int(1), Value()}}));
  ResultSet b = Run("SELECT extra, n FROM ks.\"Mixed\" WHERE \"Key\" IN ('b', 'a', 'b')");
  EXPECT_EQ(b.rows, (std::vector<Row>{{Value(), Value::Int(1)},
                                      {Value::Blob(std::string("\xca\xfe", 2)), Value::Int(2)}}));
  Run("ALTER TABLE ks.\"Mixed\" DROP n");
  ResultSet dropped;
  EXPECT_TRUE(
      db_->Execute("SELECT n FROM ks.\"Mixed\" WHERE \"Key\" = 'a'", &dropped).IsInvalidArgument());

  db_.reset();
  ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
  b = Run("SELECT * FROM ks.\"Mixed\" WHERE \"Key\" = 'b';");
  EXPECT_EQ(b.rows,
            (std::vector<Row>{{Value::Text("b"), Value::Blob(std::string("\xca\xfe", 2))}}));
  EXPECT_STREQ(test::MustGetTable(db_.get(), "ks.Mixed")->table_factory()->Name(),
               "BlockBasedTable");  // the stored storage, not the default
}

// IN may restrict any partition key column, as in Cassandra: the query reads every
// combination of the values (here 2 x 2 x 2 partitions, two of them holding rows).
TEST_F(TableApiCqlTest, InOnEveryPartitionKeyColumn) {
  LoadAccessLogs();
  const ResultSet all =
      Run("SELECT day, time FROM logs.access16 WHERE orgid IN ('org-0', 'org-1') AND service = "
          "'api' AND instance IN ('i-1', 'i-2') AND day IN ('2024-05-02', '2024-05-01')");
  ASSERT_EQ(all.rows.size(), 24u);
  // Partitions in key order (day ascending), each in its clustering order (time descending).
  EXPECT_EQ(all.rows.front()[0], Value::Date(kMay1));
  EXPECT_EQ(all.rows.front()[1], Value::Timestamp(kMay1Millis + 36'000'000 + 11 * 5000));
  EXPECT_EQ(all.rows.back()[0], Value::Date(kMay1 + 1));
  const ResultSet one =
      Run("SELECT count(*) FROM logs.access16 WHERE orgid IN ('org-1') AND service IN ('api', "
          "'web') AND instance = 'i-1' AND day = '2024-05-02'");
  EXPECT_EQ(one.rows.at(0).at(0), Value::BigInt(12));
}

}  // namespace
}  // namespace columnar
