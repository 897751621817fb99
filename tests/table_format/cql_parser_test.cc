#include "table_format/cql_parser.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "table_format/cql_lexer.h"

namespace columnar {
namespace {

// As printed in the source documents (002: Part 1, twice; 000: Part 3).
constexpr char kMetricsTable[] = R"(CREATE TABLE metrics.v2metrics5 (
    orgid text,
    clusterhash bigint,
    metricid bigint,
    time int,
    value float,
    PRIMARY KEY ((orgid, clusterhash, metricid), time)
) WITH CLUSTERING ORDER BY (time DESC);)";

constexpr char kMetricsTableWithOptions[] = R"(CREATE TABLE metrics.v2metrics5 (
    orgid text,
    clusterhash bigint,
    metricid bigint,
    time int,
    value float,
    PRIMARY KEY ((orgid, clusterhash, metricid), time)
) WITH CLUSTERING ORDER BY (time DESC)
    AND compaction = {
        'class': 'TimeWindowCompactionStrategy',
        'compaction_window_size': '1',
        'compaction_window_unit': 'DAYS'
    }
    AND compression = {
        'class': 'ZstdCompressor',
        'chunk_length_in_kb': '16'
    }
    AND default_time_to_live = 2592000
    AND sstable_format = 'columnar'
    AND column_encodings = {'time': 'delta_of_delta', 'value': 'alp'}
    AND column_compression = {'time': 'zstd', 'value': 'zstd'};)";

constexpr char kAccess16Table[] = R"(CREATE TABLE logs.access16 (
    orgid text,
    service text,
    instance text,
    day date,
    time timestamp,
    method ascii,
    path text,
    status int,
    user_agent text,
    client_ip ascii,
    country ascii,
    referrer text,
    latency_ms int,
    request_id ascii,
    trace_id ascii,
    user_id text,
    host text,
    protocol ascii,
    content_type text,
    bytes_sent bigint,
    error_message text,
    PRIMARY KEY ((orgid, service, instance, day), time)
) WITH CLUSTERING ORDER BY (time DESC);)";

const std::pair<const char*, LogicalType> kAccessRegularColumns[] = {
    {"method", LogicalType::kAscii},      {"path", LogicalType::kText},
    {"status", LogicalType::kInt},        {"user_agent", LogicalType::kText},
    {"client_ip", LogicalType::kAscii},   {"country", LogicalType::kAscii},
    {"referrer", LogicalType::kText},     {"latency_ms", LogicalType::kInt},
    {"request_id", LogicalType::kAscii},  {"trace_id", LogicalType::kAscii},
    {"user_id", LogicalType::kText},      {"host", LogicalType::kText},
    {"protocol", LogicalType::kAscii},    {"content_type", LogicalType::kText},
    {"bytes_sent", LogicalType::kBigInt}, {"error_message", LogicalType::kText},
};

// logs.access4 / access8 as BENCHMARKS.md builds them: the first 4 / 8 regular columns.
std::string AccessTableCql(size_t regular_columns, const std::string& with_options) {
  std::string cql = "CREATE TABLE logs.access" + std::to_string(regular_columns) +
                    " (orgid text, service text, instance text, day date, time timestamp, ";
  for (size_t i = 0; i < regular_columns; i++) {
    cql += std::string(kAccessRegularColumns[i].first) + " " +
           LogicalTypeName(kAccessRegularColumns[i].second) + ", ";
  }
  return cql + "PRIMARY KEY ((orgid, service, instance, day), time)) " +
         "WITH CLUSTERING ORDER BY (time DESC)" + with_options + ";";
}

TableSchema MustCreate(const std::string& cql) {
  CreateTableStatement statement;
  Status s = ParseCreateTable(cql, &statement);
  EXPECT_TRUE(s.ok()) << s.ToString() << "\n" << cql;
  return statement.schema;
}

std::vector<std::string> Names(const TableSchema& schema, const std::vector<uint32_t>& ids) {
  std::vector<std::string> names;
  for (uint32_t id : ids) names.push_back(schema.columns()[id].name);
  return names;
}

