// TypedLayout's splitter kept from one row group to the next (RowGroupWriteContext::scratch):
// every group is written byte for byte as by a new splitter, whatever the groups before it held
// (opaque keys and values, other schema versions' rows, write times and expiries, nulls, more
// or fewer rows), and a scratch left by another layout is replaced.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "table_format/key_codec.h"
#include "table_format/row_codec.h"
#include "table_format/typed_layout.h"

namespace columnar {
namespace {

class ScratchColumns : public ColumnWriteSettings {
 public:
  ChunkWriteOptions For(const std::string&, PhysicalType) const override {
    return ChunkWriteOptions();
  }
};

TableSchema ScratchSchema() {
  TableSchema schema;
  EXPECT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("host", LogicalType::kText)
                  .AddColumn("ts", LogicalType::kTimestamp)
                  .AddColumn("tag", LogicalType::kText)
                  .AddColumn("usage", LogicalType::kDouble)
                  .AddColumn("count", LogicalType::kInt)
                  .SetPartitionKey({"host"})
                  .AddClusteringColumn("ts")
                  .Build(&schema)
                  .ok());
  return schema;
}

struct ScratchGroup {
  std::vector<std::string> keys;
  std::vector<std::string> values;
  std::vector<Entry> entries;
};

// Group g: its own mix of rows, so that whatever one group leaves behind shows in the next.
ScratchGroup MakeScratchGroup(const TableSchema& schema, int g) {
  ScratchGroup group;
  const RowCodec codec(schema);
  const size_t rows = g % 3 == 0 ? 128 : 20 + 7 * g;
  for (size_t i = 0; i < rows; i++) {
    std::string key;
    const size_t number = static_cast<size_t>(g) * 2 + i / 50;
    const std::string host =
        std::string("host-") + (number < 10 ? "0" : "") + std::to_string(number);
    EXPECT_TRUE(EncodeKey(schema, {Value::Text(host)},
                          {Value::Timestamp(static_cast<int64_t>(1000 * i + g))}, &key)
                    .ok());
    if (g == 1 && i % 9 == 4) key += "junk";  // not a key of the schema: opaque
    RowMetadata meta;
    if (g % 2 == 0) {
      meta.has_write_time = true;
      meta.write_time_micros = static_cast<int64_t>(1000 * i + 17);
    }
    if (g == 2 && i % 4 == 0) {
      meta.has_expiry = true;
      meta.expiry_seconds = 5000 + i;
    }
    Row row(schema.columns().size());
    row[2] = i % 5 == 3 && g != 3 ? Value() : Value::Text("tag-" + std::to_string(g));
    row[3] = Value::Double(0.5 * static_cast<double>(i) + g);
    if (g != 4) row[4] = Value::Int(static_cast<int32_t>(i % 7));
    std::string value;
    EXPECT_TRUE(codec.EncodeRow(meta, row, &value).ok());
    if (g == 1 && i % 11 == 5) value = "not a row";  // an opaque value
    group.keys.push_back(key);
    group.values.push_back(value);
  }
  group.entries.resize(rows);
  for (size_t i = 0; i < rows; i++) {
    group.entries[i].user_key = group.keys[i];
    group.entries[i].sequence = g == 3 ? 0 : 100 + i;
    group.entries[i].value_type = kPutValueType;
    group.entries[i].value = group.values[i];
  }
  return group;
}

class OtherScratch : public RowGroupWriteScratch {};

TEST(TypedLayoutScratchTest, KeptSplitterWritesTheBytesOfANewOne) {
  const TableSchema schema = ScratchSchema();
  const TypedLayout layout(schema);
  const TypedLayout other_layout(schema);
  ScratchColumns settings;
  std::unique_ptr<RowGroupWriteScratch> scratch = std::make_unique<OtherScratch>();
  RowGroupWriteScratch* kept_scratch = nullptr;
  for (int round = 0; round < 2; round++) {
    for (int g = 0; g < 6; g++) {
      SCOPED_TRACE("round " + std::to_string(round) + " group " + std::to_string(g));
      const ScratchGroup group = MakeScratchGroup(schema, g);
      RowGroupWriteContext fresh;
      fresh.settings = &settings;
      std::string expected;
      ASSERT_TRUE(
          layout.WriteRowGroup(group.entries.data(), group.entries.size(), fresh, &expected).ok());
      RowGroupWriteContext kept = fresh;
      kept.scratch = &scratch;
      // Round 1 alternates two layouts on one scratch: each takes it over.
      const TypedLayout& writer = round == 1 && g % 2 == 1 ? other_layout : layout;
      std::string bytes;
      ASSERT_TRUE(
          writer.WriteRowGroup(group.entries.data(), group.entries.size(), kept, &bytes).ok());
      EXPECT_EQ(bytes, expected);
      EXPECT_EQ(dynamic_cast<OtherScratch*>(scratch.get()), nullptr);
      // Round 0 keeps one splitter for all its groups.
      if (round == 0 && g == 0) kept_scratch = scratch.get();
      if (round == 0) {
        EXPECT_EQ(scratch.get(), kept_scratch);
      }
    }
  }
}

}  // namespace
}  // namespace columnar
