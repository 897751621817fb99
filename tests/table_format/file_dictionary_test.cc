// File dictionaries (table_format/file_dictionary.h): admission only of recurring values,
// round trips through chunks and the dictionary block, selective materialisation, and
// damaged bodies.
#include "table_format/file_dictionary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/varint.h"

namespace columnar {
namespace {

ColumnVector Strings(const std::vector<std::string>& values) {
  ColumnVector out(PhysicalType::kBytes);
  for (const std::string& v : values) out.AppendBytes(v);
  return out;
}

// A one-off id of letters only: no parameter a template could split off.
std::string LetterId(std::mt19937_64& rng) {
  std::string id = "req-";
  for (int k = 0; k < 12; k++) id.push_back(static_cast<char>('g' + rng() % 20));
  return id;
}

// Recurring values (a few paths, one with a NUL byte) and, now and then, a one-off id.
std::vector<std::string> ChunkValues(std::mt19937_64& rng, size_t n) {
  static const char* const kPaths[] = {"/api/v1/users", "/api/v1/orders/search", "/static/app.js",
                                       "/healthz"};
  std::vector<std::string> values;
  for (size_t i = 0; i < n; i++) {
    if (rng() % 5 == 0) {
      values.push_back(LetterId(rng));
    } else if (rng() % 7 == 0) {
      values.push_back(std::string("nul\0inside", 10));
    } else {
      values.push_back(kPaths[rng() % 4]);
    }
  }
  return values;
}

struct WrittenFile {
  std::vector<std::string> chunks;  // one encoded chunk each
  std::vector<ColumnVector> values;
  std::string dictionary_block;
};

WrittenFile WriteFile(size_t chunk_count, bool with_nulls, uint64_t seed) {
  std::mt19937_64 rng(seed);
  FileDictionaryWriters writers;
  WrittenFile file;
  for (size_t c = 0; c < chunk_count; c++) {
    ColumnVector values(PhysicalType::kBytes);
    for (const std::string& v : ChunkValues(rng, 128)) {
      if (with_nulls && rng() % 4 == 0) {
        values.AppendNull();
      } else {
        values.AppendBytes(v);
      }
    }
    ChunkWriteOptions options;
    options.file_dictionary = writers.For("path");
    std::string chunk;
    EXPECT_TRUE(WriteChunk(values, options, &chunk).ok());
    file.chunks.push_back(std::move(chunk));
    file.values.push_back(std::move(values));
  }
  EXPECT_TRUE(writers.Finish(ChunkWriteOptions(), &file.dictionary_block).ok());
  return file;
}

Encoding EncodingOf(const std::string& chunk) {
  ChunkHeader header;
  EXPECT_TRUE(ParseChunkHeader(chunk, &header).ok());
  return header.encoding;
}

// The seen filter: never a false "not seen", and at its full load of 8 bits a value about 2-3%
// false "seen" (the admission of a one-off value it costs is cheap, but not free).
TEST(SeenFilterTest, HoldsEveryValueAddedAndFewOthers) {
  constexpr size_t kValues = 1 << 16;
  SeenFilter filter(kValues, /*bits_per_value=*/8);
  std::mt19937_64 rng(11);
  std::vector<uint64_t> added(kValues);
  for (uint64_t& hash : added) {
    hash = rng();
    filter.Add(hash);
  }
  for (uint64_t hash : added) ASSERT_TRUE(filter.Contains(hash)) << hash;
  size_t false_seen = 0;
  constexpr size_t kOthers = 100000;
  for (size_t i = 0; i < kOthers; i++) false_seen += filter.Contains(rng()) ? 1 : 0;
  EXPECT_LT(false_seen, kOthers * 4 / 100);
  EXPECT_GT(false_seen, 0u);  // the filter is a filter, not a set
  SeenFilter empty(kValues, 8);
  EXPECT_FALSE(empty.Contains(added[0]));
}

// The index finds entries by their bytes where they lie (short strings inside a deque's
// elements, long ones in their own buffers) through its growth, and tells apart entries and
// values whose hashes collide.
TEST(FileDictionaryIndexTest, FindsEveryEntryByItsBytesAcrossGrowthAndCollisions) {
  std::deque<std::string> entries;
  FileDictionaryIndex index;
  // Entries come in pairs that share a hash.
  auto hash_of = [](size_t i) { return 0x9e3779b97f4a7c15ull * ((i / 2) + 1); };
  constexpr size_t kEntries = 5000;
  for (size_t i = 0; i < kEntries; i++) {
    entries.push_back(i % 3 == 0 ? "short " + std::to_string(i)
                                 : std::string(40, 'x') + " long entry " + std::to_string(i));
    index.Insert(hash_of(i), static_cast<uint32_t>(i + 1), entries.back());
  }
  for (size_t i = 0; i < kEntries; i++) {
    ASSERT_EQ(index.Find(hash_of(i), entries[i]), i + 1) << i;
    // Another value with the same hash, and the same value with another hash: absent.
    ASSERT_EQ(index.Find(hash_of(i), entries[i] + "?"), 0u) << i;
    ASSERT_EQ(index.Find(hash_of(i) + 1, entries[i]), 0u) << i;
  }
  index.Clear();
  EXPECT_EQ(index.Find(hash_of(0), entries[0]), 0u);
  FileDictionaryIndex empty;
  EXPECT_EQ(empty.Find(hash_of(0), entries[0]), 0u);
}

TEST(FileDictionaryTest, AdmitsOnlyValuesSeenInAnEarlierChunk) {
  FileDictionaryWriter writer;
  const ColumnVector first = Strings({"a-long-recurring-value", "a-long-recurring-value", "x"});
  std::string body;
  EXPECT_FALSE(writer.TryEncode(first, 1000, &body)) << "nothing was seen before";
  EXPECT_TRUE(body.empty());
  EXPECT_EQ(writer.entry_count(), 0u);

  const ColumnVector second = Strings({"a-long-recurring-value", "never-seen-before"});
  EXPECT_TRUE(writer.TryEncode(second, 1000, &body));
  ASSERT_EQ(writer.entry_count(), 1u);
  EXPECT_EQ(writer.Entries().GetBytes(0), Slice("a-long-recurring-value"));

  ColumnVector decoded(PhysicalType::kBytes);
  ASSERT_TRUE(DecodeFileDictionaryBody(body, second.size(), writer.Entries(), &decoded).ok());
  ASSERT_EQ(decoded.size(), 2u);
  EXPECT_EQ(decoded.GetBytes(0), Slice("a-long-recurring-value"));
  EXPECT_EQ(decoded.GetBytes(1), Slice("never-seen-before"));  // an exception
}

TEST(FileDictionaryTest, ExceptionsOfATrialWithCodesAreRememberedAsSeen) {
  // Remember skips the values that got a code (entries are in the seen filter already): the
  // exceptions among them must still be remembered, so that their next sighting admits them.
  FileDictionaryWriter writer;
  std::string body;
  EXPECT_FALSE(writer.TryEncode(Strings({"a-long-recurring-value"}), 1000, &body));
  const ColumnVector second = Strings({"a-long-recurring-value", "first-seen-here-0",
                                       "a-long-recurring-value", "first-seen-here-1"});
  EXPECT_TRUE(writer.TryEncode(second, 1000, &body));
  ASSERT_EQ(writer.entry_count(), 1u);
  for (const char* value : {"first-seen-here-0", "first-seen-here-1"}) {
    EXPECT_TRUE(writer.Recurs(value)) << value;
  }
  EXPECT_TRUE(writer.TryEncode(Strings({"first-seen-here-1", "first-seen-here-0"}), 1000, &body));
  EXPECT_EQ(writer.entry_count(), 3u);
}

TEST(FileDictionaryTest, RunsOfAValueTakeTheCodeOfTheirFirstRow) {
  // Trial codes a row equal to the previous one without a lookup: a run of an entry, of a
  // value its first row admits, and of an exception.
  FileDictionaryWriter writer;
  std::string body;
  EXPECT_FALSE(
      writer.TryEncode(Strings({"entry-value-0123456789", "admitted-value-abcdef"}), 1000, &body));
  EXPECT_TRUE(writer.TryEncode(Strings({"entry-value-0123456789"}), 1000, &body));
  ASSERT_EQ(writer.entry_count(), 1u);
  body.clear();
  const ColumnVector values = Strings(
      {"entry-value-0123456789", "entry-value-0123456789", "admitted-value-abcdef",
       "admitted-value-abcdef", "admitted-value-abcdef", "exception-value-xyz",
       "exception-value-xyz", "entry-value-0123456789", "other-exception", "other-exception"});
  ASSERT_TRUE(writer.TryEncode(values, 1000, &body));
  EXPECT_EQ(writer.entry_count(), 2u) << "a run admits its value once";
  ColumnVector decoded(PhysicalType::kBytes);
  ASSERT_TRUE(DecodeFileDictionaryBody(body, values.size(), writer.Entries(), &decoded).ok());
  ASSERT_EQ(decoded.size(), values.size());
  for (size_t i = 0; i < values.size(); i++)
    EXPECT_EQ(decoded.GetBytes(i), values.GetBytes(i)) << i;
  // The run's rows were remembered (their hashes are the first row's).
  EXPECT_TRUE(writer.Recurs("other-exception"));
}

// Trial records whether each value Recurs (an entry, or seen before), so that the mixed form
// need not look each value up again: over chunks of entries, values seen once, values admitted
// by the trial itself, one-off values, runs, and values past the dictionary's limits (seen, but
// no room left), every recorded answer must be Recurs' answer before the trial is committed.
TEST(FileDictionaryTest, TrialRecordsWhetherEachValueRecurs) {
  std::mt19937_64 rng(11);
  FileDictionaryLimits limits;
  limits.max_entries = 24;  // reached within the first chunks: seen values without room
  FileDictionaryWriter writer(limits);
  size_t recurring_answers = 0;
  size_t one_off_answers = 0;
  for (int c = 0; c < 40; c++) {
    ColumnVector values(PhysicalType::kBytes);
    for (int i = 0; i < 96; i++) {
      const uint64_t pick = rng() % 10;
      std::string value =
          pick < 6 ? "recurring-value-" + std::to_string(rng() % 60) : LetterId(rng);
      const int run = rng() % 4 == 0 ? 3 : 1;
      for (int r = 0; r < run; r++) values.AppendBytes(value);
    }
    FileDictionaryTrial trial;
    writer.Trial(values, &trial);
    ASSERT_EQ(trial.recurs.size(), values.size()) << c;
    for (size_t i = 0; i < values.size(); i++) {
      const bool recurs = writer.Recurs(values.GetBytes(i));
      ASSERT_EQ(trial.recurs[i] != 0, recurs) << "chunk " << c << " row " << i;
      (recurs ? recurring_answers : one_off_answers)++;
    }
    if (trial.usable && c % 3 != 2) writer.Commit(&trial);
    writer.Remember(trial);
  }
  EXPECT_EQ(writer.entry_count(), limits.max_entries);
  EXPECT_GT(recurring_answers, 1000u);
  EXPECT_GT(one_off_answers, 1000u);
  // A value seen only now: HashValues leaves no answers, Recurs must be asked.
  FileDictionaryTrial hashed;
  writer.HashValues(Strings({"recurring-value-1"}), &hashed);
  EXPECT_TRUE(hashed.recurs.empty());
}

TEST(FileDictionaryTest, KeepsTheLocalEncodingWhenItIsSmaller) {
  FileDictionaryWriter writer;
  std::string body;
  const ColumnVector values = Strings({"aa", "bb"});
  EXPECT_FALSE(writer.TryEncode(values, 1000, &body));
  EXPECT_FALSE(writer.TryEncode(values, 1, &body)) << "a 1-byte local encoding cannot be beaten";
  EXPECT_EQ(writer.entry_count(), 0u) << "values of an unused encoding are not admitted";
}

class FileDictionaryRoundTripTest : public ::testing::TestWithParam<bool> {};

TEST_P(FileDictionaryRoundTripTest, ChunksReadBackThroughTheDictionaryBlock) {
  const bool with_nulls = GetParam();
  const WrittenFile file = WriteFile(12, with_nulls, 7);
  FileDictionarySet dictionaries;
  ASSERT_TRUE(FileDictionarySet::Decode(file.dictionary_block, &dictionaries).ok());
  const ColumnVector* entries = dictionaries.Find("path");
  ASSERT_NE(entries, nullptr);
  EXPECT_EQ(dictionaries.Find("other"), nullptr);

  size_t shared = 0;
  for (size_t c = 0; c < file.chunks.size(); c++) {
    SCOPED_TRACE("chunk " + std::to_string(c));
    shared += EncodingOf(file.chunks[c]) == Encoding::kFileDictionary ? 1 : 0;
    Slice in(file.chunks[c]);
    ChunkReadOptions options;
    options.file_dictionary = entries;
    ColumnVector decoded;
    ASSERT_TRUE(ReadChunk(&in, PhysicalType::kBytes, &decoded, options).ok());
    EXPECT_TRUE(in.empty());
    const ColumnVector& expected = file.values[c];
    ASSERT_EQ(decoded.size(), expected.size());
    for (size_t i = 0; i < expected.size(); i++) {
      ASSERT_EQ(decoded.IsNull(i), expected.IsNull(i)) << i;
      if (!expected.IsNull(i)) {
        ASSERT_EQ(decoded.GetBytes(i), expected.GetBytes(i)) << i;
      }
    }
  }
  EXPECT_NE(EncodingOf(file.chunks[0]), Encoding::kFileDictionary) << "nothing seen yet";
  EXPECT_GE(shared, file.chunks.size() / 2) << "recurring paths should use the dictionary";
}

TEST_P(FileDictionaryRoundTripTest, WantedRowsAreExactAndNullsStayNulls) {
  const bool with_nulls = GetParam();
  const WrittenFile file = WriteFile(6, with_nulls, 11);
  FileDictionarySet dictionaries;
  ASSERT_TRUE(FileDictionarySet::Decode(file.dictionary_block, &dictionaries).ok());
  std::mt19937_64 rng(3);
  for (size_t c = 1; c < file.chunks.size(); c++) {
    ASSERT_EQ(EncodingOf(file.chunks[c]), Encoding::kFileDictionary) << c;
    std::vector<uint64_t> wanted(2, 0);
    for (int i = 0; i < 128; i++) {
      if (rng() % 3 == 0) wanted[i / 64] |= uint64_t{1} << (i % 64);
    }
    Slice in(file.chunks[c]);
    ChunkReadOptions options;
    options.file_dictionary = dictionaries.Find("path");
    options.wanted_rows = wanted.data();
    ColumnVector decoded;
    ASSERT_TRUE(ReadChunk(&in, PhysicalType::kBytes, &decoded, options).ok());
    const ColumnVector& expected = file.values[c];
    ASSERT_EQ(decoded.size(), expected.size());
    size_t left_empty = 0;
    for (size_t i = 0; i < expected.size(); i++) {
      ASSERT_EQ(decoded.IsNull(i), expected.IsNull(i)) << i;
      if (expected.IsNull(i)) continue;
      if ((wanted[i / 64] >> (i % 64)) & 1) {
        ASSERT_EQ(decoded.GetBytes(i), expected.GetBytes(i)) << i;
      } else {
        left_empty += decoded.GetBytes(i).empty() ? 1 : 0;
      }
    }
    EXPECT_GT(left_empty, 0u) << "rows nobody reads are not copied";
  }
}

INSTANTIATE_TEST_SUITE_P(Nulls, FileDictionaryRoundTripTest, ::testing::Bool());

TEST(FileDictionaryTest, DamagedBodiesAreCorruption) {
  FileDictionaryWriter writer;
  std::string body;
  const ColumnVector values = Strings({"recurring-value-0123456789", "recurring-value-0123456789"});
  ASSERT_FALSE(writer.TryEncode(values, 1000, &body));
  ASSERT_TRUE(writer.TryEncode(values, 1000, &body));
  const ColumnVector entries = writer.Entries();
  ColumnVector out(PhysicalType::kBytes);
  ASSERT_TRUE(DecodeFileDictionaryBody(body, 2, entries, &out).ok());

  for (size_t cut = 0; cut < body.size(); cut++) {
    ColumnVector truncated(PhysicalType::kBytes);
    EXPECT_FALSE(DecodeFileDictionaryBody(Slice(body.data(), cut), 2, entries, &truncated).ok())
        << "cut at " << cut;
  }
  // Codes that point past the dictionary.
  const ColumnVector empty_entries(PhysicalType::kBytes);
  EXPECT_TRUE(DecodeFileDictionaryBody(body, 2, empty_entries, &out).IsCorruption());
  // Every single-byte change decodes to an error or to two values, never past the input.
  for (size_t i = 0; i < body.size(); i++) {
    for (int bit = 0; bit < 8; bit++) {
      std::string damaged = body;
      damaged[i] = static_cast<char>(damaged[i] ^ (1 << bit));
      ColumnVector decoded(PhysicalType::kBytes);
      if (DecodeFileDictionaryBody(damaged, 2, entries, &decoded).ok()) {
        EXPECT_EQ(decoded.size(), 2u);
      }
    }
  }
}

TEST(FileDictionaryTest, ChunkWithoutTheFileDictionaryIsCorruption) {
  const WrittenFile file = WriteFile(3, false, 5);
  ASSERT_EQ(EncodingOf(file.chunks[2]), Encoding::kFileDictionary);
  Slice in(file.chunks[2]);
  ColumnVector decoded;
  const Status s = ReadChunk(&in, PhysicalType::kBytes, &decoded, ChunkReadOptions());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

// Paths with numeric ids never recur whole, but their templates do: from the second chunk on
// the chunk is a template body whose templates are codes into the file dictionary, and it is
// much smaller than the whole values as exceptions.
// Chunks of one column written through one file's dictionary, and that file's dictionaries as
// a reader decodes them from its dictionary block.
struct DictionaryCodedChunks {
  std::vector<std::string> chunks;
  FileDictionarySet dictionaries;
  const ColumnVector* entries = nullptr;  // the column's, in `dictionaries`
};

// Writes `values` (a chunk each, in order) as column `column` of one file.
void WriteThroughFileDictionary(const std::vector<ColumnVector>& values, const std::string& column,
                                DictionaryCodedChunks* out) {
  FileDictionaryWriters writers;
  for (const ColumnVector& chunk_values : values) {
    ChunkWriteOptions options;
    options.file_dictionary = writers.For(column);
    std::string chunk;
    ASSERT_TRUE(WriteChunk(chunk_values, options, &chunk).ok());
    out->chunks.push_back(std::move(chunk));
  }
  std::string block;
  ASSERT_TRUE(writers.Finish(ChunkWriteOptions(), &block).ok());
  ASSERT_TRUE(FileDictionarySet::Decode(block, &out->dictionaries).ok());
  out->entries = out->dictionaries.Find(column);
  ASSERT_NE(out->entries, nullptr);
}

TEST(FileDictionaryTest, ParameterisedValuesShareTheirTemplatesThroughTheDictionary) {
  static const char* const kRoutes[] = {"/api/v1/users/", "/api/v1/orders/", "/api/v2/items/"};
  std::mt19937_64 rng(17);
  std::vector<ColumnVector> values;
  for (int c = 0; c < 4; c++) {
    ColumnVector chunk_values(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) {
      if (i % 9 == 0) {
        chunk_values.AppendNull();
      } else {
        chunk_values.AppendBytes(std::string(kRoutes[rng() % 3]) +
                                 std::to_string(1 + rng() % 999999) + "/items");
      }
    }
    values.push_back(std::move(chunk_values));
  }
  DictionaryCodedChunks file;
  ASSERT_NO_FATAL_FAILURE(WriteThroughFileDictionary(values, "path", &file));
  EXPECT_EQ(file.entries->size(), 3u) << "the three templates, nothing else";
  for (size_t c = 0; c < file.chunks.size(); c++) {
    SCOPED_TRACE("chunk " + std::to_string(c));
    if (c > 0) {
      EXPECT_EQ(EncodingOf(file.chunks[c]), Encoding::kTemplate);
      // ~114 ids of 20 bits and 2-bit template codes: about 320 bytes (plain: ~2,800).
      EXPECT_LT(file.chunks[c].size(), 400u);
    }
    Slice in(file.chunks[c]);
    ChunkReadOptions options;
    options.file_dictionary = file.entries;
    ColumnVector decoded;
    ASSERT_TRUE(ReadChunk(&in, PhysicalType::kBytes, &decoded, options).ok());
    EXPECT_TRUE(in.empty());
    ASSERT_EQ(decoded.size(), values[c].size());
    for (size_t i = 0; i < decoded.size(); i++) {
      ASSERT_EQ(decoded.IsNull(i), values[c].IsNull(i)) << i;
      if (!decoded.IsNull(i)) {
        ASSERT_EQ(decoded.GetBytes(i), values[c].GetBytes(i)) << i;
      }
    }
    if (c > 0) {
      // Without the dictionary its templates cannot be read.
      Slice again(file.chunks[c]);
      EXPECT_TRUE(
          ReadChunk(&again, PhysicalType::kBytes, &decoded, ChunkReadOptions()).IsCorruption());
    }
  }
}

// Template chunks whose templates are file-dictionary codes: rows of one route share an entry
// (often in runs), one-off templates are the codes' exceptions, and wanted rows are exact
// whichever way their template was found (DecodeTemplateBody tells coded templates apart by
// code, exceptions by text).
TEST(FileDictionaryTest, TemplatesCodedThroughTheDictionaryReadBackWithExceptionsAndRuns) {
  static const char* const kRoutes[] = {"/api/v1/users/", "/api/v1/orders/", "/api/v2/items/",
                                        "/cart/"};
  std::mt19937_64 rng(41);
  std::vector<ColumnVector> values;
  for (int c = 0; c < 16; c++) {
    ColumnVector chunk_values(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) {
      if (i > 0 && rng() % 4 == 0) {
        chunk_values.AppendBytes(chunk_values.GetBytes(i - 1).ToString());  // a run
      } else if (rng() % 6 == 0) {
        // A template of its own (letters never split off), seen once in the file.
        chunk_values.AppendBytes("/tmp/" + LetterId(rng) + "/" + std::to_string(rng() % 1000));
      } else {
        chunk_values.AppendBytes(std::string(kRoutes[rng() % 4]) +
                                 std::to_string(1 + rng() % 999999));
      }
    }
    values.push_back(std::move(chunk_values));
  }
  DictionaryCodedChunks file;
  ASSERT_NO_FATAL_FAILURE(WriteThroughFileDictionary(values, "path", &file));
  size_t coded_chunks = 0;
  size_t exceptions = 0;
  size_t code_runs = 0;
  for (size_t c = 0; c < file.chunks.size(); c++) {
    SCOPED_TRACE("chunk " + std::to_string(c));
    ChunkHeader header;
    ASSERT_TRUE(ParseChunkHeader(file.chunks[c], &header).ok());
    if (header.encoding == Encoding::kTemplate && !header.compressed) {
      // The body (no nulls): u8 template encoding, then the length-prefixed templates.
      Slice body(file.chunks[c].data() + header.header_size, header.stored_length);
      const auto template_encoding = static_cast<Encoding>(body[0]);
      body.remove_prefix(1);
      Slice templates;
      ASSERT_TRUE(GetLengthPrefixed(&body, &templates));
      if (template_encoding == Encoding::kFileDictionary) {
        coded_chunks++;
        FileDictionaryCodes codes;
        ASSERT_TRUE(DecodeFileDictionaryCodes(templates, 128, *file.entries, &codes).ok());
        const int32_t* code = codes.codes.data<int32_t>();
        for (size_t i = 0; i < 128; i++) {
          exceptions += code[i] == 0 ? 1 : 0;
          code_runs += i > 0 && code[i] != 0 && code[i] == code[i - 1] ? 1 : 0;
        }
        EXPECT_EQ(codes.exceptions.size(), static_cast<size_t>(std::count(code, code + 128, 0)));
      }
    }
    for (int pass = 0; pass < 4; pass++) {
      std::vector<uint64_t> wanted(2, 0);
      for (int i = 0; i < 128; i++) {
        if (pass == 0 || rng() % 3 == 0) wanted[i / 64] |= uint64_t{1} << (i % 64);
      }
      Slice in(file.chunks[c]);
      ChunkReadOptions options;
      options.file_dictionary = file.entries;
      options.wanted_rows = wanted.data();
      ColumnVector decoded;
      ASSERT_TRUE(ReadChunk(&in, PhysicalType::kBytes, &decoded, options).ok());
      ASSERT_EQ(decoded.size(), values[c].size());
      for (size_t i = 0; i < decoded.size(); i++) {
        if ((wanted[i / 64] >> (i % 64)) & 1) {
          ASSERT_EQ(decoded.GetBytes(i), values[c].GetBytes(i)) << i << " pass " << pass;
        }
      }
    }
  }
  EXPECT_GE(coded_chunks, 8u) << "the routes' templates are entries after the first chunks";
  EXPECT_GT(exceptions, 0u) << "one-off templates stay exceptions";
  EXPECT_GT(code_runs, 0u);
}

// Paths with ids next to fingerprinted asset paths that recur whole: splitting an asset path
// gives a 32-bit hex parameter that is the same on every row of that asset. Once the asset
// paths recur, they are kept whole (templates without parameters) while the paths with ids
// stay split; the chunks then cost about what the ids alone cost.
TEST(FileDictionaryTest, RecurringValuesAreKeptWholeAmongTemplates) {
  static const char* const kAssets[] = {"/static/js/app.3f2a9c1b.js",
                                        "/static/css/site.9e8d7c6b.css",
                                        "/static/js/vendor.0a1b2c3d.js"};
  std::mt19937_64 rng(29);
  std::vector<ColumnVector> values;
  for (int c = 0; c < 8; c++) {
    ColumnVector chunk_values(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) {
      if (i % 2 == 0) {
        chunk_values.AppendBytes(kAssets[rng() % 3]);
      } else {
        chunk_values.AppendBytes("/api/v1/users/" + std::to_string(1 + rng() % 999999));
      }
    }
    values.push_back(std::move(chunk_values));
  }
  DictionaryCodedChunks file;
  ASSERT_NO_FATAL_FAILURE(WriteThroughFileDictionary(values, "path", &file));
  bool asset_whole = false;
  for (size_t i = 0; i < file.entries->size(); i++) {
    asset_whole |= file.entries->GetBytes(i) == Slice(kAssets[0]);
  }
  EXPECT_TRUE(asset_whole) << "the asset paths are entries, whole";
  for (size_t c = 0; c < file.chunks.size(); c++) {
    SCOPED_TRACE("chunk " + std::to_string(c));
    if (c >= 2) {
      EXPECT_EQ(EncodingOf(file.chunks[c]), Encoding::kTemplate);
      // 64 ids of 20 bits (160 bytes) and 2-bit codes: about 200 bytes. Split, the assets'
      // hex parameters would add 64 x 32 bits and widen the ids' stream: over 400.
      EXPECT_LT(file.chunks[c].size(), 260u);
    }
    Slice in(file.chunks[c]);
    ChunkReadOptions options;
    options.file_dictionary = file.entries;
    ColumnVector decoded;
    ASSERT_TRUE(ReadChunk(&in, PhysicalType::kBytes, &decoded, options).ok());
    ASSERT_TRUE(decoded.Equals(values[c]));
  }
}

// Long recurring strings that share one template (user agents): the first chunk that can use
// the dictionary is cheaper as templates (one short entry to admit) than as whole values
// (forty long ones), but every later chunk is far smaller as whole-value codes. The whole
// values must get admitted anyway, or each later chunk is charged for admitting them again
// and the templates win for the rest of the file.
TEST(FileDictionaryTest, WholeValuesWinOnceAdmittedAfterTemplatesWonFirst) {
  const std::string kText =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Safari/";
  std::vector<std::string> agents;
  for (int a = 0; a < 40; a++) {
    agents.push_back(kText + std::to_string(100 + a * 37) + "." + std::to_string(a * 7919 % 997));
  }
  std::mt19937_64 rng(23);
  std::vector<ColumnVector> values;
  for (int c = 0; c < 12; c++) {
    ColumnVector chunk_values(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) chunk_values.AppendBytes(agents[rng() % agents.size()]);
    values.push_back(std::move(chunk_values));
  }
  DictionaryCodedChunks file;
  ASSERT_NO_FATAL_FAILURE(WriteThroughFileDictionary(values, "user_agent", &file));
  EXPECT_EQ(EncodingOf(file.chunks[1]), Encoding::kTemplate) << "the case this test is about";
  for (size_t c = 0; c < file.chunks.size(); c++) {
    SCOPED_TRACE("chunk " + std::to_string(c));
    if (c >= 3) {
      EXPECT_EQ(EncodingOf(file.chunks[c]), Encoding::kFileDictionary);
      // 128 codes of about 5.3 bits (40 entries): about 90 bytes; as templates, two parameter
      // streams of 40 distinct values each cost more than twice that.
      EXPECT_LT(file.chunks[c].size(), 120u);
    }
    Slice in(file.chunks[c]);
    ChunkReadOptions options;
    options.file_dictionary = file.entries;
    ColumnVector decoded;
    ASSERT_TRUE(ReadChunk(&in, PhysicalType::kBytes, &decoded, options).ok());
    ASSERT_EQ(decoded.size(), values[c].size());
    for (size_t i = 0; i < decoded.size(); i++) {
      ASSERT_EQ(decoded.GetBytes(i), values[c].GetBytes(i)) << i;
    }
  }
}

TEST(FileDictionaryTest, DictionaryBlockRejectsDamage) {
  const WrittenFile file = WriteFile(4, false, 9);
  FileDictionarySet set;
  for (size_t cut = 0; cut < file.dictionary_block.size(); cut++) {
    EXPECT_FALSE(FileDictionarySet::Decode(Slice(file.dictionary_block.data(), cut), &set).ok())
        << "cut at " << cut;
  }
  const std::string trailing = file.dictionary_block + "x";
  EXPECT_TRUE(FileDictionarySet::Decode(trailing, &set).IsCorruption());
}

}  // namespace
}  // namespace columnar
