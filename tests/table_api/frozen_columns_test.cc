// Frozen collections and tuples through the Table API and CQL, on both formats: columns of
// every kind (list, set, map, tuple, nested) in regular, clustering (ASC and DESC) and
// partition key columns; INSERT, UPDATE, BATCH and Table::Insert; key equality, IN and ranges
// in Cassandra's order of frozen values; = and < filters with ALLOW FILTERING (pushdown on
// ColumnarTable files); SELECT JSON; COUNT and the refused aggregates; the same answers from
// the memtable, after a flush, after a compaction and after a reopen.
#include <gtest/gtest.h>

#include "table_format/frozen_value.h"
#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr int64_t kFrozenNowSeconds = 1'714'600'000;

std::string RowText(const Row& row) {
  std::string out;
  for (const Value& value : row) out += (out.empty() ? "" : " | ") + value.ToCqlLiteral();
  return out;
}

class FrozenColumnsTest : public ::testing::TestWithParam<TableFormat> {
 protected:
  void SetUp() override {
    options_.now_micros = clock_.Function();
    options_.default_storage.format = GetParam();
    Open();
    Run("CREATE TABLE ks.f (k frozen<tuple<int, text>>, c frozen<list<int>>, "
        "tags frozen<set<text>>, attrs frozen<map<text, int>>, pos tuple<double, double>, "
        "nest frozen<map<text, frozen<list<frozen<set<int>>>>>>, n int, PRIMARY KEY (k, c))");
    Run("CREATE TABLE ks.d (p int, c frozen<set<int>>, v text, PRIMARY KEY (p, c)) "
        "WITH CLUSTERING ORDER BY (c DESC)");
  }

