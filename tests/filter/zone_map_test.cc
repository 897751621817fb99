// Zone maps: bounds in CQL order, truncation of long byte strings (a cut max rounds up or
// disappears), value sets, merging, and the encoding's round trip and rejection of damage.
#include "filter/zone_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>

#include "filter/file_column_stats.h"
#include "filter/zone_map_set.h"
#include "table_format/column_values.h"
#include "table_format/varint.h"
#include "tests/filter/filter_test_util.h"

namespace columnar {
namespace {

ColumnVector Doubles(const std::vector<uint64_t>& bits) {
  std::vector<Value> cells;
  for (uint64_t b : bits) cells.push_back(Value::FromFixedBits(LogicalType::kDouble, b));
  return test::ToColumnVector(LogicalType::kDouble, cells);
}

ColumnVector Blobs(const std::vector<std::string>& values) {
  ColumnVector column(PhysicalType::kBytes);
  for (const std::string& v : values) column.AppendBytes(v);
  return column;
}

// Every non-null value of `column` lies within the zone map's bounds (strictly inside a cut
// bound), and an exact bound is one of the values.
void ExpectBoundsHold(const ZoneMap& zm, const ColumnVector& column) {
  ASSERT_EQ(zm.row_count, column.size());
  ASSERT_EQ(zm.null_count, column.null_count());
  bool min_seen = false;
  bool max_seen = false;
  for (size_t row = 0; row < column.size(); row++) {
    if (column.IsNull(row)) continue;
    const Datum v = Datum::FromColumn(column, row);
    const int above_min = CompareDatums(v, zm.min);
    ASSERT_TRUE(zm.min_exact ? above_min >= 0 : above_min > 0) << v.ToString();
    min_seen = min_seen || above_min == 0;
    if (zm.has_max) {
      const int below_max = CompareDatums(zm.max, v);
      ASSERT_TRUE(zm.max_exact ? below_max >= 0 : below_max > 0) << v.ToString();
      max_seen = max_seen || below_max == 0;
    }
    if (zm.has_value_set) {
      ASSERT_TRUE(std::binary_search(zm.value_set.begin(), zm.value_set.end(), v));
    }
  }
  if (zm.non_null_count() > 0) {
    EXPECT_EQ(min_seen, zm.min_exact);
    if (zm.has_max) {
      EXPECT_EQ(max_seen, zm.max_exact);
    }
  }
}

TEST(ZoneMapTest, FloatBoundsUseTotalOrder) {
  const ZoneMap zm = BuildZoneMap(Doubles({0x8000000000000000,    // -0.0
                                           0x7ff8000000000001,    // +NaN with a payload
                                           0xfff0000000000000,    // -inf
                                           0x0000000000000001}),  // smallest subnormal
                                  ZoneMapOptions{32, 0, 64});
  EXPECT_EQ(zm.min, Datum::Fixed(PhysicalType::kFloat64, 0xfff0000000000000));
  EXPECT_EQ(zm.max, Datum::Fixed(PhysicalType::kFloat64, 0x7ff8000000000001));
  EXPECT_FALSE(zm.has_value_set);
}

// BitsOfFixedOrderKey undoes FixedOrderKey, for every fixed-width type, at the edges of each
// ordering (signs, zeros, infinities, NaNs) and at random.
TEST(ZoneMapTest, BitsOfFixedOrderKeyUndoesTheKey) {
  std::mt19937_64 rng(9);
  std::vector<uint64_t> bits = {0,
                                1,
                                0x7fffffff,
                                0x80000000,
                                0x80000001,
                                0xffffffff,
                                0x7f800000,
                                0xff800000,
                                0x7fc00001,
                                0x7fffffffffffffff,
                                0x8000000000000000,
                                0x8000000000000001,
                                0xffffffffffffffff,
                                0x7ff0000000000000,
                                0xfff0000000000000,
                                0x7ff8000000000001,
                                0xfff8000000000001};
  for (int i = 0; i < 1000; i++) bits.push_back(rng());
  for (PhysicalType type : {PhysicalType::kInt32, PhysicalType::kInt64, PhysicalType::kFloat32,
                            PhysicalType::kFloat64}) {
    for (uint64_t b : bits) {
      const uint64_t value = FixedWidth(type) == 4 ? b & 0xffffffff : b;
      ASSERT_EQ(BitsOfFixedOrderKey(type, FixedOrderKey(type, value)), value)
          << static_cast<int>(type) << " " << value;
    }
  }
}

// The value set is kept exactly when the column has at most max_value_set distinct non-null
// values, none of them a byte string longer than max_value_set_bytes, and is then those values
// in ascending order.
void ExpectValueSetOfDistinctValues(const ZoneMap& zm, const ColumnVector& column,
                                    const ZoneMapOptions& options) {
  std::vector<Datum> distinct;
  bool too_long = false;
  for (size_t row = 0; row < column.size(); row++) {
    if (column.IsNull(row)) continue;
    const Datum v = Datum::FromColumn(column, row);
    too_long = too_long ||
               (v.type == PhysicalType::kBytes && v.bytes.size() > options.max_value_set_bytes);
    if (std::find(distinct.begin(), distinct.end(), v) == distinct.end()) distinct.push_back(v);
  }
  std::sort(distinct.begin(), distinct.end());
  const bool kept = distinct.size() <= options.max_value_set && !too_long;
  ASSERT_EQ(zm.has_value_set, kept) << distinct.size() << " distinct";
  if (kept) {
    ASSERT_EQ(zm.value_set, distinct);
  }
}

// Past the value set (more distinct values than it keeps), the bounds are still the smallest
// and largest values, wherever they are (before or after the set was given up), with or
// without nulls, for every fixed-width type.
TEST(ZoneMapTest, BoundsPastTheValueSetAreTheExtremes) {
  std::mt19937_64 rng(10);
  for (PhysicalType type : {PhysicalType::kInt32, PhysicalType::kInt64, PhysicalType::kFloat32,
                            PhysicalType::kFloat64}) {
    for (int round = 0; round < 200; round++) {
      ColumnVector column(type);
      const size_t rows = 1 + rng() % 300;
      const bool nulls = rng() % 2 == 0;
      for (size_t row = 0; row < rows; row++) {
        if (nulls && rng() % 5 == 0) {
          column.AppendNull();
          continue;
        }
        // Few values or many, of any sign (and NaNs, infinities among the floats' bits).
        const uint64_t b = rng() % 3 == 0 ? rng() % 4 : rng();
        AppendFixedBits(FixedWidth(type) == 4 ? b & 0xffffffff : b, &column);
      }
      if (column.null_count() == column.size()) continue;
      const ZoneMapOptions options{16, rng() % 9, 32};
      const ZoneMap zm = BuildZoneMap(column, options);
      Datum min, max;
      bool any = false;
      for (size_t row = 0; row < rows; row++) {
        if (column.IsNull(row)) continue;
        const Datum v = Datum::FromColumn(column, row);
        if (!any || CompareDatums(v, min) < 0) min = v;
        if (!any || CompareDatums(v, max) > 0) max = v;
        any = true;
      }
      ASSERT_EQ(zm.min, min) << round;
      ASSERT_EQ(zm.max, max) << round;
      ExpectValueSetOfDistinctValues(zm, column, options);
      ExpectBoundsHold(zm, column);
    }
  }
}

// The same for byte strings: values from a small pool recurring out of order (a value already
// in the value set leaves the bounds alone), values past the set's length limit, nulls, and
// more distinct values than the set keeps; bounds long enough to stay exact.
TEST(ZoneMapTest, StringBoundsPastAndWithinTheValueSetAreTheExtremes) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 2000; round++) {
    std::vector<std::string> pool(1 + rng() % 12);
    for (std::string& v : pool) {
      // Shared prefixes (as paths and user agents have) and lengths across 8-byte words.
      v = std::string(rng() % 3 == 0 ? 0 : rng() % 20, 'p');
      for (size_t i = rng() % 12; i > 0; i--) v.push_back(static_cast<char>('a' + rng() % 3));
    }
    ColumnVector column(PhysicalType::kBytes);
    const size_t rows = 1 + rng() % 200;
    const bool nulls = rng() % 2 == 0;
    for (size_t row = 0; row < rows; row++) {
      if (nulls && rng() % 5 == 0) {
        column.AppendNull();
      } else {
        column.AppendBytes(pool[rng() % pool.size()]);
      }
    }
    if (column.null_count() == column.size()) continue;
    const ZoneMapOptions options{1000, rng() % 9, rng() % 3 == 0 ? size_t{8} : size_t{64}};
    const ZoneMap zm = BuildZoneMap(column, options);
    std::string min, max;
    bool any = false;
    for (size_t row = 0; row < rows; row++) {
      if (column.IsNull(row)) continue;
      const std::string v = column.GetBytes(row).ToString();
      if (!any || v < min) min = v;
      if (!any || v > max) max = v;
      any = true;
    }
    ASSERT_EQ(zm.min.bytes, min) << round;
    ASSERT_EQ(zm.max.bytes, max) << round;
    ExpectValueSetOfDistinctValues(zm, column, options);
    ExpectBoundsHold(zm, column);
  }
}