void ExpectMetricsStructure(const TableSchema& schema) {
  EXPECT_EQ(schema.keyspace(), "metrics");
  EXPECT_EQ(schema.table(), "v2metrics5");
  EXPECT_EQ(schema.version(), 1u);
  EXPECT_EQ(Names(schema, schema.partition_key()),
            (std::vector<std::string>{"orgid", "clusterhash", "metricid"}));
  EXPECT_EQ(Names(schema, schema.clustering_key()), (std::vector<std::string>{"time"}));
  EXPECT_EQ(schema.clustering_column(0).order, ClusteringOrder::kDesc);
  EXPECT_EQ(Names(schema, schema.LiveRegularColumns()), (std::vector<std::string>{"value"}));
  const std::pair<const char*, LogicalType> types[] = {{"orgid", LogicalType::kText},
                                                       {"clusterhash", LogicalType::kBigInt},
                                                       {"metricid", LogicalType::kBigInt},
                                                       {"time", LogicalType::kInt},
                                                       {"value", LogicalType::kFloat}};
  for (const auto& [name, type] : types) {
    ASSERT_NE(schema.FindColumn(name), nullptr) << name;
    EXPECT_EQ(schema.FindColumn(name)->type, type) << name;
  }
}

TEST(CqlParserTest, MetricsTableAsPrinted) {
  const TableSchema schema = MustCreate(kMetricsTable);
  ExpectMetricsStructure(schema);
  EXPECT_EQ(schema.options(), TableOptions());
}

TEST(CqlParserTest, MetricsTableWithItsOptions) {
  const TableSchema schema = MustCreate(kMetricsTableWithOptions);
  ExpectMetricsStructure(schema);
  const TableOptions& options = schema.options();
  EXPECT_EQ(options.default_time_to_live, 2592000);
  EXPECT_EQ(options.column_encodings,
            (std::map<std::string, std::string>{{"time", "delta_of_delta"}, {"value", "alp"}}));
  EXPECT_EQ(options.column_compression,
            (std::map<std::string, std::string>{{"time", "zstd"}, {"value", "zstd"}}));
  EXPECT_EQ(options.other,
            (std::map<std::string, std::string>{
                {"compaction",
                 "{'class': 'TimeWindowCompactionStrategy', 'compaction_window_size': '1', "
                 "'compaction_window_unit': 'DAYS'}"},
                {"compression", "{'class': 'ZstdCompressor', 'chunk_length_in_kb': '16'}"},
                {"sstable_format", "'columnar'"}}));
  // The options survive both round trips.
  TableSchema parsed;
  ASSERT_TRUE(TableSchema::Deserialize(schema.Serialize(), &parsed).ok());
  EXPECT_EQ(parsed, schema);
  EXPECT_EQ(MustCreate(schema.ToCql()), schema);
}

TEST(CqlParserTest, AccessLogTables) {
  const TableSchema access16 = MustCreate(kAccess16Table);
  EXPECT_EQ(access16.QualifiedName(), "logs.access16");
  EXPECT_EQ(Names(access16, access16.partition_key()),
            (std::vector<std::string>{"orgid", "service", "instance", "day"}));
  EXPECT_EQ(access16.partition_column(3).type, LogicalType::kDate);
  EXPECT_EQ(access16.clustering_column(0).name, "time");
  EXPECT_EQ(access16.clustering_column(0).type, LogicalType::kTimestamp);
  EXPECT_EQ(access16.clustering_column(0).order, ClusteringOrder::kDesc);
  for (size_t width : {4, 8, 16}) {
    const TableSchema schema = width == 16 ? access16 : MustCreate(AccessTableCql(width, ""));
    const std::vector<uint32_t> regular = schema.LiveRegularColumns();
    ASSERT_EQ(regular.size(), width);
    for (size_t i = 0; i < width; i++) {
      EXPECT_EQ(schema.columns()[regular[i]].name, kAccessRegularColumns[i].first);
      EXPECT_EQ(schema.columns()[regular[i]].type, kAccessRegularColumns[i].second);
    }
    EXPECT_EQ(schema.partition_key().size(), 4u);
  }
  EXPECT_EQ(MustCreate(AccessTableCql(16, "")).columns(), access16.columns());
}

