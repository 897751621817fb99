#include "table_format/row_codec.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "table_format/column_values.h"
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

// EncodeCells' check names the cell at fault and why: a cell out of place, a fixed-width bit
// pattern too wide for its type (a boolean above 1, an int above 32 bits), a malformed value.
TEST(RowCodecTest, EncodeCellsSaysWhichCellIsBadAndWhy) {
  TableSchema schema;
  ASSERT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("p", LogicalType::kText)
                  .AddColumn("flag", LogicalType::kBoolean)
                  .AddColumn("status", LogicalType::kInt)
                  .AddColumn("id", LogicalType::kUuid)
                  .SetPartitionKey({"p"})
                  .Build(&schema)
                  .ok());
  const RowCodec codec(schema);
  RowMetadata meta;
  // Byte-string cells point into their value, which must outlive them.
  const Value uuid = Value::Uuid(std::string(16, '\xff'));
  const auto good = [&] {
    return std::vector<RowCell>{CellFromValue(1, LogicalType::kBoolean, Value::Boolean(true)),
                                CellFromValue(2, LogicalType::kInt, Value::Int(-1)),
                                CellFromValue(3, LogicalType::kUuid, uuid)};
  };
  const auto error = [&](const std::vector<RowCell>& cells) {
    std::string out;
    const Status s = codec.EncodeCells(meta, cells, &out);
    EXPECT_TRUE(s.ok() || out.empty());
    return s.ok() ? std::string("ok") : s.ToString();
  };
  EXPECT_EQ(error(good()), "ok");
  std::vector<RowCell> cells = good();
  cells[0].fixed_bits = 2;
  EXPECT_NE(error(cells).find("'flag': bit pattern too wide for boolean"), std::string::npos)
      << error(cells);
  cells = good();
  cells[1].fixed_bits = uint64_t{1} << 32;
  EXPECT_NE(error(cells).find("'status': bit pattern too wide for int"), std::string::npos)
      << error(cells);
  cells = good();
  cells[2].bytes = Slice("short");
  EXPECT_NE(error(cells).find("'id': malformed uuid value"), std::string::npos) << error(cells);
  cells = good();
  cells[1].type = LogicalType::kBigInt;
  EXPECT_NE(error(cells).find("column id 2 does not match column 'status'"), std::string::npos)
      << error(cells);
  cells = good();
  std::swap(cells[0], cells[1]);
  EXPECT_NE(error(cells).find("column id 2 does not match column 'flag'"), std::string::npos)
      << error(cells);
  cells = good();
  cells[1].present = false;  // an absent cell's bits are not looked at
  cells[1].fixed_bits = ~uint64_t{0};
  EXPECT_EQ(error(cells), "ok");
}

// EncodeColumnCells (cells built from typed columns) writes what EncodeCells writes and still
// refuses what a physical column can hold but the type cannot: a boolean above 1, non-ASCII
// ascii bytes, a uuid of the wrong length; and unknown versions and miscounted rows.
TEST(RowCodecTest, EncodeColumnCellsChecksWhatColumnsCannotRuleOut) {
  TableSchema schema;
  ASSERT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("p", LogicalType::kText)
                  .AddColumn("flag", LogicalType::kBoolean)
                  .AddColumn("n", LogicalType::kInt)
                  .AddColumn("big", LogicalType::kBigInt)
                  .AddColumn("f", LogicalType::kFloat)
                  .AddColumn("d", LogicalType::kDouble)
                  .AddColumn("ts", LogicalType::kTimestamp)
                  .AddColumn("day", LogicalType::kDate)
                  .AddColumn("text", LogicalType::kText)
                  .AddColumn("code", LogicalType::kAscii)
                  .AddColumn("blob", LogicalType::kBlob)
                  .AddColumn("id", LogicalType::kUuid)
                  .SetPartitionKey({"p"})
                  .Build(&schema)
                  .ok());
  const RowCodec codec(schema);
  RowMetadata meta;
  meta.has_write_time = true;
  meta.write_time_micros = -5;
  const std::string uuid(16, '\x80');
  const Row row = {Value(),
                   Value::Boolean(true),
                   Value::Int(-7),
                   Value::BigInt(INT64_MIN),
                   Value::Float(-0.0f),
                   Value::Double(1e300),
                   Value::Timestamp(123),
                   Value::Date(-1),
                   Value::Text(std::string("\xff\x00", 2)),
                   Value::Ascii("ok"),
                   Value::Blob(std::string("\x00\xfe", 2)),
                   Value::Uuid(uuid)};
  const std::vector<uint32_t>& ids = *codec.ColumnsAt(1);
  const auto cells_of = [&](const Row& values) {
    std::vector<RowCell> cells;
    for (uint32_t id : ids)
      cells.push_back(CellFromValue(id, schema.columns()[id].type, values[id]));
    return cells;
  };
  std::string expected;
  std::string out;
  ASSERT_TRUE(codec.EncodeCells(meta, cells_of(row), &expected).ok());
  ASSERT_TRUE(codec.EncodeColumnCells(meta, cells_of(row), &out).ok());
  EXPECT_EQ(out, expected);
  Row nulls(row.size());
  expected.clear();
  out.clear();
  ASSERT_TRUE(codec.EncodeCells(meta, cells_of(nulls), &expected).ok());
  ASSERT_TRUE(codec.EncodeColumnCells(meta, cells_of(nulls), &out).ok());
  EXPECT_EQ(out, expected);

  const auto error = [&](const std::vector<RowCell>& cells, const RowMetadata& at) {
    std::string bytes;
    const Status s = codec.EncodeColumnCells(at, cells, &bytes);
    EXPECT_TRUE(s.ok() || bytes.empty());
    return s.ok() ? std::string("ok") : s.ToString();
  };
  const size_t flag = 0;  // positions in ColumnsAt(1)
  const size_t code = 8;
  const size_t id = 10;
  ASSERT_EQ(schema.columns()[ids[flag]].name, "flag");
  ASSERT_EQ(schema.columns()[ids[code]].name, "code");
  ASSERT_EQ(schema.columns()[ids[id]].name, "id");
  std::vector<RowCell> cells = cells_of(row);
  cells[flag].fixed_bits = 2;
  EXPECT_NE(error(cells, meta).find("'flag': bit pattern too wide"), std::string::npos);
  cells = cells_of(row);
  cells[code].bytes = Slice("\xc3\xa9");
  EXPECT_NE(error(cells, meta).find("'code': malformed ascii"), std::string::npos);
  cells = cells_of(row);
  cells[id].bytes = Slice(uuid.data(), 15);
  EXPECT_NE(error(cells, meta).find("'id': malformed uuid"), std::string::npos);
  cells = cells_of(row);
  cells.pop_back();
  EXPECT_NE(error(cells, meta).find("regular columns, got"), std::string::npos);
  RowMetadata unknown = meta;
  unknown.schema_version = 2;
  EXPECT_NE(error(cells_of(row), unknown).find("is not a version"), std::string::npos);
  unknown.schema_version = 0;
  EXPECT_NE(error(cells_of(row), unknown).find("is not a version"), std::string::npos);
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
      {"format byte", std::string("\x03", 1) + good.substr(1)},
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