// Cut bounds are the exact extremes cut by the documented rule (the min to its prefix, the max
// rounded up), and a value set is kept exactly when its limits allow: over values that share
// long prefixes, differ only past the cut, and hold zero and 0xFF bytes; cuts of 1 to 24 bytes
// (on both sides of the 16 bytes CompareBytes compares a word at a time).
TEST(ZoneMapTest, CutBoundsAreTheExactExtremesCut) {
  std::mt19937_64 rng(23);
  const char kAlphabet[] = {'\0', '\x01', 'a', 'b', '\x7f', '\x80', '\xfe', '\xff'};
  for (int round = 0; round < 4000; round++) {
    std::vector<std::string> pool(1 + rng() % 14);
    const std::string shared(rng() % 24, static_cast<char>(kAlphabet[rng() % 8]));
    for (std::string& v : pool) {
      v = shared.substr(0, rng() % (shared.size() + 1));
      for (size_t i = rng() % 22; i > 0; i--) v.push_back(kAlphabet[rng() % 8]);
    }
    ColumnVector column(PhysicalType::kBytes);
    const size_t rows = 1 + rng() % 150;
    const bool nulls = rng() % 3 == 0;
    for (size_t row = 0; row < rows; row++) {
      if (nulls && rng() % 4 == 0) {
        column.AppendNull();
      } else {
        column.AppendBytes(pool[rng() % pool.size()]);
      }
    }
    std::set<std::string> distinct;
    for (size_t row = 0; row < rows; row++) {
      if (!column.IsNull(row)) distinct.insert(column.GetBytes(row).ToString());
    }
    if (distinct.empty()) continue;
    const ZoneMapOptions options{1 + rng() % 24, rng() % 9, 8 + rng() % 30};
    SCOPED_TRACE("round " + std::to_string(round));
    const ZoneMap zm = BuildZoneMap(column, options);
    const std::string& min = *distinct.begin();
    const std::string& max = *distinct.rbegin();
    const bool value_set = options.max_value_set > 0 && distinct.size() <= options.max_value_set &&
                           std::all_of(distinct.begin(), distinct.end(), [&](const std::string& v) {
                             return v.size() <= options.max_value_set_bytes;
                           });
    ASSERT_EQ(zm.has_value_set, value_set);
    if (value_set) {
      EXPECT_EQ(zm.min.bytes, min);
      EXPECT_EQ(zm.max.bytes, max);
      EXPECT_TRUE(zm.min_exact && zm.max_exact && zm.has_max);
      continue;
    }
    const size_t cut = options.max_bound_bytes;
    EXPECT_EQ(zm.min.bytes, min.substr(0, cut));
    EXPECT_EQ(zm.min_exact, min.size() <= cut);
    std::string cut_max;
    ASSERT_EQ(zm.has_max, RoundUpTruncatedMax(max, cut, &cut_max));
    if (zm.has_max) {
      EXPECT_EQ(zm.max.bytes, cut_max);
      EXPECT_EQ(zm.max_exact, max.size() <= cut);
    }
    ExpectBoundsHold(zm, column);
  }
}

