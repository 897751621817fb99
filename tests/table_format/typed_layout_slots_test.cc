// The typed layout's slots 6 and 7 (typed_layout.h): the first clustering column stored against
// its value in the group's first key, and expiry against the time in seconds ahead of the write
// time. Fixed bytes, round trips through every decoding path, groups in the older form (slots
// 24 and 17) still read, and malformed groups refused with a Status.
#include <gtest/gtest.h>

#include <algorithm>
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
namespace {

using testing_util::Hex;

constexpr uint32_t kTimeFromKeySlot = 6;
constexpr uint32_t kEarlyExpirySlot = 7;
constexpr uint32_t kWriteTimeSlot = 8;
constexpr uint32_t kExpirySlot = 16;
constexpr uint32_t kTimeSlot = 24;

using testing_util::PlainSettings;

TableSchema IdTimeValueSchema() {
  CreateTableStatement statement;
  EXPECT_TRUE(ParseCreateTable("CREATE TABLE m.t (id text, time int, value float, "
                               "PRIMARY KEY ((id), time)) WITH CLUSTERING ORDER BY (time DESC)",
                               &statement)
                  .ok());
  return statement.schema;
}

// Four rows of series "a", 300 s apart (newest first), written 0..3 us after their time, with a
// TTL of 3600 s.
struct Group {
  std::vector<std::string> keys, values;
  std::vector<Entry> entries;
  std::string bytes;
  std::string first_internal_key;
};

Group MakeGroup(const TypedLayout& layout) {
  Group group;
  const RowCodec codec(layout.schema());
  for (int i = 0; i < 4; i++) {
    const int32_t time = 1000000 - 300 * i;
    std::string key;
    EXPECT_TRUE(EncodeKey(layout.schema(), {Value::Text("a")}, {Value::Int(time)}, &key).ok());
    RowMetadata meta;
    meta.schema_version = layout.schema().version();
    meta.has_write_time = true;
    meta.write_time_micros = int64_t{time} * 1000000 + i;
    meta.has_expiry = true;
    meta.expiry_seconds = static_cast<uint64_t>(time) + 3600;
    Row row(layout.schema().next_column_id());
    row[layout.schema().FindColumn("value")->id] = Value::Float(1.5f + i);
    std::string value;
    EXPECT_TRUE(codec.EncodeRow(meta, row, &value).ok());
    group.keys.push_back(key);
    group.values.push_back(value);
  }
  for (size_t i = 0; i < group.keys.size(); i++) {
    Entry entry;
    entry.user_key = group.keys[i];
    entry.value_type = kPutValueType;
    entry.value = group.values[i];
    group.entries.push_back(entry);
  }
  PlainSettings settings;
  RowGroupWriteContext context;
  context.settings = &settings;
  EXPECT_TRUE(layout.WriteRowGroup(group.entries.data(), 4, context, &group.bytes).ok());
  group.first_internal_key = group.keys[0];
  PutFixed64(&group.first_internal_key, kPutValueType);
  return group;
}

// One group of put rows, keys[i] -> values[i] (one value for all when `values` has one).
std::string WritePutGroup(const TypedLayout& layout, const std::vector<std::string>& keys,
                          const std::vector<std::string>& values) {
  std::vector<Entry> entries(keys.size());
  for (size_t i = 0; i < keys.size(); i++) {
    entries[i].user_key = keys[i];
    entries[i].value_type = kPutValueType;
    entries[i].value = values.size() == 1 ? values[0] : values[i];
  }
  PlainSettings settings;
  RowGroupWriteContext context;
  context.settings = &settings;
  std::string bytes;
  EXPECT_TRUE(layout.WriteRowGroup(entries.data(), entries.size(), context, &bytes).ok());
  return bytes;
}

// Rebuilds `view` with `replace` applied to its slots: each (old slot, new slot, new values).
struct Replacement {
  uint32_t from;
  uint32_t to;
  ColumnVector values;
};

std::string Rewrite(const RowGroupView& view, const std::vector<Replacement>& replacements) {
  std::vector<std::pair<uint32_t, ColumnVector>> slots;
  const PhysicalType types[] = {PhysicalType::kBytes, PhysicalType::kInt64, PhysicalType::kInt32};
  for (uint32_t slot : view.slots()) {
    bool replaced = false;
    for (const Replacement& r : replacements) {
      if (r.from == slot) {
        slots.emplace_back(r.to, r.values);
        replaced = true;
      }
    }
    if (replaced) continue;
    // Only the slots this test's groups hold: times int32, metadata int64, the value float.
    PhysicalType type = PhysicalType::kInt64;
    if (slot < 3) type = types[slot];
    if (slot == kTimeFromKeySlot || slot == kTimeSlot) type = PhysicalType::kInt32;
    if (slot >= 64) type = PhysicalType::kFloat32;
    ColumnVector values;
    EXPECT_TRUE(view.DecodeSlot(slot, type, &values, false).ok());
    slots.emplace_back(slot, values);
  }
  std::sort(slots.begin(), slots.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  RowGroupWriter writer;
  writer.Begin(view.row_count(), view.first_partition_length());
  PlainSettings settings;
  for (const auto& [slot, values] : slots) {
    EXPECT_TRUE(writer.AddColumn(slot, "c", values, settings.For("c", values.type())).ok());
  }
  std::string out;
  writer.Finish(&out);
  return out;
}

ColumnVector Int32s(std::initializer_list<int32_t> values) {
  ColumnVector out(PhysicalType::kInt32);
  for (int32_t v : values) out.Append<int32_t>(v);
  return out;
}

ColumnVector Int64s(std::initializer_list<int64_t> values) {
  ColumnVector out(PhysicalType::kInt64);
  for (int64_t v : values) out.Append<int64_t>(v);
  return out;
}

// Decodes the group whole and through the scan path; expects the input rows back.
void ExpectRoundTrip(const TypedLayout& layout, const Group& group, const std::string& bytes) {
  RowGroupView view;
  ASSERT_TRUE(view.Parse(bytes).ok());
  std::unique_ptr<DecodedRowGroup> decoded;
  ASSERT_TRUE(layout.DecodeRowGroup(view, group.first_internal_key, &decoded).ok());
  ASSERT_EQ(decoded->row_count(), 4u);
  for (size_t i = 0; i < 4; i++) {
    EXPECT_EQ(decoded->user_key(i).ToString(), group.keys[i]);
    EXPECT_EQ(decoded->value(i).ToString(), group.values[i]);
  }
  TypedGroupColumns columns;
  ASSERT_TRUE(layout.DecodeScanColumns(view, group.first_internal_key, &columns).ok());
  ASSERT_TRUE(columns.all_typed);
  for (size_t i = 0; i < 4; i++) {
    const int64_t time = 1000000 - 300 * static_cast<int64_t>(i);
    EXPECT_EQ(columns.clustering[0].Get<int32_t>(i), time);
    EXPECT_EQ(columns.write_times.Get<int64_t>(i), time * 1000000 + static_cast<int64_t>(i));
    EXPECT_EQ(columns.expiries.Get<int64_t>(i), time + 3600);
  }
  ColumnVector times;
  const Slice first_user_key(group.keys[0]);
  ASSERT_TRUE(layout
                  .ClusteringColumnValues(view, first_user_key,
                                          layout.schema().FindColumn("time")->id, &times)
                  .ok());
  EXPECT_EQ(times.Get<int32_t>(3), 1000000 - 900);
}

TEST(TypedLayoutSlotsTest, FixedBytes) {
  const TypedLayout layout(IdTimeValueSchema());
  const Group group = MakeGroup(layout);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group.bytes).ok());
  // Time from the key (6), expiry against the time (7), write time against time x 10^6
  // (8 + 3), value (64 + 2); no slot 24, no 16 + t.
  EXPECT_EQ(view.slots(), (std::vector<uint32_t>{6, 7, 11, 66}));
  // Slot 6: plain (80), 16 bytes: 0, -300, -600, -900 as int32 LE.
  EXPECT_EQ(Hex(view.ChunkOf(kTimeFromKeySlot).ToString()), "801000000000d4feffffa8fdffff7cfcffff");
  // Slot 7: plain, 32 bytes: 3600 (0e10) four times as int64 LE.
  EXPECT_EQ(Hex(view.ChunkOf(kEarlyExpirySlot).ToString()),
            "8020"
            "100e000000000000100e000000000000100e000000000000100e000000000000");
  ExpectRoundTrip(layout, group, group.bytes);
}