namespace columnar {
namespace {

// ---- rows with per-cell metadata (format 2) ----

TableSchema FourColumnSchema() {
  TableSchema schema;
  EXPECT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("p", LogicalType::kText)
                  .AddColumn("a", LogicalType::kInt)
                  .AddColumn("b", LogicalType::kText)
                  .AddColumn("c", LogicalType::kBoolean)
                  .SetPartitionKey({"p"})
                  .Build(&schema)
                  .ok());
  return schema;
}

// Cells for columns a, b, c of FourColumnSchema with the given versions and values.
RowVersions FourColumnRow(const std::vector<CellVersion>& versions, const Row& values) {
  RowVersions row;
  row.versions = versions;
  const LogicalType types[] = {LogicalType::kInt, LogicalType::kText, LogicalType::kBoolean};
  for (uint32_t i = 0; i < 3; i++) {
    row.cells.push_back(CellFromValue(i + 1, types[i], values[i + 1]));
  }
  return row;
}

CellVersion Live(int64_t time, std::optional<uint64_t> expiry = std::nullopt) {
  CellVersion v;
  v.state = CellState::kLive;
  v.write_time_micros = time;
  v.has_expiry = expiry.has_value();
  v.expiry_seconds = expiry.value_or(0);
  return v;
}
CellVersion Deleted(int64_t time, std::optional<uint64_t> expiry = std::nullopt) {
  CellVersion v;
  v.state = CellState::kDeleted;
  v.write_time_micros = time;
  v.has_expiry = expiry.has_value();
  v.expiry_seconds = expiry.value_or(0);
  return v;
}
CellVersion NoCell() { return CellVersion(); }

std::string MustEncodeVersions(const RowCodec& codec, const RowVersions& row) {
  std::string out;
  Status s = codec.EncodeVersions(row, &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

TEST(RowCodecCellsTest, SharedTimeRowsKeepFormat1Bytes) {
  const RowCodec codec(FourColumnSchema());
  const Row values = {Value(), Value::Int(0x01020304), Value(), Value::Boolean(true)};
  RowVersions row = FourColumnRow({Live(-1), Deleted(-1), Live(-1)}, values);
  row.has_liveness = true;
  row.liveness.write_time_micros = -1;
  // The same bytes as RowCodecTest.ByteLayout: write time -1, b null, no expiry.
  EXPECT_EQ(MustEncodeVersions(codec, row),
            std::string("\x01\x01\x01\x01\x05\x04\x03\x02\x01\x01", 10));

  // With a TTL shared by every live cell and the liveness: still format 1.
  RowVersions expiring = FourColumnRow({Live(7, 100), Deleted(7, 100), Live(7, 100)}, values);
  expiring.has_liveness = true;
  expiring.liveness = {7, true, 100};
  RowMetadata meta;
  meta.has_write_time = true;
  meta.write_time_micros = 7;
  meta.has_expiry = true;
  meta.expiry_seconds = 100;
  std::string format1;
  ASSERT_TRUE(codec.EncodeRow(meta, values, &format1).ok());
  EXPECT_EQ(MustEncodeVersions(codec, expiring), format1);

  // Decoding a format-1 row gives its cells: present = live, absent = deleted at its time,
  // with its expiry.
  RowVersions decoded;
  ASSERT_TRUE(codec.DecodeVersions(format1, &decoded).ok());
  EXPECT_TRUE(decoded.has_liveness);
  EXPECT_EQ(decoded.liveness, expiring.liveness);
  EXPECT_FALSE(decoded.has_deletion);
  EXPECT_EQ(decoded.versions, expiring.versions);
}

TEST(RowCodecCellsTest, ByteLayoutOfExceptions) {
  const RowCodec codec(FourColumnSchema());
  // Liveness at 100; a written at 200; b has no cell; c deleted at 100.
  RowVersions row = FourColumnRow({Live(200), NoCell(), Deleted(100)},
                                  {Value(), Value::Int(5), Value(), Value()});
  row.has_liveness = true;
  row.liveness.write_time_micros = 100;
  const std::string expected(
      "\x02\x01\x05\xc8\x01"  // format 2, version 1, flags write time + liveness, zz(100)
      "\x01\x05\x00\x00\x00"  // presence (a), a = 5
      "\x02"                  // two exceptions
      "\x00\x01\x90\x03"      // a: write time zz(200)
      "\x01\x04",             // b: no cell
      17);
  EXPECT_EQ(MustEncodeVersions(codec, row), expected);
  RowVersions decoded;
  ASSERT_TRUE(codec.DecodeVersions(expected, &decoded).ok());
  EXPECT_EQ(decoded.versions, row.versions);
  EXPECT_EQ(MustEncodeVersions(codec, decoded), expected);
  // Consumers of format 1 only keep such a row whole.
  RowMetadata meta;
  std::vector<RowCell> cells;
  EXPECT_TRUE(codec.DecodeCells(expected, &meta, &cells).IsNotSupported());
  EXPECT_TRUE(codec.DecodeMetadata(expected, &meta).IsNotSupported());

  // No liveness (written by UPDATE): the defaults are the first cell's; an expiring cell b
  // (TTL) and a cell c without expiry, deleted row at 3.
  // (the cells point into the values: they must outlive the encoding)
  const Row updated_values = {Value(), Value(), Value::Text("x"), Value::Boolean(false)};
  RowVersions updated = FourColumnRow({NoCell(), Live(50, 9), Live(50)}, updated_values);
  updated.has_deletion = true;
  updated.deletion_time_micros = 3;
  const std::string expected_updated(
      "\x02\x01\x0b\x64\x09\x06"  // flags write time + expiry + deletion, zz(50), 9, zz(3)
      "\x06\x01x\x00"             // presence (b, c), b = "x", c = false
      "\x02"                      // two exceptions
      "\x00\x04"                  // a: no cell
      "\x02\x02\x00",             // c: expiry differs: never expires
      16);
  EXPECT_EQ(MustEncodeVersions(codec, updated), expected_updated);
  ASSERT_TRUE(codec.DecodeVersions(expected_updated, &decoded).ok());
  EXPECT_EQ(decoded.versions, updated.versions);
  EXPECT_TRUE(decoded.has_deletion);
  EXPECT_EQ(decoded.deletion_time_micros, 3);
  EXPECT_FALSE(decoded.has_liveness);

  // Only a row deletion: no defaults, every column without a cell.
  RowVersions deleted = FourColumnRow({NoCell(), NoCell(), NoCell()}, Row(4));
  deleted.has_deletion = true;
  deleted.deletion_time_micros = 7;
  EXPECT_EQ(MustEncodeVersions(codec, deleted),
            std::string("\x02\x01\x08\x0e\x00\x03\x00\x04\x01\x04\x02\x04", 12));

  // With the local time of the deletion (flag bit 4, after the deletion time).
  deleted.has_local_deletion_time = true;
  deleted.local_deletion_seconds = 1700000000;
  const std::string expected_local(
      "\x02\x01\x18\x0e"      // flags deletion + local deletion time, zz(7)
      "\x80\xc4\x9f\xd5\x0c"  // zz(1700000000)
      "\x00\x03\x00\x04\x01\x04\x02\x04",
      17);
  EXPECT_EQ(MustEncodeVersions(codec, deleted), expected_local);
  ASSERT_TRUE(codec.DecodeVersions(expected_local, &decoded).ok());
  EXPECT_TRUE(decoded.has_local_deletion_time);
  EXPECT_EQ(decoded.local_deletion_seconds, 1700000000);
  // A cell deletion keeps it too; a row without deletions does not (nothing to count from).
  RowVersions cell_deleted = FourColumnRow({Deleted(9), NoCell(), NoCell()}, Row(4));
  cell_deleted.has_local_deletion_time = true;
  cell_deleted.local_deletion_seconds = -1;
  EXPECT_EQ(MustEncodeVersions(codec, cell_deleted),
            std::string("\x02\x01\x11\x12\x01\x00\x02\x01\x04\x02\x04", 11));
  RowVersions live =
      FourColumnRow({Live(9), NoCell(), NoCell()}, {Value(), Value::Int(1), Value(), Value()});
  const std::string without = MustEncodeVersions(codec, live);
  live.has_local_deletion_time = true;
  EXPECT_EQ(MustEncodeVersions(codec, live), without);
}

TEST(RowCodecCellsTest, RejectsNonCanonicalCellMetadata) {
  const RowCodec codec(FourColumnSchema());
  RowVersions decoded;
  const std::pair<const char*, std::string> bad[] = {
      // A format-1 row spelled as format 2 (no exceptions, liveness, no deletion).
      {"format-1 content", std::string("\x02\x01\x05\xc8\x01\x00\x00", 7)},
      // An exception that changes nothing (a's write time equals the default).
      {"empty exception", std::string("\x02\x01\x05\xc8\x01\x01\x05\x00\x00\x00\x02\x00\x01"
                                      "\xc8\x01\x01\x04",
                                      17)},
      // Exceptions out of order.
      {"order",
       std::string("\x02\x01\x05\xc8\x01\x01\x05\x00\x00\x00\x02\x01\x04\x00\x01\x90\x03", 17)},
      // No-cell exception on a live cell.
      {"no cell on live", std::string("\x02\x01\x05\xc8\x01\x01\x05\x00\x00\x00\x01\x00\x04", 13)},
      // Defaults not taken from the first cell when there is no liveness (a at 50, b at 60,
      // default claims 60).
      {"defaults",
       std::string("\x02\x01\x01\x78\x03\x05\x00\x00\x00\x01x\x02\x00\x01\x64\x02\x04", 17)},
      // A cell at the deletion time.
      {"cell below deletion",
       std::string("\x02\x01\x09\x0e\x01\x05\x00\x00\x00\x02\x01\x04\x02\x04", 14)},
      {"unknown flag", std::string("\x02\x01\x25\xc8\x01\x01\x05\x00\x00\x00\x01\x01\x04", 13)},
      // A local deletion time on a row without any deletion (a live at 100, b and c no cell).
      {"local time without deletion",
       std::string("\x02\x01\x15\xc8\x01\x02\x01\x05\x00\x00\x00\x02\x01\x04\x02\x04", 16)},
      {"trailing", std::string("\x02\x01\x05\xc8\x01\x01\x05\x00\x00\x00\x01\x01\x04\x00", 14)},
  };
  for (const auto& [what, value] : bad) {
    EXPECT_TRUE(codec.DecodeVersions(value, &decoded).IsCorruption()) << what;
  }
  // The same kind of row, well formed, is accepted (so the cases above fail for their reason).
  EXPECT_TRUE(
      codec
          .DecodeVersions(std::string("\x02\x01\x05\xc8\x01\x01\x05\x00\x00\x00\x01\x01\x04", 13),
                          &decoded)
          .ok());
  // Encoder refusals.
  RowVersions below =
      FourColumnRow({Live(5), NoCell(), NoCell()}, {Value(), Value::Int(1), Value(), Value()});
  below.has_deletion = true;
  below.deletion_time_micros = 5;
  std::string out;
  EXPECT_TRUE(codec.EncodeVersions(below, &out).IsInvalidArgument());
  RowVersions mismatch =
      FourColumnRow({Deleted(5), NoCell(), NoCell()}, {Value(), Value::Int(1), Value(), Value()});
  EXPECT_TRUE(codec.EncodeVersions(mismatch, &out).IsInvalidArgument());
}

RowVersions RandomVersions(test::RandomValues* random, const RowCodec& codec) {
  RowVersions row;
  row.schema_version = 1;
  const int64_t base = 1714564800000000;
  row.has_deletion = random->OneIn(4);
  row.deletion_time_micros = base + random->Uniform(5);
  const int64_t floor = row.has_deletion ? row.deletion_time_micros + 1 : base;
  auto time = [&] { return floor + static_cast<int64_t>(random->Uniform(4)); };
  auto expiry = [&](CellVersion* v) {
    v->has_expiry = random->OneIn(3);
    v->expiry_seconds = v->has_expiry ? 1717000000 + random->Uniform(3) : 0;
  };
  row.has_local_deletion_time = random->OneIn(2);
  row.local_deletion_seconds = 1700000000 + random->Uniform(3);
  row.has_liveness = random->OneIn(2);
  if (row.has_liveness) {
    CellVersion v;
    expiry(&v);
    row.liveness = {time(), v.has_expiry, v.expiry_seconds};
  }
  for (uint32_t id : *codec.ColumnsAt(1)) {
    const LogicalType type = codec.schema().columns()[id].type;
    CellVersion v;
    const int kind = random->Uniform(random->OneIn(3) ? 3 : 1);  // mostly live, same time
    if (kind == 0) {
      v.state = CellState::kLive;
      v.write_time_micros =
          row.has_liveness && random->OneIn(2) ? row.liveness.write_time_micros : time();
      expiry(&v);
      row.cells.push_back(CellFromValue(id, type, Value()));
      row.versions.push_back(v);
      continue;
    }
    v.state = kind == 1 ? CellState::kDeleted : CellState::kAbsent;
    if (kind == 1) {
      v.write_time_micros = time();
      expiry(&v);
    }
    row.cells.push_back(CellFromValue(id, type, Value()));
    row.versions.push_back(v);
  }
  return row;
}

TEST(RowCodecCellsTest, RandomRowsRoundTripCanonically) {
  test::RandomValues random(31);
  size_t format2 = 0;
  for (int round = 0; round < 60; round++) {
    const RowCodec codec(test::RandomSchema(&random, 12));
    std::vector<Row> keep_alive;
    for (int i = 0; i < 100; i++) {
      RowVersions row = RandomVersions(&random, codec);
      // Values for live cells (kept alive by keep_alive: cells point into them).
      keep_alive.emplace_back(row.cells.size());
      for (size_t c = 0; c < row.cells.size(); c++) {
        if (row.versions[c].state != CellState::kLive) continue;
        Value value;
        do {
          value = random.OrNull(row.cells[c].type, 100);
        } while (value.is_null());
        keep_alive.back()[c] = value;
      }
      for (size_t c = 0; c < row.cells.size(); c++) {
        if (row.versions[c].state == CellState::kLive) {
          row.cells[c] =
              CellFromValue(row.cells[c].column_id, row.cells[c].type, keep_alive.back()[c]);
        }
      }
      const std::string value = MustEncodeVersions(codec, row);
      format2 += RowCodec::HasCellMetadata(value);
      RowVersions decoded;
      Status s = codec.DecodeVersions(value, &decoded);
      ASSERT_TRUE(s.ok()) << s.ToString();
      ASSERT_EQ(decoded.has_liveness, row.has_liveness);
      if (row.has_liveness) {
        ASSERT_EQ(decoded.liveness, row.liveness);
      }
      ASSERT_EQ(decoded.has_deletion, row.has_deletion);
      if (row.has_deletion) {
        ASSERT_EQ(decoded.deletion_time_micros, row.deletion_time_micros);
      }
      ASSERT_EQ(decoded.versions, row.versions);
      const bool local_kept =
          row.has_local_deletion_time && HasDeletions(row) && RowCodec::HasCellMetadata(value);
      ASSERT_EQ(decoded.has_local_deletion_time, local_kept);
      if (local_kept) {
        ASSERT_EQ(decoded.local_deletion_seconds, row.local_deletion_seconds);
      }
      for (size_t c = 0; c < row.cells.size(); c++) {
        ASSERT_EQ(ValueFromCell(decoded.cells[c]), ValueFromCell(row.cells[c]));
      }
      ASSERT_EQ(MustEncodeVersions(codec, decoded), value);

      // Mutations: rejected, or accepted and canonical.
      std::string mutated = value;
      mutated[random.Uniform(mutated.size())] ^= static_cast<char>(1 << random.Uniform(8));
      RowVersions again;
      if (codec.DecodeVersions(mutated, &again).ok()) {
        ASSERT_EQ(MustEncodeVersions(codec, again), mutated);
      }
    }
  }
  EXPECT_GT(format2, 1000u);
}

}  // namespace
}  // namespace columnar

namespace columnar {
namespace {

// DecodeCells reads 4- and 8-byte cells in one load: every fixed-width type decodes to the bits
// it was written with, next to byte strings, and a value cut anywhere inside it is Corruption.
TEST(RowCodecTest, FixedWidthCellsDecodeToTheirBitsAndTruncationIsCaught) {
  TableSchema schema;
  ASSERT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("p", LogicalType::kText)
                  .AddColumn("b", LogicalType::kBoolean)
                  .AddColumn("i", LogicalType::kInt)
                  .AddColumn("s", LogicalType::kText)
                  .AddColumn("l", LogicalType::kBigInt)
                  .AddColumn("f", LogicalType::kFloat)
                  .AddColumn("d", LogicalType::kDouble)
                  .AddColumn("a", LogicalType::kAscii)
                  .AddColumn("t", LogicalType::kTimestamp)
                  .AddColumn("y", LogicalType::kDate)
                  .SetPartitionKey({"p"})
                  .Build(&schema)
                  .ok());
  const RowCodec codec(schema);
  const Row row = {Value(),
                   Value::Boolean(true),
                   Value::Int(-0x01020304),
                   Value::Text("tag"),
                   Value::BigInt(-0x0102030405060708),
                   Value::Float(-1.5f),
                   Value::Double(57.123456789),
                   Value::Ascii("x"),
                   Value::Timestamp(1714564800123),
                   Value::Date(-19000)};
  RowMetadata meta;
  meta.schema_version = 1;
  const std::string value = MustEncode(codec, meta, row);
  std::vector<RowCell> cells;
  RowMetadata decoded;
  ASSERT_TRUE(codec.DecodeCells(value, &decoded, &cells).ok());
  ASSERT_EQ(cells.size(), 9u);
  for (const RowCell& cell : cells) {
    const Value& expected = row[cell.column_id];
    ASSERT_TRUE(cell.present);
    EXPECT_EQ(cell.type, expected.type());
    if (IsBytesType(cell.type)) {
      EXPECT_EQ(cell.bytes.ToString(), expected.bytes()) << cell.column_id;
    } else {
      EXPECT_EQ(cell.fixed_bits, expected.FixedBits()) << cell.column_id;
    }
  }
  // Every proper prefix is corrupt; past the header (3 bytes) and the presence bitmap (2), each
  // cut falls inside a value, and is reported as such (not as bytes left over after reading
  // past the end).
  for (size_t length = 0; length < value.size(); length++) {
    const Status s = codec.DecodeCells(Slice(value.data(), length), &decoded, &cells);
    EXPECT_TRUE(s.IsCorruption()) << length;
    if (length >= 5) {
      EXPECT_NE(s.ToString().find("truncated"), std::string::npos) << length << s.ToString();
    }
  }
}

}  // namespace
}  // namespace columnar