// A byte-string column holding one value in every row (found at once, without a row by row
// scan) gets the zone map of the row by row scan, which a null after its rows forces; and so
// does every column that only looks like one (equal lengths, periodic bytes).
TEST(ZoneMapTest, ColumnsOfOneStringGetTheZoneMapOfTheScan) {
  const std::vector<std::vector<std::string>> columns = {
      {"host_17"},
      {"host_17", "host_17", "host_17"},
      {"", "", ""},
      {std::string(40, 'x'), std::string(40, 'x')},  // past the value set's and bounds' limits
      {"ab", "ab", "ac"},
      {"ab", "ac", "ab"},
      {"ab", "abab", ""},  // periodic bytes, other lengths
      {"abab", "ab", ""},
      {"aa", "a", "a"},
      {"a", "aa", "a"},
      {"x", "x", "y"},
      {"", "", "z"},
  };
  for (const std::vector<std::string>& values : columns) {
    for (size_t limit : {size_t{0}, size_t{1}, size_t{8}}) {
      const ZoneMapOptions options{16, limit, 32};
      const ColumnVector column = Blobs(values);
      ColumnVector scanned = Blobs(values);
      scanned.AppendNull();
      ZoneMap expected = BuildZoneMap(scanned, options);
      expected.row_count--;
      expected.null_count--;
      const ZoneMap zm = BuildZoneMap(column, options);
      ASSERT_TRUE(zm == expected) << values.size() << " " << values.back() << " " << limit;
      ASSERT_EQ(zm.min_exact, expected.min_exact);
      ExpectBoundsHold(zm, column);
    }
  }
}