// The source documents' compression combinations B, C, C-dict and D as table options.
TEST(CqlParserTest, AccessLogFormatVariants) {
  const std::string zstd_16k =
      " AND compression = {'class': 'ZstdCompressor', 'chunk_length_in_kb': '16'}";
  const std::string zstd_dict_16k =
      " AND compression = {'class': 'ZstdDictionaryCompressor', 'chunk_length_in_kb': '16'}";
  const std::string columnar =
      " AND sstable_format = 'columnar' AND column_encodings = {'time': 'delta_of_delta'}";
  const struct {
    const char* name;
    std::string options;
    const char* outer;
    const char* per_column;
  } variants[] = {
      {"B", zstd_16k + columnar + " AND column_compression = {'default': 'zstd'}",
       "{'class': 'ZstdCompressor', 'chunk_length_in_kb': '16'}", "zstd"},
      {"C", zstd_16k + columnar + " AND column_compression = {'default': 'none'}",
       "{'class': 'ZstdCompressor', 'chunk_length_in_kb': '16'}", "none"},
      {"C-dict", zstd_dict_16k + columnar + " AND column_compression = {'default': 'none'}",
       "{'class': 'ZstdDictionaryCompressor', 'chunk_length_in_kb': '16'}", "none"},
      {"D",
       " AND compression = {'enabled': 'false'}" + columnar +
           " AND column_compression = {'default': 'zstd'}",
       "{'enabled': 'false'}", "zstd"},
  };
  for (const auto& variant : variants) {
    for (size_t width : {4, 8, 16}) {
      const TableSchema schema = MustCreate(AccessTableCql(width, variant.options));
      const TableOptions& options = schema.options();
      EXPECT_EQ(options.other.at("compression"), variant.outer) << variant.name;
      EXPECT_EQ(options.other.at("sstable_format"), "'columnar'") << variant.name;
      EXPECT_EQ(options.column_compression.at("default"), variant.per_column) << variant.name;
      EXPECT_EQ(options.column_encodings.at("time"), "delta_of_delta") << variant.name;
    }
  }
}

TEST(CqlParserTest, LexicalVariety) {
  const TableSchema schema = MustCreate(R"(
      -- a comment
      create table IF NOT EXISTS "MyKs"."Events" (  /* block
      comment */ "Id" UUID PRIMARY KEY, // trailing comment
      Payload BLOB, "select" text, note varchar
  ) with comment = $$it's "fine"$$ and gc_grace_seconds = 864000
    AND bloom_filter_fp_chance = 0.01 and caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}
    AND speculative_retry = '99PERCENTILE' AND read_repair = -1 AND cdc = false)");
  EXPECT_EQ(schema.keyspace(), "MyKs");
  EXPECT_EQ(schema.table(), "Events");
  EXPECT_EQ(Names(schema, schema.partition_key()), (std::vector<std::string>{"Id"}));
  EXPECT_TRUE(schema.clustering_key().empty());
  EXPECT_EQ(Names(schema, schema.LiveRegularColumns()),
            (std::vector<std::string>{"payload", "select", "note"}));
  EXPECT_EQ(schema.FindColumn("note")->type, LogicalType::kText);
  EXPECT_EQ(schema.FindColumn("Id")->type, LogicalType::kUuid);
  EXPECT_EQ(schema.options().other,
            (std::map<std::string, std::string>{
                {"bloom_filter_fp_chance", "0.01"},
                {"caching", "{'keys': 'ALL', 'rows_per_partition': 'NONE'}"},
                {"cdc", "false"},
                {"comment", "'it''s \"fine\"'"},
                {"gc_grace_seconds", "864000"},
                {"read_repair", "-1"},
                {"speculative_retry", "'99PERCENTILE'"}}));
  CreateTableStatement statement;
  ASSERT_TRUE(
      ParseCreateTable("CREATE TABLE IF NOT EXISTS t (k int PRIMARY KEY)", &statement).ok());
  EXPECT_TRUE(statement.if_not_exists);
  EXPECT_EQ(statement.schema.QualifiedName(), "t");
  // Clustering order defaults to ASC; a prefix may be given.
  const TableSchema partial = MustCreate(
      "CREATE TABLE t (a int, b int, c int, d int, PRIMARY KEY (a, b, c)) "
      "WITH CLUSTERING ORDER BY (b DESC)");
  EXPECT_EQ(partial.clustering_column(0).order, ClusteringOrder::kDesc);
  EXPECT_EQ(partial.clustering_column(1).order, ClusteringOrder::kAsc);
  EXPECT_EQ(MustCreate(partial.ToCql()), partial);
}

