// Keyspaces and the table statements of a Cassandra user, through the Table API, each checked
// against Cassandra's documented result: CREATE / DROP KEYSPACE (stored, surviving reopen,
// described), USE in a CqlSession, implicit keyspaces of existing databases, DROP TABLE,
// TRUNCATE, ALTER TABLE ... WITH default_time_to_live, CreateTable's sstable_format, and the
// CQL that is refused (collections, counter, lightweight transactions, BATCH) without
// changing anything.
#include <gtest/gtest.h>

#include <algorithm>

#include "table_api/cql_session.h"
#include "table_api/keyspace_catalog.h"
#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr int64_t kKeyspaceNowSeconds = 1'714'600'000;
constexpr char kSimpleKeyspace[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}";
constexpr char kSimpleKeyspaceCanonical[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
    "'1'} AND durable_writes = true;";

std::vector<std::string> ColumnFamilies(const std::string& path) {
  std::vector<std::string> families;
  EXPECT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &families).ok());
  std::sort(families.begin(), families.end());
  return families;
}

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

class TableApiKeyspaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_.now_micros = clock_.Function();
    Open();
  }

  void Open() {
    const Status s = Database::Open(options_, dir_.path(), &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  void Reopen() {
    db_.reset();
    Open();
  }

  ResultSet Run(const std::string& cql) {
    ResultSet result;
    const Status s = db_->Execute(cql, &result);
    EXPECT_TRUE(s.ok()) << cql << "\n" << s.ToString();
    return result;
  }

  ResultSet RunIn(CqlSession* session, const std::string& cql) {
    ResultSet result;
    const Status s = session->Execute(cql, &result);
    EXPECT_TRUE(s.ok()) << cql << "\n" << s.ToString();
    return result;
  }

  // Runs `cql`, which must fail with `code_check` and a message containing `message`, and
  // change nothing.
  void ExpectRefused(const std::string& cql, bool (Status::*code_check)() const,
                     const std::string& message) {
    const std::string before = test::DatabaseFingerprint(db_.get());
    const std::vector<std::string> keyspaces = db_->ListKeyspaces();
    ResultSet result;
    const Status s = db_->Execute(cql, &result);
    EXPECT_TRUE((s.*code_check)()) << cql << "\n" << s.ToString();
    EXPECT_NE(s.ToString().find(message), std::string::npos) << cql << "\n" << s.ToString();
    EXPECT_EQ(test::DatabaseFingerprint(db_.get()), before) << cql;
    EXPECT_EQ(db_->ListKeyspaces(), keyspaces) << cql;
  }

  size_t CountRows(const std::string& table, const std::string& where) {
    return Run("SELECT * FROM " + table + " WHERE " + where).rows.size();
  }

  TempDir dir_{"table-api-keyspace"};
  test::ManualClock clock_{kKeyspaceNowSeconds * 1000000};
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
};

TEST_F(TableApiKeyspaceTest, CreateKeyspaceIsStoredDescribedAndSurvivesReopen) {
  // A database that never had a keyspace has no keyspace column family.
  EXPECT_FALSE(Contains(ColumnFamilies(dir_.path()), kKeyspaceColumnFamilyName));
  Run(kSimpleKeyspace);
  Run("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 3}");  // exists: kept as it is
  Run("CREATE KEYSPACE \"Dc\" WITH replication = {'class': "
      "'org.apache.cassandra.locator.NetworkTopologyStrategy', 'dc2': '02', 'dc1': 3} AND "
      "durable_writes = false;");
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
  EXPECT_TRUE(Contains(ColumnFamilies(dir_.path()), kKeyspaceColumnFamilyName));

  for (int open = 0; open < 2; open++) {
    SCOPED_TRACE(open == 0 ? "before reopen" : "after reopen");
    EXPECT_EQ(db_->ListKeyspaces(), (std::vector<std::string>{"Dc", "ks"}));
    KeyspaceDefinition keyspace;
    ASSERT_TRUE(db_->GetKeyspace("ks", &keyspace).ok());
    EXPECT_EQ(keyspace.replication, (std::map<std::string, std::string>{
                                        {"class", "SimpleStrategy"}, {"replication_factor", "1"}}));
    EXPECT_TRUE(keyspace.durable_writes);
    std::string described;
    ASSERT_TRUE(db_->DescribeKeyspace("ks", &described).ok());
    EXPECT_EQ(described, std::string(kSimpleKeyspaceCanonical) +
                             "\n\n-- storage: ColumnarTable\n"
                             "CREATE TABLE ks.t (\n"
                             "    k int,\n"
                             "    v text,\n"
                             "    PRIMARY KEY (k)\n"
                             ");");
    // Cassandra's canonical form: the short class name, factors as strings, options sorted.
    ASSERT_TRUE(db_->DescribeKeyspace("Dc", &described).ok());
    EXPECT_EQ(described,
              "CREATE KEYSPACE \"Dc\" WITH replication = {'class': 'NetworkTopologyStrategy', "
              "'dc1': '3', 'dc2': '2'} AND durable_writes = false;");
    Reopen();
  }
  // The described statement runs again and gives the same keyspace.
  std::string described;
  ASSERT_TRUE(db_->DescribeKeyspace("Dc", &described).ok());
  Run("DROP KEYSPACE \"Dc\"");
  Run(described);
  std::string again;
  ASSERT_TRUE(db_->DescribeKeyspace("Dc", &again).ok());
  EXPECT_EQ(again, described);
}

TEST_F(TableApiKeyspaceTest, BadKeyspaceStatementsFailAndChangeNothing) {
  Run(kSimpleKeyspace);
  const auto invalid = &Status::IsInvalidArgument;
  ExpectRefused(kSimpleKeyspace, invalid, "keyspace ks already exists");
  ExpectRefused("CREATE KEYSPACE k2", invalid, "expected WITH");
  ExpectRefused("CREATE KEYSPACE k2 WITH durable_writes = true", invalid,
                "CREATE KEYSPACE needs WITH replication");
  ExpectRefused("CREATE KEYSPACE k2 WITH replication = {'replication_factor': 1}", invalid,
                "replication needs a 'class' at line 1, column 39");
  ExpectRefused("CREATE KEYSPACE k2 WITH replication = {'class': 'LocalStrategy'}", invalid,
                "unknown replication strategy class 'LocalStrategy'");
  ExpectRefused("CREATE KEYSPACE k2 WITH replication = {'class': 'SimpleStrategy'}", invalid,
                "SimpleStrategy needs a 'replication_factor'");
  ExpectRefused(
      "CREATE KEYSPACE k2 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
      "1, 'dc1': 1}",
      invalid, "unknown option 'dc1' of SimpleStrategy");
  ExpectRefused(
      "CREATE KEYSPACE k2 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
      "-1}",
      invalid, "replication factor of 'replication_factor' must be a non-negative integer");
  ExpectRefused("CREATE KEYSPACE k2 WITH replication = {'class': 'NetworkTopologyStrategy'}",
                invalid, "at least one data center");
  ExpectRefused(
      "CREATE KEYSPACE k2 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
      "1} AND durable_writes = maybe",
      invalid, "durable_writes must be true or false");
  ExpectRefused(
      "CREATE KEYSPACE k2 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
      "1} AND graph_engine = 'Core'",
      invalid, "unknown keyspace option 'graph_engine'");
  ExpectRefused(
      "CREATE KEYSPACE \"a.b\" WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}",
      invalid, "keyspace name 'a.b' must be 1 to 48 letters, digits or underscores");
  ExpectRefused("DROP KEYSPACE nope", &Status::IsNotFound, "unknown keyspace nope");
  ExpectRefused("DROP TABLE ks.nope", &Status::IsNotFound, "unknown table ks.nope");
  ExpectRefused("TRUNCATE ks.nope", &Status::IsNotFound, "unknown table ks.nope");
  ExpectRefused("USE ks", invalid, "run it with a CqlSession");
  Run("DROP KEYSPACE IF EXISTS nope");
  Run("DROP TABLE IF EXISTS ks.nope");
}

TEST_F(TableApiKeyspaceTest, DropKeyspaceDropsItsTables) {
  Run(kSimpleKeyspace);
  Run("CREATE TABLE ks.a (k int PRIMARY KEY, v text)");
  Run("CREATE TABLE ks.b (k int PRIMARY KEY, v text) WITH sstable_format = 'block_based'");
  Run("CREATE TABLE other.a (k int PRIMARY KEY, v text)");
  Run("INSERT INTO ks.a (k, v) VALUES (1, 'one')");
  Run("INSERT INTO other.a (k, v) VALUES (1, 'kept')");
  Run("DROP KEYSPACE ks");
  EXPECT_EQ(db_->ListTables(), (std::vector<std::string>{"other.a"}));
  EXPECT_EQ(db_->ListKeyspaces(), (std::vector<std::string>{"other"}));
  const std::vector<std::string> families = ColumnFamilies(dir_.path());
  EXPECT_FALSE(Contains(families, "ks.a"));
  EXPECT_FALSE(Contains(families, "ks.b"));
  ResultSet rows;
  EXPECT_TRUE(db_->Execute("SELECT * FROM ks.a WHERE k = 1", &rows).IsNotFound());
  Run("DROP KEYSPACE IF EXISTS ks");

  Reopen();
  EXPECT_EQ(db_->ListTables(), (std::vector<std::string>{"other.a"}));
  EXPECT_EQ(db_->ListKeyspaces(), (std::vector<std::string>{"other"}));
  // Created again, the keyspace and its tables start empty.
  Run(kSimpleKeyspace);
  Run("CREATE TABLE ks.a (k int PRIMARY KEY, v text)");
  EXPECT_EQ(CountRows("ks.a", "k = 1"), 0u);
  EXPECT_EQ(CountRows("other.a", "k = 1"), 1u);
  // An implicit keyspace is dropped the same way.
  Run("DROP KEYSPACE other");
  EXPECT_EQ(db_->ListKeyspaces(), (std::vector<std::string>{"ks"}));
}

TEST_F(TableApiKeyspaceTest, UseInASessionResolvesUnqualifiedNames) {
  Run(kSimpleKeyspace);
  Run("CREATE TABLE ks2.t (k int PRIMARY KEY, v text)");  // another keyspace, same table name
  CqlSession session(db_.get());
  EXPECT_TRUE(session.Execute("USE nope", nullptr).IsNotFound());
  EXPECT_EQ(session.keyspace(), "");
  RunIn(&session, "USE ks;");
  EXPECT_EQ(session.keyspace(), "ks");
  RunIn(&session, "CREATE TABLE IF NOT EXISTS t (k int PRIMARY KEY, v text)");
  RunIn(&session, "CREATE TABLE IF NOT EXISTS t (other int PRIMARY KEY)");  // kept as it is
  EXPECT_EQ(db_->ListTablesOfKeyspace("ks"), (std::vector<std::string>{"ks.t"}));
  RunIn(&session, "INSERT INTO t (k, v) VALUES (1, 'in ks')");
  RunIn(&session, "INSERT INTO ks2.t (k, v) VALUES (1, 'in ks2')");
  EXPECT_EQ(RunIn(&session, "SELECT v FROM t WHERE k = 1").rows,
            (std::vector<Row>{{Value::Text("in ks")}}));
  RunIn(&session, "ALTER TABLE t ADD n int");
  Table* in_ks = test::MustGetTable(db_.get(), "ks.t");
  ASSERT_NE(in_ks, nullptr);
  EXPECT_NE(in_ks->schema()->FindColumn("n"), nullptr);
  Table* table = nullptr;
  ASSERT_TRUE(session.GetTable("t", &table).ok());
  EXPECT_EQ(table->name(), "ks.t");

  // Another session has its own current keyspace; Database::Execute has none.
  CqlSession other(db_.get(), "ks2");
  EXPECT_EQ(RunIn(&other, "SELECT v FROM t WHERE k = 1").rows,
            (std::vector<Row>{{Value::Text("in ks2")}}));
  ResultSet ambiguous;
  EXPECT_TRUE(db_->Execute("SELECT v FROM t WHERE k = 1", &ambiguous).IsInvalidArgument());

  // With USE, an unqualified name means the current keyspace only (as in Cassandra).
  RunIn(&session, "CREATE TABLE ks2.only (k int PRIMARY KEY)");
  ResultSet missing;
  EXPECT_TRUE(session.Execute("SELECT * FROM only WHERE k = 1", &missing).IsNotFound());
  RunIn(&session, "TRUNCATE t");
  EXPECT_TRUE(RunIn(&session, "SELECT v FROM t WHERE k = 1").rows.empty());
  RunIn(&session, "DROP TABLE t");
  EXPECT_TRUE(db_->ListTablesOfKeyspace("ks").empty());
  EXPECT_EQ(db_->ListTablesOfKeyspace("ks2"), (std::vector<std::string>{"ks2.only", "ks2.t"}));
}

// Databases made before keyspaces existed: tables named ks.t with no CREATE KEYSPACE. They
// open and work as before, their keyspaces are listed (implicit), and the database is not
// changed by being opened.
TEST_F(TableApiKeyspaceTest, ImplicitKeyspacesOfExistingDatabases) {
  Run("CREATE TABLE legacy.t (k int PRIMARY KEY, v text)");
  Run("CREATE TABLE solo (k int PRIMARY KEY)");  // a table without a keyspace
  Run("INSERT INTO legacy.t (k, v) VALUES (1, 'old')");
  Reopen();
  EXPECT_FALSE(Contains(ColumnFamilies(dir_.path()), kKeyspaceColumnFamilyName));
  EXPECT_EQ(db_->ListKeyspaces(), (std::vector<std::string>{"legacy"}));
  EXPECT_TRUE(db_->HasKeyspace("legacy"));
  KeyspaceDefinition keyspace;
  EXPECT_TRUE(db_->GetKeyspace("legacy", &keyspace).IsNotFound());
  std::string described;
  ASSERT_TRUE(db_->DescribeKeyspace("legacy", &described).ok());
  EXPECT_EQ(described.rfind("-- keyspace legacy was not created with CREATE KEYSPACE", 0), 0u)
      << described;
  EXPECT_NE(described.find("CREATE TABLE legacy.t ("), std::string::npos) << described;
  EXPECT_TRUE(db_->DescribeKeyspace("nope", &described).IsNotFound());
  EXPECT_EQ(CountRows("legacy.t", "k = 1"), 1u);

  CqlSession session(db_.get());
  RunIn(&session, "USE legacy");
  EXPECT_EQ(RunIn(&session, "SELECT v FROM t WHERE k = 1").rows,
            (std::vector<Row>{{Value::Text("old")}}));
  // CREATE KEYSPACE of an implicit keyspace records its options; its tables stay.
  Run("CREATE KEYSPACE legacy WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 2}");
  ASSERT_TRUE(db_->GetKeyspace("legacy", &keyspace).ok());
  EXPECT_EQ(keyspace.replication.at("replication_factor"), "2");
  EXPECT_EQ(CountRows("legacy.t", "k = 1"), 1u);
  // Dropping its last table leaves a created keyspace, not an implicit one.
  Run("DROP TABLE legacy.t");
  EXPECT_EQ(db_->ListKeyspaces(), (std::vector<std::string>{"legacy"}));
}

TEST_F(TableApiKeyspaceTest, DropTableRemovesTheColumnFamilyAndTheCatalogEntry) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v text) WITH sstable_format = 'block_based'");
  Run("INSERT INTO ks.t (k, v) VALUES (1, 'one')");
  Table* dropped = test::MustGetTable(db_.get(), "ks.t");
  ASSERT_NE(dropped, nullptr);
  ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), dropped->column_family()).ok());
  Run("DROP TABLE ks.t;");
  EXPECT_TRUE(db_->ListTables().empty());
  EXPECT_FALSE(Contains(ColumnFamilies(dir_.path()), "ks.t"));
  // A Table* of the dropped table stays a valid object; its writes are ignored (a write to a
  // dropped column family would otherwise stop every later write of the database).
  EXPECT_TRUE(dropped->Insert(NamedRow{{"k", Value::Int(2)}}).ok());
  EXPECT_TRUE(dropped->DeletePartition({Value::Int(1)}).ok());
  Run("DROP TABLE IF EXISTS ks.t");

  // The same name starts empty, with the new schema and storage.
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, n bigint)");
  Table* created = test::MustGetTable(db_.get(), "ks.t");
  ASSERT_NE(created, nullptr);
  EXPECT_STREQ(created->table_factory()->Name(), kColumnarTableName);
  EXPECT_EQ(CountRows("ks.t", "k = 1"), 0u);
  Run("INSERT INTO ks.t (k, n) VALUES (3, 30)");
  Reopen();
  EXPECT_EQ(db_->ListTables(), (std::vector<std::string>{"ks.t"}));
  EXPECT_EQ(CountRows("ks.t", "k = 1"), 0u);
  EXPECT_EQ(Run("SELECT n FROM ks.t WHERE k = 3").rows, (std::vector<Row>{{Value::BigInt(30)}}));
}