TEST(ZoneMapTest, ValueSetUpToTheLimit) {
  ColumnVector column(PhysicalType::kInt32);
  for (int i = 0; i < 100; i++) column.Append<int32_t>(i % 8 - 4);
  column.AppendNull();
  ZoneMap zm = BuildZoneMap(column);
  EXPECT_TRUE(zm.has_value_set);
  ASSERT_EQ(zm.value_set.size(), 8u);
  EXPECT_EQ(zm.value_set.front(), Datum::Fixed(PhysicalType::kInt32, static_cast<uint32_t>(-4)));
  EXPECT_EQ(zm.null_count, 1u);
  column.Append<int32_t>(100);
  zm = BuildZoneMap(column);
  EXPECT_FALSE(zm.has_value_set);
  EXPECT_EQ(zm.max, Datum::Fixed(PhysicalType::kInt32, 100));
}

TEST(ZoneMapTest, AllNullColumn) {
  ColumnVector column(PhysicalType::kBytes);
  column.AppendNull();
  column.AppendNull();
  const ZoneMap zm = BuildZoneMap(column);
  EXPECT_EQ(zm.non_null_count(), 0u);
  EXPECT_TRUE(zm.has_value_set);
  EXPECT_TRUE(zm.value_set.empty());
}

// Runs of equal values are skipped while scanning: a column with runs gets the zone map of the
// same values in another order (zone maps do not depend on the order), including runs broken
// by nulls and neighbours that differ only in their last byte or bit.
TEST(ZoneMapTest, RunsGiveTheZoneMapOfTheirValues) {
  const std::vector<std::string> runs = {"ab", "ab", "ac", "ac", "ab", "a",  "a", "zz",
                                         "zy", "zy", "ab", "b",  "b",  "aa", "ab"};
  std::vector<std::string> reordered = runs;
  std::reverse(reordered.begin(), reordered.end());
  std::rotate(reordered.begin(), reordered.begin() + 3, reordered.end());
  ASSERT_TRUE(BuildZoneMap(Blobs(runs)) == BuildZoneMap(Blobs(reordered)));
  ZoneMapOptions few;
  few.max_value_set = 3;
  ASSERT_TRUE(BuildZoneMap(Blobs(runs), few) == BuildZoneMap(Blobs(reordered), few));
  EXPECT_EQ(BuildZoneMap(Blobs(runs)).value_set.size(), 7u);

  const std::vector<uint64_t> bits = {5, 5, 4, 4, 5, 1, 1, 7, 6, 6, 5, 2, 2};
  std::vector<uint64_t> other = bits;
  std::reverse(other.begin(), other.end());
  std::rotate(other.begin(), other.begin() + 2, other.end());
  ASSERT_TRUE(BuildZoneMap(Doubles(bits)) == BuildZoneMap(Doubles(other)));
  EXPECT_EQ(BuildZoneMap(Doubles(bits)).value_set.size(), 6u);
  // A null between equal values.
  ColumnVector with_null = Blobs({"x", "x"});
  with_null.AppendNull();
  with_null.AppendBytes("x");
  with_null.AppendBytes("y");
  const ZoneMap zm = BuildZoneMap(with_null);
  EXPECT_EQ(zm.value_set.size(), 2u);
  EXPECT_EQ(zm.null_count, 1u);
}

// Neighbours that differ in a single byte, anywhere, at every length around the 8 to 16 bytes
// compared as two words, are told apart (and equal ones are not).
TEST(ZoneMapTest, NeighboursDifferingInOneByteAreToldApart) {
  for (size_t length = 1; length <= 20; length++) {
    for (size_t at = 0; at < length; at++) {
      SCOPED_TRACE(std::to_string(length) + " " + std::to_string(at));
      std::string low(length, 'k');
      std::string high = low;
      high[at] = 'm';
      const ZoneMap zm = BuildZoneMap(Blobs({low, low, high, high, low, high}));
      ASSERT_EQ(zm.value_set.size(), 2u);
      EXPECT_EQ(zm.min.bytes, low);
      EXPECT_EQ(zm.max.bytes, high);
      EXPECT_EQ(BuildZoneMap(Blobs({low, low, low})).value_set.size(), 1u);
    }
  }
}

TEST(ZoneMapTest, RoundUpTruncatedMax) {
  std::string cut;
  ASSERT_TRUE(RoundUpTruncatedMax("abc", 3, &cut));
  EXPECT_EQ(cut, "abc");
  ASSERT_TRUE(RoundUpTruncatedMax("abcd", 3, &cut));
  EXPECT_EQ(cut, "abd");
  ASSERT_TRUE(RoundUpTruncatedMax("a\xff\xff\xff", 3, &cut));
  EXPECT_EQ(cut, "b");
  ASSERT_TRUE(RoundUpTruncatedMax(std::string("\x00\x00\x00\x00", 4), 2, &cut));
  EXPECT_EQ(cut, std::string("\x00\x01", 2));
  EXPECT_FALSE(RoundUpTruncatedMax("\xff\xff\xff\xff", 3, &cut));
  ASSERT_TRUE(RoundUpTruncatedMax("\xff\xff", 3, &cut));  // short enough: kept whole
  EXPECT_EQ(cut, "\xff\xff");
}

