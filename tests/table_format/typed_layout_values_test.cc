// Values rebuilt by the typed layout's assembler: RowCodec::WriteColumnRow writes each typed
// row straight from the decoded columns; a row with a cell its type refuses (a forged group)
// goes through RowCells and EncodeColumnCells, which report it. Both must give exactly the
// bytes RowCodec encodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "table_format/cql_parser.h"
#include "table_format/key_codec.h"
#include "table_format/row_codec.h"
#include "table_format/row_group.h"
#include "table_format/typed_layout.h"
#include "table_format/varint.h"
#include "tests/table_format/hex_bytes.h"
#include "tests/table_format/plain_column_settings.h"

namespace columnar {
// Named: the unity build puts other tests' helpers (PlainSettings, Group) in the same file.
namespace typed_layout_values_test {
namespace {

using testing_util::Hex;

using testing_util::PlainSettings;

// Eleven regular columns, every logical type (a presence bitmap of two bytes).
TableSchema EveryTypeSchema() {
  CreateTableStatement statement;
  EXPECT_TRUE(ParseCreateTable("CREATE TABLE m.t (id text, time int, flag boolean, code ascii, "
                               "tag text, u uuid, big bigint, f float, d double, n int, "
                               "day date, b blob, ts timestamp, PRIMARY KEY ((id), time))",
                               &statement)
                  .ok());
  return statement.schema;
}

// Row i of the test group: column c null when (i + c) % 3 == 0, strings of 0 to 45 bytes,
// write time and expiry present or not.
Row MakeRow(const TableSchema& schema, int i) {
  Row row(schema.next_column_id());
  int c = 0;
  const auto set = [&](const char* name, Value value) {
    if ((i + c++) % 3 != 0) row[schema.FindColumn(name)->id] = std::move(value);
  };
  set("flag", Value::Boolean(i % 2 == 1));
  set("code", Value::Ascii(std::string(static_cast<size_t>(i * 7 % 40), 'A' + i % 26)));
  set("tag", Value::Text(std::string(static_cast<size_t>(i * 5 % 46), 'a' + i % 26)));
  std::string uuid(16, '\0');
  for (int k = 0; k < 16; k++) uuid[k] = static_cast<char>(i * 16 + k);
  set("u", Value::Uuid(uuid));
  set("big", Value::BigInt(-1234567890123LL * i));
  set("f", Value::Float(0.25f * static_cast<float>(i) - 1));
  set("d", Value::Double(-1e300 / (i + 1)));
  set("n", Value::Int(-i * 1000));
  set("day", Value::Date(19000 + i));
  std::string blob;
  for (int k = 0; k < i * 3; k++) blob.push_back(static_cast<char>(255 - k));
  set("b", Value::Blob(blob));
  set("ts", Value::Timestamp(1700000000000LL + i));
  return row;
}

struct Group {
  std::vector<std::string> keys, values;
  std::string bytes;
  std::string first_internal_key;
};

// `rows` rows of partition "a"; row 5 holds a value that is not a row (kept opaque).
Group MakeGroup(const TypedLayout& layout, int rows) {
  const TableSchema& schema = layout.schema();
  const RowCodec codec(schema);
  Group group;
  for (int i = 0; i < rows; i++) {
    std::string key;
    EXPECT_TRUE(EncodeKey(schema, {Value::Text("a")}, {Value::Int(100 + i)}, &key).ok());
    RowMetadata meta;
    meta.schema_version = schema.version();
    meta.has_write_time = i % 2 == 0;
    meta.write_time_micros = meta.has_write_time ? (i % 4 == 0 ? -1 : 1) * (int64_t{1} << i) : 0;
    meta.has_expiry = i % 3 == 0;
    meta.expiry_seconds = meta.has_expiry ? uint64_t{1} << (2 * i) : 0;
    std::string value;
    if (i == 5) {
      value = "not a row";
    } else {
      EXPECT_TRUE(codec.EncodeRow(meta, MakeRow(schema, i), &value).ok());
    }
    group.keys.push_back(key);
    group.values.push_back(value);
  }
  std::vector<Entry> entries(group.keys.size());
  for (size_t i = 0; i < entries.size(); i++) {
    entries[i].user_key = group.keys[i];
    entries[i].sequence = 10 + i;
    entries[i].value_type = kPutValueType;
    entries[i].value = group.values[i];
  }
  PlainSettings settings;
  RowGroupWriteContext context;
  context.settings = &settings;
  EXPECT_TRUE(layout.WriteRowGroup(entries.data(), entries.size(), context, &group.bytes).ok());
  group.first_internal_key = group.keys[0];
  PutFixed64(&group.first_internal_key, (uint64_t{10} << 8) | kPutValueType);
  return group;
}

// The group with the chunk of regular column `name` replaced by `values`.
std::string ReplaceColumn(const TypedLayout& layout, const std::string& bytes,
                          const std::string& name, const ColumnVector& values) {
  RowGroupView view;
  EXPECT_TRUE(view.Parse(bytes).ok());
  uint32_t replaced_slot = 0;
  PhysicalType type;
  EXPECT_TRUE(layout.ColumnSlot(layout.schema().FindColumn(name)->id, &replaced_slot, &type));
  RowGroupWriter writer;
  writer.Begin(view.row_count(), view.first_partition_length());
  PlainSettings settings;
  for (uint32_t slot : view.slots()) {
    ColumnVector column;
    if (slot == replaced_slot) {
      column = values;
    } else {
      // The slots of this test's groups: partition changes, trailers, opaque values (bytes);
      // times and row metadata (int64 but the int time); regular columns by their type.
      PhysicalType slot_type = PhysicalType::kInt64;
      if (slot == 0 || slot == 5) slot_type = PhysicalType::kBytes;
      if (slot == 6 || slot == 24) slot_type = PhysicalType::kInt32;
      uint32_t column_id;
      if (layout.RegularColumnOfSlot(slot, &column_id)) {
        EXPECT_TRUE(layout.ColumnSlot(column_id, &slot, &slot_type));
      }
      EXPECT_TRUE(view.DecodeSlot(slot, slot_type, &column, false).ok()) << slot;
    }
    EXPECT_TRUE(writer.AddColumn(slot, "c", column, settings.For("c", column.type())).ok());
  }
  std::string out;
  writer.Finish(&out);
  return out;
}

TEST(TypedLayoutValuesTest, RowsOfEveryTypeReadBackExactly) {
  const TypedLayout layout(EveryTypeSchema());
  const Group group = MakeGroup(layout, 24);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group.bytes).ok());
  std::unique_ptr<DecodedRowGroup> decoded;
  ASSERT_TRUE(layout.DecodeRowGroup(view, group.first_internal_key, &decoded).ok());
  ASSERT_EQ(decoded->row_count(), group.keys.size());
  for (size_t i = 0; i < group.keys.size(); i++) {
    EXPECT_EQ(decoded->user_key(i).ToString(), group.keys[i]);
    EXPECT_EQ(Hex(decoded->value(i).ToString()), Hex(group.values[i])) << i;
  }
  EXPECT_LE(decoded->MemoryUsage(), sizeof(*decoded) + 4096 + 24 * (group.values[1].size() + 64));
}

// A selection: passing rows whole, failing ones as placeholders, projected values.
// Rows written at every version of an altered schema (a column added, one dropped, its name
// added again) in one group, in turn: a row of a version without some of the columns leaves
// them null (its cells go to the columns of its version only), and every row reads back as
// written.
TEST(TypedLayoutValuesTest, RowsOfEveryVersionReadBackExactly) {
  TableSchema v1;
  ASSERT_TRUE(TableSchemaBuilder("logs", "access")
                  .AddColumn("instance", LogicalType::kText)
                  .AddColumn("time", LogicalType::kInt)
                  .AddColumn("method", LogicalType::kAscii)
                  .AddColumn("status", LogicalType::kInt)
                  .AddColumn("path", LogicalType::kText)
                  .SetPartitionKey({"instance"})
                  .AddClusteringColumn("time")
                  .Build(&v1)
                  .ok());
  TableSchema v2, v3, v4;
  TableAlteration add_latency;
  add_latency.added_columns = {{"latency", LogicalType::kDouble}};
  ASSERT_TRUE(v1.Alter(add_latency, &v2).ok());
  TableAlteration drop_method;
  drop_method.dropped_columns = {"method"};
  ASSERT_TRUE(v2.Alter(drop_method, &v3).ok());
  TableAlteration readd_method;
  readd_method.added_columns = {{"method", LogicalType::kText}};
  ASSERT_TRUE(v3.Alter(readd_method, &v4).ok());
  const TableSchema* versions[] = {&v1, &v2, &v3, &v4};
  const TypedLayout layout(v4);
  std::vector<std::string> keys, values;
  for (int i = 0; i < 40; i++) {
    const TableSchema& at = *versions[i % 4];
    std::string key;
    ASSERT_TRUE(EncodeKey(v4, {Value::Text("a")}, {Value::Int(i)}, &key).ok());
    Row row(at.next_column_id());
    for (uint32_t id : at.RegularColumnsAt(at.version())) {
      const ColumnDef& column = at.columns()[id];
      if ((i + static_cast<int>(id)) % 5 == 0) continue;  // some nulls
      if (column.type == LogicalType::kInt) row[id] = Value::Int(i * 10 + static_cast<int>(id));
      if (column.type == LogicalType::kDouble) row[id] = Value::Double(0.5 * i);
      if (column.type == LogicalType::kAscii) row[id] = Value::Ascii("GET" + std::to_string(i));
      if (column.type == LogicalType::kText) row[id] = Value::Text("p/" + std::to_string(i * id));
    }
    RowMetadata meta;
    meta.schema_version = at.version();
    std::string value;
    ASSERT_TRUE(RowCodec(at).EncodeRow(meta, row, &value).ok());
    keys.push_back(key);
    values.push_back(value);
  }
  std::vector<Entry> entries(keys.size());
  for (size_t i = 0; i < entries.size(); i++) {
    entries[i].user_key = keys[i];
    entries[i].sequence = 10 + i;
    entries[i].value_type = kPutValueType;
    entries[i].value = values[i];
  }
  PlainSettings settings;
  RowGroupWriteContext context;
  context.settings = &settings;
  std::string bytes;
  ASSERT_TRUE(layout.WriteRowGroup(entries.data(), entries.size(), context, &bytes).ok());
  std::string first_internal_key = keys[0];
  PutFixed64(&first_internal_key, (uint64_t{10} << 8) | kPutValueType);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(bytes).ok());
  std::unique_ptr<DecodedRowGroup> decoded;
  ASSERT_TRUE(layout.DecodeRowGroup(view, first_internal_key, &decoded).ok());
  ASSERT_EQ(decoded->row_count(), keys.size());
  for (size_t i = 0; i < keys.size(); i++) {
    EXPECT_EQ(decoded->user_key(i).ToString(), keys[i]);
    EXPECT_EQ(Hex(decoded->value(i).ToString()), Hex(values[i])) << i;
  }
}