TEST(CqlParserTest, AlterSequence) {
  TableSchema schema = MustCreate(AccessTableCql(4, ""));
  const char* statements[] = {
      "ALTER TABLE logs.access4 ADD client_ip ascii",
      "alter table access4 add (country ascii, referrer text, latency_ms int);",
      "ALTER TABLE logs.access4 DROP referrer",
      "ALTER TABLE logs.access4 DROP (country, path)",
      "ALTER TABLE logs.access4 ADD path text",
      "ALTER TABLE logs.access4 WITH column_encodings = {'time': 'delta_of_delta', "
      "'latency_ms': 'delta'} AND default_time_to_live = 86400 AND comment = 'v6'",
  };
  for (const char* statement : statements) {
    TableSchema altered;
    Status s = ApplyAlterTable(statement, schema, &altered);
    ASSERT_TRUE(s.ok()) << statement << ": " << s.ToString();
    EXPECT_EQ(altered.version(), schema.version() + 1) << statement;
    schema = altered;
  }
  EXPECT_EQ(schema.version(), 7u);
  EXPECT_EQ(Names(schema, schema.LiveRegularColumns()),
            (std::vector<std::string>{"method", "status", "user_agent", "client_ip", "latency_ms",
                                      "path"}));
  EXPECT_EQ(schema.FindColumn("path")->id, 13u);            // re-added: a new id
  EXPECT_EQ(schema.ColumnById(6)->dropped_in_version, 5u);  // the old path
  EXPECT_EQ(schema.options().column_encodings.at("latency_ms"), "delta");
  EXPECT_EQ(schema.options().default_time_to_live, 86400);
  EXPECT_EQ(schema.options().other.at("comment"), "'v6'");
  TableSchema parsed;
  ASSERT_TRUE(TableSchema::Deserialize(schema.Serialize(), &parsed).ok());
  EXPECT_EQ(parsed, schema);

  AlterTableStatement statement;
  ASSERT_TRUE(ParseAlterTable("ALTER TABLE ks.t DROP (a, \"B\")", &statement).ok());
  EXPECT_EQ(statement.keyspace, "ks");
  EXPECT_EQ(statement.alteration.dropped_columns, (std::vector<std::string>{"a", "B"}));
}

struct BadStatement {
  const char* cql;
  const char* expected;  // a substring of the error
};

