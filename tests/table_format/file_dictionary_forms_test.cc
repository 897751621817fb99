// FileDictionaryForms (table_format/file_dictionary_forms.h): which file-dictionary forms of a
// string column's chunks are skipped, for how long, and that a skip never leaves a stale
// answer: a skipped form is tried again, and the values of skipped chunks were remembered.
#include "table_format/file_dictionary_forms.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/file_dictionary.h"
#include "tests/table_format/file_dictionary_test_util.h"

namespace columnar {
namespace {

constexpr FileDictionaryForm kWhole = FileDictionaryForm::kWhole;
constexpr FileDictionaryForm kTemplates = FileDictionaryForm::kTemplates;
constexpr FileDictionaryForm kMixed = FileDictionaryForm::kMixed;

// Records `count` trials of `form` that lost to the chunk's local body.
void LoseToLocal(FileDictionaryForms* forms, FileDictionaryForm form, int count) {
  for (int i = 0; i < count; i++) {
    ASSERT_TRUE(forms->ShouldTry(form)) << i;
    forms->Record(form, 500, 100, /*won=*/false, /*local_written=*/true);
  }
}

// How many chunks in a row ShouldTry(form) refuses (-1: more than a thousand).
int SkippedInARow(FileDictionaryForms* forms, FileDictionaryForm form) {
  int skipped = 0;
  while (!forms->ShouldTry(form)) {
    if (++skipped > 1000) return -1;
  }
  return skipped;
}

TEST(FileDictionaryFormsTest, LossesToTheLocalBodySkipAFormForLongerEachRetry) {
  FileDictionaryForms forms;
  LoseToLocal(&forms, kWhole, FileDictionaryForms::kLossesBeforeSkipping);
  EXPECT_EQ(SkippedInARow(&forms, kWhole), 8);
  // The retry (ShouldTry returned true above) loses again: the skip doubles, up to 64.
  for (int expected : {16, 32, 64, 64}) {
    forms.Record(kWhole, 500, 100, false, true);
    EXPECT_EQ(SkippedInARow(&forms, kWhole), expected);
  }
  // A retry that wins ends the skipping; four more losses start again at 8.
  forms.Record(kWhole, 50, 50, /*won=*/true, /*local_written=*/false);
  LoseToLocal(&forms, kWhole, FileDictionaryForms::kLossesBeforeSkipping);
  EXPECT_EQ(SkippedInARow(&forms, kWhole), 8);
  // Forms are counted apart.
  EXPECT_TRUE(forms.ShouldTry(kTemplates));
  EXPECT_TRUE(forms.ShouldTry(kMixed));
}

TEST(FileDictionaryFormsTest, ALossBetweenWinsDoesNotCount) {
  FileDictionaryForms forms;
  for (int round = 0; round < 10; round++) {
    LoseToLocal(&forms, kWhole, FileDictionaryForms::kLossesBeforeSkipping - 1);
    ASSERT_TRUE(forms.ShouldTry(kWhole));
    forms.Record(kWhole, 50, 50, /*won=*/true, /*local_written=*/false);
  }
}

TEST(FileDictionaryFormsTest, FormsLosingToAnotherFormAreSkippedAfterWarmingUp) {
  // The whole form too: its body decides an admission of the whole values only when it is
  // smaller than the templates' body, which a clear loss never is.
  for (FileDictionaryForm form : {kWhole, kTemplates, kMixed}) {
    SCOPED_TRACE(static_cast<int>(form));
    FileDictionaryForms forms;
    // The first kWarmUpTrials losses, however clear, do not count: the dictionary is filling.
    for (uint32_t i = 0; i < FileDictionaryForms::kWarmUpTrials; i++) {
      ASSERT_TRUE(forms.ShouldTry(form)) << i;
      forms.Record(form, 1000, 100, false, false);
    }
    // Close losses (within a quarter of the written cost) do not count either.
    for (int i = 0; i < 20; i++) {
      ASSERT_TRUE(forms.ShouldTry(form)) << i;
      forms.Record(form, 125, 100, false, false);
    }
    for (uint32_t i = 0; i < FileDictionaryForms::kLossesBeforeSkipping; i++) {
      ASSERT_TRUE(forms.ShouldTry(form)) << i;
      forms.Record(form, FileDictionaryForms::kUnusable, 100, false, false);
    }
    EXPECT_EQ(SkippedInARow(&forms, form), 8);
  }
}

TEST(FileDictionaryFormsTest, AFormThatWonRecentlyIsNotSkippedForLosingToAnotherForm) {
  // Its entries serve the next chunks of the other forms: skipping it where it would win again
  // changes what they find. Past kTrialsAfterAWin trials without a win, losses count again.
  FileDictionaryForms forms;
  for (int i = 0; i < 40; i++) {
    ASSERT_TRUE(forms.ShouldTry(kMixed)) << i;
    if (i == 10 || i == 30) {
      forms.Record(kMixed, 80, 80, /*won=*/true, false);
    } else {
      forms.Record(kMixed, 1000, 100, false, false);  // far behind another form
    }
  }
  // The last win (at 30) was 9 trials ago: 7 more far losses are still not counted.
  for (uint32_t i = 9; i < FileDictionaryForms::kTrialsAfterAWin; i++) {
    ASSERT_TRUE(forms.ShouldTry(kMixed)) << i;
    forms.Record(kMixed, 1000, 100, false, false);
  }
  EXPECT_FALSE(forms.Skipping(kMixed));
  // Nor, for a form that won, are losses within kClearLossAfterAWinFactor of the written cost.
  for (int i = 0; i < 20; i++) {
    ASSERT_TRUE(forms.ShouldTry(kMixed)) << i;
    forms.Record(kMixed, 200, 100, false, false);
  }
  for (uint32_t i = 0; i < FileDictionaryForms::kLossesBeforeSkipping; i++) {
    ASSERT_TRUE(forms.ShouldTry(kMixed)) << i;
    forms.Record(kMixed, 1000, 100, false, false);
  }
  EXPECT_TRUE(forms.Skipping(kMixed));
  EXPECT_EQ(SkippedInARow(&forms, kMixed), 8);
  // Losing to the local body counts at once, even right after a win.
  forms.Record(kMixed, 80, 80, /*won=*/true, false);
  LoseToLocal(&forms, kMixed, FileDictionaryForms::kLossesBeforeSkipping);
  EXPECT_EQ(SkippedInARow(&forms, kMixed), 8);
}

// Chunks through a file's dictionary: first one-off ids (letters only: no templates), which
// keep their local encoding and get the whole form skipped; then values from a small set of
// long strings, which the dictionary serves once seen. The retry after the skip must find the
// values of the chunks written during the skip already seen (remembered without a trial), so
// the first chunk that tries the whole form again is written through the dictionary; and
// from then on every chunk is.
TEST(FileDictionaryFormsTest, ARetriedFormFindsTheValuesOfSkippedChunksSeen) {
  std::mt19937_64 rng(7);
  FileDictionaryWriters writers;
  FileDictionaryWriter* writer = writers.For("column");
  auto write = [&](const ColumnVector& values) {
    ChunkWriteOptions options;
    options.file_dictionary = writer;
    std::string chunk;
    EXPECT_TRUE(WriteChunk(values, options, &chunk).ok());
    ChunkHeader header;
    EXPECT_TRUE(ParseChunkHeader(chunk, &header).ok());
    return header.encoding;
  };
  for (int c = 0; c < 30; c++) {
    ColumnVector ids(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) {
      std::string id = "id-";
      for (int k = 0; k < 16; k++) id.push_back(static_cast<char>('g' + rng() % 20));
      ids.AppendBytes(id);
    }
    EXPECT_NE(write(ids), Encoding::kFileDictionary) << c;
  }
  ASSERT_GT(writer->forms().skipped(kWhole), 0u);
  std::vector<std::string> recurring;
  for (int k = 0; k < 16; k++) {
    recurring.push_back("Mozilla/compatible; agent-" + std::string(1, static_cast<char>('a' + k)) +
                        " (letters only, long enough to be worth a code)");
  }
  int skipped_before_retry = 0;
  bool retried = false;
  for (int c = 0; c < 80; c++) {
    ColumnVector values(PhysicalType::kBytes);
    // Chunk c holds its own slice of the set, so that only chunks written during the skip
    // have seen the values of the retried chunk.
    for (int i = 0; i < 128; i++) values.AppendBytes(recurring[(c + i % 2) % recurring.size()]);
    const uint64_t tried_before = writer->forms().tried(kWhole);
    const Encoding encoding = write(values);
    const bool tried = writer->forms().tried(kWhole) != tried_before;
    if (!retried && !tried) {
      skipped_before_retry++;
      EXPECT_NE(encoding, Encoding::kFileDictionary) << c;
      continue;
    }
    if (!retried) {
      retried = true;
      ASSERT_GT(skipped_before_retry, 0) << "the whole form was no longer skipped";
    }
    EXPECT_EQ(encoding, Encoding::kFileDictionary) << c;
  }
  EXPECT_TRUE(retried) << "the skipped form was never tried again";
}

// User agents with versions: a few dozen values that the whole form codes in a byte, against
// templates that pay for the versions' parameters on every row. The plain template form loses
// clearly and gets skipped; such chunks are not split for it (chunk.cc), yet count the skip
// down, so the form is retried; and once every value recurs, the mixed form (all values kept
// whole: no parameters) is no longer weighed. Every chunk reads back.
TEST(FileDictionaryFormsTest, ChunksSkippingThePlainTemplateFormCountDownAndReadBack) {
  std::mt19937_64 rng(3);
  FileDictionaryWriters writers;
  FileDictionaryWriter* writer = writers.For("user_agent");
  std::vector<std::string> agents;
  for (int k = 0; k < 40; k++) {
    agents.push_back("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/" +
                     std::to_string(100 + k % 20) + ".0." + std::to_string(6000 + 37 * k) + "." +
                     std::to_string(k % 7) + " Safari/537.36");
  }
  std::vector<std::string> chunks;
  std::vector<ColumnVector> written;
  uint64_t retried_after_skipping = 0;
  for (int c = 0; c < 400; c++) {
    ColumnVector values(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) values.AppendBytes(agents[rng() % agents.size()]);
    const bool skipping = writer->forms().Skipping(kTemplates);
    const uint64_t tried_before = writer->forms().tried(kTemplates);
    ChunkWriteOptions options;
    options.file_dictionary = writer;
    std::string chunk;
    ASSERT_TRUE(WriteChunk(values, options, &chunk).ok());
    if (skipping) {
      EXPECT_EQ(writer->forms().tried(kTemplates), tried_before) << c;
    }
    if (!skipping && writer->forms().skipped(kTemplates) > 0 &&
        writer->forms().tried(kTemplates) != tried_before) {
      retried_after_skipping++;
    }
    chunks.push_back(chunk);
    written.push_back(values);
  }
  EXPECT_GT(writer->forms().skipped(kTemplates), 200u);
  // Only while the first chunks still meet agents not seen before.
  EXPECT_LE(writer->forms().tried(kMixed) + writer->forms().skipped(kMixed), 2u);
  EXPECT_GT(retried_after_skipping, 0u) << "the template forms were never tried again";
  testing_util::ExpectChunksReadBack(chunks, written, *writer);
  size_t whole_chunks = 0;
  for (const std::string& chunk : chunks) {
    ChunkHeader header;
    ASSERT_TRUE(ParseChunkHeader(chunk, &header).ok());
    whole_chunks += header.encoding == Encoding::kFileDictionary ? 1 : 0;
  }
  EXPECT_GT(whole_chunks, 350u) << "the whole form should win once the agents are admitted";
}

// A form's trials encode their codes through the form's memo: on steady chunks the chooser
// runs for them at most every EncodingMemo::kReusedChunks + 1 trials (or the codes take the
// file's table alone), and every chunk written
// with the reused encoding reads back.
TEST(FileDictionaryFormsTest, TrialsReuseTheirCodesEncoding) {
  std::mt19937_64 rng(5);
  testing_util::ColumnWriter column;
  FileDictionaryWriter* writer = column.dictionary();
  std::vector<std::string> recurring;
  for (int k = 0; k < 40; k++) recurring.push_back("agent/" + std::string(30, 'a' + k % 26) + "-x");
  for (int c = 0; c < 40; c++) {
    ColumnVector values(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) values.AppendBytes(recurring[rng() % recurring.size()]);
    column.Write(values);
  }
  const EncodingMemo& codes = writer->trial_codes_memo(kWhole);
  // Trials whose codes went to the file's table alone skip the memo.
  EXPECT_GE(codes.reused_chunks() + writer->table_only_codes(kWhole), 25u);
  EXPECT_LE(codes.chooser_runs(), 10u);
  column.ExpectReadBack();
}

// Once the file's Huffman table beats the memo's encoding of a form's codes in
// SkipBackoff::kLossesBeforeSkipping trials in a row, the next trials encode the codes with the
// table alone; retries keep comparing both (the memo's chooser still runs), and every chunk,
// either way, reads back.
TEST(FileDictionaryFormsTest, CodesTakeTheTableAloneWhileItKeepsWinning) {
  std::mt19937_64 rng(11);
  FileDictionaryWriters writers;
  FileDictionaryWriter* writer = writers.For("column");
  std::vector<std::string> recurring;
  for (int k = 0; k < 24; k++) recurring.push_back("agent/" + std::string(30, 'a' + k) + "-x");
  std::vector<std::string> chunks;
  std::vector<ColumnVector> written;
  uint64_t memo_trials_while_skipping = 0;
  for (int c = 0; c < 300; c++) {
    ColumnVector values(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) {
      // Skewed: a few values most of the time (the table's short codes pay off).
      const size_t k = rng() % 4 == 0 ? rng() % recurring.size() : rng() % 3;
      values.AppendBytes(recurring[k]);
    }
    const EncodingMemo& memo = writer->trial_codes_memo(kWhole);
    const uint64_t memo_before = memo.chooser_runs() + memo.reused_chunks();
    const uint64_t table_only_before = writer->table_only_codes(kWhole);
    ChunkWriteOptions options;
    options.file_dictionary = writer;
    std::string chunk;
    ASSERT_TRUE(WriteChunk(values, options, &chunk).ok());
    const bool memo_ran = memo.chooser_runs() + memo.reused_chunks() != memo_before;
    const bool table_only = writer->table_only_codes(kWhole) != table_only_before;
    EXPECT_FALSE(memo_ran && table_only) << c;
    if (table_only_before > 0 && memo_ran) memo_trials_while_skipping++;
    chunks.push_back(chunk);
    written.push_back(values);
  }
  EXPECT_GT(writer->table_only_codes(kWhole), 150u);
  EXPECT_GT(memo_trials_while_skipping, 0u) << "the memo was never tried again";
  testing_util::ExpectChunksReadBack(chunks, written, *writer);
}

}  // namespace
}  // namespace columnar