TEST(TypedLayoutValuesTest, SelectedRowsReadBackExactly) {
  const TypedLayout layout(EveryTypeSchema());
  const TableSchema& schema = layout.schema();
  const Group group = MakeGroup(layout, 20);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group.bytes).ok());
  const uint64_t passing = 0xAAAAAu;  // odd rows
  TypedLayout::RowSelection selection;
  selection.passing = &passing;
  selection.placeholder = "P";
  selection.keep_columns.assign(schema.next_column_id(), false);
  selection.keep_columns[schema.FindColumn("tag")->id] = true;
  selection.keep_columns[schema.FindColumn("d")->id] = true;
  std::unique_ptr<DecodedRowGroup> decoded;
  TypedLayout::SelectionCounts counts;
  ASSERT_TRUE(
      layout.DecodeSelected(view, group.first_internal_key, selection, &decoded, &counts).ok());
  ASSERT_EQ(decoded->row_count(), group.keys.size());
  const RowCodec codec(schema);
  for (size_t i = 0; i < group.keys.size(); i++) {
    std::string expected;
    if (i == 5) {
      expected = group.values[i];  // opaque values are returned whole
    } else if (i % 2 == 0) {
      expected = "P";
    } else {
      RowMetadata meta;
      Row row;
      ASSERT_TRUE(codec.DecodeRow(group.values[i], &meta, &row).ok());
      for (uint32_t id = 0; id < row.size(); id++) {
        if (!selection.keep_columns[id]) row[id] = Value();
      }
      ASSERT_TRUE(codec.EncodeRow(meta, row, &expected).ok());
    }
    EXPECT_EQ(Hex(decoded->value(i).ToString()), Hex(expected)) << i;
  }
}

