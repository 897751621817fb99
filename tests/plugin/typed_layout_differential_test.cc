// The typed layout against BlockBasedTable: well-formed rows of the source documents' tables
// (keys from the key codec, values from the row codec, with write times, expiries and nulls)
// mixed with keys and values that do not fit the schema, deletions, merges and range
// deletions. Every entry must come back byte for byte.
#include <gtest/gtest.h>

#include "plugin/columnar_table.h"
#include "table_format/column_stats.h"
#include "table_format/cql_parser.h"
#include "table_format/key_codec.h"
#include "table_format/row_codec.h"
#include "tests/plugin/differential_harness.h"

namespace columnar {
namespace {

const char* kMetricsTable = R"(
  CREATE TABLE metrics.v2metrics5 (orgid text, clusterhash bigint, metricid bigint,
    time int, value float, PRIMARY KEY ((orgid, clusterhash, metricid), time))
  WITH CLUSTERING ORDER BY (time DESC) AND column_encodings = {'time': 'delta_of_delta'})";

const char* kAccess8Table = R"(
  CREATE TABLE logs.access8 (orgid text, service text, instance text, day date,
    time timestamp, method ascii, path text, status int, user_agent text, client_ip ascii,
    country ascii, referrer text, latency_ms int,
    PRIMARY KEY ((orgid, service, instance, day), time))
  WITH CLUSTERING ORDER BY (time DESC))";

TableSchema Parse(const char* cql) {
  CreateTableStatement statement;
  EXPECT_TRUE(ParseCreateTable(cql, &statement).ok());
  return statement.schema;
}

// Random values of a column's type, small domains so that rows collide and get overwritten.
Value CollidingValueOf(LogicalType type, std::mt19937_64& rng) {
  switch (type) {
    case LogicalType::kText:
    case LogicalType::kAscii:
      return Value::FromBytes(type, "v" + std::to_string(rng() % 7) + std::string(rng() % 3, 'x'));
    case LogicalType::kInt:
      return Value::Int(static_cast<int32_t>(rng() % 2000) - 1000);
    case LogicalType::kBigInt:
      return Value::BigInt(static_cast<int64_t>(rng() % 5) * 1000003);
    case LogicalType::kTimestamp:
      return Value::Timestamp(1700000000000 + static_cast<int64_t>(rng() % 200) * 5000);
    case LogicalType::kDate:
      return Value::Date(19700 + static_cast<int32_t>(rng() % 2));
    case LogicalType::kFloat:
      return Value::Float(static_cast<float>(rng() % 10000) / 7.0f);
    default:
      return Value::Double(static_cast<double>(rng() % 100));
  }
}

// A row with per-cell metadata (row codec format 2): one cell written at another time, without
// a cell, or the row without liveness (written by UPDATEs) or with a deletion time.
std::string RandomCellMetadataRow(const RowCodec& codec, std::mt19937_64& rng) {
  const TableSchema& schema = codec.schema();
  RowVersions row;
  row.schema_version = schema.version();
  row.has_liveness = rng() % 3 != 0;
  row.liveness.write_time_micros = 1700000000000000 + static_cast<int64_t>(rng() % 100000000);
  row.has_deletion = rng() % 4 == 0;
  row.deletion_time_micros = 1600000000000000;
  std::vector<Value> values;
  values.reserve(schema.next_column_id());
  for (uint32_t id : *codec.ColumnsAt(row.schema_version)) {
    values.push_back(rng() % 6 != 0 ? CollidingValueOf(schema.columns()[id].type, rng) : Value());
    CellVersion version;
    version.state = values.back().is_null() ? CellState::kDeleted : CellState::kLive;
    version.write_time_micros = row.liveness.write_time_micros - static_cast<int64_t>(rng() % 3);
    if (rng() % 5 == 0) version = CellVersion();  // no cell
    if (version.state == CellState::kAbsent) values.back() = Value();
    row.versions.push_back(version);
  }
  for (size_t i = 0; i < values.size(); i++) {
    const uint32_t id = (*codec.ColumnsAt(row.schema_version))[i];
    row.cells.push_back(CellFromValue(id, schema.columns()[id].type, values[i]));
  }
  std::string value;
  EXPECT_TRUE(codec.EncodeVersions(row, &value).ok());
  return value;
}

