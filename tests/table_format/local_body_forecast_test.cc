// LocalBodyForecast (table_format/local_body_forecast.h): when a string column's chunks skip
// building their local body, for how long, and that a skipped chunk the file's dictionary no
// longer wins builds and writes its local body after all; every chunk reads back.
#include "table_format/local_body_forecast.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/file_dictionary.h"
#include "tests/table_format/file_dictionary_test_util.h"

namespace columnar {
namespace {

// Records `count` chunks that built a local body of 1000 bytes for 100 values and wrote the
// dictionary's form at `written_cost`.
void Built(LocalBodyForecast* forecast, int count, size_t written_cost) {
  for (int i = 0; i < count; i++) {
    ASSERT_FALSE(forecast->ShouldSkip()) << i;
    forecast->Record(true, 100, 1000, Encoding::kTemplate, /*dictionary_written=*/true,
                     written_cost);
  }
}

// How many chunks in a row ShouldSkip() says yes (-1: more than a thousand).
int SkippedInARow(LocalBodyForecast* forecast) {
  int skipped = 0;
  while (forecast->ShouldSkip()) {
    forecast->Record(false, 100, forecast->EstimatedSize(100), forecast->encoding(), true, 10);
    if (++skipped > 1000) return -1;
  }
  return skipped;
}

TEST(LocalBodyForecastTest, ClearLossesSkipTheLocalBodyForLongerEachTime) {
  LocalBodyForecast forecast;
  EXPECT_FALSE(forecast.ShouldSkip());
  Built(&forecast, LocalBodyForecast::kLossesBeforeSkipping, 100);
  EXPECT_EQ(forecast.EstimatedSize(100), 1000u);
  EXPECT_EQ(forecast.EstimatedSize(7), 70u);
  EXPECT_EQ(forecast.encoding(), Encoding::kTemplate);
  EXPECT_EQ(SkippedInARow(&forecast), 8);
  // The chunk after the skip builds it; losing clearly again doubles the skip, up to 64.
  for (int expected : {16, 32, 64, 64}) {
    Built(&forecast, 1, 100);
    EXPECT_EQ(SkippedInARow(&forecast), expected);
  }
  // A loss that is not clear (7/8 of the local size is not beaten) ends the skipping.
  Built(&forecast, 1, 900);
  Built(&forecast, LocalBodyForecast::kLossesBeforeSkipping - 1, 100);
  EXPECT_EQ(SkippedInARow(&forecast), 0);
  Built(&forecast, 1, 100);
  EXPECT_EQ(SkippedInARow(&forecast), 8);
  // So does a skipped chunk that wrote its local body after all (the dictionary lost to the
  // estimate): the skip under way ends there.
  Built(&forecast, 1, 100);
  ASSERT_TRUE(forecast.ShouldSkip());
  forecast.Record(true, 100, 1000, Encoding::kTemplate, /*dictionary_written=*/false, 0);
  EXPECT_FALSE(forecast.ShouldSkip());
  EXPECT_EQ(forecast.built(), 4u + 4u + 1u + 4u + 1u + 1u);
}

// The local body's size per value is measured on the chunks that build it.
TEST(LocalBodyForecastTest, TheEstimateFollowsTheLastBuiltBody) {
  LocalBodyForecast forecast;
  forecast.Record(true, 200, 1000, Encoding::kDictionary, true, 100);
  EXPECT_EQ(forecast.EstimatedSize(100), 500u);
  EXPECT_EQ(forecast.encoding(), Encoding::kDictionary);
  forecast.Record(true, 3, 10, Encoding::kPlain, true, 1);
  EXPECT_EQ(forecast.EstimatedSize(3), 10u);
  EXPECT_EQ(forecast.EstimatedSize(6), 20u);
  EXPECT_EQ(forecast.encoding(), Encoding::kPlain);
}

// Chunks through a file's dictionary: values from a small set of long strings, which the
// dictionary serves far below their local body once seen, so the local body gets skipped;
// then one-off strings, which it cannot serve: the first of them that falls in a skip must be
// written with its local body (and read back), and end the skipping.
TEST(LocalBodyForecastTest, ASkippedChunkTheDictionaryLosesWritesItsLocalBody) {
  std::mt19937_64 rng(11);
  testing_util::ColumnWriter column;
  FileDictionaryWriter* writer = column.dictionary();
  auto write = [&](const ColumnVector& values) { return column.Write(values); };
  std::vector<std::string> recurring;
  for (int k = 0; k < 16; k++) {
    recurring.push_back("Mozilla/compatible; agent-" + std::string(1, static_cast<char>('a' + k)) +
                        " (letters only, long enough to be worth a code)");
  }
  for (int c = 0; c < 40; c++) {
    ColumnVector values(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) values.AppendBytes(recurring[rng() % recurring.size()]);
    const Encoding encoding = write(values);
    if (c > 0) {
      EXPECT_EQ(encoding, Encoding::kFileDictionary) << c;
    }
  }
  const LocalBodyForecast& forecast = writer->local_body();
  EXPECT_GT(forecast.skipped(), 20u);
  // A skip is under way (its length is 8 or more and the last build started one).
  const uint64_t built_before = forecast.built();
  for (int c = 0; c < 10; c++) {
    ColumnVector ids(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) {
      std::string id = "one-off-";
      for (int k = 0; k < 24; k++) id.push_back(static_cast<char>('g' + rng() % 20));
      ids.AppendBytes(id);
    }
    EXPECT_NE(write(ids), Encoding::kFileDictionary) << c;
  }
  // Every one of them built its local body.
  EXPECT_EQ(forecast.built(), built_before + 10);

  column.ExpectReadBack();
}

}  // namespace
}  // namespace columnar
