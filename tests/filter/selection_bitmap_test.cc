// SelectionBitmap and the dictionary gather: word-wise operations keep the tail clear; codes
// map entries to rows, null rows take the predicate's answer for null, bad codes are caught.
#include "filter/selection_bitmap.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "filter/dictionary_gather.h"

namespace columnar {
namespace {

TEST(SelectionBitmapTest, ResetKeepsTailClear) {
  for (size_t rows : {0, 1, 63, 64, 65, 130}) {
    SelectionBitmap all(rows, true);
    EXPECT_EQ(all.Count(), rows);
    EXPECT_TRUE(all.All());
    EXPECT_EQ(all.None(), rows == 0);
    if (rows % 64 != 0) {
      EXPECT_EQ(all.words()[all.word_count() - 1] >> (rows % 64), 0u);
    }
  }
}

TEST(SelectionBitmapTest, CombinationsAndSelectedRows) {
  SelectionBitmap a(100);
  SelectionBitmap b(100);
  for (size_t i = 0; i < 100; i += 3) a.Set(i, true);
  for (size_t i = 0; i < 100; i += 5) b.Set(i, true);
  SelectionBitmap both = a;
  both.And(b);
  EXPECT_EQ(both.SelectedRows(), (std::vector<uint32_t>{0, 15, 30, 45, 60, 75, 90}));
  SelectionBitmap either = a;
  either.Or(b);
  EXPECT_EQ(either.Count(), 34u + 20u - 7u);
  SelectionBitmap only_a = a;
  only_a.AndNot(b);
  EXPECT_EQ(only_a.Count(), 34u - 7u);
  only_a.Set(3, false);
  EXPECT_FALSE(only_a.Get(3));
}

TEST(DictionaryGatherTest, MapsCodesAndNulls) {
  SelectionBitmap entries(3);
  entries.Set(1, true);
  const std::vector<uint32_t> codes = {0, 1, 2, 1};
  const std::string presence = "\x1b";  // rows 0, 1, 3, 4 present; row 2 null
  for (bool null_result : {false, true}) {
    SelectionBitmap out;
    ASSERT_TRUE(GatherDictionarySelection(entries, null_result, codes.data(), codes.size(),
                                          presence, 5, SimdLevel::kBest, &out)
                    .ok());
    EXPECT_EQ(out.SelectedRows(),
              null_result ? (std::vector<uint32_t>{1, 2, 4}) : (std::vector<uint32_t>{1, 4}));
  }
}

TEST(DictionaryGatherTest, UniformEntriesSkipTheCodes) {
  const std::vector<uint32_t> codes = {0, 1, 1, 0};
  SelectionBitmap out;
  ASSERT_TRUE(GatherDictionarySelection(SelectionBitmap(2, true), false, codes.data(), 4, "", 4,
                                        SimdLevel::kBest, &out)
                  .ok());
  EXPECT_TRUE(out.All());
  ASSERT_TRUE(GatherDictionarySelection(SelectionBitmap(2, false), false, codes.data(), 4, "", 4,
                                        SimdLevel::kBest, &out)
                  .ok());
  EXPECT_TRUE(out.None());
}

TEST(DictionaryGatherTest, RejectsInconsistentCodes) {
  const std::vector<uint32_t> codes = {0, 2};
  SelectionBitmap out;
  EXPECT_TRUE(GatherDictionarySelection(SelectionBitmap(2), false, codes.data(), 2, "", 2,
                                        SimdLevel::kBest, &out)
                  .IsCorruption());
  EXPECT_TRUE(GatherDictionarySelection(SelectionBitmap(3), false, codes.data(), 2, "", 3,
                                        SimdLevel::kBest, &out)
                  .IsCorruption());
  EXPECT_TRUE(GatherDictionarySelection(SelectionBitmap(3), false, codes.data(), 2, "\x01", 2,
                                        SimdLevel::kBest, &out)
                  .IsCorruption());
  EXPECT_TRUE(GatherDictionarySelection(SelectionBitmap(3), false, codes.data(), 2, "\xff", 16,
                                        SimdLevel::kBest, &out)
                  .IsCorruption());
}

// Selections of every shape (runs, all but a run, scattered) against a lookup per row.
TEST(DictionaryGatherTest, RandomSelectionsMatchLookup) {
  std::mt19937_64 rng(77);
  for (int round = 0; round < 3000; round++) {
    const size_t entries = 1 + rng() % 20;
    SelectionBitmap selection(entries);
    const size_t a = rng() % entries;
    const size_t b = a + rng() % (entries - a + 1);
    const int shape = static_cast<int>(rng() % 3);
    for (size_t k = 0; k < entries; k++) {
      const bool in_run = k >= a && k < b;
      selection.Set(k, shape == 0 ? in_run : (shape == 1 ? !in_run : rng() % 2 == 0));
    }
    const size_t rows = rng() % 300;
    std::string presence;
    if (rng() % 2) {
      presence.assign((rows + 7) / 8, '\0');
      for (size_t r = 0; r < rows; r++) {
        if (rng() % 4) presence[r / 8] |= static_cast<char>(1 << (r % 8));
      }
    }
    std::vector<uint32_t> codes;
    std::vector<int> expected;  // -1 = null row
    for (size_t r = 0; r < rows; r++) {
      if (!presence.empty() && !((presence[r / 8] >> (r % 8)) & 1)) {
        expected.push_back(-1);
        continue;
      }
      codes.push_back(static_cast<uint32_t>(rng() % entries));
      expected.push_back(selection.Get(codes.back()));
    }
    const bool null_result = rng() % 2;
    for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kBest}) {
      SelectionBitmap out;
      ASSERT_TRUE(GatherDictionarySelection(selection, null_result, codes.data(), codes.size(),
                                            presence, rows, level, &out)
                      .ok());
      ASSERT_EQ(out.size(), rows);
      for (size_t r = 0; r < rows; r++) {
        ASSERT_EQ(out.Get(r), expected[r] < 0 ? null_result : expected[r] == 1)
            << "round " << round << " row " << r;
      }
      if (rows % 64 != 0) {
        ASSERT_EQ(out.words()[out.word_count() - 1] >> (rows % 64), 0u);
      }
    }
  }
}

}  // namespace
}  // namespace columnar
