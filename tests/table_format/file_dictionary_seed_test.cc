// Seeding a file's dictionaries with another file's (FileDictionaryWriter::Seed): chunks written
// against the first file's dictionary read back through the seeded one, whatever it admits
// later; the seeded entries serve new chunks at once; seeding only an empty writer, within its
// limits, and all columns or none.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/file_dictionary.h"
#include "tests/table_format/file_dictionary_test_util.h"

namespace columnar {
namespace {

ColumnVector Values(const std::string& prefix, int count, int distinct) {
  ColumnVector out(PhysicalType::kBytes);
  for (int i = 0; i < count; i++) {
    out.AppendBytes("/" + prefix + "/resource/" + std::to_string(i % distinct) + "/details");
  }
  return out;
}

std::vector<std::string> EntriesOf(const FileDictionaryWriter& writer) {
  const ColumnVector entries = writer.Entries();
  std::vector<std::string> out;
  for (size_t i = 0; i < entries.size(); i++) out.push_back(entries.GetBytes(i).ToString());
  return out;
}

// Writes `values` as one chunk through `writer` (as the layouts do).
std::string WriteThrough(FileDictionaryWriter* writer, const ColumnVector& values) {
  ChunkWriteOptions options;
  options.file_dictionary = writer;
  std::string chunk;
  EXPECT_TRUE(WriteChunk(values, options, &chunk).ok());
  return chunk;
}

TEST(FileDictionarySeedTest, ChunksOfTheSeedingFileReadBackThroughTheSeededDictionary) {
  FileDictionaryWriter source;
  std::vector<std::string> chunks;
  std::vector<ColumnVector> written;
  for (int c = 0; c < 4; c++) {
    written.push_back(Values("a", 64, 9));
    chunks.push_back(WriteThrough(&source, written.back()));
  }
  ASSERT_GT(source.entry_count(), 0u);  // the chunks use the dictionary

  FileDictionaryWriter seeded;
  ASSERT_TRUE(seeded.Seed(source.Entries()));
  EXPECT_EQ(EntriesOf(seeded), EntriesOf(source));
  EXPECT_EQ(seeded.entry_bytes(), source.entry_bytes());

  // The seeded entries code a new chunk at once (no earlier chunk of this file saw them).
  std::string body;
  EXPECT_TRUE(seeded.TryEncode(Values("a", 64, 9), 100000, &body));
  // Entries admitted later follow the seeded ones: the source's chunks still read back.
  for (int c = 0; c < 3; c++) {
    written.push_back(Values("b", 64, 7));
    chunks.push_back(WriteThrough(&seeded, written.back()));
  }
  EXPECT_GT(seeded.entry_count(), source.entry_count());
  testing_util::ExpectChunksReadBack(chunks, written, seeded);
}

TEST(FileDictionarySeedTest, OnlyAnEmptyWriterWithinItsLimitsIsSeeded) {
  FileDictionaryWriter source;
  for (int c = 0; c < 3; c++) WriteThrough(&source, Values("a", 64, 9));
  const ColumnVector entries = source.Entries();
  ASSERT_GT(entries.size(), 2u);

  FileDictionaryWriter used;
  for (int c = 0; c < 3; c++) WriteThrough(&used, Values("b", 64, 5));
  ASSERT_GT(used.entry_count(), 0u);
  const std::vector<std::string> before = EntriesOf(used);
  EXPECT_FALSE(used.Seed(entries));
  EXPECT_EQ(EntriesOf(used), before);

  FileDictionaryLimits few;
  few.max_entries = entries.size() - 1;
  FileDictionaryWriter small(few);
  EXPECT_FALSE(small.Seed(entries));
  EXPECT_EQ(small.entry_count(), 0u);
  FileDictionaryLimits short_bytes;
  short_bytes.max_bytes = source.entry_bytes() - 1;
  FileDictionaryWriter narrow(short_bytes);
  EXPECT_FALSE(narrow.Seed(entries));
  EXPECT_EQ(narrow.entry_count(), 0u);

  EXPECT_FALSE(used.Seed(ColumnVector(PhysicalType::kInt32)));
}

TEST(FileDictionarySeedTest, EveryColumnOfAFileIsSeededOrNone) {
  FileDictionaryWriters source;
  for (int c = 0; c < 3; c++) {
    WriteThrough(source.For("path"), Values("p", 64, 9));
    WriteThrough(source.For("agent"), Values("agent", 64, 4));
  }
  std::string raw;
  ChunkWriteOptions options;
  ASSERT_TRUE(source.Finish(options, &raw).ok());
  FileDictionarySet set;
  ASSERT_TRUE(FileDictionarySet::Decode(raw, &set).ok());
  ASSERT_EQ(set.columns().size(), 2u);

  FileDictionaryWriters seeded;
  ASSERT_TRUE(seeded.Seed(set));
  EXPECT_EQ(EntriesOf(*seeded.For("path")), EntriesOf(*source.For("path")));
  EXPECT_EQ(EntriesOf(*seeded.For("agent")), EntriesOf(*source.For("agent")));
  EXPECT_FALSE(seeded.Seed(set)) << "already holds entries";

  // A column over the limits: none is seeded.
  FileDictionaryLimits few;
  few.max_entries = source.For("agent")->entry_count() + 1;  // path has more entries
  ASSERT_GT(source.For("path")->entry_count(), few.max_entries);
  FileDictionaryWriters limited(few);
  EXPECT_FALSE(limited.Seed(set));
  EXPECT_TRUE(limited.empty());
}

}  // namespace
}  // namespace columnar