// Groups written before slots 6 and 7: the time in slot 24, the expiry in slot 16 + 1.
TEST(TypedLayoutSlotsTest, OlderGroupsStillRead) {
  const TypedLayout layout(IdTimeValueSchema());
  const Group group = MakeGroup(layout);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group.bytes).ok());
  const std::string old =
      Rewrite(view, {{kTimeFromKeySlot, kTimeSlot, Int32s({1000000, 999700, 999400, 999100})},
                     {kEarlyExpirySlot, kExpirySlot + 1, Int64s({3600, 3600, 3600, 3600})}});
  RowGroupView old_view;
  ASSERT_TRUE(old_view.Parse(old).ok());
  EXPECT_EQ(old_view.slots(), (std::vector<uint32_t>{11, 17, 24, 66}));
  ExpectRoundTrip(layout, group, old);
}

// A group mixing rows of an older schema version with current ones stores their versions
// (slot 4): every row is rebuilt with its own version, columns and metadata.
TEST(TypedLayoutSlotsTest, RowsOfAnOlderVersionReadBack) {
  const TableSchema v1 = IdTimeValueSchema();
  TableSchema v2;
  TableAlteration add_note;
  add_note.added_columns = {{"note", LogicalType::kInt}};
  ASSERT_TRUE(v1.Alter(add_note, &v2).ok());
  const TypedLayout layout(v2);
  std::vector<std::string> keys(4), values(4);
  for (int i = 0; i < 4; i++) {
    ASSERT_TRUE(EncodeKey(v2, {Value::Text("a")}, {Value::Int(1000 - i)}, &keys[i]).ok());
    RowMetadata meta;
    meta.schema_version = i % 2 == 0 ? 1 : 2;
    // Write times against the time, a fixed expiry on its own (slots 11 and 16).
    meta.has_write_time = true;
    meta.write_time_micros = int64_t{1000 - i} * 1000000 + i;
    meta.has_expiry = true;
    meta.expiry_seconds = 4000000000;
    const TableSchema& schema = i % 2 == 0 ? v1 : v2;
    Row row(schema.next_column_id());
    row[schema.FindColumn("value")->id] = Value::Float(0.5f + i);
    if (meta.schema_version == 2) {
      row[schema.FindColumn("note")->id] = Value::Int(i);
    }
    ASSERT_TRUE(RowCodec(schema).EncodeRow(meta, row, &values[i]).ok());
  }
  const std::string bytes = WritePutGroup(layout, keys, values);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(bytes).ok());
  EXPECT_EQ(view.slots(), (std::vector<uint32_t>{4, 6, 11, 16, 66, 67}));  // 4: row versions
  std::string first_internal_key = keys[0];
  PutFixed64(&first_internal_key, kPutValueType);
  std::unique_ptr<DecodedRowGroup> decoded;
  ASSERT_TRUE(layout.DecodeRowGroup(view, first_internal_key, &decoded).ok());
  ASSERT_EQ(decoded->row_count(), 4u);
  for (size_t i = 0; i < 4; i++) {
    EXPECT_EQ(Hex(decoded->value(i).ToString()), Hex(values[i]));
  }
}

