#include "table_format/row_codec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "table_format/varint.h"
#include "tests/table_format/random_values.h"

namespace columnar {
namespace {

RowMetadata RandomMetadata(test::RandomValues* random, uint32_t version) {
  RowMetadata meta;
  meta.schema_version = version;
  meta.has_write_time = random->OneIn(2);
  if (meta.has_write_time) {
    meta.write_time_micros = random->OneIn(4) ? static_cast<int64_t>(random->rng()())
                                              : 1714564800000000 + random->Uniform(100000);
  }
  meta.has_expiry = random->OneIn(2);
  if (meta.has_expiry) meta.expiry_seconds = random->OneIn(4) ? random->rng()() : 1717000000;
  return meta;
}

// A row for the columns live at `version` (others null), indexed by column id.
Row RandomRow(test::RandomValues* random, const TableSchema& schema, uint32_t version) {
  Row row(schema.next_column_id());
  for (uint32_t id : schema.RegularColumnsAt(version)) {
    row[id] = random->OrNull(schema.columns()[id].type, 4);
  }
  return row;
}

std::string MustEncode(const RowCodec& codec, const RowMetadata& meta, const Row& row) {
  std::string out;
  Status s = codec.EncodeRow(meta, row, &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

TEST(RowCodecTest, RandomRowsRoundTripCanonically) {
  test::RandomValues random(21);
  for (int round = 0; round < 100; round++) {
    const RowCodec codec(test::RandomSchema(&random, 20));
    for (int i = 0; i < 100; i++) {
      const RowMetadata meta = RandomMetadata(&random, 1);
      const Row row = RandomRow(&random, codec.schema(), 1);
      const std::string value = MustEncode(codec, meta, row);

      RowMetadata decoded_meta;
      Row decoded;
      ASSERT_TRUE(codec.DecodeRow(value, &decoded_meta, &decoded).ok());
      ASSERT_EQ(decoded_meta, meta);
      ASSERT_EQ(decoded, row);
      EXPECT_EQ(MustEncode(codec, decoded_meta, decoded), value);

      // The per-column path rebuilds the same bytes.
      std::vector<RowCell> cells;
      ASSERT_TRUE(codec.DecodeCells(value, &decoded_meta, &cells).ok());
      std::string rebuilt;
      ASSERT_TRUE(codec.EncodeCells(decoded_meta, cells, &rebuilt).ok());
      ASSERT_EQ(rebuilt, value);
    }
  }
}

TEST(RowCodecTest, ByteLayout) {
  TableSchema schema;
  ASSERT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("p", LogicalType::kText)
                  .AddColumn("a", LogicalType::kInt)
                  .AddColumn("b", LogicalType::kText)
                  .AddColumn("c", LogicalType::kBoolean)
                  .SetPartitionKey({"p"})
                  .Build(&schema)
                  .ok());
  RowMetadata meta;
  meta.has_write_time = true;
  meta.write_time_micros = -1;
  Row row = {Value(), Value::Int(0x01020304), Value(), Value::Boolean(true)};
  std::string value;
  ASSERT_TRUE(EncodeRow(schema, meta, row, &value).ok());
  EXPECT_EQ(value, std::string("\x01\x01\x01\x01\x05\x04\x03\x02\x01\x01", 10));
}

TEST(RowCodecTest, RowsAcrossAlterAddAndDrop) {
  TableSchema v1;
  ASSERT_TRUE(TableSchemaBuilder("logs", "access")
                  .AddColumn("instance", LogicalType::kText)
                  .AddColumn("time", LogicalType::kTimestamp)
                  .AddColumn("method", LogicalType::kAscii)
                  .AddColumn("status", LogicalType::kInt)
                  .SetPartitionKey({"instance"})
                  .AddClusteringColumn("time", ClusteringOrder::kDesc)
                  .Build(&v1)
                  .ok());
  TableSchema v2, v3, v4;
  TableAlteration add_latency;
  add_latency.added_columns = {{"latency_ms", LogicalType::kInt}};
  ASSERT_TRUE(v1.Alter(add_latency, &v2).ok());
  TableAlteration drop_method;
  drop_method.dropped_columns = {"method"};
  ASSERT_TRUE(v2.Alter(drop_method, &v3).ok());
  TableAlteration readd_method;
  readd_method.added_columns = {{"method", LogicalType::kText}};
  ASSERT_TRUE(v3.Alter(readd_method, &v4).ok());
  ASSERT_EQ(v4.version(), 4u);
  const uint32_t old_method = 2, status = 3, latency = 4, new_method = 5;
  ASSERT_EQ(v4.FindColumn("method")->id, new_method);

  RowMetadata meta;
  std::string at_v1, at_v2;
  ASSERT_TRUE(
      EncodeRow(v1, meta, {Value(), Value(), Value::Ascii("GET"), Value::Int(200)}, &at_v1).ok());
  meta.schema_version = 2;
  ASSERT_TRUE(EncodeRow(v2, meta,
                        {Value(), Value(), Value::Ascii("PUT"), Value::Int(500), Value::Int(7)},
                        &at_v2)
                  .ok());

  const RowCodec codec(v4);
  RowMetadata decoded_meta;
  Row row;
  ASSERT_TRUE(codec.DecodeRow(at_v1, &decoded_meta, &row).ok());
  EXPECT_EQ(decoded_meta.schema_version, 1u);
  ASSERT_EQ(row.size(), 6u);
  EXPECT_TRUE(row[old_method].is_null());  // dropped since: skipped
  EXPECT_EQ(row[status], Value::Int(200));
  EXPECT_TRUE(row[latency].is_null());     // added later: null
  EXPECT_TRUE(row[new_method].is_null());  // same name, new column
  ASSERT_TRUE(codec.DecodeRow(at_v2, &decoded_meta, &row).ok());
  EXPECT_EQ(row[latency], Value::Int(7));
  EXPECT_TRUE(row[old_method].is_null());

  // Old rows rebuild byte-identically from their cells with the newest schema.
  for (const std::string& value : {at_v1, at_v2}) {
    std::vector<RowCell> cells;
    ASSERT_TRUE(codec.DecodeCells(value, &decoded_meta, &cells).ok());
    std::string rebuilt;
    ASSERT_TRUE(codec.EncodeCells(decoded_meta, cells, &rebuilt).ok());
    EXPECT_EQ(rebuilt, value);
  }
  EXPECT_EQ(*codec.ColumnsAt(1), (std::vector<uint32_t>{old_method, status}));
  EXPECT_EQ(*codec.ColumnsAt(3), (std::vector<uint32_t>{status, latency}));
  EXPECT_EQ(*codec.ColumnsAt(4), (std::vector<uint32_t>{status, latency, new_method}));
  EXPECT_EQ(codec.ColumnsAt(5), nullptr);

  // An older schema cannot read a row from a newer version.
  EXPECT_TRUE(RowCodec(v1).DecodeRow(at_v2, &decoded_meta, &row).IsCorruption());

  // Writing at the current version: the dropped column is not part of it.
  Row current(6);
  current[new_method] = Value::Text("GET");
  current[old_method] = Value::Ascii("GET");
  meta.schema_version = 4;
  std::string out;
  Status s = codec.EncodeRow(meta, current, &out);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("'method'"), std::string::npos) << s.ToString();
}

TEST(RowCodecTest, EncodeRejectsBadInput) {
  TableSchema schema;
  ASSERT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("p", LogicalType::kText)
                  .AddColumn("status", LogicalType::kInt)
                  .AddColumn("id", LogicalType::kUuid)
                  .SetPartitionKey({"p"})
                  .Build(&schema)
                  .ok());
  const RowCodec codec(schema);
  RowMetadata meta;
  std::string out;
  Status s = codec.EncodeRow(meta, {Value(), Value::Text("x")}, &out);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("'status'"), std::string::npos) << s.ToString();
  EXPECT_TRUE(
      codec.EncodeRow(meta, {Value(), Value(), Value::Uuid("short")}, &out).IsInvalidArgument());
  meta.schema_version = 2;
  EXPECT_TRUE(codec.EncodeRow(meta, {}, &out).IsInvalidArgument());
  meta.schema_version = 1;
  EXPECT_TRUE(codec.EncodeCells(meta, {}, &out).IsInvalidArgument());
  std::vector<RowCell> cells = {CellFromValue(1, LogicalType::kInt, Value::Int(1)),
                                CellFromValue(2, LogicalType::kUuid, Value())};
  cells[0].fixed_bits = uint64_t{1} << 40;  // wider than an int
  EXPECT_TRUE(codec.EncodeCells(meta, cells, &out).IsInvalidArgument());
  std::swap(cells[0], cells[1]);  // wrong order
  EXPECT_TRUE(codec.EncodeCells(meta, cells, &out).IsInvalidArgument());
  EXPECT_TRUE(out.empty());  // nothing written by failed calls
}

class RowCorruptionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(TableSchemaBuilder("ks", "t")
                    .AddColumn("p", LogicalType::kText)
                    .AddColumn("flag", LogicalType::kBoolean)
                    .AddColumn("code", LogicalType::kAscii)
                    .AddColumn("n", LogicalType::kBigInt)
                    .SetPartitionKey({"p"})
                    .Build(&schema_)
                    .ok());
  }
  Status Decode(const std::string& value) {
    RowMetadata meta;
    Row row;
    return DecodeRow(schema_, value, &meta, &row);
  }
  TableSchema schema_;
};

TEST_F(RowCorruptionTest, RejectsNonCanonicalAndMalformedValues) {
  // format 1, version 1, no flags, presence 0b111, flag=1, code="ab", n=5.
  const std::string good(
      "\x01\x01\x00\x07\x01\x02"
      "ab"
      "\x05\x00\x00\x00\x00\x00\x00\x00",
      16);
  ASSERT_TRUE(Decode(good).ok());
  const std::pair<const char*, std::string> bad[] = {
      {"format byte", std::string("\x02", 1) + good.substr(1)},
      {"overlong version", std::string("\x01\x81\x00", 3) + good.substr(2)},
      {"version 0", std::string("\x01\x00", 2) + good.substr(2)},
      {"unknown version", std::string("\x01\x02", 2) + good.substr(2)},
      {"unknown flag", std::string("\x01\x01\x04", 3) + good.substr(3)},
      {"padding bit", std::string("\x01\x01\x00\x0f", 4) + good.substr(4)},
      {"boolean 2", std::string("\x01\x01\x00\x07\x02", 5) + good.substr(5)},
      {"overlong length", std::string("\x01\x01\x00\x07\x01\x82\x00", 7) + good.substr(6)},
      {"non-ascii", std::string("\x01\x01\x00\x07\x01\x02\xe9"
                                "b",
                                8) +
                        good.substr(8)},
      {"trailing byte", good + "x"},
      {"overlong write time", std::string("\x01\x01\x01\x80\x00", 5) + good.substr(3)},
  };
  for (const auto& [what, value] : bad) {
    EXPECT_TRUE(Decode(value).IsCorruption()) << what;
  }
  for (size_t length = 0; length < good.size(); length++) {
    EXPECT_TRUE(Decode(good.substr(0, length)).IsCorruption()) << length;
  }
}