class TableApiTruncateTest : public TableApiKeyspaceTest,
                             public ::testing::WithParamInterface<TableFormat> {};

TEST_P(TableApiTruncateTest, TruncateEmptiesTheTableAndKeepsItsSchema) {
  TableStorage storage;
  storage.format = GetParam();
  Table* table = nullptr;
  ASSERT_TRUE(db_->CreateTable("CREATE TABLE ks.t (p int, c int, v text, PRIMARY KEY (p, c))",
                               storage, &table)
                  .ok());
  for (int p = 0; p < 3; p++) {
    for (int c = 0; c < 50; c++) {
      Run("INSERT INTO ks.t (p, c, v) VALUES (" + std::to_string(p) + ", " + std::to_string(c) +
          ", 'x')");
    }
    if (p == 1) {
      ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), table->column_family()).ok());
    }
  }
  Run("ALTER TABLE ks.t ADD extra int");
  const std::string schema = table->schema()->Serialize();
  Run("TRUNCATE TABLE ks.t");
  for (int p = 0; p < 3; p++) EXPECT_EQ(CountRows("ks.t", "p = " + std::to_string(p)), 0u);
  {
    std::unique_ptr<rocksdb::Iterator> it(
        db_->db()->NewIterator(rocksdb::ReadOptions(), table->column_family()));
    it->SeekToFirst();
    EXPECT_FALSE(it->Valid());  // no key left, not even a hidden one
  }
  EXPECT_EQ(table->schema()->Serialize(), schema);
  Run("TRUNCATE ks.t;");  // an empty table truncates too
  // The same Table keeps working; rows written after TRUNCATE stay.
  Run("INSERT INTO ks.t (p, c, v, extra) VALUES (1, 1, 'after', 7)");
  Reopen();
  EXPECT_EQ(Run("SELECT c, v, extra FROM ks.t WHERE p = 1").rows,
            (std::vector<Row>{{Value::Int(1), Value::Text("after"), Value::Int(7)}}));
  EXPECT_EQ(CountRows("ks.t", "p = 0"), 0u);
}

