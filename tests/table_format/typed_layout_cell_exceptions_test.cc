// The typed layout's slot 23 (typed_layout.h): rows whose cells share the row's expiry (an
// INSERT naming some of the columns, an UPDATE of some cells of an INSERTed row; row_codec.h)
// are typed rows whose columns without a cell are nulls, and slot 23 keeps their cell
// exceptions (which nulls are no cell at all, which cells have another write time). Fixed
// bytes, every decoding path back to the stored values byte for byte, the layout id that readers
// must know, and malformed groups refused.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "table_format/cql_parser.h"
#include "table_format/key_codec.h"
#include "table_format/row_group.h"
#include "table_format/typed_layout.h"
#include "table_format/varint.h"
#include "tests/table_format/hex_bytes.h"
#include "tests/table_format/plain_column_settings.h"

namespace columnar {
namespace cell_exceptions_test {
namespace {

using testing_util::Hex;
using testing_util::PlainSettings;

constexpr uint32_t kOpaqueValueSlot = 5;
constexpr uint32_t kCellExceptionsSlot = 23;

TableSchema Schema() {
  CreateTableStatement statement;
  EXPECT_TRUE(ParseCreateTable("CREATE TABLE m.t (id text, time int, a int, b text, c boolean, "
                               "PRIMARY KEY ((id), time))",
                               &statement)
                  .ok());
  return statement.schema;
}

CellVersion Cell(CellState state, int64_t time) {
  CellVersion version;
  version.state = state;
  version.write_time_micros = state == CellState::kAbsent ? 0 : time;
  return version;
}

// A row of Schema() written at 100 with liveness (an INSERT) or without (an UPDATE): a = 5
// when `a` is live (written at `a_time`), b and c as given (a live b holds "x", a live c true).
std::string RowValue(bool liveness, CellState a, CellState b, CellState c, bool local_time = false,
                     int64_t a_time = 100) {
  const TableSchema schema = Schema();
  const RowCodec codec(schema);
  static const Value kA = Value::Int(5), kB = Value::Text("x"), kC = Value::Boolean(true);
  static const Value kNull;
  RowVersions row;
  row.schema_version = 1;
  row.has_liveness = liveness;
  row.liveness.write_time_micros = 100;
  const CellState states[] = {a, b, c};
  const Value* values[] = {&kA, &kB, &kC};
  const char* names[] = {"a", "b", "c"};
  for (int i = 0; i < 3; i++) {
    const ColumnDef& column = *schema.FindColumn(names[i]);
    row.versions.push_back(Cell(states[i], i == 0 ? a_time : 100));
    row.cells.push_back(
        CellFromValue(column.id, column.type, states[i] == CellState::kLive ? *values[i] : kNull));
  }
  row.has_local_deletion_time = local_time;
  row.local_deletion_seconds = 3;
  std::string out;
  EXPECT_TRUE(codec.EncodeVersions(row, &out).ok());
  return out;
}

struct Group {
  std::vector<std::string> keys, values;
  std::string bytes;
  std::string first_internal_key;
  uint32_t file_layout_id = TypedLayout::kId;
};

Group WriteGroup(const TypedLayout& layout, const std::vector<std::string>& values) {
  Group group;
  group.values = values;
  std::vector<Entry> entries(values.size());
  for (size_t i = 0; i < values.size(); i++) {
    std::string key;
    EXPECT_TRUE(
        EncodeKey(layout.schema(), {Value::Text("s")}, {Value::Int(10 + int32_t(i))}, &key).ok());
    group.keys.push_back(key);
  }
  for (size_t i = 0; i < values.size(); i++) {
    entries[i].user_key = group.keys[i];
    entries[i].value_type = kPutValueType;
    entries[i].value = group.values[i];
  }
  PlainSettings settings;
  RowGroupWriteContext context;
  context.settings = &settings;
  context.file_layout_id = &group.file_layout_id;
  EXPECT_TRUE(layout.WriteRowGroup(entries.data(), entries.size(), context, &group.bytes).ok());
  group.first_internal_key = group.keys[0];
  PutFixed64(&group.first_internal_key, kPutValueType);
  return group;
}

// Every row back byte for byte, whole and with every row selected.
void ExpectValuesBack(const TypedLayout& layout, const Group& group) {
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group.bytes).ok());
  std::unique_ptr<DecodedRowGroup> decoded;
  Status s = layout.DecodeRowGroup(view, group.first_internal_key, &decoded);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(decoded->row_count(), group.values.size());
  for (size_t i = 0; i < group.values.size(); i++) {
    EXPECT_EQ(decoded->user_key(i).ToString(), group.keys[i]);
    EXPECT_EQ(Hex(decoded->value(i).ToString()), Hex(group.values[i])) << i;
  }
  const uint64_t all = ~uint64_t{0};
  TypedLayout::RowSelection selection;
  selection.passing = &all;
  TypedLayout::SelectionCounts counts;
  ASSERT_TRUE(
      layout.DecodeSelected(view, group.first_internal_key, selection, &decoded, &counts).ok());
  for (size_t i = 0; i < group.values.size(); i++) {
    EXPECT_EQ(Hex(decoded->value(i).ToString()), Hex(group.values[i])) << i;
  }
}

// Whether the scan path reads the group on the columns (TypedGroupColumns::all_typed).
bool ReadOnColumns(const TypedLayout& reader, const Group& group,
                   const ScanColumnsWanted& wanted = ScanColumnsWanted()) {
  RowGroupView view;
  EXPECT_TRUE(view.Parse(group.bytes).ok());
  TypedGroupColumns columns;
  const Status s = reader.DecodeScanColumns(view, group.first_internal_key, &columns, wanted);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return s.ok() && columns.all_typed;
}

const CellState kLive = CellState::kLive;
const CellState kDeleted = CellState::kDeleted;
const CellState kAbsent = CellState::kAbsent;

TEST(TypedLayoutCellExceptionsTest, FixedBytes) {
  const TypedLayout writer(Schema());
  // A whole row (format 1), a with b and c unset, a with b deleted (null written, with the
  // local time of the deletion) and c unset.
  const Group group = WriteGroup(
      writer, {RowValue(true, kLive, kLive, kDeleted), RowValue(true, kLive, kAbsent, kAbsent),
               RowValue(true, kLive, kDeleted, kAbsent, true)});
  EXPECT_EQ(group.file_layout_id, TypedLayout::kIdWithCellExceptions);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group.bytes).ok());
  EXPECT_FALSE(view.HasSlot(kOpaqueValueSlot));  // every row typed
  // Slot 23: row 0 null; row 1 flags liveness (04), two exceptions (02), b (01) and c (02) no
  // cell (04); row 2 flags liveness and local deletion time (14), zz(3) (06), one exception, c
  // no cell.
  ASSERT_TRUE(view.HasSlot(kCellExceptionsSlot));
  ColumnVector unset;
  ASSERT_TRUE(view.DecodeSlot(kCellExceptionsSlot, PhysicalType::kBytes, &unset, false).ok());
  ASSERT_EQ(unset.size(), 3u);
  EXPECT_TRUE(unset.IsNull(0));
  EXPECT_EQ(Hex(unset.GetBytes(1).ToString()), "040201040204");
  EXPECT_EQ(Hex(unset.GetBytes(2).ToString()), "1406010204");
  // The chunk: compact header, plain with nulls (c0), 15 body bytes (0f), presence bitmap of
  // rows 1 and 2 (06), the lengths 6 and 5 packed (0a0101), then both rows' bytes.
  EXPECT_EQ(Hex(view.ChunkOf(kCellExceptionsSlot).ToString()),
            "c00f060a0101"
            "040201040204"
            "1406010204");

  const TypedLayout reader(Schema(), nullptr, TypedLayout::kIdWithCellExceptions);
  ExpectValuesBack(reader, group);
  // The scan path reads them as typed rows: an unset cell is a null.
  EXPECT_TRUE(ReadOnColumns(reader, group));
  ColumnVector b;
  ASSERT_TRUE(reader.DecodeScanRegularColumn(view, Schema().FindColumn("b")->id, nullptr, &b).ok());
  EXPECT_EQ(b.GetBytes(0).ToString(), "x");
  EXPECT_TRUE(b.IsNull(1));
  EXPECT_TRUE(b.IsNull(2));
}

