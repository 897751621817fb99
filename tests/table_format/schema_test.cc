#include "table_format/schema.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "table_format/cql_parser.h"
#include "tests/table_format/random_values.h"

namespace columnar {
namespace {

TableSchema MetricsSchema() {
  TableOptions options;
  options.column_encodings = {{"time", "delta_of_delta"}, {"value", "alp"}};
  options.column_compression = {{"default", "zstd"}};
  options.default_time_to_live = 2592000;
  options.other = {{"sstable_format", "'columnar'"}};
  TableSchema schema;
  Status s = TableSchemaBuilder("metrics", "v2metrics5")
                 .AddColumn("orgid", LogicalType::kText)
                 .AddColumn("clusterhash", LogicalType::kBigInt)
                 .AddColumn("metricid", LogicalType::kBigInt)
                 .AddColumn("time", LogicalType::kInt)
                 .AddColumn("value", LogicalType::kFloat)
                 .SetPartitionKey({"orgid", "clusterhash", "metricid"})
                 .AddClusteringColumn("time", ClusteringOrder::kDesc)
                 .SetOptions(options)
                 .Build(&schema);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return schema;
}

TEST(SchemaTest, BuilderAssignsIdsRolesAndLookups) {
  const TableSchema schema = MetricsSchema();
  EXPECT_EQ(schema.QualifiedName(), "metrics.v2metrics5");
  EXPECT_EQ(schema.version(), 1u);
  ASSERT_EQ(schema.columns().size(), 5u);
  for (uint32_t id = 0; id < 5; id++) EXPECT_EQ(schema.columns()[id].id, id);
  EXPECT_EQ(schema.partition_key(), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(schema.clustering_key(), (std::vector<uint32_t>{3}));
  EXPECT_EQ(schema.clustering_column(0).order, ClusteringOrder::kDesc);
  EXPECT_EQ(schema.LiveRegularColumns(), (std::vector<uint32_t>{4}));
  ASSERT_NE(schema.FindColumn("value"), nullptr);
  EXPECT_EQ(schema.FindColumn("value")->type, LogicalType::kFloat);
  EXPECT_EQ(schema.FindColumn("Value"), nullptr);  // names are case-sensitive
  EXPECT_EQ(schema.ColumnById(1)->name, "clusterhash");
  EXPECT_EQ(schema.ColumnById(5), nullptr);
}

TEST(SchemaTest, BuilderRejectsInvalidTables) {
  struct Case {
    const char* problem;
    TableSchemaBuilder builder;
  };
  auto base = []() {
    return TableSchemaBuilder("ks", "t")
        .AddColumn("p", LogicalType::kInt)
        .AddColumn("v", LogicalType::kText);
  };
  auto with_options = [&](TableOptions options) {
    return base().SetPartitionKey({"p"}).SetOptions(std::move(options));
  };
  TableOptions unknown_encoding_column, unknown_encoding, bad_encoding_type, bad_compression,
      negative_ttl, huge_ttl, typed_in_other;
  unknown_encoding_column.column_encodings = {{"nope", "plain"}};
  unknown_encoding.column_encodings = {{"v", "lz77"}};
  bad_encoding_type.column_encodings = {{"v", "delta_of_delta"}};
  bad_compression.column_compression = {{"default", "lz4"}};
  negative_ttl.default_time_to_live = -1;
  huge_ttl.default_time_to_live = kMaxTimeToLiveSeconds + 1;
  typed_in_other.other = {{"column_encodings", "{}"}};
  Case cases[] = {
      {"needs at least one partition key", base()},
      {"duplicate column name 'p'",
       base().AddColumn("p", LogicalType::kInt).SetPartitionKey({"p"})},
      {"unknown column 'x'", base().SetPartitionKey({"x"})},
      {"'p' appears more than once", base().SetPartitionKey({"p"}).AddClusteringColumn("p")},
      {"table name is empty",
       TableSchemaBuilder("ks", "").AddColumn("p", LogicalType::kInt).SetPartitionKey({"p"})},
      {"empty name",
       TableSchemaBuilder("ks", "t").AddColumn("", LogicalType::kInt).SetPartitionKey({""})},
      {"unknown column 'nope'", with_options(unknown_encoding_column)},
      {"unknown encoding 'lz77'", with_options(unknown_encoding)},
      {"cannot encode column 'v'", with_options(bad_encoding_type)},
      {"'lz4'", with_options(bad_compression)},
      {"default_time_to_live", with_options(negative_ttl)},
      {"default_time_to_live", with_options(huge_ttl)},
      {"invalid table option 'column_encodings'", with_options(typed_in_other)},
  };
  for (const Case& c : cases) {
    TableSchema schema;
    Status s = c.builder.Build(&schema);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.problem;
    EXPECT_NE(s.ToString().find(c.problem), std::string::npos) << s.ToString();
  }
}

TEST(SchemaTest, AlterAddDropKeepsIdsAndBumpsVersion) {
  const TableSchema v1 = MetricsSchema();
  TableSchema v2, v3, v4, v5;
  TableAlteration add;
  add.added_columns = {{"unit", LogicalType::kAscii}, {"tags", LogicalType::kBlob}};
  ASSERT_TRUE(v1.Alter(add, &v2).ok());
  EXPECT_EQ(v2.version(), 2u);
  EXPECT_EQ(v2.FindColumn("unit")->id, 5u);
  EXPECT_EQ(v2.FindColumn("tags")->id, 6u);
  EXPECT_EQ(v2.FindColumn("tags")->added_in_version, 2u);
  EXPECT_EQ(v2.LiveRegularColumns(), (std::vector<uint32_t>{4, 5, 6}));

  TableAlteration drop;
  drop.dropped_columns = {"value", "unit"};
  ASSERT_TRUE(v2.Alter(drop, &v3).ok());
  EXPECT_EQ(v3.version(), 3u);
  EXPECT_EQ(v3.FindColumn("value"), nullptr);
  EXPECT_EQ(v3.ColumnById(4)->dropped_in_version, 3u);
  EXPECT_EQ(v3.options().column_encodings.count("value"), 0u);  // per-column options go too
  EXPECT_EQ(v3.LiveRegularColumns(), (std::vector<uint32_t>{6}));

  TableAlteration readd;
  readd.added_columns = {{"value", LogicalType::kDouble}};
  ASSERT_TRUE(v3.Alter(readd, &v4).ok());
  EXPECT_EQ(v4.FindColumn("value")->id, 7u);  // a new id, never the dropped one
  EXPECT_EQ(v4.FindColumn("value")->type, LogicalType::kDouble);
  EXPECT_EQ(v4.RegularColumnsAt(1), (std::vector<uint32_t>{4}));
  EXPECT_EQ(v4.RegularColumnsAt(2), (std::vector<uint32_t>{4, 5, 6}));
  EXPECT_EQ(v4.RegularColumnsAt(3), (std::vector<uint32_t>{6}));
  EXPECT_EQ(v4.RegularColumnsAt(4), (std::vector<uint32_t>{6, 7}));

  TableAlteration options;
  options.default_time_to_live = 60;
  options.column_encodings = std::map<std::string, std::string>{{"value", "gorilla"}};
  options.other_options = {{"comment", "'hi'"}};
  ASSERT_TRUE(v4.Alter(options, &v5).ok());
  EXPECT_EQ(v5.version(), 5u);
  EXPECT_EQ(v5.options().default_time_to_live, 60);
  EXPECT_EQ(v5.options().column_encodings.at("value"), "gorilla");
  EXPECT_EQ(v5.options().other.at("sstable_format"), "'columnar'");
  EXPECT_EQ(v5.options().other.at("comment"), "'hi'");
}

TEST(SchemaTest, AlterRejectsInvalidChanges) {
  const TableSchema schema = MetricsSchema();
  struct Case {
    const char* problem;
    TableAlteration alteration;
  };
  std::vector<Case> cases(5);
  cases[0] = {"cannot drop primary key column 'time'", {}};
  cases[0].alteration.dropped_columns = {"time"};
  cases[1] = {"cannot drop unknown column 'nope'", {}};
  cases[1].alteration.dropped_columns = {"nope"};
  cases[2] = {"'value': it already exists", {}};
  cases[2].alteration.added_columns = {{"value", LogicalType::kInt}};
  cases[3] = {"unknown column 'ghost'", {}};
  cases[3].alteration.column_encodings = std::map<std::string, std::string>{{"ghost", "plain"}};
  cases[4] = {"cannot drop unknown column 'value'", {}};
  cases[4].alteration.dropped_columns = {"value", "value"};
  for (const Case& c : cases) {
    TableSchema altered = schema;
    Status s = schema.Alter(c.alteration, &altered);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.problem;
    EXPECT_NE(s.ToString().find(c.problem), std::string::npos) << s.ToString();
    EXPECT_EQ(altered, schema);  // untouched
  }
}

// Names and option values full of characters RocksDB's option syntax reserves.
TableSchema AwkwardSchema() {
  TableOptions options;
  options.column_encodings = {{"we;ird=", "plain"}, {"t", "delta"}};
  options.column_compression = {{"default", "none"}, {"{v}", "zstd"}};
  options.default_time_to_live = 7;
  options.other = {{"comment", "'it''s # \"x\" \\ {y}\n'"},
                   {"compaction", "{'class': 'TimeWindowCompactionStrategy'}"}};
  TableSchema schema;
  Status s = TableSchemaBuilder(" ks ", "T%1")
                 .AddColumn("we;ird=", LogicalType::kAscii)
                 .AddColumn("t", LogicalType::kTimestamp)
                 .AddColumn("{v}", LogicalType::kDouble)
                 .AddColumn("é 'q'", LogicalType::kUuid)
                 .AddColumn("gone", LogicalType::kBoolean)
                 .SetPartitionKey({"we;ird="})
                 .AddClusteringColumn("t", ClusteringOrder::kDesc)
                 .AddClusteringColumn("é 'q'")
                 .SetOptions(options)
                 .Build(&schema);
  EXPECT_TRUE(s.ok()) << s.ToString();
  TableAlteration drop;
  drop.dropped_columns = {"gone"};
  TableSchema altered;
  EXPECT_TRUE(schema.Alter(drop, &altered).ok());
  TableAlteration readd;
  readd.added_columns = {{"gone", LogicalType::kDate}};
  EXPECT_TRUE(altered.Alter(readd, &schema).ok());
  return schema;
}

TEST(SchemaTest, SerializationRoundTripsEverythingInSafeCharacters) {
  for (const TableSchema& schema : {MetricsSchema(), AwkwardSchema()}) {
    const std::string serialized = schema.Serialize();
    for (char c : std::string(";={}#\\\"'\n\r")) {
      EXPECT_EQ(serialized.find(c), std::string::npos) << "'" << c << "' in " << serialized;
    }
    EXPECT_NE(serialized.front(), ' ');
    EXPECT_NE(serialized.back(), ' ');
    for (char c : serialized) EXPECT_TRUE(c > 0x20 && c < 0x7f) << serialized;
    TableSchema parsed;
    Status s = TableSchema::Deserialize(serialized, &parsed);
    ASSERT_TRUE(s.ok()) << s.ToString() << "\n" << serialized;
    EXPECT_EQ(parsed, schema);
    EXPECT_EQ(parsed.Serialize(), serialized);
  }
  const TableSchema awkward = AwkwardSchema();
  EXPECT_EQ(awkward.version(), 3u);
  EXPECT_EQ(awkward.columns().size(), 6u);
}

TEST(SchemaTest, DeserializeRejectsDamagedInput) {
  const std::string serialized = AwkwardSchema().Serialize();
  TableSchema schema;
  for (size_t length = 0; length < serialized.size(); length++) {
    EXPECT_FALSE(TableSchema::Deserialize(Slice(serialized.data(), length), &schema).ok())
        << length;
  }
  EXPECT_FALSE(TableSchema::Deserialize(serialized + ",", &schema).ok());
  const char* invalid[] = {
      "",
      "columnar-schema:2:ks:t:1:[(p:int:p:a:1:0)]:[0]:[]:0:[]:[]:[]",  // format version
      "columnar-schema:1:ks:t:1:[(p:int:p:a:1:0)]:[]:[]:0:[]:[]:[]",   // no partition key
      "columnar-schema:1:ks:t:1:[(p:int:r:a:1:0)]:[0]:[]:0:[]:[]:[]",  // role mismatch
      "columnar-schema:1:ks:t:1:[(p:int:p:a:2:0)]:[0]:[]:0:[]:[]:[]",  // added after version
      "columnar-schema:1:ks:t:2:[(p:int:p:a:1:2)]:[0]:[]:0:[]:[]:[]",  // key column dropped
      "columnar-schema:1:ks:t:1:[(p:int:p:a:1:0)]:[0]:[]:0:[(x:plain)]:[]:[]",  // unknown column
      "columnar-schema:1:ks:t:1:[(p:integer:p:a:1:0)]:[0]:[]:0:[]:[]:[]",       // type name
      "columnar-schema:1:ks:t:1:[(p:int:p:a:1:0)]:[0]:[]:01:[]:[]:[]",          // leading zero
      "columnar-schema:1:ks:t:1:[(p:int:p:a:1:0)]:[0]:[]:0:[]:[]:[]:",          // trailing text
      "columnar-schema:1:ks:t:1:[(p%4:int:p:a:1:0)]:[0]:[]:0:[]:[]:[]",         // bad escape
      "columnar-schema:1:ks:t:1:[(p:int:p:a:1:0)]:[0]:[0]:0:[]:[]:[]",          // pk as clustering
  };
  for (const char* text : invalid) {
    Status s = TableSchema::Deserialize(text, &schema);
    EXPECT_TRUE(s.IsCorruption()) << text << " -> " << s.ToString();
  }
  ASSERT_TRUE(TableSchema::Deserialize(
                  "columnar-schema:1:ks:t:1:[(p:int:p:a:1:0)]:[0]:[]:0:[]:[]:[]", &schema)
                  .ok());
  // Random damage never crashes; what is accepted is a valid schema.
  test::RandomValues random(31);
  for (int i = 0; i < 5000; i++) {
    std::string damaged = serialized;
    damaged[random.Uniform(damaged.size())] = ":,()[]%0a9p"[random.Uniform(11)];
    TableSchema parsed;
    if (TableSchema::Deserialize(damaged, &parsed).ok()) {
      TableSchema again;
      EXPECT_TRUE(TableSchema::Deserialize(parsed.Serialize(), &again).ok());
      EXPECT_EQ(again, parsed);
    }
  }
}

// The live part of a schema: what ToCql() promises to keep.
std::string LiveShape(const TableSchema& schema) {
  std::string shape = schema.QualifiedName() + "|";
  for (const ColumnDef& column : schema.columns()) {
    if (!column.is_live()) continue;
    shape += column.name + ":" + LogicalTypeName(column.type) + ":" +
             std::to_string(static_cast<int>(column.role)) + ":" +
             std::to_string(static_cast<int>(column.order)) + ",";
  }
  for (uint32_t id : schema.partition_key()) shape += "P" + schema.columns()[id].name;
  for (uint32_t id : schema.clustering_key()) shape += "C" + schema.columns()[id].name;
  return shape;
}

TEST(SchemaTest, ToCqlParsesBackToTheLiveSchema) {
  for (const TableSchema& schema : {MetricsSchema(), AwkwardSchema()}) {
    const std::string cql = schema.ToCql();
    CreateTableStatement statement;
    Status s = ParseCreateTable(cql, &statement);
    ASSERT_TRUE(s.ok()) << s.ToString() << "\n" << cql;
    EXPECT_EQ(LiveShape(statement.schema), LiveShape(schema)) << cql;
    EXPECT_EQ(statement.schema.options(), schema.options()) << cql;
    EXPECT_EQ(statement.schema.ToCql(), cql);
  }
  EXPECT_EQ(MetricsSchema().ToCql(),
            "CREATE TABLE metrics.v2metrics5 (\n"
            "    orgid text,\n"
            "    clusterhash bigint,\n"
            "    metricid bigint,\n"
            "    time int,\n"
            "    value float,\n"
            "    PRIMARY KEY ((orgid, clusterhash, metricid), time)\n"
            ") WITH CLUSTERING ORDER BY (time DESC)\n"
            "    AND column_encodings = {'time': 'delta_of_delta', 'value': 'alp'}\n"
            "    AND column_compression = {'default': 'zstd'}\n"
            "    AND default_time_to_live = 2592000\n"
            "    AND sstable_format = 'columnar';");
}

TEST(SchemaTest, RandomSchemasRoundTrip) {
  test::RandomValues random(32);
  for (int i = 0; i < 200; i++) {
    TableSchema schema = test::RandomSchema(&random, 8);
    // A few random ALTERs.
    for (int step = random.Uniform(4); step > 0; step--) {
      TableAlteration alteration;
      const std::vector<uint32_t> regular = schema.LiveRegularColumns();
      if (!regular.empty() && random.OneIn(2)) {
        alteration.dropped_columns = {
            schema.columns()[regular[random.Uniform(regular.size())]].name};
      } else {
        alteration.added_columns = {
            {"n" + std::to_string(step) + "_" + std::to_string(i), random.Type()}};
      }
      TableSchema altered;
      ASSERT_TRUE(schema.Alter(alteration, &altered).ok());
      schema = altered;
    }
    TableSchema parsed;
    ASSERT_TRUE(TableSchema::Deserialize(schema.Serialize(), &parsed).ok());
    ASSERT_EQ(parsed, schema);
    CreateTableStatement statement;
    ASSERT_TRUE(ParseCreateTable(schema.ToCql(), &statement).ok()) << schema.ToCql();
    ASSERT_EQ(LiveShape(statement.schema), LiveShape(schema));
  }
}

}  // namespace
}  // namespace columnar