namespace columnar {
namespace {

// EncodeCells checks every byte-string cell: ascii and uuid cells must be well formed; text
// and blob cells hold any bytes.
TEST(RowCodecTest, EncodeCellsChecksByteStringCells) {
  TableSchema schema;
  ASSERT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("p", LogicalType::kText)
                  .AddColumn("t", LogicalType::kText)
                  .AddColumn("a", LogicalType::kAscii)
                  .AddColumn("b", LogicalType::kBlob)
                  .AddColumn("u", LogicalType::kUuid)
                  .SetPartitionKey({"p"})
                  .Build(&schema)
                  .ok());
  const RowCodec codec(schema);
  RowMetadata meta;
  meta.schema_version = 1;
  const std::string any("\x00\x80\xff", 3);
  const std::string uuid(16, '\x42');
  const auto cells = [&](const std::string& t, const std::string& a, const std::string& b,
                         const std::string& u) {
    std::vector<RowCell> c(4);
    const LogicalType types[] = {LogicalType::kText, LogicalType::kAscii, LogicalType::kBlob,
                                 LogicalType::kUuid};
    const std::string* bytes[] = {&t, &a, &b, &u};
    for (uint32_t i = 0; i < 4; i++) {
      c[i].column_id = i + 1;
      c[i].type = types[i];
      c[i].present = true;
      c[i].bytes = *bytes[i];
    }
    return c;
  };
  std::string out;
  EXPECT_TRUE(codec.EncodeCells(meta, cells(any, "ascii", any, uuid), &out).ok());
  EXPECT_TRUE(codec.EncodeCells(meta, cells("", "", "", uuid), &out).ok());
  EXPECT_TRUE(codec.EncodeCells(meta, cells(any, any, any, uuid), &out).IsInvalidArgument());
  EXPECT_TRUE(codec.EncodeCells(meta, cells(any, "ok", any, "short"), &out).IsInvalidArgument());
}

}  // namespace
}  // namespace columnar