TEST(ZoneMapTest, LongStringsAreCut) {
  const ColumnVector column =
      Blobs({"alpha-long-value", "zulu\xff\xff\xff-tail", "mike", "alpha-long-value"});
  const ZoneMap zm = BuildZoneMap(column, ZoneMapOptions{6, 2, 64});
  EXPECT_FALSE(zm.has_value_set);  // three distinct values, limit 2
  EXPECT_EQ(zm.min.bytes, "alpha-");
  EXPECT_FALSE(zm.min_exact);
  EXPECT_EQ(zm.max.bytes, "zulv");
  EXPECT_TRUE(zm.has_max);
  EXPECT_FALSE(zm.max_exact);
  ExpectBoundsHold(zm, column);

  const ZoneMap unbounded =
      BuildZoneMap(Blobs({"a", "\xff\xff\xff\xff"}), ZoneMapOptions{3, 0, 64});
  EXPECT_FALSE(unbounded.has_max);
  EXPECT_EQ(unbounded.min.bytes, "a");
  EXPECT_TRUE(unbounded.min_exact);
}

TEST(ZoneMapTest, ValueSetsSkipLongStrings) {
  const ZoneMap zm = BuildZoneMap(Blobs({"a", std::string(65, 'x')}), ZoneMapOptions{32, 8, 64});
  EXPECT_FALSE(zm.has_value_set);
  const ZoneMap kept = BuildZoneMap(Blobs({"a", std::string(64, 'x')}), ZoneMapOptions{32, 8, 64});
  EXPECT_TRUE(kept.has_value_set);
  EXPECT_TRUE(kept.max_exact);  // bounds from a value set are whole values
  EXPECT_EQ(kept.max.bytes, std::string(64, 'x'));
}

// Random columns of every type, cut hard: the bounds always hold.
TEST(ZoneMapTest, RandomBoundsHold) {
  const TableSchema schema = test::AllTypesSchema();
  test::RandomValues random(5);
  for (int round = 0; round < 300; round++) {
    for (const ColumnDef& column : schema.columns()) {
      const std::vector<Value> pool = test::ValuePool(column.type, 3, &random);
      const std::vector<Value> cells =
          test::RandomCells(column.type, random.Uniform(200),
                            test::kAllNullPatterns[random.Uniform(4)], pool, &random);
      const ColumnVector vector = test::ToColumnVector(column.type, cells);
      const ZoneMapOptions options{1 + random.Uniform(8), random.Uniform(9), random.Uniform(20)};
      ExpectBoundsHold(BuildZoneMap(vector, options), vector);
    }
  }
}

// Merging the zone maps of a column's pieces bounds the whole column, and is as exact as the
// zone map of the whole when nothing was cut.
TEST(ZoneMapTest, MergeCoversTheWhole) {
  const TableSchema schema = test::AllTypesSchema();
  test::RandomValues random(6);
  for (int round = 0; round < 200; round++) {
    for (const ColumnDef& column : schema.columns()) {
      const std::vector<Value> pool = test::ValuePool(column.type, 3, &random);
      const ZoneMapOptions options{1 + random.Uniform(40), random.Uniform(9), 64};
      std::vector<Value> all;
      ZoneMap merged;
      const size_t pieces = 1 + random.Uniform(4);
      for (size_t piece = 0; piece < pieces; piece++) {
        const std::vector<Value> cells =
            test::RandomCells(column.type, random.Uniform(40),
                              test::kAllNullPatterns[random.Uniform(4)], pool, &random);
        all.insert(all.end(), cells.begin(), cells.end());
        const ZoneMap zm = BuildZoneMap(test::ToColumnVector(column.type, cells), options);
        if (piece == 0) {
          merged = zm;
        } else {
          MergeZoneMap(zm, options.max_value_set, &merged);
        }
      }
      const ColumnVector whole = test::ToColumnVector(column.type, all);
      ExpectBoundsHold(merged, whole);
      const ZoneMap direct =
          BuildZoneMap(whole, ZoneMapOptions{SIZE_MAX, options.max_value_set, SIZE_MAX});
      if (merged.has_value_set) {
        EXPECT_EQ(merged.value_set, direct.value_set);
      }
      if (merged.non_null_count() > 0 && merged.min_exact) {
        EXPECT_EQ(merged.min, direct.min);
      }
      if (merged.non_null_count() > 0 && merged.has_max && merged.max_exact) {
        EXPECT_EQ(merged.max, direct.max);
      }
    }
  }
}

