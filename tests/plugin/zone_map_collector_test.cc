// ZoneMapCollector (plugin/zone_map_collector.h): a file's zone maps leave out the columns
// whose maps cannot prune (random ids), keep the others and row expiry, and its column
// statistics keep every column.
#include "plugin/zone_map_collector.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "filter/file_column_stats.h"
#include "plugin/pushdown.h"
#include "plugin/zone_map_block.h"
#include "table_format/zstd_codec.h"

namespace columnar {
namespace {

constexpr uint32_t kRandomId = 3;
constexpr uint32_t kTime = 7;

std::string RandomHex(std::mt19937_64& rng) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < 32; i++) s.push_back(kDigits[rng() % 16]);
  return s;
}

// A file of `groups` row groups of 128 rows: a random hex id, a time increasing through the
// file, and row expiry.
std::string CollectFile(size_t groups, ZoneMapCollector* collector) {
  std::mt19937_64 rng(5);
  for (size_t g = 0; g < groups; g++) {
    collector->BeginRowGroup(128);
    ColumnVector ids(PhysicalType::kBytes);
    ColumnVector times(PhysicalType::kInt64);
    ColumnVector expiry(PhysicalType::kInt64);
    for (int r = 0; r < 128; r++) {
      ids.AppendBytes(RandomHex(rng));
      times.Append<int64_t>(static_cast<int64_t>(1000 * (g * 128 + r)));
      expiry.Append<int64_t>(static_cast<int64_t>(2000 + g * 128 + r));
    }
    collector->OnColumn(kRandomId, ids);
    collector->OnColumn(kTime, times);
    collector->OnExpiry(expiry);
    collector->OnTypedRows(128);
    collector->EndRowGroup(true);
  }
  std::string block;
  collector->Finish(&block);
  return block;
}

void ExpectColumns(const std::string& block, size_t groups) {
  ASSERT_FALSE(block.empty());
  EXPECT_EQ(block[0], static_cast<char>(kZoneMapBlockColumnMajorMarker)) << "written column-major";
  std::string row_major = block;
  ASSERT_TRUE(ZoneMapBlockToRowMajor(&row_major).ok());
  std::vector<ZoneMapEntry> entries;
  ASSERT_TRUE(ParseZoneMapBlock(row_major, groups, &entries).ok());
  for (const ZoneMapEntry& entry : entries) {
    EXPECT_EQ(entry.flags, kZoneMapGroupSkippable);
    ZoneMapSet set;
    ASSERT_TRUE(ZoneMapSet::Decode(entry.encoded, &set).ok());
    EXPECT_EQ(set.Find(kRandomId), nullptr) << "random ids never prune";
    EXPECT_NE(set.Find(kTime), nullptr);
    EXPECT_NE(set.Find(kExpiryZoneMapColumn), nullptr);
  }
}

TEST(ZoneMapCollectorTest, LeavesOutColumnsThatCannotPrune) {
  // More groups than the sample (decided mid-file), and fewer (decided at Finish).
  for (size_t groups : {kZoneMapSampleGroups + 9, size_t{5}}) {
    SCOPED_TRACE(groups);
    ZoneMapCollector collector;
    const std::string block = CollectFile(groups, &collector);
    ExpectColumns(block, groups);
    EXPECT_EQ(collector.omitted_columns(), std::set<uint32_t>{kRandomId});
    // The file's statistics still cover every column.
    ZoneMapSet stats;
    ASSERT_TRUE(ParseFileColumnStats(collector.file_stats().Serialize(), &stats).ok());
    ASSERT_NE(stats.Find(kRandomId), nullptr);
    EXPECT_EQ(stats.Find(kRandomId)->row_count, groups * 128);
    EXPECT_NE(stats.Find(kTime), nullptr);
  }
}

// The row-major entries of a collected block, decoded.
std::vector<ZoneMapSet> GroupSets(const std::string& block, size_t groups) {
  std::string row_major = block;
  EXPECT_TRUE(ZoneMapBlockToRowMajor(&row_major).ok());
  std::vector<ZoneMapEntry> entries;
  EXPECT_TRUE(ParseZoneMapBlock(row_major, groups, &entries).ok());
  std::vector<ZoneMapSet> sets(entries.size());
  for (size_t g = 0; g < entries.size(); g++) {
    EXPECT_TRUE(ZoneMapSet::Decode(entries[g].encoded, &sets[g]).ok());
  }
  return sets;
}

