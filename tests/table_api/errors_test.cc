// Bad input through the Table API and through Execute: each call gives its own error, naming
// the problem, and writes nothing (the database's sequence number and contents are unchanged).
#include <gtest/gtest.h>

#include <functional>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

enum class Code { kInvalidArgument, kNotSupported, kNotFound };

struct ErrorCase {
  std::string name;
  std::function<Status()> call;
  Code code;
  std::string message;  // a substring of the status message
};

bool HasCode(const Status& s, Code code) {
  switch (code) {
    case Code::kInvalidArgument:
      return s.IsInvalidArgument();
    case Code::kNotSupported:
      return s.IsNotSupported();
    case Code::kNotFound:
      return s.IsNotFound();
  }
  return false;
}

class TableApiErrorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Database::Open(DatabaseOptions(), dir_.path(), &db_).ok());
    ASSERT_TRUE(db_->CreateTable(test::Access16TableCql(), test::ColumnarStorage(), &access_).ok());
    ASSERT_TRUE(db_->CreateTable("CREATE TABLE ks.t (p int, c1 int, c2 text, v text, u uuid, "
                                 "PRIMARY KEY (p, c1, c2))",
                                 test::BlockBasedStorage(), &table_)
                    .ok());
    ASSERT_TRUE(table_->Insert(Good()).ok());
  }

  static NamedRow Good() {
    return NamedRow{{"p", Value::Int(1)}, {"c1", Value::Int(2)}, {"c2", Value::Text("x")}};
  }
  static NamedRow With(const std::string& column, Value value) {
    NamedRow row = Good();
    row[column] = std::move(value);
    return row;
  }
  static NamedRow Without(const std::string& column) {
    NamedRow row = Good();
    row.erase(column);
    return row;
  }
  static RowWriteOptions Ttl(int64_t ttl) {
    return RowWriteOptions{std::nullopt, ttl, std::nullopt};
  }

  void ExpectAllFailCleanly(const std::vector<ErrorCase>& cases) {
    for (const ErrorCase& error : cases) {
      const std::string before = test::DatabaseFingerprint(db_.get());
      const Status s = error.call();
      EXPECT_TRUE(HasCode(s, error.code)) << error.name << ": " << s.ToString();
      EXPECT_NE(s.ToString().find(error.message), std::string::npos)
          << error.name << ": " << s.ToString();
      EXPECT_EQ(test::DatabaseFingerprint(db_.get()), before) << error.name;
    }
  }

  Status Execute(const std::string& cql) {
    ResultSet result;
    return db_->Execute(cql, &result);
  }

  TempDir dir_{"table-api-errors"};
  std::unique_ptr<Database> db_;
  Table* access_ = nullptr;
  Table* table_ = nullptr;
};

