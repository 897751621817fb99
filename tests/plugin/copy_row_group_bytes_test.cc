// ColumnarTableReader::CopyRowGroupBytes, which a compaction's output builder calls to copy an
// input group's encoded bytes: a block the caller holds (the iterator's block, or the builder's
// one block pin, reused across the compaction's input files) is used only when it is this
// file's. Block ordinals repeat from file to file: block 0 of another file must never stand in
// for this file's block 0.
#include <gtest/gtest.h>
#include <rocksdb/options.h>

#include <cstdint>
#include <memory>
#include <string>

#include "plugin/cache_pin.h"
#include "plugin/columnar_table_reader.h"
#include "plugin/raw_table_entries.h"
#include "tests/plugin/sst_file_fixtures.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

const ColumnarTableReader* Open(const rocksdb::Options& options, const std::string& path,
                                TableFile* file) {
  EXPECT_TRUE(file->Open(options, path).ok());
  return dynamic_cast<const ColumnarTableReader*>(file->reader());
}

TEST(CopyRowGroupBytesTest, ABlockOfAnotherFileIsNeverCopiedFrom) {
  TempDir dir("copy-row-group-bytes");
  const rocksdb::Options options = ColumnarFileOptions(/*compressed=*/false);
  const std::string path_a = dir.Sub("a.sst");
  const std::string path_b = dir.Sub("b.sst");
  WriteFixture(options, path_a, MakeFixtureContents(0, 400));
  WriteFixture(options, path_b, MakeFixtureContents(1000, 400));
  TableFile file_a, file_b;
  const ColumnarTableReader* a = Open(options, path_a, &file_a);
  const ColumnarTableReader* b = Open(options, path_b, &file_b);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  const rocksdb::ReadOptions read_options;

  // Each file's group 0 (in its block 0), read through a pin of its own.
  CachePin<RawBlock> pin_a, pin_b;
  std::string group_a, group_b;
  ASSERT_TRUE(a->CopyRowGroupBytes(0, nullptr, read_options, &pin_a, &group_a).ok());
  ASSERT_TRUE(b->CopyRowGroupBytes(0, nullptr, read_options, &pin_b, &group_b).ok());
  ASSERT_NE(group_a, group_b);

  // One pin for both files, holding a's block 0 when b's group 0 is copied: b reads its own.
  CachePin<RawBlock> shared;
  std::string copied;
  ASSERT_TRUE(a->CopyRowGroupBytes(0, nullptr, read_options, &shared, &copied).ok());
  copied.clear();
  ASSERT_TRUE(b->CopyRowGroupBytes(0, nullptr, read_options, &shared, &copied).ok());
  EXPECT_EQ(copied, group_b);

  // A held block of a's (as an iterator of the other file would hand over) is not used either.
  copied.clear();
  ASSERT_TRUE(b->CopyRowGroupBytes(0, pin_a.get(), read_options, &shared, &copied).ok());
  EXPECT_EQ(copied, group_b);
}

// EncodedGroupBytes, which lets a compaction's builder pass over groups too small to copy
// before it compares any key: the size CopyRowGroupBytes copies, or unknown.
TEST(CopyRowGroupBytesTest, EncodedGroupBytesAreTheBytesCopied) {
  TempDir dir("encoded-group-bytes");
  const rocksdb::Options options = ColumnarFileOptions(/*compressed=*/true);
  const std::string path = dir.Sub("a.sst");
  WriteFixture(options, path, MakeFixtureContents(0, 2000));
  TableFile file;
  const ColumnarTableReader* reader = Open(options, path, &file);
  ASSERT_NE(reader, nullptr);
  const size_t groups = reader->index().num_row_groups();
  ASSERT_GT(reader->index().num_blocks(), 2u);
  size_t known_from_the_index = 0;
  for (size_t group = 0; group < groups; group++) {
    CachePin<RawBlock> block;
    std::string copied;
    ASSERT_TRUE(
        reader->CopyRowGroupBytes(group, nullptr, rocksdb::ReadOptions(), &block, &copied).ok());
    EXPECT_EQ(reader->EncodedGroupBytes(group, block.get()), copied.size()) << group;
    const size_t from_index = reader->EncodedGroupBytes(group, nullptr);
    const bool ends_its_block = group + 1 == groups || reader->index().block_of(group + 1) !=
                                                           reader->index().block_of(group);
    EXPECT_EQ(from_index, ends_its_block ? SIZE_MAX : copied.size()) << group;
    if (from_index != SIZE_MAX) known_from_the_index++;
  }
  EXPECT_GT(known_from_the_index, groups / 2);
  EXPECT_EQ(reader->EncodedGroupBytes(groups, nullptr), SIZE_MAX);
}

}  // namespace
}  // namespace columnar