namespace columnar {
namespace {

// A column per id of the schema's regular columns, of its type's physical type (key columns'
// ids get an unused one), as TypedLayout's splitter keeps them.
std::vector<ColumnVector> ColumnsById(const TableSchema& schema) {
  std::vector<ColumnVector> columns(schema.next_column_id());
  for (const ColumnDef& column : schema.columns()) {
    if (!column.is_key()) columns[column.id].Reset(PhysicalTypeOfLogical(column.type));
  }
  return columns;
}

// What DecodeIntoColumns stands for: DecodeCells, then each cell appended to its column.
Status AppendCells(const RowCodec& codec, const std::string& value, RowMetadata* meta,
                   std::vector<ColumnVector>* columns) {
  std::vector<RowCell> cells;
  Status s = codec.DecodeCells(value, meta, &cells);
  if (!s.ok()) return s;
  for (const RowCell& cell : cells) {
    ColumnVector& column = (*columns)[cell.column_id];
    if (!cell.present) {
      column.AppendNull();
    } else if (column.type() == PhysicalType::kBytes) {
      column.AppendBytes(cell.bytes);
    } else {
      AppendFixedBits(cell.fixed_bits, &column);
    }
  }
  return s;
}

// Rows of random schemas, whole or damaged (as in the fuzz test above), decoded into the same
// columns one after the other: DecodeIntoColumns returns DecodeCells' status and metadata, and
// the columns end up as appending DecodeCells' cells leaves them (a refused value leaves them
// as they were, which the rows after it would show).
TEST(RowCodecTest, DecodeIntoColumnsAppendsWhatDecodeCellsReads) {
  test::RandomValues random(23);
  size_t accepted = 0, rejected = 0;
  for (int round = 0; round < 40; round++) {
    const RowCodec codec(test::RandomSchema(&random, 20));
    std::vector<ColumnVector> expected = ColumnsById(codec.schema());
    std::vector<ColumnVector> actual = ColumnsById(codec.schema());
    for (int i = 0; i < 300; i++) {
      std::string value =
          MustEncode(codec, RandomMetadata(&random, 1), RandomRow(&random, codec.schema(), 1));
      const int mutation = random.Uniform(6);
      if (mutation == 0) {
        value[random.Uniform(value.size())] ^= static_cast<char>(1 << random.Uniform(8));
      } else if (mutation == 1) {
        value.resize(random.Uniform(value.size() + 1));
      } else if (mutation == 2) {
        value.insert(random.Uniform(value.size() + 1), 1, "\x00\x01\x80\xff"[random.Uniform(4)]);
      }
      RowMetadata expected_meta;
      RowMetadata actual_meta;
      const Status want = AppendCells(codec, value, &expected_meta, &expected);
      const Status got = codec.DecodeIntoColumns(value, &actual_meta, actual.data());
      ASSERT_EQ(got.ToString(), want.ToString());
      if (want.ok()) {
        ASSERT_EQ(actual_meta, expected_meta);
        accepted++;
      } else {
        rejected++;
      }
      for (size_t id = 0; id < expected.size(); id++) {
        ASSERT_TRUE(actual[id].Equals(expected[id])) << round << " " << i << " column " << id;
      }
    }
  }
  EXPECT_GT(accepted, 5000u);
  EXPECT_GT(rejected, 1000u);
}

// Lengths around the one-byte varint a text cell's length takes on the fast path (127, 128,
// 300 bytes), and an overlong length (0x80 0x00 for 0) with enough bytes after it to read as a
// length of 128: DecodeIntoColumns agrees with DecodeCells on each.
TEST(RowCodecTest, DecodeIntoColumnsReadsLongAndOverlongLengths) {
  TableSchema schema;
  ASSERT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("p", LogicalType::kText)
                  .AddColumn("s", LogicalType::kText)
                  .AddColumn("n", LogicalType::kInt)
                  .SetPartitionKey({"p"})
                  .Build(&schema)
                  .ok());
  const RowCodec codec(schema);
  std::vector<std::string> values;
  for (size_t length : {size_t{0}, size_t{127}, size_t{128}, size_t{129}, size_t{300}}) {
    Row row(schema.next_column_id());
    row[1] = Value::Text(std::string(length, 'x'));
    row[2] = Value::Int(static_cast<int32_t>(length));
    values.push_back(MustEncode(codec, RowMetadata(), row));
  }
  // format 1, version 1, no flags, presence 0b11, s = "" with its length as 0x80 0x00, then
  // 200 more bytes (n's 4 and trailing ones).
  values.push_back(std::string("\x01\x01\x00\x03\x80\x00", 6) + std::string(200, 'y'));
  values.push_back(values[1]);
  std::vector<ColumnVector> expected = ColumnsById(schema);
  std::vector<ColumnVector> actual = ColumnsById(schema);
  for (const std::string& value : values) {
    RowMetadata expected_meta;
    RowMetadata actual_meta;
    const Status want = AppendCells(codec, value, &expected_meta, &expected);
    const Status got = codec.DecodeIntoColumns(value, &actual_meta, actual.data());
    ASSERT_EQ(got.ToString(), want.ToString()) << value.size();
    for (size_t id = 0; id < expected.size(); id++) {
      ASSERT_TRUE(actual[id].Equals(expected[id])) << value.size() << " column " << id;
    }
  }
  EXPECT_EQ(expected[1].size(), 6u);
}

// An ascii cell with a byte above 0x7f anywhere in it (the 8-byte words' and the last bytes'
// checks), short enough for DecodeIntoColumns' one-byte length path: refused as DecodeCells
// refuses it, the columns left as they were; the same cell with every byte ascii is read.
TEST(RowCodecTest, DecodeIntoColumnsRefusesNonAsciiAsciiCells) {
  TableSchema schema;
  ASSERT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("p", LogicalType::kText)
                  .AddColumn("a", LogicalType::kAscii)
                  .AddColumn("n", LogicalType::kInt)
                  .SetPartitionKey({"p"})
                  .Build(&schema)
                  .ok());
  const RowCodec codec(schema);
  std::vector<ColumnVector> expected = ColumnsById(schema);
  std::vector<ColumnVector> actual = ColumnsById(schema);
  size_t refused = 0;
  for (size_t length = 1; length <= 20; length++) {
    for (size_t bad = 0; bad <= length; bad++) {  // bad == length: all ascii
      Row row(schema.next_column_id());
      row[1] = Value::Ascii(std::string(length, 'x'));
      row[2] = Value::Int(static_cast<int32_t>(length));
      std::string value = MustEncode(codec, RowMetadata(), row);
      // The cell's bytes end 4 bytes (n) before the value's end.
      if (bad < length) value[value.size() - 4 - length + bad] = static_cast<char>(0x80 + bad);
      RowMetadata expected_meta;
      RowMetadata actual_meta;
      const Status want = AppendCells(codec, value, &expected_meta, &expected);
      const Status got = codec.DecodeIntoColumns(value, &actual_meta, actual.data());
      ASSERT_EQ(got.ToString(), want.ToString()) << length << " " << bad;
      ASSERT_EQ(got.ok(), bad == length) << length << " " << bad;
      refused += got.ok() ? 0 : 1;
      for (size_t id = 0; id < expected.size(); id++) {
        ASSERT_TRUE(actual[id].Equals(expected[id])) << length << " " << bad << " column " << id;
      }
    }
  }
  EXPECT_EQ(refused, 210u);
  EXPECT_EQ(actual[1].size(), 20u);
}

}  // namespace
}  // namespace columnar

