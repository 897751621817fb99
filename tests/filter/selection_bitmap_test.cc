// SelectionBitmap and the dictionary gather: word-wise operations keep the tail clear; codes
// map entries to rows, null rows take the predicate's answer for null, bad codes are caught.
#include "filter/selection_bitmap.h"

#include <gtest/gtest.h>

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
                                          presence, 5, &out)
                    .ok());
    EXPECT_EQ(out.SelectedRows(),
              null_result ? (std::vector<uint32_t>{1, 2, 4}) : (std::vector<uint32_t>{1, 4}));
  }
}

TEST(DictionaryGatherTest, UniformEntriesSkipTheCodes) {
  const std::vector<uint32_t> codes = {0, 1, 1, 0};
  SelectionBitmap out;
  ASSERT_TRUE(
      GatherDictionarySelection(SelectionBitmap(2, true), false, codes.data(), 4, "", 4, &out)
          .ok());
  EXPECT_TRUE(out.All());
  ASSERT_TRUE(
      GatherDictionarySelection(SelectionBitmap(2, false), false, codes.data(), 4, "", 4, &out)
          .ok());
  EXPECT_TRUE(out.None());
}

TEST(DictionaryGatherTest, RejectsInconsistentCodes) {
  const std::vector<uint32_t> codes = {0, 2};
  SelectionBitmap out;
  EXPECT_TRUE(GatherDictionarySelection(SelectionBitmap(2), false, codes.data(), 2, "", 2, &out)
                  .IsCorruption());
  EXPECT_TRUE(GatherDictionarySelection(SelectionBitmap(3), false, codes.data(), 2, "", 3, &out)
                  .IsCorruption());
  EXPECT_TRUE(GatherDictionarySelection(SelectionBitmap(3), false, codes.data(), 2, "\x01", 2, &out)
                  .IsCorruption());
  EXPECT_TRUE(
      GatherDictionarySelection(SelectionBitmap(3), false, codes.data(), 2, "\xff", 16, &out)
          .IsCorruption());
}

}  // namespace
}  // namespace columnar