TEST(TypedLayoutCellExceptionsTest, GroupsWithoutThemKeepTheFirstLayoutId) {
  const TypedLayout writer(Schema());
  const Group group = WriteGroup(
      writer, {RowValue(true, kLive, kLive, kDeleted), RowValue(true, kLive, kDeleted, kDeleted)});
  EXPECT_EQ(group.file_layout_id, TypedLayout::kId);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group.bytes).ok());
  EXPECT_FALSE(view.HasSlot(kCellExceptionsSlot));
  ExpectValuesBack(TypedLayout(Schema()), group);
}

// A reader of layout id 1 does not know slot 23: it refuses the group rather than read the
// unset cells as deletions.
TEST(TypedLayoutCellExceptionsTest, FilesOfTheFirstLayoutIdRefuseThem) {
  const TypedLayout writer(Schema());
  const Group group = WriteGroup(writer, {RowValue(true, kLive, kAbsent, kAbsent)});
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group.bytes).ok());
  const TypedLayout reader(Schema(), nullptr, TypedLayout::kId);
  std::unique_ptr<DecodedRowGroup> decoded;
  EXPECT_TRUE(reader.DecodeRowGroup(view, group.first_internal_key, &decoded).IsCorruption());
  TypedGroupColumns columns;
  EXPECT_TRUE(reader.DecodeScanColumns(view, group.first_internal_key, &columns).IsCorruption());
}

