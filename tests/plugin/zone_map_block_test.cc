// The zone map block's column-major layout (plugin/zone_map_block.h): fixed bytes, the way
// back to the row-major form byte for byte, row-major blocks (older files) left alone, and
// malformed column-major blocks refused without crashing.
#include "plugin/zone_map_block.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "filter/zone_map_set.h"
#include "plugin/zone_map_collector.h"
#include "table_format/varint.h"
#include "tests/table_format/hex_bytes.h"

namespace columnar {
namespace {

using testing_util::Hex;

ColumnVector Int32s(std::initializer_list<int32_t> values) {
  ColumnVector out(PhysicalType::kInt32);
  for (int32_t v : values) out.Append<int32_t>(v);
  return out;
}

// A row-major block of the given groups' sets (flags 1 each).
std::string RowMajor(const std::vector<ZoneMapSet>& sets) {
  std::string block;
  PutVarint32(&block, static_cast<uint32_t>(sets.size()));
  for (const ZoneMapSet& set : sets) {
    std::string encoded;
    set.EncodeTo(&encoded);
    block.push_back(1);
    PutLengthPrefixed(&block, encoded);
  }
  return block;
}

// Two groups: column 5 in both, column 9 only in the first.
std::vector<ZoneMapSet> TwoGroups() {
  ZoneMapSet first, second;
  first.Set(5, BuildZoneMap(Int32s({1, 2})));
  first.Set(9, BuildZoneMap(Int32s({7})));
  second.Set(5, BuildZoneMap(Int32s({3})));
  return {first, second};
}

constexpr uint8_t kV2 = kZoneMapBlockColumnMajorVersionDeltas;

TEST(ZoneMapBlockTest, FixedBytes) {
  std::string column_major;
  ASSERT_TRUE(ZoneMapBlockToColumnMajor(RowMajor(TwoGroups()), &column_major, kV2).ok());
  // Marker 00, version 02, 2 groups, flags 01 01, set headers (version 01, 2 columns)
  // (01, 1 column); then the first entries of both groups: column 5 (05), int32 (00),
  // flags 01 (a value set), 2 rows, 0 nulls, 2 values: 1 and 2; and
  // column 5 of the second group: 1 row, value 3; then the first group's column 9.
  std::string expected =
      "0002020101"
      "0102"
      "0101";
  expected +=
      "05"
      "00"
      "01"
      "02"
      "00"
      "02"
      "01000000"
      "02000000";
  expected +=
      "05"
      "00"
      "01"
      "01"
      "00"
      "01"
      "03000000";
  expected +=
      "09"
      "00"
      "01"
      "01"
      "00"
      "01"
      "07000000";
  EXPECT_EQ(Hex(column_major), expected);
}

TEST(ZoneMapBlockTest, BackToRowMajorByteForByte) {
  std::vector<ZoneMapSet> sets = TwoGroups();
  // Sets of every kind: bounds on strings, a sum, an all-null column, an empty set.
  ColumnVector strings(PhysicalType::kBytes);
  for (int i = 0; i < 20; i++) strings.AppendBytes("value-" + std::to_string(i * 7919));
  ColumnVector nulls(PhysicalType::kInt64);
  nulls.AppendNull();
  ZoneMapSet rich;
  ZoneMapOptions with_sum;
  with_sum.integer_sum = true;
  rich.Set(1, BuildZoneMap(Int32s({5, -9, 1000}), with_sum));
  rich.Set(2, BuildZoneMap(strings));
  rich.Set(3, BuildZoneMap(nulls));
  sets.push_back(rich);
  sets.push_back(ZoneMapSet());
  const std::string row_major = RowMajor(sets);
  for (uint8_t version : {1, 2, 3}) {
    SCOPED_TRACE(version);
    std::string block;
    ASSERT_TRUE(ZoneMapBlockToColumnMajor(row_major, &block, version).ok());
    EXPECT_NE(block, row_major);
    ASSERT_TRUE(ZoneMapBlockToRowMajor(&block).ok());
    EXPECT_EQ(Hex(block), Hex(row_major));
  }
  std::string block;
  ASSERT_TRUE(ZoneMapBlockToColumnMajor(row_major, &block).ok());
  ASSERT_TRUE(ZoneMapBlockToRowMajor(&block).ok());
  std::vector<ZoneMapEntry> entries;
  ASSERT_TRUE(ParseZoneMapBlock(block, sets.size(), &entries).ok());
  ZoneMapSet decoded;
  ASSERT_TRUE(ZoneMapSet::Decode(entries[2].encoded, &decoded).ok());
  ASSERT_NE(decoded.Find(1), nullptr);
  EXPECT_TRUE(decoded.Find(1)->has_sum);
}

// Bounds (no value set: a zone map of one row group of a time series has more than 8 values):
// version 2 stores each fixed-width min minus the column's previous min, each max minus its
// own min, so groups that move by the same step have the same bytes.
ColumnVector Int32Range(int32_t first, int32_t step) {
  ColumnVector out(PhysicalType::kInt32);
  for (int i = 0; i < 10; i++) out.Append<int32_t>(first + i * step);
  return out;
}

std::vector<ZoneMapSet> SeriesGroups() {
  std::vector<ZoneMapSet> sets(3);
  for (int g = 0; g < 3; g++) {
    sets[g].Set(3, BuildZoneMap(Int32Range(1000 - 3000 * g, 300)));  // 1000 .. 3700, ...
    ColumnVector floats(PhysicalType::kFloat32);
    for (int i = 0; i < 10; i++) floats.Append<float>(1.0f + 0.25f * i);
    sets[g].Set(4, BuildZoneMap(floats));  // 1.0 .. 3.25
  }
  return sets;
}

TEST(ZoneMapBlockTest, FixedBytesOfBoundDifferences) {
  std::string column_major;
  ASSERT_TRUE(ZoneMapBlockToColumnMajor(RowMajor(SeriesGroups()), &column_major, kV2).ok());
  // Marker 00, version 02, 3 groups, flags 01 x3, set headers (01, 2 columns) x3.
  std::string expected = "000203010101010201020102";
  // Column 3 (int32, 00), flags 1e (bounds, exact min, max, exact max), 10 rows (0a), 0 nulls.
  // Group 0: min 1000 (e8030000) minus 0, max 3700 minus 1000 = 2700 (8c0a0000); groups 1 and
  // 2: min minus the previous min = -3000 (48f4ffff), max minus min 2700 again.
  expected += "03001e0a00e80300008c0a0000";
  expected += "03001e0a0048f4ffff8c0a0000";
  expected += "03001e0a0048f4ffff8c0a0000";
  // Column 4 (float32, 02): min 1.0 (0000803f) as is, max 3.25 (00005040) minus 1.0's bits =
  // 0x00d00000 (0000d000); then the same min (difference 0) and max.
  expected += "04021e0a000000803f0000d000";
  expected += "04021e0a00000000000000d000";
  expected += "04021e0a00000000000000d000";
  EXPECT_EQ(Hex(column_major), expected);
  ASSERT_TRUE(ZoneMapBlockToRowMajor(&column_major).ok());
  EXPECT_EQ(Hex(column_major), Hex(RowMajor(SeriesGroups())));
}

// Files written before version 2: the same entries with the bounds as they are.
TEST(ZoneMapBlockTest, VersionOneBlocksStillRead) {
  const std::string row_major = RowMajor(SeriesGroups());
  std::string block(1, static_cast<char>(kZoneMapBlockColumnMajorMarker));
  block.push_back(static_cast<char>(kZoneMapBlockColumnMajorVersion));
  PutVarint32(&block, 3);
  block += std::string("\x01\x01\x01\x01\x02\x01\x02\x01\x02", 9);
  std::vector<std::string> entries;
  for (const ZoneMapSet& set : SeriesGroups()) {
    std::string encoded;
    set.EncodeTo(&encoded);
    entries.push_back(encoded.substr(2));  // after the set's version and column count
  }
  // Each set's two entries have the same length (13 bytes): regroup them column by column.
  for (int j = 0; j < 2; j++) {
    for (const std::string& e : entries) block += e.substr(13 * j, 13);
  }
  ASSERT_TRUE(ZoneMapBlockToRowMajor(&block).ok());
  EXPECT_EQ(Hex(block), Hex(row_major));
}

// Version 3: the same differences, zigzagged, out of the entries in byte planes.
TEST(ZoneMapBlockTest, FixedBytesOfBoundPlanes) {
  std::string column_major;
  ASSERT_TRUE(ZoneMapBlockToColumnMajor(RowMajor(SeriesGroups()), &column_major).ok());
  // Marker 00, version 03, 3 groups, flags 01 x3, set headers (01, 2 columns) x3.
  std::string expected = "000303010101010201020102";
  // 12 four-byte differences, no eight-byte ones.
  expected += "0c00";
  // Block order: column 3's (min, max) of groups 0, 1, 2, then column 4's. Zigzagged:
  // 1000 -> 2000 (0x7d0), 2700 -> 5400 (0x1518), -3000 -> 5999 (0x176f), 0x00d00000 ->
  // 0x01a00000, 1.0's bits 0x3f800000 -> 0x7f000000, 0 -> 0. Byte 0 of all 12, then byte 1, ...
  std::string planes;
  const uint32_t values[12] = {2000,       5400,       5999, 5400,       5999, 5400,
                               0x7f000000, 0x01a00000, 0,    0x01a00000, 0,    0x01a00000};
  for (int k = 0; k < 4; k++) {
    for (uint32_t v : values) planes.push_back(static_cast<char>(v >> (8 * k)));
  }
  // Then the entries without their bounds: column 3 (int32 00, flags 1e, 10 rows, 0 nulls)
  // x3, column 4 (float32 02) x3.
  const std::string entries = "03001e0a0003001e0a0003001e0a0004021e0a0004021e0a0004021e0a00";
  EXPECT_EQ(Hex(column_major), expected + Hex(planes) + entries);
  ASSERT_TRUE(ZoneMapBlockToRowMajor(&column_major).ok());
  EXPECT_EQ(Hex(column_major), Hex(RowMajor(SeriesGroups())));
}

TEST(ZoneMapBlockTest, DamagedBoundPlanesAreRefusedOrParsed) {
  std::string good;
  ASSERT_TRUE(ZoneMapBlockToColumnMajor(RowMajor(SeriesGroups()), &good).ok());
  for (size_t len = 1; len < good.size(); len++) {
    std::string cut = good.substr(0, len);
    EXPECT_TRUE(ZoneMapBlockToRowMajor(&cut).IsCorruption()) << len;
  }
  // Counts that do not match the entries' bounds are refused.
  std::string fewer = good;
  fewer[12] = 0x0b;
  EXPECT_TRUE(ZoneMapBlockToRowMajor(&fewer).IsCorruption());
  std::string wide = good;
  wide[13] = 0x01;
  EXPECT_TRUE(ZoneMapBlockToRowMajor(&wide).IsCorruption());
  // A max difference that makes the max smaller than the min: the top byte of the first
  // entry's max difference (plane 3, value 1) set and its lowest bit (plane 0) too: zigzag
  // 0xff001519 is -2,139,097,741.
  std::string inverted = good;
  inverted[14 + 1] = static_cast<char>(0x19);
  inverted[14 + 3 * 12 + 1] = static_cast<char>(0xff);
  EXPECT_TRUE(ZoneMapBlockToRowMajor(&inverted).IsCorruption());
  for (size_t i = 0; i < good.size(); i++) {
    for (uint8_t flip : {0x01, 0x40, 0x80}) {
      std::string damaged = good;
      damaged[i] = static_cast<char>(damaged[i] ^ flip);
      if (!ZoneMapBlockToRowMajor(&damaged).ok()) continue;
      std::vector<ZoneMapEntry> entries;
      (void)ParseZoneMapBlock(damaged, 3, &entries);
    }
  }
}

TEST(ZoneMapBlockTest, DamagedBoundDifferencesAreRefusedOrParsed) {
  std::string good;
  ASSERT_TRUE(ZoneMapBlockToColumnMajor(RowMajor(SeriesGroups()), &good, kV2).ok());
  for (size_t len = 1; len < good.size(); len++) {
    std::string cut = good.substr(0, len);
    EXPECT_TRUE(ZoneMapBlockToRowMajor(&cut).IsCorruption()) << len;
  }
  // A max difference that makes the max smaller than the min is refused (the restored entry
  // is checked as in version 1).
  std::string inverted = good;
  inverted[12 + 9 + 3] = static_cast<char>(0xff);  // first entry's max difference, top byte
  EXPECT_TRUE(ZoneMapBlockToRowMajor(&inverted).IsCorruption());
  for (size_t i = 0; i < good.size(); i++) {
    std::string damaged = good;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x40);
    if (!ZoneMapBlockToRowMajor(&damaged).ok()) continue;
    std::vector<ZoneMapEntry> entries;
    (void)ParseZoneMapBlock(damaged, 3, &entries);
  }
}

TEST(ZoneMapBlockTest, RowMajorBlocksAreLeftAlone) {
  const std::string row_major = RowMajor(TwoGroups());
  std::string block = row_major;
  ASSERT_TRUE(ZoneMapBlockToRowMajor(&block).ok());
  EXPECT_EQ(block, row_major);
}

TEST(ZoneMapBlockTest, MalformedColumnMajorBlocksAreRefused) {
  std::string good;
  ASSERT_TRUE(ZoneMapBlockToColumnMajor(RowMajor(TwoGroups()), &good, kV2).ok());
  // Every truncation (past the marker) is refused.
  for (size_t len = 1; len < good.size(); len++) {
    std::string cut = good.substr(0, len);
    EXPECT_TRUE(ZoneMapBlockToRowMajor(&cut).IsCorruption()) << len;
  }
  std::string trailing = good + "x";
  EXPECT_TRUE(ZoneMapBlockToRowMajor(&trailing).IsCorruption());
  std::string version = good;
  version[1] = 4;
  EXPECT_TRUE(ZoneMapBlockToRowMajor(&version).IsCorruption());
  std::string no_groups = good;
  no_groups[2] = 0;
  EXPECT_TRUE(ZoneMapBlockToRowMajor(&no_groups).IsCorruption());
  std::string set_version = good;
  set_version[5] = 7;  // the first set's version
  EXPECT_TRUE(ZoneMapBlockToRowMajor(&set_version).IsCorruption());
  std::string many_columns = good;
  many_columns[6] = 0x7f;  // the first set's column count
  EXPECT_TRUE(ZoneMapBlockToRowMajor(&many_columns).IsCorruption());
  // Any damaged byte either fails here or leaves a block ParseZoneMapBlock checks; no crash.
  for (size_t i = 0; i < good.size(); i++) {
    for (uint8_t flip : {0x01, 0x10, 0x80}) {
      std::string damaged = good;
      damaged[i] = static_cast<char>(damaged[i] ^ flip);
      if (!ZoneMapBlockToRowMajor(&damaged).ok()) continue;
      std::vector<ZoneMapEntry> entries;
      (void)ParseZoneMapBlock(damaged, 2, &entries);
    }
  }
  // A row-major block the writer cannot regroup is refused too.
  std::string out;
  EXPECT_FALSE(ZoneMapBlockToColumnMajor(Slice("\x02\x01", 2), &out).ok());
}

// Two layouts from one parse (the writer's choice between them): each the bytes the single
// conversion writes, for every pair of versions; unknown versions and malformed blocks refused.
TEST(ZoneMapBlockTest, TwoLayoutsAtOnceAreThoseMadeOneAtATime) {
  for (const std::string& row_major : {RowMajor(TwoGroups()), RowMajor(SeriesGroups())}) {
    for (uint8_t first_version : {1, 2, 3}) {
      for (uint8_t second_version : {1, 2, 3}) {
        SCOPED_TRACE(std::to_string(first_version) + " " + std::to_string(second_version));
        std::string first = "kept";
        std::string second;
        ASSERT_TRUE(ZoneMapBlockToColumnMajorLayouts(row_major, first_version, &first,
                                                     second_version, &second)
                        .ok());
        std::string expected_first = "kept";
        std::string expected_second;
        ASSERT_TRUE(ZoneMapBlockToColumnMajor(row_major, &expected_first, first_version).ok());
        ASSERT_TRUE(ZoneMapBlockToColumnMajor(row_major, &expected_second, second_version).ok());
        EXPECT_EQ(Hex(first), Hex(expected_first));
        EXPECT_EQ(Hex(second), Hex(expected_second));
      }
    }
  }
  std::string first;
  std::string second;
  EXPECT_FALSE(ZoneMapBlockToColumnMajorLayouts(RowMajor(TwoGroups()), 1, &first, 4, &second).ok());
  EXPECT_FALSE(ZoneMapBlockToColumnMajorLayouts(RowMajor(TwoGroups()), 0, &first, 3, &second).ok());
  EXPECT_FALSE(ZoneMapBlockToColumnMajorLayouts(Slice("\x02\x01", 2), 1, &first, 3, &second).ok());
}

}  // namespace
}  // namespace columnar