TEST(CqlParserTest, MalformedCreateTableStatements) {
  const BadStatement cases[] = {
      {"", "expected CREATE at line 1, column 1 (near end of input)"},
      {"CREATE TABEL t (k int PRIMARY KEY)", "expected TABLE at line 1, column 8 (near 'tabel')"},
      {"CREATE TABLE t (k int PRIMARY KEY", "expected ')'"},
      {"CREATE TABLE t k int PRIMARY KEY)", "expected '('"},
      {"CREATE TABLE t (k int)", "missing PRIMARY KEY"},
      {"CREATE TABLE t (k integer PRIMARY KEY)", "unsupported column type 'integer'"},
      {"CREATE TABLE t (k list<int> PRIMARY KEY)", "alternative is frozen<list<int>>"},
      {"CREATE TABLE t (k counter PRIMARY KEY)", "counter columns are not supported: "},
      {"CREATE TABLE t (k int PRIMARY KEY, v frozen<int>)",
       "frozen<...> applies to collections (list, set, map) and tuples at line 1, column 45"},
      {"CREATE TABLE t (k int PRIMARY KEY, v frozen<map<int>>)",
       "map takes 2 element types, got 1 at line 1, column 45"},
      {"CREATE TABLE t (k int PRIMARY KEY, v tuple<int, counter>)",
       "counter cannot be an element of a collection or tuple at line 1, column 49"},
      {"CREATE TABLE t (k int PRIMARY KEY, v frozen<list<int>)", "expected '>'"},
      {"CREATE TABLE t (k int PRIMARY KEY, v frozen<list<integer>>)",
       "unsupported column type 'integer'"},
      {"CREATE TABLE t (k int PRIMARY KEY, v frozen<list>)", "expected '<' after list"},
      {"CREATE TABLE t (k int PRIMARY KEY, v int, v text)", "column 'v' defined twice"},
      {"CREATE TABLE t (k int, PRIMARY KEY (x))", "PRIMARY KEY names undefined column 'x'"},
      {"CREATE TABLE t (k int, c int, PRIMARY KEY ((k), k))", "'k' appears twice"},
      {"CREATE TABLE t (k int PRIMARY KEY, c int, PRIMARY KEY (c))", "PRIMARY KEY defined twice"},
      {"CREATE TABLE t (k int, c int, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (k DESC)",
       "'k' is out of place"},
      {"CREATE TABLE t (k int, c int, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c UP)",
       "expected ASC or DESC"},
      {"CREATE TABLE t (k int, c int, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER (c DESC)",
       "expected BY"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH default_time_to_live = -1",
       "default_time_to_live must be an integer"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH default_time_to_live = 'x'",
       "default_time_to_live must be an integer"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH column_encodings = {'k': 'zip'}",
       "unknown encoding 'zip' at line 1, column 66"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH column_encodings = 'plain'",
       "column_encodings must be a map"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH column_encodings = {'nope': 'plain'}",
       "unknown column 'nope'"},
      {"CREATE TABLE t (k int PRIMARY KEY, v text) WITH column_encodings = {'v': 'gorilla'}",
       "cannot encode column 'v'"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH column_compression = {'default': 'lz4'}",
       "column compression must be 'none' or 'zstd'"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH column_compression = {'k': 1}",
       "entries must be 'string': 'string'"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH comment = 'a' AND comment = 'b'",
       "option 'comment' given twice"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH comment 'a'", "expected '='"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH comment = ", "expected an option value"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH compaction = {'class': }",
       "expected an option value"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH COMPACT STORAGE",
       "COMPACT STORAGE is not supported"},
      {"CREATE TABLE t (k int PRIMARY KEY, s int static)", "static columns are not supported"},
      {"CREATE TABLE t (select int PRIMARY KEY)", "reserved keyword 'select'"},
      {"CREATE TABLE t (k int PRIMARY KEY); extra", "unexpected text after the end"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH comment = 'unterminated",
       "unterminated string literal at line 1, column 51"},
      {"CREATE TABLE t (k int PRIMARY KEY) /* open", "unterminated /* comment"},
      {"CREATE TABLE t (k int PRIMARY KEY)\n  WITH comment = @",
       "unexpected character '@' at line 2, column 18"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH x = 12_ab", "malformed number"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH x = 12ab_", "malformed duration"},
      {"CREATE TABLE t (k int PRIMARY KEY) WITH x = 12ab", "expected an option value"},
      {"CREATE TABLE t (\"\" int PRIMARY KEY)", "empty quoted identifier"},
      {"CREATE TABLE ks. (k int PRIMARY KEY)", "expected table name"},
  };
  for (const BadStatement& c : cases) {
    CreateTableStatement statement;
    Status s = ParseCreateTable(c.cql, &statement);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.cql;
    EXPECT_NE(s.ToString().find(c.expected), std::string::npos)
        << c.cql << "\n  got: " << s.ToString() << "\n  expected: " << c.expected;
  }
}