TEST_F(TableApiErrorsTest, Writes) {
  const Code kInvalid = Code::kInvalidArgument;
  ExpectAllFailCleanly({
      {"unknown column", [&] { return table_->Insert(With("nope", Value::Int(1))); }, kInvalid,
       "table ks.t: unknown column 'nope'"},
      {"wrong type", [&] { return table_->Insert(With("v", Value::Int(1))); }, kInvalid,
       "column 'v' has type text, got a int value"},
      {"wrong key type", [&] { return table_->Insert(With("c1", Value::BigInt(1))); }, kInvalid,
       "column 'c1' has type int, got a bigint value"},
      {"missing partition key", [&] { return table_->Insert(Without("p")); }, kInvalid,
       "missing value for partition key column 'p'"},
      {"missing clustering", [&] { return table_->Insert(Without("c2")); }, kInvalid,
       "missing value for clustering column 'c2'"},
      {"null key", [&] { return table_->Insert(With("c1", Value())); }, kInvalid,
       "missing value for clustering column 'c1'"},
      {"bad uuid", [&] { return table_->Insert(With("u", Value::Uuid("short"))); }, kInvalid,
       "malformed uuid"},
      {"bad ascii",
       [&] {
         NamedRow row{{"orgid", Value::Text("o")},    {"service", Value::Text("s")},
                      {"instance", Value::Text("i")}, {"day", Value::Date(1)},
                      {"time", Value::Timestamp(1)},  {"method", Value::Ascii("G\x80T")}};
         return access_->Insert(row);
       },
       kInvalid, "malformed ascii"},
      {"row too long", [&] { return table_->Insert(Row(6, Value())); }, kInvalid,
       "row has 6 values, but the table has 5 columns"},
      {"negative TTL", [&] { return table_->Insert(Good(), Ttl(-1)); }, kInvalid,
       "TTL must be between 0 and 630720000 seconds, got -1"},
      {"TTL too long", [&] { return table_->Insert(Good(), Ttl(kMaxTimeToLiveSeconds + 1)); },
       kInvalid, "TTL must be between"},
      {"TTL and expiry",
       [&] {
         return table_->Insert(Good(), RowWriteOptions{std::nullopt, 5, 9});
       },
       kInvalid, "either a TTL or an absolute expiry"},
      {"negative expiry",
       [&] {
         return table_->Insert(Good(), RowWriteOptions{std::nullopt, std::nullopt, -3});
       },
       kInvalid, "expiry must be seconds since the epoch"},
      {"batch with one bad row",
       [&] {
         return table_->InsertBatch(
             std::vector<NamedRow>{With("c1", Value::Int(7)), With("v", Value::Double(1)), Good()});
       },
       kInvalid, "row 1 of the batch: column 'v' has type text"},
      {"batch of rows with one bad option",
       [&] {
         return table_->InsertBatch({RowWrite(table_->NewRow()), RowWrite(table_->NewRow())});
       },
       kInvalid, "row 0 of the batch: missing value for partition key column 'p'"},
      {"delete row, missing clustering value",
       [&] { return table_->DeleteRow({Value::Int(1)}, {Value::Int(2)}); }, kInvalid,
       "clustering key"},
      {"delete row, wrong type",
       [&] {
         return table_->DeleteRow({Value::Text("1")}, {Value::Int(2), Value::Text("x")});
       },
       kInvalid, "column 'p' has type int"},
      {"delete partition, wrong count",
       [&] {
         return table_->DeletePartition({Value::Int(1), Value::Int(2)});
       },
       kInvalid, "partition key"},
  });
}

TEST_F(TableApiErrorsTest, Selects) {
  const Code kInvalid = Code::kInvalidArgument;
  auto select = [&](const SelectQuery& query) {
    ResultSet result;
    return table_->Select(query, &result);
  };
  auto partition = [](int p) { return SelectQuery::ForPartition({Value::Int(p)}); };
  SelectQuery unknown_column = partition(1);
  unknown_column.columns = {"c1", "nope"};
  SelectQuery writetime_of_key = partition(1);
  writetime_of_key.columns = {"writetime(c1)"};
  SelectQuery too_many_clustering = partition(1);
  too_many_clustering.clustering_prefix = {Value::Int(1), Value::Text("x"), Value::Int(3)};
  SelectQuery bound_after_full_key = partition(1);
  bound_after_full_key.clustering_prefix = {Value::Int(1), Value::Text("x")};
  bound_after_full_key.lower_bound = ClusteringBound{Value::Int(1), true};
  SelectQuery wrong_bound_type = partition(1);
  wrong_bound_type.upper_bound = ClusteringBound{Value::Text("1"), true};
  // 300 x 300 partitions: over the 65535 a query may select.
  SelectQuery too_many_partitions;
  too_many_partitions.partition_key = {{Value::Text("o")}, {}, {}, {Value::Date(1)}};
  for (int i = 0; i < 300; i++) {
    too_many_partitions.partition_key[1].push_back(Value::Text("s" + std::to_string(i)));
    too_many_partitions.partition_key[2].push_back(Value::Text("i" + std::to_string(i)));
  }
  SelectQuery empty_partition_values;
  empty_partition_values.partition_key = {{}};
  ExpectAllFailCleanly({
      {"no partition key, reversed",
       [&] {
         SelectQuery query;  // a whole-table scan, which has no reverse order
         query.reversed = true;
         return select(query);
       },
       kInvalid, "reversed order is only supported when the partition key is given"},
      {"empty value list", [&] { return select(empty_partition_values); }, kInvalid,
       "missing value for partition key column 'p'"},
      {"wrong partition type",
       [&] { return select(SelectQuery::ForPartition({Value::Text("1")})); }, kInvalid,
       "column 'p' has type int"},
      {"unknown column", [&] { return select(unknown_column); }, kInvalid, "unknown column 'nope'"},
      {"writetime of a key column", [&] { return select(writetime_of_key); }, kInvalid,
       "writetime() is not allowed on primary key column 'c1'"},
      {"too many clustering values", [&] { return select(too_many_clustering); }, kInvalid,
       "clustering"},
      {"bound after the full key", [&] { return select(bound_after_full_key); }, kInvalid,
       "a range bound needs a clustering column"},
      {"wrong bound type", [&] { return select(wrong_bound_type); }, kInvalid,
       "column 'c1' has type int"},
      {"IN lists selecting too many partitions",
       [&] {
         ResultSet result;
         return access_->Select(too_many_partitions, &result);
       },
       kInvalid, "select more than 65535 partitions"},
  });
}

