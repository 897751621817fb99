// ValueRuns (table_format/value_runs.h), and the file dictionary's template forms worked out
// per run for chunks of few runs (chunk.cc): the same bytes as per row.
#include "table_format/value_runs.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/encoding_memo.h"
#include "table_format/file_dictionary.h"

namespace columnar {
namespace {

ColumnVector StringColumn(const std::vector<std::string>& values) {
  ColumnVector column(PhysicalType::kBytes);
  for (const std::string& v : values) column.AppendBytes(v);
  return column;
}

TEST(ValueRunsTest, RunsTheirHeadsAndStarts) {
  const ColumnVector values =
      StringColumn({"a", "a", "b", "", "", "b", "b", std::string("b\0", 2), "a"});
  const ValueRuns runs(values, 9);
  ASSERT_TRUE(runs.few());
  EXPECT_EQ(runs.starts(), (std::vector<uint32_t>{0, 2, 3, 5, 7, 8}));
  ASSERT_EQ(runs.heads().size(), 6u);
  const std::vector<std::string> heads = {"a", "b", "", "b", std::string("b\0", 2), "a"};
  for (size_t k = 0; k < heads.size(); k++)
    EXPECT_EQ(runs.heads().GetBytes(k).ToString(), heads[k]);
  EXPECT_EQ(runs.SpreadOverRows({true, false, true, false, false, true}),
            (std::vector<bool>{true, true, false, true, true, false, false, false, true}));
  // Six runs: a limit of six keeps them, five gives up.
  EXPECT_TRUE(ValueRuns(values, 6).few());
  const ValueRuns too_many(values, 5);
  EXPECT_FALSE(too_many.few());
  EXPECT_TRUE(too_many.starts().empty());
  EXPECT_EQ(too_many.heads().size(), 0u);
  // A single run; an empty column has none.
  const ValueRuns one(StringColumn({"x", "x", "x"}), 1);
  ASSERT_TRUE(one.few());
  EXPECT_EQ(one.starts(), std::vector<uint32_t>{0});
  EXPECT_EQ(one.SpreadOverRows({true}), (std::vector<bool>{true, true, true}));
  EXPECT_TRUE(ValueRuns(ColumnVector(PhysicalType::kBytes), 0).few());
}

// 64-bit FNV-1a, for a fixed expected digest of many chunks.
uint64_t Fnv1a(const std::string& bytes) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// A word of letters only, different for every k ("ba", "ca", ..., "bab", ...).
std::string Word(uint64_t k) {
  std::string word;
  do {
    word.push_back(static_cast<char>('a' + k % 26));
    k /= 26;
  } while (k > 0);
  return word + "a";
}

// Chunks of a tag-like column through one file dictionary, as a compaction writes them: most
// chunks are one run or a few (one value per host; a host boundary inside a chunk), some are
// many short runs, values with digits (template parameters) and values that recur whole.
// The first part ends most chunks with a short run of a value of a new template (a word and a
// number); the second part holds values of those templates with new numbers, which only the
// template forms can code, once the templates were remembered as seen.
std::vector<ColumnVector> TagChunks() {
  std::mt19937_64 rng(20261203);  // the engine's output is specified by the standard
  const std::vector<std::string> tags = {
      "eu-central-1b", "us-west-1a", "ap-northeast-1c", "Ubuntu16.04LTS", "Ubuntu15.10",
      "rack_12",       "x64",        "production",      "service_7",      "version 0.13.2"};
  std::vector<ColumnVector> chunks;
  for (int c = 0; c < 500; c++) {
    ColumnVector chunk(PhysicalType::kBytes);
    const uint64_t kind = rng() % 8;
    std::string value = tags[rng() % tags.size()];
    for (int i = 0; i < 128; i++) {
      if (c >= 400) {
        // Runs of 32 rows, a template of the first part with a new number.
        if (i % 32 == 0) value = Word(rng() % 400) + "-" + std::to_string(rng() % 100000);
      } else if (kind == 0) {
        // Many short runs: per-row work (not few runs).
        if (i % 2 == 0) value = tags[rng() % tags.size()] + "-" + std::to_string(rng() % 50);
      } else if (kind <= 2 && rng() % 40 == 0) {
        // A few runs: host boundaries, and new values with digits.
        value = rng() % 3 == 0
                    ? "node-" + std::to_string(rng() % 1000) + ".dc" + std::to_string(rng() % 4)
                    : tags[rng() % tags.size()];
      } else if (i == 120) {
        value = Word(c) + "-" + std::to_string(rng() % 100000);
      }
      chunk.AppendBytes(value);
    }
    chunks.push_back(std::move(chunk));
  }
  return chunks;
}

TEST(ValueRunsTest, ChunksOfFewRunsWriteTheBytesTheyWrotePerRow) {
  FileDictionaryWriter dictionary;
  EncodingMemo memo;
  ChunkWriteOptions options;
  options.file_dictionary = &dictionary;
  options.memo = &memo;
  options.checksum = false;
  const std::vector<ColumnVector> chunks = TagChunks();
  std::string file;
  std::vector<size_t> offsets;
  size_t few = 0;
  for (const ColumnVector& chunk : chunks) {
    few += ValueRuns(chunk, chunk.size() / 2).few();
    offsets.push_back(file.size());
    ASSERT_TRUE(WriteChunk(chunk, options, &file).ok());
  }
  // The chunks exercise what the per-run path changes: template trials that run and that
  // are skipped, in both template forms.
  EXPECT_GT(few, 400u);
  const FileDictionaryForms& forms = dictionary.forms();
  EXPECT_GT(forms.tried(FileDictionaryForm::kTemplates), 5u);
  EXPECT_GT(forms.skipped(FileDictionaryForm::kTemplates), 5u);
  EXPECT_GT(forms.tried(FileDictionaryForm::kMixed), 5u);
  EXPECT_GT(forms.skipped(FileDictionaryForm::kMixed), 5u);
  // Digest of the bytes written when every chunk is worked out per row (checked by building
  // chunk.cc with ValueRuns limited to 0 runs). It moves with the encoding memo's policy: 31,941
  // before the templates' memo of access8, 34,444 before the memo's tolerance of a tenth and 16
  // reused chunks (these chunks switch kind at random, the worst case for a remembered choice),
  // 36,098 while chunks skipping the plain template form still remembered its templates,
  // 36,112 while a memo reused a short chunk's choice for long ones (the templates' parameter
  // streams differ in length from chunk to chunk).
  EXPECT_EQ(file.size(), 35527u);
  EXPECT_EQ(Fnv1a(file), 9660719068452027002ull);
  // And every chunk reads back.
  const ColumnVector entries = dictionary.Entries();
  ChunkReadOptions read;
  read.file_dictionary = &entries;
  Slice input(file);
  for (const ColumnVector& chunk : chunks) {
    ColumnVector back;
    ASSERT_TRUE(ReadChunk(&input, PhysicalType::kBytes, &back, read).ok());
    ASSERT_TRUE(back.Equals(chunk));
  }
  EXPECT_TRUE(input.empty());
}

}  // namespace
}  // namespace columnar