TEST(CqlParserTest, MalformedAlterTableStatements) {
  const TableSchema schema = MustCreate(kMetricsTable);
  const BadStatement cases[] = {
      {"ALTER TABLE metrics.v2metrics5", "expected ADD, DROP or WITH"},
      {"ALTER TABLE metrics.v2metrics5 RENAME a TO b", "expected ADD, DROP or WITH"},
      {"ALTER TABLE metrics.v2metrics5 ADD", "expected column name"},
      {"ALTER TABLE metrics.v2metrics5 ADD x", "expected a column type"},
      {"ALTER TABLE metrics.v2metrics5 ADD (x int, y)", "expected a column type"},
      {"ALTER TABLE metrics.v2metrics5 ADD (x int", "expected ')'"},
      {"ALTER TABLE metrics.v2metrics5 ADD x int, y int", "unexpected text after the end"},
      {"ALTER TABLE metrics.v2metrics5 ADD value int", "cannot add column 'value'"},
      {"ALTER TABLE metrics.v2metrics5 DROP time", "cannot drop primary key column 'time'"},
      {"ALTER TABLE metrics.v2metrics5 DROP orgid", "cannot drop primary key column 'orgid'"},
      {"ALTER TABLE metrics.v2metrics5 DROP nope", "cannot drop unknown column 'nope'"},
      {"ALTER TABLE metrics.v2metrics5 DROP (value, value)", "column 'value' listed twice"},
      {"ALTER TABLE metrics.v2metrics5 WITH CLUSTERING ORDER BY (time ASC)",
       "CLUSTERING ORDER cannot be changed"},
      {"ALTER TABLE metrics.v2metrics5 WITH column_encodings = {'ghost': 'plain'}",
       "unknown column 'ghost'"},
      {"ALTER TABLE metrics.other ADD x int", "names metrics.other, not metrics.v2metrics5"},
      {"ALTER TABLE elsewhere.v2metrics5 ADD x int", "names elsewhere.v2metrics5"},
      {"DROP TABLE metrics.v2metrics5", "expected ALTER"},
  };
  for (const BadStatement& c : cases) {
    TableSchema altered = schema;
    Status s = ApplyAlterTable(c.cql, schema, &altered);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.cql;
    EXPECT_NE(s.ToString().find(c.expected), std::string::npos)
        << c.cql << "\n  got: " << s.ToString() << "\n  expected: " << c.expected;
    EXPECT_EQ(altered, schema) << c.cql;
  }
}

// Damaged statements never crash: each parses or fails with InvalidArgument, and whatever
// parses is a valid schema that round-trips.
TEST(CqlParserTest, DamagedStatementsFailCleanly) {
  std::mt19937_64 rng(41);
  const std::string original = kMetricsTableWithOptions;
  const char kInserted[] = "(),;'\"{}:=.-x0 \n/*";
  size_t failures = 0;
  for (int i = 0; i < 3000; i++) {
    std::string cql = original;
    for (int edits = 1 + rng() % 3; edits > 0; edits--) {
      const size_t at = rng() % cql.size();
      if (rng() % 2 == 0) {
        cql.erase(at, 1 + rng() % 4);
      } else {
        cql.insert(at, 1, kInserted[rng() % (sizeof(kInserted) - 1)]);
      }
    }
    CreateTableStatement statement;
    Status s = ParseCreateTable(cql, &statement);
    if (!s.ok()) {
      ASSERT_TRUE(s.IsInvalidArgument()) << cql;
      failures++;
      continue;
    }
    TableSchema parsed;
    ASSERT_TRUE(TableSchema::Deserialize(statement.schema.Serialize(), &parsed).ok()) << cql;
    ASSERT_EQ(parsed, statement.schema);
  }
  EXPECT_GT(failures, 1000u);
}