INSTANTIATE_TEST_SUITE_P(BothFormats, TableApiTruncateTest, test::BothFormats(),
                         test::FormatParamName);

TEST_F(TableApiKeyspaceTest, AlterDefaultTimeToLiveAppliesToLaterWrites) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
  Run("INSERT INTO ks.t (k, v) VALUES (1, 'before')");
  Run("ALTER TABLE ks.t WITH default_time_to_live = 100");
  Table* table = test::MustGetTable(db_.get(), "ks.t");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->schema()->options().default_time_to_live, 100);
  Run("INSERT INTO ks.t (k, v) VALUES (2, 'after')");
  Run("INSERT INTO ks.t (k, v) VALUES (3, 'own ttl') USING TTL 500");
  EXPECT_EQ(Run("SELECT ttl(v) FROM ks.t WHERE k IN (1, 2, 3)").rows,
            (std::vector<Row>{{Value()}, {Value::Int(100)}, {Value::Int(500)}}));
  clock_.AdvanceSeconds(100);
  EXPECT_EQ(Run("SELECT k FROM ks.t WHERE k IN (1, 2, 3)").rows,
            (std::vector<Row>{{Value::Int(1)}, {Value::Int(3)}}));
  Reopen();
  Run("INSERT INTO ks.t (k, v) VALUES (4, 'after reopen')");
  EXPECT_EQ(Run("SELECT ttl(v) FROM ks.t WHERE k = 4").rows, (std::vector<Row>{{Value::Int(100)}}));
  Run("ALTER TABLE ks.t WITH default_time_to_live = 0");
  Run("INSERT INTO ks.t (k, v) VALUES (5, 'no ttl')");
  EXPECT_EQ(Run("SELECT ttl(v) FROM ks.t WHERE k = 5").rows, (std::vector<Row>{{Value()}}));
}