ZoneMapSet RandomZoneMapSet(test::RandomValues* random) {
  const TableSchema schema = test::AllTypesSchema();
  ZoneMapSet set;
  for (const ColumnDef& column : schema.columns()) {
    if (random->OneIn(4)) continue;
    const std::vector<Value> pool = test::ValuePool(column.type, 3, random);
    const std::vector<Value> cells = test::RandomCells(
        column.type, random->Uniform(60), test::kAllNullPatterns[random->Uniform(4)], pool, random);
    const ZoneMapOptions options{1 + random->Uniform(8), random->Uniform(9), 64,
                                 random->Uniform(2) == 1};
    set.Set(column.id * 7 + 3, BuildZoneMap(test::ToColumnVector(column.type, cells), options));
  }
  return set;
}

TEST(ZoneMapSetTest, EncodeDecodeRoundTrip) {
  test::RandomValues random(8);
  for (int round = 0; round < 300; round++) {
    const ZoneMapSet set = RandomZoneMapSet(&random);
    std::string encoded;
    set.EncodeTo(&encoded);
    ZoneMapSet decoded;
    const Status s = ZoneMapSet::Decode(encoded, &decoded);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(decoded.columns().size(), set.columns().size());
    for (size_t i = 0; i < set.columns().size(); i++) {
      EXPECT_EQ(decoded.columns()[i].first, set.columns()[i].first);
      EXPECT_TRUE(decoded.columns()[i].second == set.columns()[i].second) << i;
    }
    std::string again;
    decoded.EncodeTo(&again);
    EXPECT_EQ(again, encoded);
  }
}

TEST(ZoneMapSetTest, EveryTruncationIsRejected) {
  test::RandomValues random(9);
  for (int round = 0; round < 30; round++) {
    std::string encoded;
    RandomZoneMapSet(&random).EncodeTo(&encoded);
    for (size_t length = 0; length < encoded.size(); length++) {
      ZoneMapSet decoded;
      EXPECT_TRUE(ZoneMapSet::Decode(Slice(encoded.data(), length), &decoded).IsCorruption())
          << length << " of " << encoded.size();
    }
  }
}

// Random damage never crashes; what decodes re-encodes to valid bytes.
TEST(ZoneMapSetTest, RandomDamageIsHandled) {
  test::RandomValues random(10);
  for (int round = 0; round < 2000; round++) {
    std::string encoded;
    RandomZoneMapSet(&random).EncodeTo(&encoded);
    for (int flips = 1 + random.Uniform(3); flips > 0; flips--) {
      encoded[random.Uniform(encoded.size())] ^= static_cast<char>(1 + random.Uniform(255));
    }
    ZoneMapSet decoded;
    if (ZoneMapSet::Decode(encoded, &decoded).ok()) {
      std::string again;
      decoded.EncodeTo(&again);
      ZoneMapSet twice;
      EXPECT_TRUE(ZoneMapSet::Decode(again, &twice).ok());
    }
  }
}

