// RowCompactionFilterFactory (plugin/row_compaction_filter.h) on single values: a row whose
// header keeps it is kept without its cells being read; a row is removed (expired) or rewritten
// (dropped columns) only when all of it decodes, and anything else is kept as it is.
#include "plugin/row_compaction_filter.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "table_format/row_codec.h"

namespace columnar {
namespace {

using Decision = rocksdb::CompactionFilter::Decision;
using ValueType = rocksdb::CompactionFilter::ValueType;

constexpr int64_t kNowSeconds = 1'700'000'000;

std::shared_ptr<const TableSchema> MakeSchema() {
  auto schema = std::make_shared<TableSchema>();
  const Status s = TableSchemaBuilder("ks", "t")
                       .AddColumn("k", LogicalType::kInt)
                       .AddColumn("v", LogicalType::kText)
                       .AddColumn("w", LogicalType::kBigInt)
                       .SetPartitionKey({"k"})
                       .Build(schema.get());
  EXPECT_TRUE(s.ok()) << s.ToString();
  return schema;
}

// The schema without column v (version 2).
std::shared_ptr<const TableSchema> WithoutV(const TableSchema& schema) {
  auto altered = std::make_shared<TableSchema>();
  TableAlteration alteration;
  alteration.dropped_columns = {"v"};
  const Status s = schema.Alter(alteration, altered.get());
  EXPECT_TRUE(s.ok()) << s.ToString();
  return altered;
}

// A row of `schema`'s version with v = "text" and w = 7, expiring at `expiry` (0: never).
std::string RowValue(const TableSchema& schema, uint32_t expiry) {
  RowMetadata meta;
  meta.schema_version = schema.version();
  meta.has_write_time = true;
  meta.write_time_micros = (kNowSeconds - 100) * 1'000'000;
  meta.has_expiry = expiry != 0;
  meta.expiry_seconds = expiry;
  Row row(schema.next_column_id());
  row[schema.FindColumn("k")->id] = Value::Int(1);
  if (const ColumnDef* v = schema.FindColumn("v")) row[v->id] = Value::Text("text");
  row[schema.FindColumn("w")->id] = Value::BigInt(7);
  std::string value;
  const Status s = RowCodec(schema).EncodeRow(meta, row, &value);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return value;
}

// The row with its last value cut short: the header decodes, the cells do not.
std::string Truncated(const std::string& value) { return value.substr(0, value.size() - 3); }

class RowCompactionFilterTest : public ::testing::Test {
 protected:
  void Use(std::shared_ptr<const TableSchema> schema) {
    factory_ = std::make_unique<RowCompactionFilterFactory>(std::move(schema),
                                                            [] { return kNowSeconds * 1'000'000; });
    rocksdb::CompactionFilter::Context context{};
    filter_ = factory_->CreateCompactionFilter(context);
  }

  Decision Filter(const std::string& value, ValueType type = ValueType::kValue) {
    new_value_.clear();
    std::string skip_until;
    return filter_->FilterV2(1, "key", type, value, &new_value_, &skip_until);
  }

  const RowCompactionFilterFactory::Stats& stats() const { return factory_->stats(); }

  std::unique_ptr<RowCompactionFilterFactory> factory_;
  std::unique_ptr<rocksdb::CompactionFilter> filter_;
  std::string new_value_;
};

TEST_F(RowCompactionFilterTest, RowsTheHeaderKeepsAreKeptWhateverTheirCells) {
  const auto schema = MakeSchema();
  Use(schema);
  EXPECT_EQ(Filter(RowValue(*schema, 0)), Decision::kKeep);
  EXPECT_EQ(Filter(RowValue(*schema, kNowSeconds + 1)), Decision::kKeep);
  // Not expired: the cells are not read, so a malformed body stays for readers to report.
  EXPECT_EQ(Filter(Truncated(RowValue(*schema, kNowSeconds + 1))), Decision::kKeep);
  EXPECT_EQ(stats().rows_kept.load(), 3u);
  EXPECT_EQ(stats().other_entries.load(), 0u);
  EXPECT_EQ(stats().rows_expired.load(), 0u);
}

TEST_F(RowCompactionFilterTest, ExpiredRowsGoOnlyWhenTheyDecode) {
  const auto schema = MakeSchema();
  Use(schema);
  EXPECT_EQ(Filter(RowValue(*schema, kNowSeconds)), Decision::kRemove);
  EXPECT_EQ(Filter(RowValue(*schema, kNowSeconds - 50)), Decision::kRemove);
  EXPECT_EQ(stats().rows_expired.load(), 2u);
  // Expired by its header, but the rest does not decode: not a row this filter understands.
  EXPECT_EQ(Filter(Truncated(RowValue(*schema, kNowSeconds - 50))), Decision::kKeep);
  EXPECT_EQ(stats().rows_expired.load(), 2u);
  EXPECT_EQ(stats().other_entries.load(), 1u);
}

TEST_F(RowCompactionFilterTest, ValuesThatAreNotRowsAreKept) {
  const auto schema = MakeSchema();
  Use(schema);
  EXPECT_EQ(Filter("not a row"), Decision::kKeep);
  EXPECT_EQ(Filter(""), Decision::kKeep);
  EXPECT_EQ(Filter(RowValue(*schema, kNowSeconds - 50), ValueType::kMergeOperand), Decision::kKeep);
  EXPECT_EQ(stats().other_entries.load(), 3u);
  EXPECT_EQ(stats().rows_expired.load(), 0u);
}

TEST_F(RowCompactionFilterTest, RowsOfAnOlderVersionLoseTheValuesOfDroppedColumns) {
  const auto before = MakeSchema();
  const auto after = WithoutV(*before);
  ASSERT_EQ(after->version(), 2u);
  Use(after);
  const std::string old_row = RowValue(*before, kNowSeconds + 1);
  ASSERT_EQ(Filter(old_row), Decision::kChangeValue);
  RowMetadata meta;
  Row row;
  const RowCodec codec(*after);
  ASSERT_TRUE(codec.DecodeRow(new_value_, &meta, &row).ok());
  EXPECT_EQ(meta.schema_version, 1u);
  EXPECT_TRUE(row[before->FindColumn("v")->id].is_null());
  EXPECT_EQ(row[before->FindColumn("w")->id], Value::BigInt(7));
  EXPECT_EQ(stats().rows_rewritten.load(), 1u);
  // A row of the current version is kept as it is; an old one that does not decode too.
  EXPECT_EQ(Filter(RowValue(*after, 0)), Decision::kKeep);
  EXPECT_EQ(Filter(Truncated(old_row)), Decision::kKeep);
  EXPECT_EQ(stats().rows_kept.load(), 1u);
  EXPECT_EQ(stats().other_entries.load(), 1u);
  EXPECT_EQ(stats().rows_rewritten.load(), 1u);
}

}  // namespace
}  // namespace columnar
