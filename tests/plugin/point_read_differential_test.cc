// Point reads (Get, MultiGet, Seek / SeekForPrev and the Next / Prev after them) against
// BlockBasedTable, over every encoding forced on the columns it can hold (others fall back to
// plain), with and without column zstd, with and without outer block compression (blocks read
// into a buffer of their own, or decompressed), with values stored outside their row groups
// (oversized), and rows that have null cells, write times, expiries, multiple versions,
// deletions, single deletions, merges and range deletions, read latest and at snapshots.
// With a one-byte cache nothing stays cached, so every read takes the cold-group path (only
// the key columns and the rows returned decoded); with a normal cache, later reads hit the
// cached blocks, groups read often are decoded whole, and reads hit those.
#include <gtest/gtest.h>

#include "plugin/columnar_table.h"
#include "table_format/cql_parser.h"
#include "table_format/key_codec.h"
#include "table_format/row_codec.h"
#include "tests/plugin/differential_harness.h"

namespace columnar {
namespace {

const std::vector<std::string>& EncodingNames() {
  static const std::vector<std::string> names = {
      "plain",       "rle",        "dictionary", "delta",       "delta_of_delta",
      "gorilla",     "alp",        "alp_rd",     "float_delta", "front_coding",
      "for",         "hex",        "rice_delta", "constant",    "template",
      "mixed_radix", "rle_nested", "auto"};
  return names;
}

// "c1:encoding,c2:encoding,...".
std::string EncodeAll(const std::vector<std::string>& columns, const std::string& encoding) {
  std::string spec;
  for (const std::string& column : columns) {
    if (!spec.empty()) spec += ",";
    spec += column + ":" + encoding;
  }
  return spec;
}

ColumnarTableOptions PointReadTable(size_t variant, const std::string& encodings) {
  ColumnarTableOptions table;
  table.rows_per_group = 16;
  table.block_size = 2048;
  table.column_encodings = encodings;
  table.column_compression = variant % 2 == 1 ? "zstd" : "none";
  // Variants 0 and 1 of every 4: nothing stays cached, so every point read decodes its own
  // group.
  table.cache_size = variant % 4 < 2 ? 1 : (8 << 20);
  // One variant in 3: values above 500 bytes (the harness writes up to 2000) are stored outside
  // their row groups.
  if (variant % 3 == 2) table.max_inline_value_bytes = 500;
  return table;
}

// Outer block compression is on for variants 4 to 7 of every 8, so it meets both cache sizes
// and both column compressions: blocks are then decompressed, or kept as read.
void ConfigureTested(const ColumnarTableOptions& table, size_t variant, rocksdb::Options* o) {
  o->table_factory.reset(NewColumnarTableFactory(table));
  o->compression = variant / 4 % 2 == 1 ? rocksdb::kZSTD : rocksdb::kNoCompression;
}

TEST(PointReadDifferential, GenericLayoutEveryEncoding) {
  size_t variant = 0;
  for (const std::string& encoding : EncodingNames()) {
    SCOPED_TRACE("generic, encoding " + encoding);
    DifferentialOptions options;
    options.seed = 100 + variant;
    options.operations = 1200;
    options.verify_every = 400;
    const ColumnarTableOptions table = PointReadTable(
        variant,
        EncodeAll({"key_suffix", "value", "sequence", "value_type", "partition"}, encoding));
    options.configure_test = [table, variant](rocksdb::Options* o) {
      ConfigureTested(table, variant, o);
    };
    variant++;
    DifferentialHarness harness("point-generic-" + encoding, options);
    EXPECT_TRUE(harness.Run());
  }
}

// Few keys written many times into groups of 4 rows: a key's versions (kept by snapshots)
// span several groups, so a point read's bound falls among one key's versions, on a group's
// first or last row or past it, and a Get goes on into the next group; keys read but never
// written fall between rows. With a prefix extractor too (the generic layout's partitions then
// change inside groups), with nothing cached (every read takes the cold-group path) and with
// a cache (groups turn hot and are decoded whole).
TEST(PointReadDifferential, ManyVersionsAcrossGroupBoundaries) {
  for (size_t variant = 0; variant < 4; variant++) {
    SCOPED_TRACE("variant " + std::to_string(variant));
    DifferentialOptions options;
    options.seed = 300 + variant;
    options.operations = 1500;
    options.verify_every = 300;
    options.key_space = 12;
    ColumnarTableOptions table;
    table.rows_per_group = 4;
    table.block_size = 256;
    table.cache_size = variant % 2 == 0 ? 1 : (8 << 20);
    const bool prefixed = variant >= 2;
    options.configure_both = [prefixed](rocksdb::Options* o) {
      if (prefixed) o->prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(3));
    };
    options.configure_test = [table](rocksdb::Options* o) {
      o->table_factory.reset(NewColumnarTableFactory(table));
    };
    DifferentialHarness harness("point-versions-" + std::to_string(variant), options);
    EXPECT_TRUE(harness.Run());
  }
}

const char* kPointReadAccessTable = R"(
  CREATE TABLE logs.access (orgid text, day date, time timestamp, method ascii, path text,
    status int, bytes bigint, latency float, score double, client_ip ascii,
    PRIMARY KEY ((orgid, day), time))
  WITH CLUSTERING ORDER BY (time DESC))";