// Hand-made encodings breaking one rule each.
TEST(ZoneMapSetTest, ForgedEncodingsAreRejected) {
  const auto column = [](uint32_t id, PhysicalType type, uint8_t flags, uint64_t rows,
                         uint64_t nulls, const std::string& payload) {
    std::string out;
    PutVarint32(&out, id);
    out.push_back(static_cast<char>(type));
    out.push_back(static_cast<char>(flags));
    PutVarint64(&out, rows);
    PutVarint64(&out, nulls);
    return out + payload;
  };
  const auto set = [](std::vector<std::string> columns, uint8_t version = 1) {
    std::string out(1, static_cast<char>(version));
    PutVarint32(&out, static_cast<uint32_t>(columns.size()));
    for (const std::string& c : columns) out += c;
    return out;
  };
  std::string int_bounds;
  PutFixed32(&int_bounds, 1);
  PutFixed32(&int_bounds, 5);
  std::string reversed;
  PutFixed32(&reversed, 5);
  PutFixed32(&reversed, 1);
  const uint8_t kExactBounds = 0x1e;
  const std::string good = column(0, PhysicalType::kInt32, kExactBounds, 4, 1, int_bounds);
  ZoneMapSet out;
  ASSERT_TRUE(ZoneMapSet::Decode(set({good}), &out).ok());
  ASSERT_EQ(out.Find(0)->max, Datum::Fixed(PhysicalType::kInt32, 5));

  const std::vector<std::pair<std::string, std::string>> forged = {
      {"version", set({good}, 3)},
      {"sum on a float column",
       set({column(0, PhysicalType::kFloat32, kExactBounds | 0x20, 4, 1, int_bounds + "\x02")}, 2)},
      {"truncated sum",
       set({column(0, PhysicalType::kInt32, kExactBounds | 0x20, 4, 1, int_bounds + "\x80")}, 2)},
      {"unknown flag",
       set({column(0, PhysicalType::kInt32, kExactBounds | 0x20, 4, 1, int_bounds)})},
      {"nulls above rows", set({column(0, PhysicalType::kInt32, kExactBounds, 4, 5, int_bounds)})},
      {"min above max", set({column(0, PhysicalType::kInt32, kExactBounds, 4, 1, reversed)})},
      {"bad type", set({column(0, static_cast<PhysicalType>(9), kExactBounds, 4, 1, int_bounds)})},
      {"inexact fixed bound", set({column(0, PhysicalType::kInt32, 0x1a, 4, 1, int_bounds)})},
      {"no bounds for values", set({column(0, PhysicalType::kInt32, 0, 4, 1, "")})},
      {"bounds and set",
       set({column(0, PhysicalType::kInt32, kExactBounds | 1, 4, 1, int_bounds)})},
      {"bounds when all null",
       set({column(0, PhysicalType::kInt32, kExactBounds, 4, 4, int_bounds)})},
      {"exact max without max", set({column(0, PhysicalType::kBytes, 0x12, 4, 1,
                                            "\x01"
                                            "a")})},
      {"empty value set", set({column(0, PhysicalType::kInt32, 1, 4, 1, "\x00")})},
      {"value set above non-null rows",
       set({column(0, PhysicalType::kInt32, 1, 2, 1, "\x02" + int_bounds)})},
      {"value set not ascending",
       set({column(0, PhysicalType::kInt32, 1, 4, 1, "\x02" + reversed)})},
      {"duplicate column", set({good, good})},
      {"descending columns",
       set({column(5, PhysicalType::kInt32, kExactBounds, 4, 1, int_bounds), good})},
      {"trailing bytes", set({good}) + "x"},
      {"column count", set({}).substr(0, 1) + std::string("\xff\xff\xff\x0f", 4)},
  };
  for (const auto& [what, bytes] : forged) {
    const Status s = ZoneMapSet::Decode(bytes, &out);
    EXPECT_TRUE(s.IsCorruption()) << what << ": " << s.ToString();
  }
}

// The exact bytes of both versions: a set without sums is what version-1 writers produced
// (old files keep decoding to the same maps), a set with one is version 2.
TEST(ZoneMapSetTest, FixedBytesOfBothVersions) {
  ColumnVector values(PhysicalType::kInt32);
  values.Append<int32_t>(-7);
  values.AppendNull();
  values.Append<int32_t>(3);
  ZoneMapOptions options;
  options.max_value_set = 0;
  ZoneMapSet set;
  set.Set(4, BuildZoneMap(values, options));
  std::string encoded;
  set.EncodeTo(&encoded);
  const std::string version1(
      "\x01\x01"              // version 1, one column
      "\x04\x00\x1e\x03\x01"  // id 4, int32, exact bounds, 3 rows, 1 null
      "\xf9\xff\xff\xff"      // min -7
      "\x03\x00\x00\x00",     // max 3
      15);
  EXPECT_EQ(encoded, version1);

  options.integer_sum = true;
  ZoneMapSet with_sum;
  with_sum.Set(4, BuildZoneMap(values, options));
  ASSERT_TRUE(with_sum.Find(4)->has_sum);
  EXPECT_EQ(static_cast<int64_t>(with_sum.Find(4)->sum), -4);
  encoded.clear();
  with_sum.EncodeTo(&encoded);
  const std::string version2(
      "\x02\x01"              // version 2, one column
      "\x04\x00\x3e\x03\x01"  // id 4, int32, exact bounds + sum, 3 rows, 1 null
      "\xf9\xff\xff\xff"      // min -7
      "\x03\x00\x00\x00"      // max 3
      "\x07",                 // sum zigzag(-4) = 7
      16);
  EXPECT_EQ(encoded, version2);
  ZoneMapSet decoded;
  ASSERT_TRUE(ZoneMapSet::Decode(version2, &decoded).ok());
  EXPECT_TRUE(*decoded.Find(4) == *with_sum.Find(4));
  ASSERT_TRUE(ZoneMapSet::Decode(version1, &decoded).ok());
  EXPECT_FALSE(decoded.Find(4)->has_sum);

  // An all-null column keeps its (zero) sum; the sum wraps as SUM does.
  ColumnVector wide(PhysicalType::kInt64);
  wide.Append<int64_t>(INT64_MAX);
  wide.Append<int64_t>(2);
  const ZoneMap wrapped = BuildZoneMap(wide, options);
  EXPECT_EQ(static_cast<int64_t>(wrapped.sum), INT64_MIN + 1);
  ColumnVector nulls(PhysicalType::kInt64);
  nulls.AppendNull();
  ZoneMapSet null_set;
  null_set.Set(1, BuildZoneMap(nulls, options));
  encoded.clear();
  null_set.EncodeTo(&encoded);
  EXPECT_EQ(encoded, std::string("\x02\x01\x01\x01\x20\x01\x01\x00", 8));
}