// Forged groups: a non-ASCII byte in an ascii column, a boolean of 2, a uuid of 15 bytes. The
// row holding it is refused with the cell path's reason; the column's other rows are fine.
TEST(TypedLayoutValuesTest, CellsTheTypeRefusesAreReported) {
  const TypedLayout layout(EveryTypeSchema());
  const Group group = MakeGroup(layout, 12);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group.bytes).ok());
  const auto decode = [&](const std::string& bytes) {
    RowGroupView v;
    EXPECT_TRUE(v.Parse(bytes).ok());
    std::unique_ptr<DecodedRowGroup> decoded;
    return layout.DecodeRowGroup(v, group.first_internal_key, &decoded);
  };
  ColumnVector code(PhysicalType::kBytes), flag(PhysicalType::kInt32), u(PhysicalType::kBytes);
  for (int i = 0; i < 12; i++) {
    code.AppendBytes(i == 7 ? Slice("ab\xC3\xA9") : Slice("ok"));
    flag.Append<int32_t>(i == 8 ? 2 : i % 2);
    u.AppendBytes(std::string(i == 9 ? 15 : 16, 'u'));
  }
  // Rows 7, 8, 9 of each column are fine but for the value forged: all decode when the forged
  // row's cell is null (row 5 is opaque, so null there).
  const struct {
    const char* column;
    const ColumnVector* values;
    const char* reason;
  } cases[] = {{"code", &code, "malformed ascii value"},
               {"flag", &flag, "bit pattern too wide for boolean"},
               {"u", &u, "malformed uuid value"}};
  for (const auto& c : cases) {
    const Status s = decode(ReplaceColumn(layout, group.bytes, c.column, *c.values));
    EXPECT_TRUE(s.IsCorruption()) << c.column << ": " << s.ToString();
    EXPECT_NE(s.ToString().find("row does not re-encode"), std::string::npos) << s.ToString();
    EXPECT_NE(s.ToString().find(c.reason), std::string::npos) << s.ToString();
  }
  // The same columns with the forged values fixed decode.
  ColumnVector good_code(PhysicalType::kBytes), good_flag(PhysicalType::kInt32);
  for (int i = 0; i < 12; i++) {
    good_code.AppendBytes(Slice("ok"));
    good_flag.Append<int32_t>(i % 2);
  }
  EXPECT_TRUE(decode(ReplaceColumn(layout, group.bytes, "code", good_code)).ok());
  EXPECT_TRUE(decode(ReplaceColumn(layout, group.bytes, "flag", good_flag)).ok());
}