TEST_F(TableApiKeyspaceTest, CreateTableHonoursTheStatementsSstableFormat) {
  Table* table = nullptr;
  ASSERT_TRUE(db_->CreateTable("CREATE TABLE ks.b (k int PRIMARY KEY) WITH sstable_format = "
                               "'block_based'",
                               TableStorage(), &table)
                  .ok());
  EXPECT_STREQ(table->table_factory()->Name(), "BlockBasedTable");
  ASSERT_TRUE(db_->CreateTable("CREATE TABLE ks.c (k int PRIMARY KEY) WITH sstable_format = "
                               "'columnar'",
                               test::ColumnarStorage(), &table)
                  .ok());
  EXPECT_STREQ(table->table_factory()->Name(), kColumnarTableName);
  ASSERT_TRUE(
      db_->CreateTable("CREATE TABLE ks.d (k int PRIMARY KEY)", TableStorage(), &table).ok());
  EXPECT_STREQ(table->table_factory()->Name(), kColumnarTableName);  // neither says: columnar

  const std::string before = test::DatabaseFingerprint(db_.get());
  const Status s =
      db_->CreateTable("CREATE TABLE ks.e (k int PRIMARY KEY) WITH sstable_format = 'block_based'",
                       test::ColumnarStorage());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("sstable_format asks for BlockBasedTable but its "
                              "TableStorage::format is ColumnarTable"),
            std::string::npos)
      << s.ToString();
  EXPECT_EQ(test::DatabaseFingerprint(db_.get()), before);
  EXPECT_EQ(db_->ListTables(), (std::vector<std::string>{"ks.b", "ks.c", "ks.d"}));
  Reopen();
  table = test::MustGetTable(db_.get(), "ks.b");
  ASSERT_NE(table, nullptr);
  EXPECT_STREQ(table->table_factory()->Name(), "BlockBasedTable");
}

