// Row group index (row_group_index.h): a built index decodes to what was added, and a forged
// index whose column chunks claim millions of values is refused before they are decoded.
#include "table_format/row_group_index.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace columnar {
namespace {

TEST(RowGroupIndexTest, BuiltIndexDecodes) {
  RowGroupIndexBuilder builder;
  builder.AddRowGroup("a", 0x101, 0);
  builder.AddRowGroup("b", 0x201, 100);
  builder.SetBlockHandle(builder.CloseBlock(), 0, 300);
  builder.AddRowGroup("c", 0x301, 0);
  builder.SetBlockHandle(builder.CloseBlock(), 305, 50);
  std::string raw;
  ASSERT_TRUE(builder.Finish(&raw).ok());
  RowGroupIndex index;
  ASSERT_TRUE(index.Decode(raw, 1000).ok());
  ASSERT_EQ(index.num_row_groups(), 3u);
  ASSERT_EQ(index.num_blocks(), 2u);
  EXPECT_EQ(index.block_of(2), 1u);
  EXPECT_EQ(index.offset_in_block(1), 100u);
  EXPECT_EQ(index.block_offset(1), 305u);
}

// Found by file_parts_fuzzer as a slow unit (3 to 4 seconds under the sanitizers): 31 bytes
// whose first column chunk claims 16,776,830 values of a 2-block, 3-group index. The decoder
// decoded them all (128 MiB) before comparing the count with the header's.
TEST(RowGroupIndexTest, ColumnClaimingMoreValuesThanTheHeaderIsRefusedBeforeDecoding) {
  const unsigned char unit[] = {0x02, 0x03, 0x04, 0x00, 0xfe, 0xfc, 0xff, 0x07, 0x0a, 0x02, 0x04,
                                0x29, 0x04, 0xf8, 0x0a, 0x04, 0x01, 0x2c, 0x0c, 0x00, 0x00, 0x00,
                                0x00, 0x00, 0x00, 0x00, 0xf7, 0x03, 0x04, 0x00, 0x02};
  const Slice raw(reinterpret_cast<const char*>(unit), sizeof(unit));
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 20; i++) {
    RowGroupIndex index;
    ASSERT_TRUE(index.Decode(raw, 1000).IsCorruption());
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;
  // Refused from the chunk header: microseconds. Decoding the claimed values first took
  // tens of milliseconds each (seconds under the sanitizers).
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count(), 250);
}

// Found by table_options_fuzzer: a file of one-row groups (rows_per_group=1) whose index
// columns take less than a byte a group (offsets 0, keys and trailers that differ by little)
// was refused at open ("implausible counts": more groups than index bytes).
TEST(RowGroupIndexTest, ManySmallGroupsInFewerBytesThanGroupsDecode) {
  RowGroupIndexBuilder builder;
  constexpr int kGroups = 2000;
  for (int g = 0; g < kGroups; g++) {
    builder.AddRowGroup("k", 0x101, 0);
    builder.SetBlockHandle(builder.CloseBlock(), g, 1);
  }
  std::string raw;
  ASSERT_TRUE(builder.Finish(&raw).ok());
  ASSERT_LT(raw.size(), static_cast<size_t>(kGroups)) << "the case needs a compact index";
  RowGroupIndex index;
  const Status s = index.Decode(raw, kGroups);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(index.num_row_groups(), static_cast<size_t>(kGroups));
  EXPECT_EQ(index.block_offset(kGroups - 1), static_cast<uint64_t>(kGroups - 1));
  // More groups than the file could hold: refused before anything is decoded.
  EXPECT_TRUE(index.Decode(raw, kGroups - 1).IsCorruption());
}

}  // namespace
}  // namespace columnar