// WriteColumnRow against EncodeColumnCells, cell for cell, with sources checked and not.
TEST(TypedLayoutValuesTest, WriteColumnRowMatchesEncodeColumnCells) {
  const TableSchema schema = EveryTypeSchema();
  const RowCodec codec(schema);
  const std::vector<uint32_t>& ids = *codec.ColumnsAt(schema.version());
  std::vector<ColumnVector> columns;
  for (uint32_t id : ids) columns.emplace_back(PhysicalTypeOfLogical(schema.columns()[id].type));
  std::vector<RowMetadata> metas;
  for (int i = 0; i < 30; i++) {
    const Row row = MakeRow(schema, i);
    for (size_t c = 0; c < ids.size(); c++) {
      const Value& value = row[ids[c]];
      if (value.is_null()) {
        columns[c].AppendNull();
      } else if (columns[c].type() == PhysicalType::kBytes) {
        columns[c].AppendBytes(value.bytes());
      } else if (columns[c].type() == PhysicalType::kInt32 ||
                 columns[c].type() == PhysicalType::kFloat32) {
        ColumnVector& column = columns[c];
        column.type() == PhysicalType::kInt32
            ? column.Append<int32_t>(static_cast<int32_t>(value.FixedBits()))
            : column.Append<float>(value.float_value());
      } else if (columns[c].type() == PhysicalType::kInt64) {
        columns[c].Append<int64_t>(static_cast<int64_t>(value.FixedBits()));
      } else {
        columns[c].Append<double>(value.double_value());
      }
    }
    RowMetadata meta;
    meta.has_write_time = i % 2 == 1;
    meta.write_time_micros = meta.has_write_time ? -(int64_t{3} << i) : 0;
    meta.has_expiry = i % 5 != 0;
    meta.expiry_seconds = meta.has_expiry ? uint64_t{7} << i : 0;
    metas.push_back(meta);
  }
  for (bool check : {false, true}) {
    std::vector<ColumnCellSource> sources(ids.size());
    for (size_t c = 0; c < ids.size(); c++) {
      sources[c].column = &columns[c];
      sources[c].type = schema.columns()[ids[c]].type;
      sources[c].check = check || !RowCodec::ColumnFitsType(columns[c], sources[c].type);
    }
    for (size_t row = 0; row < metas.size(); row++) {
      std::vector<RowCell> cells(ids.size());
      for (size_t c = 0; c < ids.size(); c++) {
        cells[c].column_id = ids[c];
        cells[c].type = sources[c].type;
        cells[c].present = !columns[c].IsNull(row);
        if (!cells[c].present) continue;
        if (columns[c].type() == PhysicalType::kBytes) {
          cells[c].bytes = columns[c].GetBytes(row);
        } else if (columns[c].type() == PhysicalType::kInt32 ||
                   columns[c].type() == PhysicalType::kFloat32) {
          uint32_t bits;
          std::memcpy(&bits, columns[c].fixed_bytes() + row * 4, 4);
          cells[c].fixed_bits = bits;
        } else {
          std::memcpy(&cells[c].fixed_bits, columns[c].fixed_bytes() + row * 8, 8);
        }
      }
      std::string expected;
      ASSERT_TRUE(codec.EncodeColumnCells(metas[row], cells, &expected).ok());
      std::string written(kMaxRowHeaderBytes + 2 + 11 * 8 + 4 * (5 + 100), '\0');
      const char* end =
          codec.WriteColumnRow(metas[row], sources.data(), sources.size(), row, &written[0]);
      ASSERT_NE(end, nullptr) << row;
      written.resize(static_cast<size_t>(end - written.data()));
      EXPECT_EQ(Hex(written), Hex(expected)) << row;
    }
  }
  // Which columns need no checks.
  EXPECT_TRUE(RowCodec::ColumnFitsType(columns[1], LogicalType::kAscii));  // code
  ColumnVector bad_ascii(PhysicalType::kBytes);
  bad_ascii.AppendBytes(Slice("\x80"));
  EXPECT_FALSE(RowCodec::ColumnFitsType(bad_ascii, LogicalType::kAscii));
  EXPECT_TRUE(RowCodec::ColumnFitsType(bad_ascii, LogicalType::kBlob));
  ColumnVector two(PhysicalType::kInt32);
  two.Append<int32_t>(1);
  EXPECT_TRUE(RowCodec::ColumnFitsType(two, LogicalType::kBoolean));
  two.Append<int32_t>(2);
  EXPECT_FALSE(RowCodec::ColumnFitsType(two, LogicalType::kBoolean));
  EXPECT_TRUE(RowCodec::ColumnFitsType(two, LogicalType::kInt));
}

}  // namespace
}  // namespace typed_layout_values_test
}  // namespace columnar