Value PointReadValueOf(LogicalType type, std::mt19937_64& rng) {
  switch (type) {
    case LogicalType::kText:
    case LogicalType::kAscii:
      return Value::FromBytes(type, rng() % 2 ? "/a/" + std::to_string(rng() % 50)
                                              : "ab" + std::string(rng() % 3, 'c'));
    case LogicalType::kInt:
      return Value::Int(static_cast<int32_t>(rng() % 5) * 100 + 200);
    case LogicalType::kBigInt:
      return Value::BigInt(static_cast<int64_t>(rng() % 100000) - 500);
    case LogicalType::kTimestamp:
      return Value::Timestamp(1700000000000 + static_cast<int64_t>(rng() % 300) * 1000);
    case LogicalType::kDate:
      return Value::Date(19700 + static_cast<int32_t>(rng() % 2));
    case LogicalType::kFloat:
      return Value::Float(static_cast<float>(rng() % 1000) / 8.0f);
    default:
      return Value::Double(static_cast<double>(rng() % 10000) / 100.0);
  }
}

TEST(PointReadDifferential, TypedLayoutEveryEncodingAndNullPattern) {
  CreateTableStatement statement;
  ASSERT_TRUE(ParseCreateTable(kPointReadAccessTable, &statement).ok());
  auto schema = std::make_shared<TableSchema>(statement.schema);
  auto codec = std::make_shared<RowCodec>(*schema);
  std::vector<std::string> columns = {"time",       "method",   "path",        "status",
                                      "bytes",      "latency",  "score",       "client_ip",
                                      "write_time", "expiry",   "row_version", "opaque_value",
                                      "opaque_key", "sequence", "value_type",  "partition"};
  size_t variant = 0;
  for (const std::string& encoding : EncodingNames()) {
    SCOPED_TRACE("typed, encoding " + encoding);
    // Null patterns per variant: cells absent in none, some, or most rows.
    const int null_one_in = variant % 3 == 0 ? 0 : variant % 3 == 1 ? 4 : 1;
    DifferentialOptions options;
    options.seed = 200 + variant;
    options.operations = 1200;
    options.verify_every = 400;
    options.random_key = [schema](std::mt19937_64& rng) -> std::optional<std::string> {
      if (rng() % 10 == 0) return std::nullopt;  // untyped keys too
      std::vector<Value> partition, clustering;
      for (uint32_t id : schema->partition_key()) {
        partition.push_back(PointReadValueOf(schema->columns()[id].type, rng));
      }
      for (uint32_t id : schema->clustering_key()) {
        clustering.push_back(PointReadValueOf(schema->columns()[id].type, rng));
      }
      std::string key;
      EXPECT_TRUE(EncodeKey(*schema, partition, clustering, &key).ok());
      return key;
    };
    options.random_value = [schema, codec,
                            null_one_in](std::mt19937_64& rng) -> std::optional<std::string> {
      if (rng() % 8 == 0) return std::nullopt;  // opaque values too
      RowMetadata meta;
      meta.schema_version = schema->version();
      meta.has_write_time = rng() % 5 != 0;
      meta.write_time_micros = 1700000000000000 + static_cast<int64_t>(rng() % 100000000);
      meta.has_expiry = rng() % 3 != 0;
      meta.expiry_seconds = 1702592000 + rng() % 1000;
      Row row(schema->next_column_id());
      for (uint32_t id : schema->LiveRegularColumns()) {
        const bool null =
            null_one_in != 0 && (null_one_in == 1 ? rng() % 4 != 0 : rng() % null_one_in == 0);
        if (!null) row[id] = PointReadValueOf(schema->columns()[id].type, rng);
      }
      std::string value;
      EXPECT_TRUE(codec->EncodeRow(meta, row, &value).ok());
      return value;
    };
    ColumnarTableOptions table = PointReadTable(variant, EncodeAll(columns, encoding));
    table.schema = schema->Serialize();
    options.configure_test = [table, variant](rocksdb::Options* o) {
      ConfigureTested(table, variant, o);
    };
    variant++;
    DifferentialHarness harness("point-typed-" + encoding, options);
    EXPECT_TRUE(harness.Run());
  }
}

}  // namespace
}  // namespace columnar
