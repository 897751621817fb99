// Row group headers may not claim more rows than a table file can be written with
// (kMaxRowGroupRows): a few bytes with absent slots or constant chunks would otherwise ask for
// millions of decoded rows.
#include <gtest/gtest.h>

#include <string>

#include "table_format/chunk.h"
#include "table_format/row_group.h"
#include "table_format/varint.h"

namespace columnar {
namespace {

// A group of `rows` rows with one constant int64 chunk in slot 0.
std::string ConstantGroup(uint32_t rows) {
  ColumnVector values(PhysicalType::kInt64);
  for (uint32_t i = 0; i < rows; i++) values.Append<int64_t>(7);
  ChunkWriteOptions options;
  options.encoding = Encoding::kConstant;
  std::string chunk;
  EXPECT_TRUE(WriteChunk(values, options, &chunk).ok());
  std::string group;
  PutVarint32(&group, rows);
  PutVarint32(&group, 0);  // first_partition_length
  PutVarint32(&group, 1);  // one slot
  PutVarint32(&group, 0);  // slot 0
  return group + chunk;
}

TEST(RowGroupLimitsTest, GroupsUpToTheLimitParse) {
  const std::string group = ConstantGroup(kMaxRowGroupRows);
  EXPECT_LT(group.size(), 64u) << "a constant chunk is a few bytes, whatever its row count";
  RowGroupView view;
  ASSERT_TRUE(view.Parse(group).ok());
  EXPECT_EQ(view.row_count(), kMaxRowGroupRows);
}

TEST(RowGroupLimitsTest, GroupsClaimingMoreRowsAreCorruption) {
  RowGroupView view;
  EXPECT_TRUE(view.Parse(ConstantGroup(kMaxRowGroupRows + 1)).IsCorruption());

  // Nor does the writer produce one.
  RowGroupWriter writer;
  writer.Begin(kMaxRowGroupRows + 1, 0);
  ColumnVector values(PhysicalType::kInt64);
  for (uint32_t i = 0; i < kMaxRowGroupRows + 1; i++) values.Append<int64_t>(7);
  EXPECT_TRUE(writer.AddColumn(0, "c", values, ChunkWriteOptions()).IsInvalidArgument());
}

}  // namespace
}  // namespace columnar
