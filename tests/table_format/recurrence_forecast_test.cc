// RecurrenceForecast (table_format/recurrence_forecast.h): when a string column's chunks leave
// the file's dictionary out because their values do not recur, for how long, that of a skipped
// chunk's values only a sample is remembered, that the sample brings columns whose values recur
// sparsely back, and that columns the dictionary wins never skip it; every chunk reads back.
#include "table_format/recurrence_forecast.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/encodings/key_index.h"
#include "table_format/file_dictionary.h"
#include "tests/table_format/file_dictionary_test_util.h"

namespace columnar {
namespace recurrence_forecast_test {

using testing_util::ColumnWriter;

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
  // More than an eighth of the values recurring is no clear loss: the skipping ends.
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

// A skip over which more than an eighth of the sampled values recurred: the retry is no clear
// loss, however rarely its own values recurred; one over which they did not is.
TEST(RecurrenceForecastTest, SampledValuesThatRecurDuringASkipEndIt) {
  RecurrenceForecast forecast;
  Consulted(&forecast, RecurrenceForecast::kLossesBeforeSkipping, false, 0);
  RecurrenceCount sampled;
  sampled.sampled_distinct = 8;
  sampled.sampled_recurring = 8 / RecurrenceForecast::kRecurringDivisor + 1;
  while (forecast.ShouldSkip()) forecast.RecordSkipped(sampled);
  Consulted(&forecast, 1, false, 0);
  EXPECT_EQ(SkippedInARow(&forecast), 0);
  Consulted(&forecast, RecurrenceForecast::kLossesBeforeSkipping, false, 0);
  sampled.sampled_recurring = 0;
  int skipped = 0;
  while (forecast.ShouldSkip()) {
    forecast.RecordSkipped(sampled);
    skipped++;
  }
  EXPECT_EQ(skipped, 8);
  Consulted(&forecast, 1, false, 0);
  EXPECT_EQ(SkippedInARow(&forecast), 16);
}

// An id of 32 hex digits.
std::string HexId(std::mt19937_64* rng) {
  static const char kDigits[] = "0123456789abcdef";
  std::string id;
  for (int k = 0; k < 32; k++) id.push_back(kDigits[(*rng)() % 16]);
  return id;
}

// 128 ids, none seen before.
ColumnVector Ids(std::mt19937_64* rng) {
  ColumnVector ids(PhysicalType::kBytes);
  for (int i = 0; i < 128; i++) ids.AppendBytes(HexId(rng));
  return ids;
}

// One-off ids: after four chunks the dictionary is skipped, eight chunks, then retried and
// skipped for longer; of the skipped chunks' values only the sample is remembered, the
// consulted ones' all are.
TEST(RecurrenceForecastTest, ColumnsOfOneOffValuesSkipTheDictionaryAndRememberOnlyASample) {
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
    for (size_t i = 0; i < chunks[c].size(); i++) {
      ASSERT_TRUE(column.dictionary()->Recurs(chunks[c].GetBytes(i))) << c << " " << i;
    }
  }
  size_t sampled = 0;
  size_t others_remembered = 0;
  for (int c : {4, 11, 13, 28, 30, 39}) {
    for (size_t i = 0; i < chunks[c].size(); i++) {
      const Slice value = chunks[c].GetBytes(i);
      if (RecurrenceForecast::InSample(HashBytes(value.data(), value.size()))) {
        sampled++;
        EXPECT_TRUE(column.dictionary()->Recurs(value)) << c << " " << i;
      } else {
        others_remembered += column.dictionary()->Recurs(value) ? 1 : 0;
      }
    }
  }
  EXPECT_GT(sampled, 0u);
  EXPECT_LE(others_remembered, 2u);  // the filter's false positives
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

// Values that recur, but sparsely: 20,000 session ids, 128 drawn at random per chunk, offered
// to a column's dictionary as WriteChunk offers them when no form of it wins. The first chunks
// see almost none again and the dictionary is skipped; the values sampled during the skips
// show the recurrence growing, so the column consults the dictionary again for good (which a
// filter holding only the consulted chunks' values would not have shown for hundreds of chunks).
TEST(RecurrenceForecastTest, SparselyRecurringValuesComeBackToTheDictionary) {
  std::mt19937_64 rng(3);
  std::vector<std::string> sessions;
  for (int k = 0; k < 20000; k++) sessions.push_back(HexId(&rng));
  FileDictionaryWriter writer;
  RecurrenceForecast& forecast = writer.recurrence();
  int last_skipped = -1;
  for (int c = 0; c < 400; c++) {
    ColumnVector values(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) values.AppendBytes(sessions[rng() % sessions.size()]);
    if (forecast.ShouldSkip()) {
      forecast.RecordSkipped(writer.RememberSample(values));
      last_skipped = c;
    } else {
      FileDictionaryTrial trial;
      writer.HashValues(values, &trial);
      forecast.Record(/*dictionary_written=*/false, writer.Remember(trial));
    }
  }
  EXPECT_GE(forecast.skipped(), 8u);
  EXPECT_LT(last_skipped, 100);
  EXPECT_GT(forecast.consulted(), 300u);
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
  // A chunk that skips the dictionary remembers, and counts, its sampled values only.
  ColumnVector many(PhysicalType::kBytes);
  size_t in_sample = 0;
  for (int i = 0; i < 4096; i++) {
    const std::string value = "many " + std::to_string(i);
    many.AppendBytes(value);
    in_sample += RecurrenceForecast::InSample(HashBytes(value.data(), value.size())) ? 1 : 0;
  }
  ASSERT_GT(in_sample, 4096u / 32);
  ASSERT_LT(in_sample, 4096u / 8);
  count = writer.RememberSample(many);
  EXPECT_EQ(count.sampled_distinct, in_sample);
  EXPECT_EQ(count.sampled_recurring, 0u);
  EXPECT_EQ(writer.RememberSample(many).sampled_recurring, in_sample);
  size_t remembered = 0;
  for (size_t i = 0; i < many.size(); i++) remembered += writer.Recurs(many.GetBytes(i)) ? 1 : 0;
  EXPECT_GE(remembered, in_sample);
  EXPECT_LT(remembered, in_sample + 4096 / 20);  // the filter's false positives
}

}  // namespace recurrence_forecast_test
}  // namespace columnar