// Any byte string is rejected, or accepted and re-encoded to exactly itself.
TEST(RowCodecFuzzTest, AcceptedValuesAreCanonical) {
  test::RandomValues random(22);
  size_t accepted = 0, rejected = 0;
  for (int round = 0; round < 50; round++) {
    const RowCodec codec(test::RandomSchema(&random, 10));
    for (int i = 0; i < 400; i++) {
      std::string value =
          MustEncode(codec, RandomMetadata(&random, 1), RandomRow(&random, codec.schema(), 1));
      const int mutation = random.Uniform(3);
      if (mutation == 0) {
        value[random.Uniform(value.size())] ^= static_cast<char>(1 << random.Uniform(8));
      } else if (mutation == 1) {
        value.resize(random.Uniform(value.size() + 1));
      } else {
        value.insert(random.Uniform(value.size() + 1), 1, "\x00\x01\x80\xff"[random.Uniform(4)]);
      }
      RowMetadata meta;
      Row row;
      Status s = codec.DecodeRow(value, &meta, &row);
      if (!s.ok()) {
        ASSERT_TRUE(s.IsCorruption()) << s.ToString();
        rejected++;
        continue;
      }
      accepted++;
      ASSERT_EQ(MustEncode(codec, meta, row), value);
    }
  }
  EXPECT_GT(accepted, 1000u);
  EXPECT_GT(rejected, 1000u);
}

}  // namespace
}  // namespace columnar