TEST_F(TableApiErrorsTest, SchemaStatements) {
  TableStorage bad_columnar = test::ColumnarStorage();
  bad_columnar.columnar.rows_per_group = 0;
  TableStorage no_factory;
  no_factory.adjust_column_family = [](rocksdb::ColumnFamilyOptions* options) {
    options->table_factory.reset();
  };
  const Code kInvalid = Code::kInvalidArgument;
  ExpectAllFailCleanly({
      {"malformed CREATE", [&] { return db_->CreateTable("CREATE TABLE x (", TableStorage()); },
       kInvalid, "line 1"},
      {"no primary key",
       [&] { return db_->CreateTable("CREATE TABLE x (a int, b int)", TableStorage()); }, kInvalid,
       "PRIMARY KEY"},
      {"bad storage option",
       [&] { return db_->CreateTable("CREATE TABLE x (a int PRIMARY KEY)", bad_columnar); },
       kInvalid, "rows_per_group"},
      {"hook removed the factory",
       [&] { return db_->CreateTable("CREATE TABLE x (a int PRIMARY KEY)", no_factory); }, kInvalid,
       "without a table factory"},
      {"unknown sstable_format",
       [&] {
         return Execute("CREATE TABLE x (a int PRIMARY KEY) WITH sstable_format = 'parquet'");
       },
       kInvalid, "sstable_format 'parquet' is not a known format"},
      {"reserved name", [&] { return Execute("CREATE TABLE \"default\" (a int PRIMARY KEY)"); },
       kInvalid, "taken by a column family"},
  });
  EXPECT_EQ(db_->ListTables(), (std::vector<std::string>{"ks.t", "logs.access16"}));
}