ColumnVector Int64Column(int64_t first, int64_t step, size_t rows) {
  ColumnVector column(PhysicalType::kInt64);
  for (size_t r = 0; r < rows; r++) column.Append<int64_t>(first + step * static_cast<int64_t>(r));
  return column;
}

TEST(ZoneMapCollectorTest, StoredZoneMapsOfACopiedGroupAreTaken) {
  // Group 0 is offered stored zone maps: the time column's (told apart here by a minimum its
  // values do not have), the expiry's, and one of another row count for column 9, which is
  // built from its values instead. Group 1 is offered none: built.
  ZoneMapCollector collector;
  collector.set_sum_columns({9});
  ZoneMapSet stored;
  ZoneMapOptions with_sum;
  with_sum.integer_sum = true;
  stored.Set(kTime, BuildZoneMap(Int64Column(-50, 1, 128)));
  stored.Set(9, BuildZoneMap(Int64Column(-50, 1, 64), with_sum));
  stored.Set(kExpiryZoneMapColumn, BuildZoneMap(Int64Column(-7, 0, 128)));
  for (size_t g = 0; g < 2; g++) {
    if (g == 0) collector.OfferStoredZoneMaps(stored);
    collector.BeginRowGroup(128);
    collector.OnColumn(kTime, Int64Column(1000, 10, 128));
    collector.OnColumn(9, Int64Column(100 + 1000 * static_cast<int64_t>(g), 1, 128));
    collector.OnExpiry(Int64Column(2000, 1, 128));
    collector.OnTypedRows(128);
    collector.EndRowGroup(true);
  }
  std::string block;
  collector.Finish(&block);
  const std::vector<ZoneMapSet> sets = GroupSets(block, 2);
  ASSERT_EQ(sets.size(), 2u);
  for (const ZoneMapSet& set : sets) {
    for (uint32_t column : {kTime, uint32_t{9}, kExpiryZoneMapColumn}) {
      ASSERT_NE(set.Find(column), nullptr) << column;
    }
  }
  EXPECT_EQ(*sets[0].Find(kTime), *stored.Find(kTime));
  EXPECT_EQ(*sets[0].Find(kExpiryZoneMapColumn), *stored.Find(kExpiryZoneMapColumn));
  EXPECT_EQ(*sets[0].Find(9), BuildZoneMap(Int64Column(100, 1, 128), with_sum));
  EXPECT_EQ(*sets[1].Find(kTime), BuildZoneMap(Int64Column(1000, 10, 128)));
  EXPECT_EQ(*sets[1].Find(kExpiryZoneMapColumn), BuildZoneMap(Int64Column(2000, 1, 128)));
}

TEST(ZoneMapCollectorTest, StoredZoneMapsWithoutTheSumAskedForAreBuilt) {
  // A stored map of an integer column without its sum (a file written before the column kept
  // one) would leave the group's SUM unknown: built instead.
  ZoneMapCollector collector;
  collector.set_sum_columns({9});
  ZoneMapSet stored;
  stored.Set(9, BuildZoneMap(Int64Column(100, 1, 128)));
  collector.OfferStoredZoneMaps(stored);
  collector.BeginRowGroup(128);
  collector.OnColumn(9, Int64Column(100, 1, 128));
  collector.OnExpiry(Int64Column(2000, 1, 128));
  collector.OnTypedRows(128);
  collector.EndRowGroup(true);
  // One group: the file's statistics are its zone maps.
  ZoneMapSet stats;
  ASSERT_TRUE(ParseFileColumnStats(collector.file_stats().Serialize(), &stats).ok());
  ASSERT_NE(stats.Find(9), nullptr);
  EXPECT_TRUE(stats.Find(9)->has_sum);
  EXPECT_EQ(stats.Find(9)->sum, static_cast<uint64_t>(128 * 100 + 127 * 128 / 2));
}

