// ColumnarTableReader::CopyRowGroupBytes, which a compaction's output builder calls to copy an
// input group's encoded bytes: a block the caller holds (the iterator's block, or the builder's
// one block pin, reused across the compaction's input files) is used only when it is this
// file's. Block ordinals repeat from file to file: block 0 of another file must never stand in
// for this file's block 0.
#include <gtest/gtest.h>
#include <rocksdb/options.h>

#include <memory>
#include <string>

#include "file/random_access_file_reader.h"
#include "options/cf_options.h"
#include "plugin/cache_pin.h"
#include "plugin/columnar_table_reader.h"
#include "table/table_builder.h"
#include "table/table_reader.h"
#include "tests/plugin/sst_file_fixtures.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

// Opens `path` with the options' table factory, as SstFileReader does.
std::unique_ptr<rocksdb::TableReader> OpenTableReader(const rocksdb::Options& options,
                                                      const std::string& path) {
  const rocksdb::ImmutableOptions ioptions(options);
  const rocksdb::MutableCFOptions moptions(options);
  const rocksdb::EnvOptions env_options;
  const rocksdb::FileOptions file_options(env_options);
  uint64_t file_size = 0;
  EXPECT_TRUE(ioptions.fs->GetFileSize(path, file_options.io_options, &file_size, nullptr).ok());
  std::unique_ptr<rocksdb::FSRandomAccessFile> file;
  EXPECT_TRUE(ioptions.fs->NewRandomAccessFile(path, file_options, &file, nullptr).ok());
  auto file_reader = std::make_unique<rocksdb::RandomAccessFileReader>(std::move(file), path);
  rocksdb::TableReaderOptions reader_options(ioptions, moptions.prefix_extractor, env_options,
                                             ioptions.internal_comparator);
  reader_options.largest_seqno = rocksdb::kMaxSequenceNumber;
  std::unique_ptr<rocksdb::TableReader> reader;
  EXPECT_TRUE(ioptions.table_factory
                  ->NewTableReader(reader_options, std::move(file_reader), file_size, &reader)
                  .ok());
  return reader;
}

const ColumnarTableReader* AsColumnar(const std::unique_ptr<rocksdb::TableReader>& reader) {
  return dynamic_cast<const ColumnarTableReader*>(reader.get());
}

TEST(CopyRowGroupBytesTest, ABlockOfAnotherFileIsNeverCopiedFrom) {
  TempDir dir("copy-row-group-bytes");
  const rocksdb::Options options = ColumnarFileOptions(/*compressed=*/false);
  const std::string path_a = dir.Sub("a.sst");
  const std::string path_b = dir.Sub("b.sst");
  WriteFixture(options, path_a, MakeFixtureContents(0, 400));
  WriteFixture(options, path_b, MakeFixtureContents(1000, 400));
  const std::unique_ptr<rocksdb::TableReader> file_a = OpenTableReader(options, path_a);
  const std::unique_ptr<rocksdb::TableReader> file_b = OpenTableReader(options, path_b);
  const ColumnarTableReader* a = AsColumnar(file_a);
  const ColumnarTableReader* b = AsColumnar(file_b);
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

}  // namespace
}  // namespace columnar