// Keys rebuilt from the columns: fixed-width and byte-string clustering components in turn,
// after partitions and strings shorter and longer than the key builder's stack buffer.
TEST(TypedLayoutSlotsTest, KeysOfMixedClusteringColumnsReadBack) {
  CreateTableStatement statement;
  ASSERT_TRUE(ParseCreateTable("CREATE TABLE m.t (id text, time int, tag text, seq bigint, "
                               "value float, PRIMARY KEY ((id), time, tag, seq))",
                               &statement)
                  .ok());
  const TypedLayout layout(statement.schema);
  const std::vector<std::string> ids = {"a", std::string(300, 'p')};
  const std::vector<std::string> tags = {"", "x", std::string(400, 't')};
  std::vector<std::string> keys;
  for (const std::string& id : ids) {
    for (size_t t = 0; t < tags.size(); t++) {
      std::string key;
      ASSERT_TRUE(EncodeKey(layout.schema(), {Value::Text(id)},
                            {Value::Int(7), Value::Text(tags[t]), Value::BigInt(-5 + t)}, &key)
                      .ok());
      keys.push_back(key);
    }
  }
  const std::string bytes = WritePutGroup(layout, keys, {"opaque value"});
  RowGroupView view;
  ASSERT_TRUE(view.Parse(bytes).ok());
  std::string first_internal_key = keys[0];
  PutFixed64(&first_internal_key, kPutValueType);
  std::unique_ptr<DecodedRowGroup> decoded;
  ASSERT_TRUE(layout.DecodeRowGroup(view, first_internal_key, &decoded).ok());
  ASSERT_EQ(decoded->row_count(), keys.size());
  for (size_t i = 0; i < keys.size(); i++) {
    EXPECT_EQ(Hex(decoded->user_key(i).ToString()), Hex(keys[i])) << i;
  }
}

