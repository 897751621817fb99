#include "table_format/metadata_transform.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace columnar {
namespace {

// A group's metadata: each row's value v = f_t(c) + noise for a random transform, or values
// near the int64 limits (where 64-bit arithmetic would overflow), with some rows absent.
struct Group {
  OptionalInt64s values;
  OptionalInt64s references;
};

int64_t Pick(std::mt19937_64* rng, const std::vector<int64_t>& choices) {
  return choices[(*rng)() % choices.size()];
}

Group RandomGroup(std::mt19937_64* rng) {
  Group g;
  const size_t rows = 1 + (*rng)() % 130;
  const int t = static_cast<int>((*rng)() % kMetadataTransformCount);
  const int64_t base_c = Pick(rng, {0, 1700000000, -1700000000, 1700000000000, 19000,
                                    std::numeric_limits<int64_t>::max() / 2,
                                    std::numeric_limits<int64_t>::min() + 5, 106751991167});
  const int64_t step = Pick(rng, {0, 1, 10, 1000, 86400});
  const int64_t noise = Pick(rng, {0, 1, 100000, int64_t{1} << 40});
  const int64_t offset = Pick(rng, {0, 86400 * 30, std::numeric_limits<int64_t>::max(),
                                    std::numeric_limits<int64_t>::min()});
  const bool absent_values = (*rng)() % 3 == 0;
  const bool absent_references = (*rng)() % 5 == 0;
  for (size_t i = 0; i < rows; i++) {
    int64_t c = base_c;
    __builtin_add_overflow(base_c, step * static_cast<int64_t>(i), &c);
    if (absent_references && (*rng)() % 10 == 0) {
      g.references.AppendAbsent();
    } else {
      g.references.Append(c);
    }
    if (absent_values && (*rng)() % 4 == 0) {
      g.values.AppendAbsent();
      continue;
    }
    const __int128 exact = MetadataTransformOf(t, c) +
                           (noise == 0 ? 0 : static_cast<int64_t>((*rng)() % noise)) + offset;
    // Clamped into int64 (the values are int64; clamping makes limit cases).
    const int64_t v = exact > INT64_MAX   ? INT64_MAX
                      : exact < INT64_MIN ? INT64_MIN
                                          : static_cast<int64_t>(exact);
    g.values.Append(v);
  }
  return g;
}

// The 64-bit chooser (bounds, pruning by the ranges, 128-bit fallback) picks what the
// definition (128 bits on every row and transform) picks, and its residuals are exact.
TEST(MetadataTransformTest, FastChoiceIsTheExactChoice) {
  std::mt19937_64 rng(11);
  int nonzero = 0;
  for (int round = 0; round < 20000; round++) {
    const Group g = RandomGroup(&rng);
    const int exact = ChooseMetadataTransformExact(g.values, g.references);
    ASSERT_EQ(ChooseMetadataTransform(g.values, g.references), exact) << "round " << round;
    nonzero += exact != 0;
    ColumnVector residuals;
    MetadataResiduals(g.values, g.references, exact, &residuals);
    ASSERT_EQ(residuals.size(), g.values.size());
    for (size_t i = 0; i < g.values.size(); i++) {
      ASSERT_EQ(residuals.IsNull(i), !g.values.present[i]);
      if (!g.values.present[i]) continue;
      const __int128 want =
          static_cast<__int128>(g.values.values[i]) -
          MetadataTransformOf(exact, g.references.present[i] ? g.references.values[i] : 0);
      ASSERT_EQ(static_cast<__int128>(residuals.Get<int64_t>(i)), want) << "round " << round;
    }
  }
  EXPECT_GT(nonzero, 5000);  // the transforms are exercised, not just "none"
}

TEST(MetadataTransformTest, TypicalGroups) {
  // Write times in microseconds against times in seconds: transform 3 (c x 10^6).
  OptionalInt64s write_times, expiries, times;
  for (int64_t i = 0; i < 128; i++) {
    const int64_t time = 1700000000 + 10 * i;
    times.Append(time);
    write_times.Append(time * 1000000 + (i * 7919) % 100000);
    expiries.Append(time + 86400 * 30);
  }
  EXPECT_EQ(ChooseMetadataTransform(write_times, times), 3);
  EXPECT_EQ(ChooseMetadataTransform(expiries, times), 1);
  // A row with a value but no reference leaves only transform 0.
  times.values[5] = 0;
  times.present[5] = 0;
  EXPECT_EQ(ChooseMetadataTransform(expiries, times), 0);
  // No values at all: 0.
  OptionalInt64s none;
  none.AppendAbsent();
  OptionalInt64s one;
  one.Append(5);
  EXPECT_EQ(ChooseMetadataTransform(none, one), 0);
}

}  // namespace
}  // namespace columnar