DifferentialOptions TypedDifferential(const TableSchema& schema, uint64_t seed,
                                      uint64_t cell_metadata_one_in = 0) {
  DifferentialOptions options;
  options.seed = seed;
  options.operations = 5000;
  options.verify_every = 1000;
  auto shared = std::make_shared<TableSchema>(schema);
  auto codec = std::make_shared<RowCodec>(schema);
  options.random_key = [shared](std::mt19937_64& rng) -> std::optional<std::string> {
    if (rng() % 10 == 0) return std::nullopt;  // the harness's own (untyped) keys
    std::vector<Value> partition, clustering;
    for (uint32_t id : shared->partition_key()) {
      partition.push_back(CollidingValueOf(shared->columns()[id].type, rng));
    }
    for (uint32_t id : shared->clustering_key()) {
      clustering.push_back(CollidingValueOf(shared->columns()[id].type, rng));
    }
    std::string key;
    EXPECT_TRUE(EncodeKey(*shared, partition, clustering, &key).ok());
    return key;
  };
  options.random_value =
      [shared, codec, cell_metadata_one_in](std::mt19937_64& rng) -> std::optional<std::string> {
    if (rng() % 8 == 0) return std::nullopt;  // arbitrary bytes: stored opaque
    if (cell_metadata_one_in != 0 && rng() % cell_metadata_one_in == 0) {
      return RandomCellMetadataRow(*codec, rng);
    }
    RowMetadata meta;
    meta.schema_version = shared->version();
    meta.has_write_time = rng() % 5 != 0;
    meta.write_time_micros = 1700000000000000 + static_cast<int64_t>(rng() % 100000000);
    meta.has_expiry = rng() % 3 != 0;
    meta.expiry_seconds = 1702592000 + rng() % 1000;
    Row row(shared->next_column_id());
    for (uint32_t id : shared->LiveRegularColumns()) {
      if (rng() % 6 != 0) row[id] = CollidingValueOf(shared->columns()[id].type, rng);
    }
    std::string value;
    EXPECT_TRUE(codec->EncodeRow(meta, row, &value).ok());
    return value;
  };
  options.configure_test = [shared](rocksdb::Options* o) {
    ColumnarTableOptions table;
    table.rows_per_group = 32;
    table.block_size = 4096;
    table.schema = shared->Serialize();
    o->table_factory.reset(NewColumnarTableFactory(table));
  };
  return options;
}

// The files really hold typed columns: most rows land in the schema's columns, not in the
// opaque fallbacks.
void ExpectTypedColumns(rocksdb::DB* db, const std::vector<std::string>& columns) {
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  rocksdb::TablePropertiesCollection files;
  ASSERT_TRUE(db->GetPropertiesOfAllTables(&files).ok());
  ASSERT_FALSE(files.empty());
  uint64_t typed_values = 0, opaque_values = 0;
  for (const auto& [name, props] : files) {
    const auto& user = props->user_collected_properties;
    ASSERT_EQ(user.at("columnar.layout"), "typed") << name;
    ColumnStats stats;
    ASSERT_TRUE(ColumnStats::Parse(user.at("columnar.column_stats"), &stats).ok());
    for (const std::string& column : columns) {
      if (stats.columns().count(column)) typed_values += stats.columns().at(column).values;
    }
    if (stats.columns().count("opaque_value")) {
      opaque_values += stats.columns().at("opaque_value").values;
    }
  }
  EXPECT_GT(typed_values, 0u);
  EXPECT_GT(opaque_values, 0u);  // the fallback is exercised too
}

TEST(TypedLayoutDifferential, MetricsTable) {
  DifferentialHarness harness("typed-metrics", TypedDifferential(Parse(kMetricsTable), 5));
  EXPECT_TRUE(harness.Run());
  ExpectTypedColumns(harness.tested(), {"time", "value", "write_time", "expiry"});
}

TEST(TypedLayoutDifferential, AccessTable) {
  DifferentialHarness harness("typed-access", TypedDifferential(Parse(kAccess8Table), 6));
  EXPECT_TRUE(harness.Run());
  ExpectTypedColumns(harness.tested(), {"time", "method", "status", "latency_ms"});
}

// Rows with per-cell metadata (row codec format 2) among the others: they are kept whole
// (opaque values) and come back byte for byte, also next to typed rows of the same group.
TEST(TypedLayoutDifferential, MetricsTableWithCellMetadataRows) {
  DifferentialHarness harness("typed-metrics-cells",
                              TypedDifferential(Parse(kMetricsTable), 7, /*one_in=*/3));
  EXPECT_TRUE(harness.Run());
  ExpectTypedColumns(harness.tested(), {"time", "value", "write_time", "expiry"});
}

}  // namespace
}  // namespace columnar