TEST_F(TableApiKeyspaceTest, UnsupportedTypesAreRefusedWithTheAlternative) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
  const auto invalid = &Status::IsInvalidArgument;
  ExpectRefused("CREATE TABLE ks.s (k int PRIMARY KEY, tags set<text>)", invalid,
                "non-frozen collection type set<text> is not supported (a cell holds one value "
                "here, so its elements cannot be added or removed one by one); the alternative "
                "is frozen<set<text>>: the whole collection is one value, written and replaced "
                "at once at line 1, column 44");
  ExpectRefused("CREATE TABLE ks.s (k int PRIMARY KEY, l list<int>)", invalid,
                "alternative is frozen<list<int>>");
  ExpectRefused("CREATE TABLE ks.s (k int PRIMARY KEY, m map<text,int>)", invalid,
                "non-frozen collection type map<text, int> is not supported");
  ExpectRefused("CREATE TABLE ks.s (k int PRIMARY KEY, m frozen<int>)", invalid,
                "frozen<...> applies to collections (list, set, map) and tuples");
  ExpectRefused("CREATE TABLE ks.s (k int PRIMARY KEY, m frozen<list<counter>>)", invalid,
                "counter cannot be an element of a collection or tuple");
  ExpectRefused("CREATE TABLE ks.s (k int PRIMARY KEY, n counter)", invalid,
                "counter columns are not supported: ");
  ExpectRefused("ALTER TABLE ks.t ADD tags set<text>", invalid, "alternative is frozen<set<text>>");
  ExpectRefused("ALTER TABLE ks.t ADD hits counter", invalid, "counter columns are not supported");
  const std::string before = test::DatabaseFingerprint(db_.get());
  EXPECT_TRUE(db_->CreateTable("CREATE TABLE ks.s (k int PRIMARY KEY, n counter)", TableStorage())
                  .IsInvalidArgument());
  EXPECT_EQ(test::DatabaseFingerprint(db_.get()), before);
}