// The block keeps its bounds as differences (version 3) when that compresses smaller: a time
// rising by a steady step; bounds that jump at random between a few ranges stay as they are
// (version 1: each group's entry repeats an earlier one whole, which zstd finds).
TEST(ZoneMapCollectorTest, CodesBoundsAsDifferencesOnlyWhenSmaller) {
  ZoneMapCollector steady;
  const std::string steady_block = CollectFile(kZoneMapSampleGroups + 9, &steady);
  ASSERT_GE(steady_block.size(), 2u);
  EXPECT_EQ(steady_block[1], static_cast<char>(kZoneMapBlockColumnMajorVersionPlanes));
  ExpectColumns(steady_block, kZoneMapSampleGroups + 9);

  ZoneMapCollector random;
  std::mt19937_64 rng(9);
  const size_t groups = kZoneMapSampleGroups + 9;
  // 16 ranges of random bounds; each group takes one of them at random.
  std::vector<ColumnVector> times(16, ColumnVector(PhysicalType::kInt64));
  std::vector<ColumnVector> expiry(16, ColumnVector(PhysicalType::kInt64));
  for (size_t k = 0; k < 16; k++) {
    for (int r = 0; r < 128; r++) {
      times[k].Append<int64_t>(static_cast<int64_t>(rng()));
      expiry[k].Append<int64_t>(static_cast<int64_t>(rng()));
    }
  }
  for (size_t g = 0; g < groups * 4; g++) {
    random.BeginRowGroup(128);
    random.OnColumn(kTime, times[rng() % 16]);
    random.OnExpiry(expiry[rng() % 16]);
    random.OnTypedRows(128);
    random.EndRowGroup(true);
  }
  std::string random_block;
  random.Finish(&random_block);
  ASSERT_GE(random_block.size(), 2u);
  EXPECT_EQ(random_block[1], static_cast<char>(kZoneMapBlockColumnMajorVersion));
  std::string row_major = random_block;
  ASSERT_TRUE(ZoneMapBlockToRowMajor(&row_major).ok());
  std::vector<ZoneMapEntry> entries;
  ASSERT_TRUE(ParseZoneMapBlock(row_major, groups * 4, &entries).ok());
}

// The layouts are weighed at the fast kZoneMapCompareLevel and stored at level 9: on bounds that
// favour each layout (times rising by a steady step with jitter: differences; random values:
// plain), Finish keeps the layout that is smaller at level 9 too.
TEST(ZoneMapCollectorTest, TheCompareLevelPicksTheLayoutSmallerAtTheStoredLevel) {
  constexpr int kStoredLevel = 9;  // the builder's level for meta blocks
  for (const bool steady : {true, false}) {
    SCOPED_TRACE(steady ? "steady times" : "random values");
    ZoneMapCollector collector;
    std::mt19937_64 rng(5);
    for (size_t g = 0; g < 2000; g++) {
      collector.BeginRowGroup(128);
      ColumnVector times(PhysicalType::kInt64);
      for (int r = 0; r < 128; r++) {
        times.Append<int64_t>(steady ? static_cast<int64_t>(1000 * (g * 128 + r) + rng() % 500)
                                     : static_cast<int64_t>(rng() >> 1));
      }
      collector.OnColumn(kTime, times);
      collector.OnTypedRows(128);
      collector.EndRowGroup(true);
    }
    std::string row_major;
    collector.FinishRowMajor(&row_major);
    std::string plain, deltas;
    ASSERT_TRUE(ZoneMapBlockToColumnMajorLayouts(row_major, kZoneMapBlockColumnMajorVersion, &plain,
                                                 kZoneMapBlockColumnMajorVersionPlanes, &deltas)
                    .ok());
    std::string plain_zstd, deltas_zstd;
    ASSERT_TRUE(ZstdCompress(plain, kStoredLevel, nullptr, &plain_zstd).ok());
    ASSERT_TRUE(ZstdCompress(deltas, kStoredLevel, nullptr, &deltas_zstd).ok());
    // Each shape favours its own layout, so both choices are exercised.
    EXPECT_EQ(deltas_zstd.size() < plain_zstd.size(), steady);
    std::string block;
    collector.Finish(&block);
    EXPECT_EQ(block, deltas_zstd.size() < plain_zstd.size() ? deltas : plain);
  }
}

}  // namespace
}  // namespace columnar