  void Open() {
    const Status s = Database::Open(options_, dir_.path(), &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  ResultSet Run(const std::string& cql) {
    ResultSet result;
    const Status s = db_->Execute(cql, &result);
    EXPECT_TRUE(s.ok()) << cql << "\n" << s.ToString();
    return result;
  }

  std::vector<std::string> Rows(const std::string& cql) {
    std::vector<std::string> rows;
    for (const Row& row : Run(cql).rows) rows.push_back(RowText(row));
    return rows;
  }

  Status Refused(const std::string& cql) {
    ResultSet result;
    return db_->Execute(cql, &result);
  }

  void Load() {
    Run("INSERT INTO ks.f (k, c, tags, attrs, pos, nest, n) VALUES ((1, 'a'), [1, 2], "
        "{'b', 'a', 'b'}, {'y': 2, 'x': 1}, (1.5, -2.0), {'m': [{3, 1}, {}]}, 10)");
    Run("INSERT INTO ks.f (k, c, tags, attrs, n) VALUES ((1, 'a'), [1], {}, {}, 11)");
    Run("INSERT INTO ks.f (k, c, tags, n) VALUES ((1, 'a'), [2], {'a', 'b'}, 12)");
    Run("INSERT INTO ks.f (k, c, n) VALUES ((1, 'a'), [], 13)");
    Run("INSERT INTO ks.f (k, c, tags, pos) VALUES ((1, null), [0], {'z'}, (0.0, null))");
    Run("BEGIN BATCH INSERT INTO ks.f (k, c, n) VALUES ((2, 'b'), [5], 20); "
        "UPDATE ks.f SET attrs = {'q': 7} WHERE k = (2, 'b') AND c = [5]; APPLY BATCH");
    // UPDATE writes only the cells it names (tags keeps its value).
    Run("UPDATE ks.f SET n = 21, attrs = {'a': 0} WHERE k = (1, 'a') AND c = [2]");
    Table* table = test::MustGetTable(db_.get(), "ks.f");
    ASSERT_NE(table, nullptr);
    Value k, c, tags;
    const LogicalType k_type = table->schema()->FindColumn("k")->type;
    ASSERT_TRUE(EncodeFrozenValue(k_type, {Value::Int(3), Value::Text("c")}, &k).ok());
    ASSERT_TRUE(EncodeFrozenValue(table->schema()->FindColumn("c")->type,
                                  {Value::Int(9), Value::Int(-9)}, &c)
                    .ok());
    ASSERT_TRUE(EncodeFrozenValue(table->schema()->FindColumn("tags")->type,
                                  {Value::Text("t2"), Value::Text("t1")}, &tags)
                    .ok());
    const Status s = table->Insert(NamedRow{{"k", k}, {"c", c}, {"tags", tags}});
    ASSERT_TRUE(s.ok()) << s.ToString();
    Run("INSERT INTO ks.d (p, c, v) VALUES (1, {1, 2}, 'a')");
    Run("INSERT INTO ks.d (p, c, v) VALUES (1, {1}, 'b')");
    Run("INSERT INTO ks.d (p, c, v) VALUES (1, {2}, 'c')");
    Run("INSERT INTO ks.d (p, c, v) VALUES (1, {}, 'd')");
  }

  void Flush() {
    for (const char* name : {"ks.f", "ks.d"}) {
      Table* table = test::MustGetTable(db_.get(), name);
      ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), table->column_family()).ok());
    }
  }

  void Compact() {
    for (const char* name : {"ks.f", "ks.d"}) {
      Table* table = test::MustGetTable(db_.get(), name);
      rocksdb::CompactRangeOptions options;
      options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
      ASSERT_TRUE(db_->db()->CompactRange(options, table->column_family(), nullptr, nullptr).ok());
    }
  }

  void ExpectAnswers(const std::string& phase) {
    SCOPED_TRACE(phase);
    // Partitions in key order; clustering in Cassandra's list order: [] < [0]... shorter first.
    EXPECT_EQ(Rows("SELECT k, c, tags, attrs, pos, n FROM ks.f"),
              (std::vector<std::string>{
                  "(1, null) | [0] | {'z'} | null | (0, null) | null",
                  "(1, 'a') | [] | null | null | null | 13",
                  "(1, 'a') | [1] | {} | {} | null | 11",
                  "(1, 'a') | [1, 2] | {'a', 'b'} | {'x': 1, 'y': 2} | (1.5, -2) | 10",
                  "(1, 'a') | [2] | {'a', 'b'} | {'a': 0} | null | 21",
                  "(2, 'b') | [5] | null | {'q': 7} | null | 20",
                  "(3, 'c') | [9, -9] | {'t1', 't2'} | null | null | null",
              }));
    EXPECT_EQ(Rows("SELECT nest FROM ks.f WHERE k = (1, 'a') AND c = [1, 2]"),
              (std::vector<std::string>{"{'m': [{1, 3}, {}]}"}));
    EXPECT_EQ(Rows("SELECT c FROM ks.f WHERE k = (1, 'a') AND c IN ([2], [1], [7])"),
              (std::vector<std::string>{"[1]", "[2]"}));
    EXPECT_EQ(Rows("SELECT c FROM ks.f WHERE k = (1, 'a') AND c > [1] AND c <= [2]"),
              (std::vector<std::string>{"[1, 2]", "[2]"}));
    EXPECT_EQ(Rows("SELECT c, n FROM ks.f WHERE k IN ((2, 'b'), (3, 'c'))"),
              (std::vector<std::string>{"[5] | 20", "[9, -9] | null"}));
    EXPECT_EQ(Rows("SELECT c FROM ks.f WHERE k = (1, 'a') ORDER BY c DESC"),
              (std::vector<std::string>{"[2]", "[1, 2]", "[1]", "[]"}));
    // Filters on regular frozen columns compare canonical values: element order and
    // duplicates in the literal do not matter for sets and maps.
    EXPECT_EQ(Rows("SELECT c FROM ks.f WHERE tags = {'b', 'a', 'a'} ALLOW FILTERING"),
              (std::vector<std::string>{"[1, 2]", "[2]"}));
    EXPECT_EQ(Rows("SELECT c FROM ks.f WHERE attrs = {} ALLOW FILTERING"),
              (std::vector<std::string>{"[1]"}));
    EXPECT_EQ(Rows("SELECT c FROM ks.f WHERE attrs = {'y': 2, 'x': 1} ALLOW FILTERING"),
              (std::vector<std::string>{"[1, 2]"}));
    EXPECT_EQ(Rows("SELECT c FROM ks.f WHERE pos > (1.0, 5.0) ALLOW FILTERING"),
              (std::vector<std::string>{"[1, 2]"}));
    EXPECT_EQ(Rows("SELECT c FROM ks.f WHERE tags < {'a', 'c'} ALLOW FILTERING"),
              (std::vector<std::string>{"[1]", "[1, 2]", "[2]"}));
    EXPECT_EQ(Rows("SELECT c FROM ks.f WHERE tags IN ({'z'}, {}) ALLOW FILTERING"),
              (std::vector<std::string>{"[0]", "[1]"}));
    EXPECT_EQ(Rows("SELECT count(*), count(tags) FROM ks.f WHERE k = (1, 'a')"),
              (std::vector<std::string>{"4 | 3"}));
    EXPECT_EQ(Rows("SELECT JSON c, attrs, k FROM ks.f WHERE k = (1, 'a') AND c = [1, 2]"),
              (std::vector<std::string>{
                  "'{\"c\": [1, 2], \"attrs\": {\"x\": 1, \"y\": 2}, \"k\": [1, \"a\"]}'"}));
    // DESC clustering on a set column: reverse of {} < {1} < {1, 2} < {2}.
    EXPECT_EQ(Rows("SELECT c, v FROM ks.d WHERE p = 1"),
              (std::vector<std::string>{"{2} | 'c'", "{1, 2} | 'a'", "{1} | 'b'", "{} | 'd'"}));
    EXPECT_EQ(Rows("SELECT v FROM ks.d WHERE p = 1 AND c >= {1, 2}"),
              (std::vector<std::string>{"'c'", "'a'"}));
  }

  TempDir dir_{"frozen-columns"};
  test::ManualClock clock_{kFrozenNowSeconds * 1000000};
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
};

