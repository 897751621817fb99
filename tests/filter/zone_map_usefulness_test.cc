// ZoneMapsCanPrune (filter/zone_map_usefulness.h): random ids and near-uniform values lose
// their zone maps; clustered, skewed, low-cardinality and partly null columns keep them.
#include "filter/zone_map_usefulness.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

namespace columnar {
namespace {

constexpr size_t kRows = 128;
constexpr size_t kGroups = 32;

// The zone maps of kGroups groups of kRows values each, value(group, row) or null.
template <typename MakeValue>
std::vector<ZoneMap> Groups(PhysicalType type, MakeValue value) {
  std::vector<ZoneMap> maps;
  for (size_t g = 0; g < kGroups; g++) {
    ColumnVector column(type);
    for (size_t r = 0; r < kRows; r++) value(g, r, &column);
    maps.push_back(BuildZoneMap(column));
  }
  return maps;
}

bool CanPrune(const std::vector<ZoneMap>& maps) {
  std::vector<const ZoneMap*> pointers;
  for (const ZoneMap& m : maps) pointers.push_back(&m);
  return ZoneMapsCanPrune(pointers);
}

std::string RandomHex(std::mt19937_64& rng, size_t digits) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < digits; i++) s.push_back(kDigits[rng() % 16]);
  return s;
}

TEST(ZoneMapUsefulnessTest, RandomIdsCannotPrune) {
  std::mt19937_64 rng(1);
  EXPECT_FALSE(CanPrune(Groups(PhysicalType::kBytes, [&](size_t, size_t, ColumnVector* c) {
    c->AppendBytes(RandomHex(rng, 32));
  })));
  EXPECT_FALSE(CanPrune(Groups(PhysicalType::kInt64, [&](size_t, size_t, ColumnVector* c) {
    c->Append<int64_t>(static_cast<int64_t>(rng()));
  })));
  // A shared prefix does not hide the randomness after it.
  EXPECT_FALSE(CanPrune(Groups(PhysicalType::kBytes, [&](size_t, size_t, ColumnVector* c) {
    c->AppendBytes("user-" + RandomHex(rng, 12));
  })));
}

TEST(ZoneMapUsefulnessTest, ClusteredValuesPrune) {
  // Times increasing through the file: every group covers 1/32 of the range.
  EXPECT_TRUE(CanPrune(Groups(PhysicalType::kInt64, [](size_t g, size_t r, ColumnVector* c) {
    c->Append<int64_t>(static_cast<int64_t>(1'700'000'000'000 + (g * kRows + r) * 1000));
  })));
  // Strings sorted through the file.
  EXPECT_TRUE(CanPrune(Groups(PhysicalType::kBytes, [](size_t g, size_t r, ColumnVector* c) {
    c->AppendBytes("key-" + std::to_string(100000 + g * kRows + r));
  })));
}

TEST(ZoneMapUsefulnessTest, SkewedValuesPrune) {
  // Latencies: log-normal, so a group's maximum rarely reaches the file's.
  std::mt19937_64 rng(2);
  std::lognormal_distribution<double> latency(3.0, 1.2);
  EXPECT_TRUE(CanPrune(Groups(PhysicalType::kInt32, [&](size_t, size_t, ColumnVector* c) {
    c->Append<int32_t>(static_cast<int32_t>(latency(rng)));
  })));
}

TEST(ZoneMapUsefulnessTest, ValueSetsNullsAndSmallGroupsKeepTheMaps) {
  std::mt19937_64 rng(3);
  // Few distinct values: a value set, exact for equality.
  EXPECT_TRUE(CanPrune(Groups(PhysicalType::kInt32, [&](size_t, size_t, ColumnVector* c) {
    c->Append<int32_t>(static_cast<int32_t>(rng() % 3));
  })));
  // Random, but some groups have no nulls while others do: IS NULL can exclude those.
  EXPECT_TRUE(CanPrune(Groups(PhysicalType::kInt64, [&](size_t g, size_t r, ColumnVector* c) {
    if (g % 2 == 0 && r == 0) {
      c->AppendNull();
    } else {
      c->Append<int64_t>(static_cast<int64_t>(rng()));
    }
  })));
  // An all-null group.
  EXPECT_TRUE(CanPrune(Groups(PhysicalType::kInt64, [&](size_t g, size_t, ColumnVector* c) {
    if (g == 5) {
      c->AppendNull();
    } else {
      c->Append<int64_t>(static_cast<int64_t>(rng()));
    }
  })));
  // Groups too small to judge, and an empty sample.
  std::vector<ZoneMap> small;
  for (int g = 0; g < 4; g++) {
    ColumnVector one(PhysicalType::kInt64);
    one.Append<int64_t>(static_cast<int64_t>(rng()));
    small.push_back(BuildZoneMap(one));
  }
  EXPECT_TRUE(CanPrune(small));
  EXPECT_TRUE(ZoneMapsCanPrune({}));
}

TEST(ZoneMapUsefulnessTest, TheCoverageThresholdDecides) {
  // Groups each covering half of the range [0, 1000) (alternately the lower and upper half,
  // both ends reached): mean coverage ~0.5.
  std::vector<ZoneMap> halves =
      Groups(PhysicalType::kInt64, [](size_t g, size_t r, ColumnVector* c) {
        c->Append<int64_t>(static_cast<int64_t>((g % 2) * 500 + r * 499 / (kRows - 1)));
      });
  std::vector<const ZoneMap*> pointers;
  for (const ZoneMap& m : halves) pointers.push_back(&m);
  ZoneMapUsefulnessOptions options;
  options.max_mean_coverage = 0.6;
  EXPECT_TRUE(ZoneMapsCanPrune(pointers, options));
  options.max_mean_coverage = 0.4;
  EXPECT_FALSE(ZoneMapsCanPrune(pointers, options));
}

}  // namespace
}  // namespace columnar