TEST(ZoneMapSetTest, MergedSumsAddAndDropWhenOneSideLacksThem) {
  ColumnVector a(PhysicalType::kInt64);
  a.Append<int64_t>(5);
  ColumnVector b(PhysicalType::kInt64);
  b.Append<int64_t>(-8);
  ZoneMapOptions options;
  options.integer_sum = true;
  ZoneMap merged = BuildZoneMap(a, options);
  MergeZoneMap(BuildZoneMap(b, options), 8, &merged);
  EXPECT_TRUE(merged.has_sum);
  EXPECT_EQ(static_cast<int64_t>(merged.sum), -3);
  MergeZoneMap(BuildZoneMap(b), 8, &merged);
  EXPECT_FALSE(merged.has_sum);
}

TEST(FileColumnStatsTest, MergesRowGroupsAndDropsColumnsSomeGroupLacks) {
  ColumnVector a(PhysicalType::kInt64);
  a.Append<int64_t>(5);
  ColumnVector b(PhysicalType::kInt64);
  b.Append<int64_t>(-3);
  b.AppendNull();
  ColumnVector c(PhysicalType::kInt64);
  c.Append<int64_t>(40);
  c.Append<int64_t>(41);
  ZoneMapSet first;
  first.Set(1, BuildZoneMap(a));
  first.Set(2, BuildZoneMap(a));
  first.Set(3, BuildZoneMap(c));
  first.Set(4, BuildZoneMap(c));
  ZoneMapSet second;
  second.Set(1, BuildZoneMap(b));
  second.Set(3, BuildZoneMap(a));
  FileColumnStatsBuilder builder;
  builder.AddRowGroup(first);
  builder.AddRowGroup(second);
  ZoneMapSet parsed;
  ASSERT_TRUE(ParseFileColumnStats(builder.Serialize(), &parsed).ok());
  ASSERT_EQ(parsed.columns().size(), 2u);  // 2 and 4 dropped, 3 kept after a dropped one
  const ZoneMap& merged = *parsed.Find(1);
  EXPECT_EQ(merged.row_count, 3u);
  EXPECT_EQ(merged.null_count, 1u);
  EXPECT_EQ(merged.min, Datum::Fixed(PhysicalType::kInt64, static_cast<uint64_t>(-3)));
  EXPECT_EQ(merged.max, Datum::Fixed(PhysicalType::kInt64, 5));
  EXPECT_EQ(merged.value_set.size(), 2u);
  ASSERT_NE(parsed.Find(3), nullptr);
  const ZoneMap& third = *parsed.Find(3);
  EXPECT_EQ(third.row_count, 3u);
  EXPECT_EQ(third.min, Datum::Fixed(PhysicalType::kInt64, 5));
  EXPECT_EQ(third.max, Datum::Fixed(PhysicalType::kInt64, 41));
  EXPECT_EQ(third.value_set.size(), 3u);
}

// A later group's values already in the merged set (the common case, merged without a copy)
// leave it as it was; a new value joins it in order.
TEST(ZoneMapTest, MergingASubsetKeepsTheValueSet) {
  ColumnVector all(PhysicalType::kBytes);
  for (const char* v : {"eu", "us", "ap"}) all.AppendBytes(v);
  ColumnVector some(PhysicalType::kBytes);
  some.AppendBytes("us");
  some.AppendBytes("us");
  ZoneMap merged = BuildZoneMap(all);
  MergeZoneMap(BuildZoneMap(some), 8, &merged);
  ASSERT_TRUE(merged.has_value_set);
  EXPECT_EQ(merged.value_set, BuildZoneMap(all).value_set);
  EXPECT_EQ(merged.row_count, 5u);
  ColumnVector other(PhysicalType::kBytes);
  other.AppendBytes("cn");
  MergeZoneMap(BuildZoneMap(other), 8, &merged);
  all.AppendBytes("cn");
  EXPECT_EQ(merged.value_set, BuildZoneMap(all).value_set);
}

}  // namespace
}  // namespace columnar