TEST_F(TableApiErrorsTest, CqlStatements) {
  const Code kInvalid = Code::kInvalidArgument;
  const Code kNotSupported = Code::kNotSupported;
  const std::string access_where =
      "FROM logs.access16 WHERE orgid = 'o' AND service = 's' AND instance = 'i' ";
  ExpectAllFailCleanly({
      {"empty", [&] { return Execute(""); }, kInvalid,
       "expected CREATE, ALTER, DROP, TRUNCATE, USE, INSERT, UPDATE, SELECT, DELETE or BEGIN "
       "BATCH"},
      {"unknown statement", [&] { return Execute("GRANT ALL ON ks.t TO bob"); }, kInvalid,
       "expected CREATE, ALTER, DROP, TRUNCATE, USE, INSERT, UPDATE, SELECT, DELETE or BEGIN "
       "BATCH"},
      {"UPDATE of a partition", [&] { return Execute("UPDATE ks.t SET v = 'a' WHERE p = 1"); },
       kInvalid, "UPDATE needs = on every primary key column (one row)"},
      {"unknown table", [&] { return Execute("SELECT * FROM ks.nope WHERE p = 1"); },
       Code::kNotFound, "unknown table ks.nope"},
      {"unknown column in WHERE", [&] { return Execute("SELECT * FROM ks.t WHERE q = 1"); },
       kInvalid, "unknown column 'q' at line 1, column 26"},
      {"unknown selected column", [&] { return Execute("SELECT zz FROM ks.t WHERE p = 1"); },
       kInvalid, "unknown column 'zz'"},
      {"wrong literal type", [&] { return Execute("SELECT * FROM ks.t WHERE p = 'one'"); },
       kInvalid, "column 'p': invalid int literal 'one'"},
      {"missing partition key", [&] { return Execute("SELECT * FROM ks.t WHERE c1 = 1"); },
       kInvalid, "missing partition key column 'p' in WHERE"},
      {"clustering restriction without the partition key",
       [&] { return Execute("SELECT * FROM ks.t WHERE c1 = 1"); }, kInvalid,
       "missing partition key column 'p'"},
      {"regular column without ALLOW FILTERING",
       [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 AND v = 'a'"); }, kInvalid,
       "restricting it needs ALLOW FILTERING"},
      {"filter literal of the wrong type",
       [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 AND v = 5 ALLOW FILTERING"); },
       kInvalid, "column 'v'"},
      {"filter on an unknown column",
       [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 AND nope = 5 ALLOW FILTERING"); },
       kInvalid, "nope"},
      {"IN on a partition key column with a value of the wrong type",
       [&] {
         return Execute(
             "SELECT * FROM logs.access16 WHERE orgid IN ('o', 7) AND "
             "service = 's' AND instance = 'i' AND day = 1");
       },
       kInvalid, "column 'orgid'"},
      {"range on the partition key", [&] { return Execute("SELECT * FROM ks.t WHERE p > 1"); },
       kInvalid, "partition key column 'p' needs = or IN, not a range"},
      {"partition key twice", [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 AND p = 2"); },
       kInvalid, "restricted more than once"},
      {"clustering column skipped",
       [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 AND c2 = 'x'"); }, kInvalid,
       "clustering column 'c2' cannot be restricted: the preceding clustering column 'c1' is "
       "not restricted"},
      {"after a range",
       [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 AND c1 > 1 AND c2 = 'x'"); }, kInvalid,
       "'c1' has a range restriction"},
      {"two lower bounds",
       [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 AND c1 > 1 AND c1 >= 2"); }, kInvalid,
       "has two lower bounds"},
      {"= and range",
       [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 AND c1 = 1 AND c1 > 0"); }, kInvalid,
       "has both = and a range"},
      {"IN and a range on one clustering column",
       [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 AND c1 IN (1, 2) AND c1 > 0"); },
       kInvalid, "clustering column 'c1' has IN and another restriction"},
      {"a restriction after IN on a clustering column",
       [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 AND c1 IN (1, 2) AND c2 = 0"); },
       kInvalid, "the preceding clustering column 'c1' has an IN restriction"},
      {"ORDER BY a regular column",
       [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 ORDER BY v"); }, kInvalid,
       "ORDER BY must list the table's clustering columns in key order"},
      {"ORDER BY mixed",
       [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 ORDER BY c1 ASC, c2 DESC"); }, kInvalid,
       "ORDER BY must follow the table's clustering order or its exact reverse"},
      {"LIMIT 0", [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 LIMIT 0"); }, kInvalid,
       "LIMIT must be positive"},
      {"bind marker", [&] { return Execute("SELECT * FROM ks.t WHERE p = ?"); }, kInvalid,
       "bind markers (?) are not supported"},
      {"IN bind marker", [&] { return Execute("SELECT * " + access_where + "AND day IN ?"); },
       kInvalid, "bind markers (?) are not supported"},
      {"!=", [&] { return Execute("SELECT * FROM ks.t WHERE p != 1"); }, kInvalid,
       "!= is not supported"},
      {"trailing text", [&] { return Execute("SELECT * FROM ks.t WHERE p = 1 LIMIT 1 x"); },
       kInvalid, "unexpected text after the end of the statement"},
      {"unknown function", [&] { return Execute("SELECT median(v) FROM ks.t WHERE p = 1"); },
       kInvalid, "unsupported function"},
      {"INSERT count mismatch",
       [&] { return Execute("INSERT INTO ks.t (p, c1, c2) VALUES (1, 2)"); }, kInvalid,
       "3 columns but 2 values"},
      {"INSERT missing clustering",
       [&] { return Execute("INSERT INTO ks.t (p, c1, v) VALUES (1, 2, 'a')"); }, kInvalid,
       "missing value for clustering column 'c2'"},
      {"INSERT unknown column",
       [&] { return Execute("INSERT INTO ks.t (p, c1, c2, w) VALUES (1, 2, 'x', 1)"); }, kInvalid,
       "unknown column 'w'"},
      {"INSERT wrong literal",
       [&] { return Execute("INSERT INTO ks.t (p, c1, c2, u) VALUES (1, 2, 'x', 'abc')"); },
       kInvalid, "column 'u': invalid uuid literal"},
      {"INSERT duplicate column",
       [&] { return Execute("INSERT INTO ks.t (p, p, c1) VALUES (1, 1, 2)"); }, kInvalid,
       "column 'p' is given twice"},
      {"INSERT negative TTL",
       [&] { return Execute("INSERT INTO ks.t (p, c1, c2) VALUES (1, 2, 'x') USING TTL -1"); },
       kInvalid, "TTL must be a non-negative"},
      {"INSERT TTL twice",
       [&] {
         return Execute("INSERT INTO ks.t (p, c1, c2) VALUES (1, 2, 'x') USING TTL 1 AND TTL 2");
       },
       kInvalid, "TTL given twice"},
      {"INSERT TTL too long",
       [&] {
         return Execute("INSERT INTO ks.t (p, c1, c2) VALUES (1, 2, 'x') USING TTL 630720001");
       },
       kInvalid, "TTL must be between 0 and 630720000 seconds"},
      {"DELETE part of the clustering key",
       [&] { return Execute("DELETE FROM ks.t WHERE p = 1 AND c1 = 2"); }, kInvalid,
       "DELETE needs = on every clustering column"},
      {"DELETE by regular column",
       [&] { return Execute("DELETE FROM ks.t WHERE p = 1 AND v = 'a'"); }, kInvalid,
       "DELETE can only restrict primary key columns"},
      {"DELETE with IN", [&] { return Execute("DELETE FROM ks.t WHERE p IN (1, 2)"); },
       kNotSupported, "DELETE with IN"},
      {"DELETE cells of a partition", [&] { return Execute("DELETE v FROM ks.t WHERE p = 1"); },
       kInvalid, "DELETE needs = on every primary key column (one row)"},
      {"DELETE range", [&] { return Execute("DELETE FROM ks.t WHERE p = 1 AND c1 > 2"); }, kInvalid,
       "DELETE needs = on clustering column 'c1'"},
      {"unterminated string", [&] { return Execute("SELECT * FROM ks.t WHERE p = 'a"); }, kInvalid,
       "line 1"},
  });
  ResultSet rows;
  EXPECT_TRUE(db_->Execute("SELECT * FROM ks.t WHERE p = 1", nullptr).IsInvalidArgument());
  ASSERT_TRUE(db_->Execute("SELECT * FROM ks.t WHERE p = 1", &rows).ok());
  EXPECT_EQ(rows.rows.size(), 1u);
}

}  // namespace
}  // namespace columnar
