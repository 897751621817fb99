// RecurrenceForecast (table_format/recurrence_forecast.h): when a string column's chunks leave
// the file's dictionary out because their values do not recur, for how long, that the values of
// a skipped chunk are not remembered, and that columns whose values recur never skip it; every
// chunk reads back.
#include "table_format/recurrence_forecast.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/file_dictionary.h"
#include "tests/table_format/file_dictionary_test_util.h"

namespace columnar {
namespace recurrence_forecast_test {

// How many chunks in a row ShouldSkip() says yes (-1: more than a thousand).
int SkippedInARow(RecurrenceForecast* forecast) {
  int skipped = 0;
  while (forecast->ShouldSkip()) {
    if (++skipped > 1000) return -1;
  }
  return skipped;
}

// Records `count` consulted chunks of 128 distinct values, `recurring` of them recurring.
void Consulted(RecurrenceForecast* forecast, int count, bool written, size_t recurring) {
  for (int i = 0; i < count; i++) {
    ASSERT_FALSE(forecast->ShouldSkip()) << i;
    forecast->Record(written, RecurrenceCount{128, recurring});
  }
}

TEST(RecurrenceForecastTest, ClearLossesSkipTheDictionaryForLongerEachTime) {
  RecurrenceForecast forecast;
  Consulted(&forecast, RecurrenceForecast::kLossesBeforeSkipping, false, 0);
  EXPECT_EQ(SkippedInARow(&forecast), 8);
  for (int expected : {16, 32, 64, 64}) {
    Consulted(&forecast, 1, false, 128 / RecurrenceForecast::kRecurringDivisor);
    EXPECT_EQ(SkippedInARow(&forecast), expected);
  }
  // More than a sixteenth of the values recurring is no clear loss: the skipping ends.
  Consulted(&forecast, 1, false, 128 / RecurrenceForecast::kRecurringDivisor + 1);
  Consulted(&forecast, RecurrenceForecast::kLossesBeforeSkipping - 1, false, 0);
  EXPECT_EQ(SkippedInARow(&forecast), 0);
  // Nor is a chunk that some form of the dictionary won, however few values recurred.
  Consulted(&forecast, 1, true, 0);
  Consulted(&forecast, RecurrenceForecast::kLossesBeforeSkipping - 1, false, 0);
  EXPECT_EQ(SkippedInARow(&forecast), 0);
  Consulted(&forecast, 1, false, 0);
  EXPECT_EQ(SkippedInARow(&forecast), 8);
  EXPECT_EQ(forecast.skipped(), 8u + 16u + 32u + 64u + 64u + 8u);
  EXPECT_EQ(forecast.consulted(), 4u + 4u + 1u + 3u + 1u + 3u + 1u);
}

// Writes chunks of one column through its file dictionary, keeping them to read back.
class ColumnWriter {
 public:
  ColumnWriter() : writer_(writers_.For("column")) {}

  Encoding Write(const ColumnVector& values) {
    ChunkWriteOptions options;
    options.file_dictionary = writer_;
    std::string chunk;
    EXPECT_TRUE(WriteChunk(values, options, &chunk).ok());
    chunks_.push_back(chunk);
    written_.push_back(values);
    ChunkHeader header;
    EXPECT_TRUE(ParseChunkHeader(chunk, &header).ok());
    return header.encoding;
  }
  FileDictionaryWriter* dictionary() { return writer_; }
  void ExpectReadBack() const { testing_util::ExpectChunksReadBack(chunks_, written_, *writer_); }

 private:
  FileDictionaryWriters writers_;
  FileDictionaryWriter* writer_;
  std::vector<std::string> chunks_;
  std::vector<ColumnVector> written_;
};

// 128 ids of 32 hex digits, none seen before.
ColumnVector Ids(std::mt19937_64* rng) {
  ColumnVector ids(PhysicalType::kBytes);
  static const char kDigits[] = "0123456789abcdef";
  for (int i = 0; i < 128; i++) {
    std::string id;
    for (int k = 0; k < 32; k++) id.push_back(kDigits[(*rng)() % 16]);
    ids.AppendBytes(id);
  }
  return ids;
}

// One-off ids: after four chunks the dictionary is skipped, eight chunks, then retried and
// skipped for longer; the skipped chunks' values are not remembered, the consulted ones' are.
TEST(RecurrenceForecastTest, ColumnsOfOneOffValuesSkipTheDictionaryAndRememberNothingThen) {
  std::mt19937_64 rng(5);
  ColumnWriter column;
  std::vector<ColumnVector> chunks;
  for (int c = 0; c < 40; c++) {
    chunks.push_back(Ids(&rng));
    EXPECT_EQ(column.Write(chunks.back()), Encoding::kHex) << c;
  }
  const RecurrenceForecast& forecast = column.dictionary()->recurrence();
  // Consulted: 0-3, 12, 29; skipped: 4-11 (8), 13-28 (16), 30-39 (10 of 32).
  EXPECT_EQ(forecast.consulted(), 6u);
  EXPECT_EQ(forecast.skipped(), 34u);
  for (int c : {0, 3, 12, 29}) {
    EXPECT_TRUE(column.dictionary()->Recurs(chunks[c].GetBytes(7))) << c;
  }
  for (int c : {4, 11, 13, 28, 30, 39}) {
    EXPECT_FALSE(column.dictionary()->Recurs(chunks[c].GetBytes(7))) << c;
  }
  column.ExpectReadBack();
}

// Values the file's dictionary wins recur: the column keeps consulting it.
TEST(RecurrenceForecastTest, ColumnsWhoseValuesRecurKeepConsultingTheDictionary) {
  std::mt19937_64 rng(9);
  ColumnWriter column;
  for (int c = 0; c < 40; c++) {
    ColumnVector values(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) {
      const auto k = static_cast<char>('a' + rng() % 4);
      values.AppendBytes("Mozilla/5.0 (agent " + std::string(1, k) + "; long enough for a code)");
    }
    const Encoding encoding = column.Write(values);
    if (c > 0) {
      EXPECT_EQ(encoding, Encoding::kFileDictionary) << c;
    }
  }
  EXPECT_EQ(column.dictionary()->recurrence().skipped(), 0u);
  EXPECT_EQ(column.dictionary()->recurrence().consulted(), 40u);
  column.ExpectReadBack();
}

// What the forecast is told: a run of one value counts once, and a value recurs when it was
// remembered from an earlier chunk.
TEST(RecurrenceForecastTest, RememberCountsDistinctValuesAndThoseSeenBefore) {
  FileDictionaryWriter writer;
  ColumnVector first(PhysicalType::kBytes);
  ColumnVector second(PhysicalType::kBytes);
  for (int i = 0; i < 64; i++) {
    const std::string value = "value " + std::to_string(i);
    first.AppendBytes(value);
    first.AppendBytes(value);  // a run of two
    second.AppendBytes(i % 2 == 0 ? value : "other " + std::to_string(i));
  }
  FileDictionaryTrial trial;
  writer.HashValues(first, &trial);
  RecurrenceCount count = writer.Remember(trial);
  EXPECT_EQ(count.distinct, 64u);
  EXPECT_EQ(count.recurring, 0u);
  writer.HashValues(second, &trial);
  count = writer.Remember(trial);
  EXPECT_EQ(count.distinct, 64u);
  EXPECT_EQ(count.recurring, 32u);
}

}  // namespace recurrence_forecast_test
}  // namespace columnar