TEST_P(FrozenColumnsTest, SameAnswersFromMemtableFlushCompactionAndReopen) {
  Load();
  ExpectAnswers("memtable");
  Flush();
  ExpectAnswers("flushed");
  Compact();
  ExpectAnswers("compacted");
  db_.reset();
  Open();
  ExpectAnswers("reopened");
  // The schema (stored with CQL type names) survived the reopen.
  const std::string cql = test::MustGetTable(db_.get(), "ks.f")->schema()->ToCql();
  EXPECT_NE(cql.find("nest frozen<map<text, frozen<list<frozen<set<int>>>>>>"), std::string::npos)
      << cql;
}

TEST_P(FrozenColumnsTest, BadLiteralsAndUnsupportedOperationsAreRefusedWithTheirPosition) {
  Load();
  const std::string before = test::DatabaseFingerprint(db_.get());
  Status s = Refused("INSERT INTO ks.f (k, c, n) VALUES ((1, 'a'), [1, 'x'], 1)");
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(s.ToString(),
            "Invalid argument: table ks.f: column 'c': invalid frozen<list<int>> literal [1, "
            "'x']: element 2: invalid int literal 'x': expected a 32-bit integer (near string "
            "'x') at line 1, column 46 (near '[')");
  s = Refused("UPDATE ks.f SET tags = {'a': 1} WHERE k = (1, 'a') AND c = [1]");
  EXPECT_NE(s.ToString().find("column 'tags': invalid frozen<set<text>> literal {'a': 1}: "
                              "expected ',' or '}' after element 1 of a frozen<set<text>> "
                              "literal (near ':') at line 1, column 24"),
            std::string::npos)
      << s.ToString();
  s = Refused("INSERT INTO ks.f (k, c) VALUES ((1, 'a'), [1, null])");
  EXPECT_NE(s.ToString().find("null is not allowed inside a collection"), std::string::npos);
  s = Refused("INSERT INTO ks.f (k, c) VALUES ((1, 'a'), [1, 2)");
  EXPECT_NE(s.ToString().find("expected ']' to close the collection literal"), std::string::npos)
      << s.ToString();
  s = Refused("SELECT c FROM ks.f WHERE tags CONTAINS 'a' ALLOW FILTERING");
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("CONTAINS and CONTAINS KEY are not supported: a frozen collection "
                              "is compared as a whole (=, IN, <, >) at line 1, column 31"),
            std::string::npos)
      << s.ToString();
  s = Refused("SELECT max(tags) FROM ks.f");
  EXPECT_NE(s.ToString().find("max() is not supported on column 'tags' of type "
                              "frozen<set<text>> (collections and tuples: count() only)"),
            std::string::npos)
      << s.ToString();
  EXPECT_TRUE(Refused("SELECT sum(attrs) FROM ks.f").IsInvalidArgument());
  EXPECT_TRUE(Refused("SELECT avg(pos) FROM ks.f").IsInvalidArgument());
  EXPECT_EQ(test::DatabaseFingerprint(db_.get()), before);
}

INSTANTIATE_TEST_SUITE_P(BothFormats, FrozenColumnsTest, test::BothFormats(),
                         test::FormatParamName);

}  // namespace
}  // namespace columnar