// Groups whose first key is not a typed key, or whose first time does not fit the column's
// type against the others, keep the time in slot 24.
TEST(TypedLayoutSlotsTest, TimeStaysInItsSlotWhenTheKeyCannotHoldIt) {
  CreateTableStatement statement;
  ASSERT_TRUE(ParseCreateTable("CREATE TABLE m.t (id text, time int, value float, "
                               "PRIMARY KEY ((id), time))",
                               &statement)
                  .ok());
  const TypedLayout layout(statement.schema);
  std::vector<std::string> keys(2);
  ASSERT_TRUE(
      EncodeKey(layout.schema(), {Value::Text("a")}, {Value::Int(-2000000000)}, &keys[0]).ok());
  ASSERT_TRUE(
      EncodeKey(layout.schema(), {Value::Text("a")}, {Value::Int(2000000000)}, &keys[1]).ok());
  const std::string bytes = WritePutGroup(layout, keys, {"not a row"});
  RowGroupView view;
  ASSERT_TRUE(view.Parse(bytes).ok());
  EXPECT_TRUE(view.HasSlot(kTimeSlot));
  EXPECT_FALSE(view.HasSlot(kTimeFromKeySlot));
}

TEST(TypedLayoutSlotsTest, MalformedGroupsAreRefused) {
  const TypedLayout layout(IdTimeValueSchema());
  const Group group = MakeGroup(layout);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group.bytes).ok());
  const auto refused = [&](const std::string& bytes, const std::string& first_key) {
    RowGroupView v;
    if (!v.Parse(bytes).ok()) return true;
    std::unique_ptr<DecodedRowGroup> decoded;
    TypedGroupColumns columns;
    const Status whole = layout.DecodeRowGroup(v, first_key, &decoded);
    const Status scan = layout.DecodeScanColumns(v, first_key, &columns);
    return !whole.ok() && !scan.ok() && (whole.IsCorruption() || whole.IsInvalidArgument());
  };
  // The time in both forms.
  EXPECT_TRUE(
      refused(Rewrite(view, {{kTimeFromKeySlot, kTimeFromKeySlot, Int32s({0, -300, -600, -900})},
                             {kEarlyExpirySlot, kTimeSlot, Int32s({1, 2, 3, 4})}}),
              group.first_internal_key));
  // The expiry in both forms.
  EXPECT_TRUE(
      refused(Rewrite(view, {{kWriteTimeSlot + 3, kWriteTimeSlot + 3, Int64s({0, 1, 2, 3})},
                             {kEarlyExpirySlot, kEarlyExpirySlot, Int64s({3600, 3600, 3600, 3600})},
                             {66, kExpirySlot + 1, Int64s({3600, 3600, 3600, 3600})}}),
              group.first_internal_key));
  // Row 0's difference from the key is not 0.
  EXPECT_TRUE(
      refused(Rewrite(view, {{kTimeFromKeySlot, kTimeFromKeySlot, Int32s({5, -300, -600, -900})}}),
              group.first_internal_key));
  // A difference past the column's type.
  EXPECT_TRUE(refused(
      Rewrite(view, {{kTimeFromKeySlot, kTimeFromKeySlot, Int32s({0, 2147000000, -600, -900})}}),
      group.first_internal_key));
  // A first key whose clustering part does not decode.
  std::string bad_key = group.keys[0].substr(0, group.keys[0].size() - 2);
  PutFixed64(&bad_key, kPutValueType);
  EXPECT_TRUE(refused(group.bytes, bad_key));
  // A first key whose partition does not decode (the row_group fuzzer found the partition's
  // length used although it was never set; what that read depends on the stack, so the
  // fuzzer's input, corpus/row_group/crash-first-key-partition-length, is what UBSan catches).
  std::string bad_partition = "\xff";
  PutFixed64(&bad_partition, kPutValueType);
  EXPECT_TRUE(refused(group.bytes, bad_partition));
  // Every truncation is refused or decodes without crashing.
  for (size_t len = 0; len < group.bytes.size(); len++) {
    RowGroupView v;
    if (!v.Parse(Slice(group.bytes.data(), len)).ok()) continue;
    std::unique_ptr<DecodedRowGroup> decoded;
    (void)layout.DecodeRowGroup(v, group.first_internal_key, &decoded);
  }
}

}  // namespace
}  // namespace columnar