// A cell written at another time than its row (an UPDATE after the INSERT) is kept in the cell
// exceptions: the values read back byte for byte, and the scan path leaves the group to the row
// path (its writetime() would be the row's).
TEST(TypedLayoutCellExceptionsTest, CellsOfAnotherWriteTimeLeaveTheScanPath) {
  const TypedLayout writer(Schema());
  const Group group = WriteGroup(writer, {RowValue(true, kLive, kAbsent, kAbsent),
                                          RowValue(true, kLive, kAbsent, kDeleted, false, 200)});
  EXPECT_EQ(group.file_layout_id, TypedLayout::kIdWithCellExceptions);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group.bytes).ok());
  EXPECT_FALSE(view.HasSlot(kOpaqueValueSlot));
  const TypedLayout reader(Schema(), nullptr, TypedLayout::kIdWithCellExceptions);
  ExpectValuesBack(reader, group);
  EXPECT_FALSE(ReadOnColumns(reader, group));
  // A scan that reads no write times reads the group on the columns.
  ScanColumnsWanted no_write_times;
  no_write_times.write_times = false;
  EXPECT_TRUE(ReadOnColumns(reader, group, no_write_times));
  // Without a cell of its own write time the group is read on the columns.
  EXPECT_TRUE(
      ReadOnColumns(reader, WriteGroup(writer, {RowValue(true, kLive, kAbsent, kDeleted)})));
}

// Rows with other per-cell metadata (an UPDATE's row without liveness) stay opaque beside typed
// rows with cell exceptions.
TEST(TypedLayoutCellExceptionsTest, OtherCellMetadataStaysOpaque) {
  const TypedLayout writer(Schema());
  const Group group = WriteGroup(
      writer, {RowValue(false, kLive, kAbsent, kAbsent), RowValue(true, kLive, kAbsent, kAbsent)});
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group.bytes).ok());
  ColumnVector opaque;
  ASSERT_TRUE(view.DecodeSlot(kOpaqueValueSlot, PhysicalType::kBytes, &opaque, false).ok());
  EXPECT_FALSE(opaque.IsNull(0));
  EXPECT_TRUE(opaque.IsNull(1));
  ExpectValuesBack(TypedLayout(Schema(), nullptr, TypedLayout::kIdWithCellExceptions), group);
}

// Cell exceptions that do not fit their row (no cell on a cell with a value, malformed) are
// Corruption.
TEST(TypedLayoutCellExceptionsTest, MalformedCellExceptionsAreRefused) {
  const TypedLayout writer(Schema());
  const Group group = WriteGroup(writer, {RowValue(true, kLive, kAbsent, kAbsent)});
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group.bytes).ok());
  const TypedLayout reader(Schema(), nullptr, TypedLayout::kIdWithCellExceptions);
  for (const std::string& bad : {std::string("\x04\x01\x00\x04", 4), std::string("\x04\x00", 2),
                                 std::string("\x05\x01\x01\x04", 4), std::string("\x04", 1)}) {
    RowGroupWriter rewriter;
    rewriter.Begin(view.row_count(), view.first_partition_length());
    PlainSettings settings;
    for (uint32_t slot : view.slots()) {
      ColumnVector values;
      if (slot == kCellExceptionsSlot) {
        values.Reset(PhysicalType::kBytes);
        values.AppendBytes(bad);
      } else {
        // Slots of this group: partition (bytes); value types, time from the key and a
        // (int32); sequence numbers and write time (int64).
        const PhysicalType type = slot == 0                                  ? PhysicalType::kBytes
                                  : slot == 2 || slot == 6 || slot == 64 + 2 ? PhysicalType::kInt32
                                                                             : PhysicalType::kInt64;
        ASSERT_TRUE(view.DecodeSlot(slot, type, &values, false).ok()) << slot;
      }
      ASSERT_TRUE(rewriter.AddColumn(slot, "c", values, settings.For("c", values.type())).ok());
    }
    std::string bytes;
    rewriter.Finish(&bytes);
    RowGroupView bad_view;
    ASSERT_TRUE(bad_view.Parse(bytes).ok());
    std::unique_ptr<DecodedRowGroup> decoded;
    EXPECT_TRUE(reader.DecodeRowGroup(bad_view, group.first_internal_key, &decoded).IsCorruption())
        << Hex(bad);
  }
}

}  // namespace
}  // namespace cell_exceptions_test
}  // namespace columnar