TEST_F(TableApiKeyspaceTest, LightweightTransactionsUpdateAndBatchAreRefused) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
  Run("INSERT INTO ks.t (k, v) VALUES (1, 'one')");
  const auto not_supported = &Status::IsNotSupported;
  ExpectRefused("INSERT INTO ks.t (k, v) VALUES (1, 'two') IF NOT EXISTS", not_supported,
                "lightweight transactions (INSERT ... IF NOT EXISTS) are not supported: they need "
                "a Paxos round between replicas, and this store is one node without one at line "
                "1, column 43 (near 'if')");
  ExpectRefused("INSERT INTO ks.t (k, v) VALUES (2, 'two') USING TTL 5 IF NOT EXISTS",
                not_supported, "at line 1, column 55");
  ExpectRefused("UPDATE ks.t SET v = 'two' WHERE k = 1 IF v = 'one'", not_supported,
                "lightweight transactions (UPDATE ... IF) are not supported: they need a Paxos "
                "round between replicas, and this store is one node without one at line 1, "
                "column 39");
  ExpectRefused("UPDATE ks.t SET v = 'two' WHERE k = 1 IF EXISTS", not_supported,
                "lightweight transactions (UPDATE ... IF)");
  ExpectRefused("DELETE FROM ks.t WHERE k = 1 IF EXISTS", not_supported,
                "lightweight transactions (DELETE ... IF) are not supported");
  ExpectRefused("BEGIN COUNTER BATCH UPDATE ks.t SET v = 'x' WHERE k = 3; APPLY BATCH",
                not_supported, "COUNTER BATCH is not supported");
  ExpectRefused("CREATE INDEX ON ks.t (v)", not_supported,
                "CREATE INDEX is not supported (keyspaces and tables only) at line 1, column 8");
  ExpectRefused("ALTER KEYSPACE ks WITH durable_writes = false", not_supported,
                "ALTER KEYSPACE is not supported");
  EXPECT_EQ(Run("SELECT v FROM ks.t WHERE k IN (1, 2, 3)").rows,
            (std::vector<Row>{{Value::Text("one")}}));
}

TEST(TableApiKeyspaceCatalogTest, EntriesRoundTripAndRejectDamage) {
  KeyspaceDefinition keyspace;
  keyspace.name = "Mixed_1";
  keyspace.replication = {{"class", "NetworkTopologyStrategy"}, {"dc 'one'", "3"}};
  keyspace.durable_writes = false;
  std::string encoded;
  EncodeKeyspaceEntry(keyspace, &encoded);
  KeyspaceDefinition decoded;
  ASSERT_TRUE(DecodeKeyspaceEntry(encoded, &decoded).ok());
  EXPECT_EQ(decoded, keyspace);
  const std::string header = "columnar-keyspace:1\n";
  ASSERT_EQ(encoded.rfind(header, 0), 0u);
  for (const std::string& damaged :
       {encoded.substr(0, 10), header, header + "CREATE KEYSPACE x",
        "columnar-keyspace:2\n" + encoded.substr(header.size()), encoded + " x"}) {
    EXPECT_TRUE(DecodeKeyspaceEntry(damaged, &decoded).IsCorruption()) << damaged;
  }
}

}  // namespace
}  // namespace columnar