TEST(CqlLexerTest, TokensAndPositions) {
  std::vector<Token> tokens;
  ASSERT_TRUE(TokenizeCql("SELECT \"Mixed\"\"Q\", 'it''s', -12, 3.5e-2, 0xCAFE,\n"
                          "  123e4567-e89b-12d3-a456-426614174000 <= x != ?",
                          &tokens)
                  .ok());
  const std::vector<std::pair<TokenKind, std::string>> expected = {
      {TokenKind::kIdentifier, "select"},
      {TokenKind::kQuotedIdentifier, "Mixed\"Q"},
      {TokenKind::kSymbol, ","},
      {TokenKind::kString, "it's"},
      {TokenKind::kSymbol, ","},
      {TokenKind::kInteger, "-12"},
      {TokenKind::kSymbol, ","},
      {TokenKind::kFloat, "3.5e-2"},
      {TokenKind::kSymbol, ","},
      {TokenKind::kHexBlob, "0xCAFE"},
      {TokenKind::kSymbol, ","},
      {TokenKind::kUuid, "123e4567-e89b-12d3-a456-426614174000"},
      {TokenKind::kSymbol, "<="},
      {TokenKind::kIdentifier, "x"},
      {TokenKind::kSymbol, "!="},
      {TokenKind::kSymbol, "?"},
      {TokenKind::kEnd, ""},
  };
  ASSERT_EQ(tokens.size(), expected.size());
  for (size_t i = 0; i < expected.size(); i++) {
    EXPECT_EQ(tokens[i].kind, expected[i].first) << i;
    EXPECT_EQ(tokens[i].text, expected[i].second) << i;
  }
  EXPECT_EQ(tokens[11].line, 2);
  EXPECT_EQ(tokens[11].column, 3);
  EXPECT_EQ(TokenLiteralText(tokens[3]), "'it''s'");
  EXPECT_EQ(CqlIdentifier("time"), "time");
  EXPECT_EQ(CqlIdentifier("select"), "\"select\"");
  EXPECT_EQ(CqlIdentifier("Id"), "\"Id\"");
  EXPECT_EQ(CqlIdentifier("a\"b"), "\"a\"\"b\"");
  EXPECT_TRUE(IsReservedCqlKeyword("primary"));
  EXPECT_TRUE(IsReservedCqlKeyword("add"));
  EXPECT_TRUE(IsReservedCqlKeyword("with"));
  EXPECT_FALSE(IsReservedCqlKeyword("time"));
  EXPECT_FALSE(IsReservedCqlKeyword("key"));
}

TEST(CqlLexerTest, CursorHelpers) {
  std::vector<Token> tokens;
  ASSERT_TRUE(TokenizeCql("INSERT INTO t (a) VALUES (1);", &tokens).ok());
  TokenCursor cursor(tokens);
  EXPECT_TRUE(cursor.ConsumeKeyword("insert"));
  EXPECT_TRUE(cursor.ExpectKeyword("into").ok());
  std::string name;
  EXPECT_TRUE(cursor.ExpectName("table name", &name).ok());
  EXPECT_EQ(name, "t");
  EXPECT_TRUE(cursor.PeekSymbol("("));
  Status s = cursor.ExpectKeyword("values");
  EXPECT_NE(s.ToString().find("expected VALUES at line 1, column 15 (near '(')"), std::string::npos)
      << s.ToString();
  while (!cursor.PeekSymbol(";")) cursor.Next();
  EXPECT_TRUE(cursor.ExpectEndOfStatement().ok());
  EXPECT_TRUE(cursor.AtEnd());
  cursor.Next();  // stays at the end
  EXPECT_TRUE(cursor.AtEnd());
}

}  // namespace
}  // namespace columnar