namespace columnar {
namespace {

// ---- rows with cell exceptions: format 2 split into typed columns and joined back ----

// The cell sources of a row of `codec` at version 1 whose cells are in `columns` (by id).
std::vector<ColumnCellSource> SourcesOf(const RowCodec& codec,
                                        const std::vector<ColumnVector>& columns) {
  std::vector<ColumnCellSource> sources;
  for (uint32_t id : *codec.ColumnsAt(1)) {
    ColumnCellSource source;
    source.column = &columns[id];
    source.type = codec.schema().columns()[id].type;
    source.check = true;
    sources.push_back(source);
  }
  return sources;
}

// WriteColumnRow of the last row of `columns`, or "(refused)".
std::string JoinLastRow(const RowCodec& codec, const RowMetadata& meta,
                        const std::vector<ColumnVector>& columns, const Slice& cell_exceptions,
                        size_t room) {
  const std::vector<ColumnCellSource> sources = SourcesOf(codec, columns);
  const size_t row = sources[0].column->size() - 1;
  std::string out(room, '\0');
  const char* end =
      codec.WriteColumnRow(meta, sources.data(), sources.size(), row, &out[0], cell_exceptions);
  if (end == nullptr) return "(refused)";
  out.resize(static_cast<size_t>(end - out.data()));
  return out;
}

TEST(RowCodecCellsTest, CellExceptionsSplitIntoColumnsAndJoinBack) {
  const RowCodec codec(FourColumnSchema());
  // Liveness at 100; a = 5; b has no cell; c deleted at 100 (a null written).
  const std::string value("\x02\x01\x05\xc8\x01\x01\x05\x00\x00\x00\x01\x01\x04", 13);
  std::vector<ColumnVector> columns = ColumnsById(codec.schema());
  RowMetadata meta;
  // Without room for cell exceptions, the row is format 2 like any other.
  EXPECT_TRUE(codec.DecodeIntoColumns(value, &meta, columns.data()).IsNotSupported());
  std::string unset;
  ASSERT_TRUE(codec.DecodeIntoColumns(value, &meta, columns.data(), &unset).ok());
  EXPECT_EQ(meta.schema_version, 1u);
  EXPECT_TRUE(meta.has_write_time);
  EXPECT_EQ(meta.write_time_micros, 100);
  EXPECT_FALSE(meta.has_expiry);
  // Flags liveness; one exception: b, no cell.
  EXPECT_EQ(unset, std::string("\x04\x01\x01\x04", 4));
  ASSERT_EQ(columns[1].size(), 1u);
  EXPECT_EQ(columns[1].Get<int32_t>(0), 5);
  EXPECT_TRUE(columns[2].IsNull(0));
  EXPECT_TRUE(columns[3].IsNull(0));
  EXPECT_EQ(JoinLastRow(codec, meta, columns, unset, 64), value);
  // Without its exceptions the same columns are the format-1 row (b deleted, not unset).
  EXPECT_EQ(JoinLastRow(codec, meta, columns, Slice(), 64),
            std::string("\x01\x01\x01\xc8\x01\x01\x05\x00\x00\x00", 10));

  // Exceptions that do not fit the row are refused: no cell on a live cell (a), out of order,
  // twice, another expiry, the row's own write time, no cell with a write time, an empty list,
  // trailing bytes, an index past the row, other flags, a local deletion time malformed or
  // without a cell deletion (c is deleted, a live, b and c unset); and a row without a write
  // time.
  for (const std::string& bad :
       {std::string("\x04\x01\x00\x04", 4), std::string("\x04\x02\x02\x04\x01\x04", 6),
        std::string("\x04\x02\x01\x04\x01\x04", 6), std::string("\x04\x01\x01\x02\x00", 5),
        std::string("\x04\x01\x00\x01\xc8\x01", 6), std::string("\x04\x01\x01\x05\x02", 5),
        std::string("\x04\x00", 2), std::string("\x04\x01\x01\x04\x00", 5),
        std::string("\x04\x01\x03\x04", 4), std::string("\x05\x01\x01\x04", 4),
        std::string("\x0c\x01\x01\x04", 4), std::string("\x01\x01\x04", 3),
        std::string("\x14\x80\x01\x01\x04", 5), std::string("\x14\x02\x02\x01\x04\x02\x04", 7)}) {
    EXPECT_EQ(JoinLastRow(codec, meta, columns, bad, 64), "(refused)") << Slice(bad).ToString(true);
  }
  RowMetadata no_time = meta;
  no_time.has_write_time = false;
  EXPECT_EQ(JoinLastRow(codec, no_time, columns, unset, 64), "(refused)");

  // A cell deletion's local time (c deleted at 100, made at second 3) is kept with them.
  const std::string with_local("\x02\x01\x15\xc8\x01\x06\x01\x05\x00\x00\x00\x01\x01\x04", 14);
  RowVersions versions;
  ASSERT_TRUE(codec.DecodeVersions(with_local, &versions).ok());
  ASSERT_TRUE(versions.has_local_deletion_time);
  ASSERT_TRUE(codec.DecodeIntoColumns(with_local, &meta, columns.data(), &unset).ok());
  EXPECT_EQ(unset, std::string("\x14\x06\x01\x01\x04", 5));
  EXPECT_EQ(JoinLastRow(codec, meta, columns, unset, 64), with_local);

  // Another write time for a cell (RowCodecCellsTest.ByteLayoutOfExceptions: a written at 200,
  // an UPDATE after the INSERT) is kept with them; of the row's cells only writetime() differs.
  const std::string updated("\x02\x01\x05\xc8\x01\x01\x05\x00\x00\x00\x02\x00\x01\x90\x03\x01\x04",
                            17);
  ASSERT_TRUE(codec.DecodeIntoColumns(updated, &meta, columns.data(), &unset).ok());
  EXPECT_EQ(unset, std::string("\x04\x02\x00\x01\x90\x03\x01\x04", 8));
  EXPECT_TRUE(RowCodec::CellExceptionsHaveWriteTimes(unset));
  EXPECT_FALSE(RowCodec::CellExceptionsHaveWriteTimes(std::string("\x04\x01\x01\x04", 4)));
  EXPECT_EQ(JoinLastRow(codec, meta, columns, unset, 64), updated);

  // Other format-2 rows are not split, and leave the columns as they were: a cell with another
  // expiry (an UPDATE with a TTL), no liveness (an UPDATE alone), a deletion.
  const std::string others[] = {
      std::string("\x02\x01\x05\xc8\x01\x01\x05\x00\x00\x00\x02\x00\x02\x0a\x01\x04", 16),
      std::string("\x02\x01\x01\xc8\x01\x01\x05\x00\x00\x00\x02\x01\x04\x02\x04", 15),
      std::string("\x02\x01\x08\x0e\x00\x03\x00\x04\x01\x04\x02\x04", 12),
  };
  for (const std::string& other : others) {
    RowVersions versions;
    ASSERT_TRUE(codec.DecodeVersions(other, &versions).ok()) << Slice(other).ToString(true);
    EXPECT_TRUE(codec.DecodeIntoColumns(other, &meta, columns.data(), &unset).IsNotSupported());
    EXPECT_EQ(columns[1].size(), 3u);
    EXPECT_TRUE(unset.empty());
  }
}

// Random rows with per-cell metadata, half of them made rows whose cells share the row's expiry
// (liveness, no deletion, every cell with a cell at the liveness's expiry, half of them at its
// time too), whole or damaged: DecodeIntoColumns splits exactly the rows whose cells share the
// row's expiry (and format-1 rows), only values DecodeVersions accepts, and WriteColumnRow
// joins each split row back to its bytes.
TEST(RowCodecCellsTest, RandomRowsWithCellExceptionsJoinBackToTheirBytes) {
  test::RandomValues random(47);
  size_t split_exceptions = 0, split_format1 = 0, kept = 0;
  for (int round = 0; round < 40; round++) {
    const RowCodec codec(test::RandomSchema(&random, 12));
    if (codec.ColumnsAt(1)->empty()) continue;
    std::vector<ColumnVector> columns = ColumnsById(codec.schema());
    for (int i = 0; i < 200; i++) {
      RowVersions row = RandomVersions(&random, codec);
      if (random.OneIn(2)) {
        row.has_deletion = false;
        row.has_liveness = true;
        row.liveness.write_time_micros = 1714564800000000 + random.Uniform(5);
        const bool same_time = random.OneIn(2);
        for (CellVersion& version : row.versions) {
          if (version.state == CellState::kAbsent) continue;
          if (same_time) version.write_time_micros = row.liveness.write_time_micros;
          version.has_expiry = row.liveness.has_expiry;
          version.expiry_seconds = row.liveness.expiry_seconds;
        }
      }
      Row values(row.cells.size());
      for (size_t c = 0; c < row.cells.size(); c++) {
        if (row.versions[c].state != CellState::kLive) continue;
        do {
          values[c] = random.OrNull(row.cells[c].type, 100);
        } while (values[c].is_null());
        row.cells[c] = CellFromValue(row.cells[c].column_id, row.cells[c].type, values[c]);
      }
      std::string value = MustEncodeVersions(codec, row);
      bool shared_expiry =
          !RowCodec::HasCellMetadata(value) || (row.has_liveness && !row.has_deletion);
      for (const CellVersion& version : row.versions) {
        if (version.state == CellState::kAbsent) continue;
        shared_expiry &=
            version.has_expiry == row.liveness.has_expiry &&
            (!version.has_expiry || version.expiry_seconds == row.liveness.expiry_seconds);
      }
      const bool damaged = random.OneIn(3);
      if (damaged) {
        value[random.Uniform(value.size())] ^= static_cast<char>(1 << random.Uniform(8));
      }
      RowMetadata meta;
      std::string unset;
      const size_t before = columns[(*codec.ColumnsAt(1))[0]].size();
      const Status s = codec.DecodeIntoColumns(value, &meta, columns.data(), &unset);
      RowVersions versions;
      const bool valid = codec.DecodeVersions(value, &versions).ok();
      if (!damaged) ASSERT_EQ(s.ok(), shared_expiry) << s.ToString();
      if (!s.ok()) {
        ASSERT_EQ(columns[(*codec.ColumnsAt(1))[0]].size(), before);
        kept++;
        continue;
      }
      ASSERT_TRUE(valid);
      ASSERT_EQ(unset.empty(), !RowCodec::HasCellMetadata(value));
      (unset.empty() ? split_format1 : split_exceptions)++;
      ASSERT_EQ(JoinLastRow(codec, meta, columns, unset, value.size() + 64), value);
    }
  }
  EXPECT_GT(split_exceptions, 1000u);
  EXPECT_GT(split_format1, 500u);
  EXPECT_GT(kept, 1000u);
}

}  // namespace
}  // namespace columnar
