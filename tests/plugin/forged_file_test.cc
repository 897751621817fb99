// Files forged to pass every checksum (or read with checksums off) that claim what the writer
// never writes: row groups larger than the file's rows_per_group, entries whose value type is
// not one a table holds, and sequence numbers above the file's largest. All must read as
// Corruption, not as data, a crash or unbounded work.
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/sst_file_reader.h>

#include <filesystem>
#include <memory>
#include <string>

#include "plugin/columnar_table.h"
#include "plugin/table_file.h"
#include "table/format.h"
#include "table_format/data_block.h"
#include "table_format/file_root.h"
#include "tests/plugin/sst_file_fixtures.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

// Replaces the value of property "columnar.rows_per_group" (`from`, same length as `to`) in the
// file's properties block and makes the root block vouch for the forged block again.
void ForgeRowsPerGroupProperty(std::string* file, const std::string& from, const std::string& to) {
  ASSERT_EQ(from.size(), to.size());
  const uint64_t footer_offset = file->size() - rocksdb::Footer::kNewVersionsEncodedLength;
  rocksdb::Footer footer;
  ASSERT_TRUE(footer
                  .DecodeFrom(rocksdb::Slice(file->data() + footer_offset,
                                             rocksdb::Footer::kNewVersionsEncodedLength),
                              footer_offset)
                  .ok());
  const rocksdb::BlockHandle root_handle = footer.index_handle();
  std::string buffer;
  Slice raw;
  ASSERT_TRUE(ReadBlock(Slice(file->data() + root_handle.offset(), root_handle.size()), nullptr,
                        true, &buffer, &raw)
                  .ok());
  FileRoot root;
  ASSERT_TRUE(root.DecodeFrom(raw, root_handle.offset()).ok());

  // The key follows "columnar.row_groups" and shares its prefix: its stored part ends with
  // "s_per_group", right before the value.
  const BlockLocation properties = root.at(FileBlock::kProperties);
  std::string block = file->substr(properties.offset, properties.size);
  const std::string needle = "s_per_group" + from;
  const size_t at = block.find(needle);
  ASSERT_NE(at, std::string::npos);
  ASSERT_EQ(block.find(needle, at + 1), std::string::npos);
  block.replace(at + needle.size() - from.size(), from.size(), to);
  file->replace(properties.offset, properties.size, block);

  root.properties_checksum = PropertiesChecksum(block, root.properties_patch_offset);
  std::string root_raw;
  root.EncodeTo(&root_raw);
  std::string root_stored;
  ASSERT_TRUE(WriteBlock(root_raw, BlockCompressor{}, &root_stored).ok());
  ASSERT_EQ(root_stored.size(), root_handle.size());
  file->replace(root_handle.offset(), root_handle.size(), root_stored);
}

// Scans the file forward and returns the iterator's final status.
rocksdb::Status ScanFile(const rocksdb::Options& options, const std::string& path,
                         size_t* keys = nullptr) {
  rocksdb::SstFileReader reader(options);
  rocksdb::Status s = reader.Open(path);
  if (!s.ok()) return s;
  std::unique_ptr<rocksdb::Iterator> it(reader.NewIterator(rocksdb::ReadOptions()));
  size_t count = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) count++;
  if (keys != nullptr) *keys = count;
  return it->status();
}

TEST(ForgedFileTest, RowGroupsLargerThanTheFilesRowsPerGroupAreCorruption) {
  TempDir dir("forged-rows");
  rocksdb::Options options = ColumnarFileOptions(false);  // rows_per_group = 32
  const std::string path = dir.Sub("forged.sst");
  const auto visible = WriteFixtureFile(options, path, 400);
  size_t keys = 0;
  ASSERT_TRUE(ScanFile(options, path, &keys).ok());
  ASSERT_EQ(keys, visible.size());

  // The same file claiming 16 rows per group: its groups of 32 rows are impossible.
  std::string file = ReadFileBytes(path);
  ForgeRowsPerGroupProperty(&file, "32", "16");
  WriteFileBytes(path, file);
  RenewTableFactory(&options);
  const rocksdb::Status s = ScanFile(options, path);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();

  // A rows_per_group property that is no valid option value does not open.
  for (const char* bad : {"00", "3x"}) {
    std::string again = ReadFileBytes(path);
    ForgeRowsPerGroupProperty(&again, "16", bad);
    WriteFileBytes(path, again);
    RenewTableFactory(&options);
    const rocksdb::Status open = ScanFile(options, path);
    EXPECT_TRUE(open.IsCorruption()) << bad << ": " << open.ToString();
    WriteFileBytes(path, file);
  }
}

// One flushed file whose row groups store the value type column plain (one little-endian int32
// per row), so a test can find it: rows alternate Put, Merge, Put, Put.
rocksdb::Options PlainTypeOptions() {
  ColumnarTableOptions table;
  table.rows_per_group = 16;
  table.column_encodings = "value_type:plain";
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kNoCompression;
  options.merge_operator = std::make_shared<AppendMergeOperator>();
  options.table_factory.reset(NewColumnarTableFactory(table));
  return options;
}

std::string TypeKey(int i) { return "key" + std::to_string(1000 + i); }

// The path of the one SST file in `dir` (empty when there is none).
std::string OnlySstFile(const std::string& dir) {
  std::string sst;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".sst") sst = entry.path().string();
  }
  return sst;
}

// Reopens the database of a file whose row 1 (TypeKey(1)) was forged: Get and a full scan
// report Corruption, with checksums off (the forgery broke them), while keys of other groups
// still read.
void ExpectRowOfFirstGroupIsCorruption(rocksdb::Options* options, const std::string& dir) {
  RenewTableFactory(options);
  auto db = OpenDb(*options, dir);
  ASSERT_NE(db, nullptr);
  rocksdb::ReadOptions unverified;
  unverified.verify_checksums = false;
  std::string value;
  const rocksdb::Status get = db->Get(unverified, TypeKey(1), &value);
  EXPECT_TRUE(get.IsCorruption()) << get.ToString();
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(unverified));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
  }
  EXPECT_TRUE(it->status().IsCorruption()) << it->status().ToString();
  EXPECT_TRUE(db->Get(unverified, TypeKey(40), &value).ok());
}

TEST(ForgedFileTest, EntriesOfInvalidValueTypesAreCorruptionInGetAndScans) {
  // 0x0f is RocksDB's range deletion type, which rocksdb::ParseInternalKey accepts: Get took
  // the entry for a deletion (NotFound). 0x17 is past the last type (ParseInternalKey's
  // Corruption in Get, before the fix the only check); 0x80 does not fit the format's type
  // column (its own Corruption).
  for (const uint8_t forged : {0x0f, 0x17, 0x80}) {
    SCOPED_TRACE(static_cast<int>(forged));
    TempDir dir("forged-type");
    rocksdb::Options options = PlainTypeOptions();
    {
      auto db = OpenDb(options, dir.path());
      ASSERT_NE(db, nullptr);
      for (int i = 0; i < 64; i++) {
        const rocksdb::Status s = i % 4 == 1 ? db->Merge(rocksdb::WriteOptions(), TypeKey(i), "m")
                                             : db->Put(rocksdb::WriteOptions(), TypeKey(i), "v");
        ASSERT_TRUE(s.ok());
      }
      ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
    }
    const std::string sst = OnlySstFile(dir.path());
    ASSERT_FALSE(sst.empty());
    // Every group's type column: 16 x int32 (1, 2, 1, 1, ...). Row 1 of the first group
    // (key1001, a Merge) gets the forged type; the block's checksum no longer holds, so the
    // reads below skip checksums, as a reader with verify_checksums = false does.
    std::string types;
    for (int row = 0; row < 16; row++) {
      types += std::string(row % 4 == 1 ? "\x02" : "\x01", 1) + std::string(3, '\0');
    }
    std::string file = ReadFileBytes(sst);
    const size_t at = file.find(types);
    ASSERT_NE(at, std::string::npos);
    file[at + 4] = static_cast<char>(forged);
    WriteFileBytes(sst, file);

    ExpectRowOfFirstGroupIsCorruption(&options, dir.path());
  }
}

TEST(ForgedFileTest, SequenceNumbersAboveTheFilesLargestAreCorruption) {
  // A forged sequence number lets an old entry shadow newer versions of its key in other files;
  // the file's recorded largest (columnar.max_sequence, which pushdown trusts) bounds them.
  TempDir dir("forged-sequence");
  ColumnarTableOptions table;
  table.rows_per_group = 16;
  table.column_encodings = "sequence:plain";
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kNoCompression;
  options.table_factory.reset(NewColumnarTableFactory(table));
  {
    auto db = OpenDb(options, dir.path());
    ASSERT_NE(db, nullptr);
    for (int i = 0; i < 64; i++)
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), TypeKey(i), "v").ok());
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  }
  const std::string sst = OnlySstFile(dir.path());
  ASSERT_FALSE(sst.empty());
  // The first group's sequence column: 16 x int64 little-endian, 1 to 16. Row 1's becomes 2^40.
  std::string sequences;
  for (uint64_t seq = 1; seq <= 16; seq++) {
    for (int b = 0; b < 8; b++) sequences.push_back(static_cast<char>((seq >> (8 * b)) & 0xff));
  }
  std::string file = ReadFileBytes(sst);
  const size_t at = file.find(sequences);
  ASSERT_NE(at, std::string::npos);
  file[at + 8 + 5] = 1;  // byte 5 of row 1's sequence: 2 + 2^40
  WriteFileBytes(sst, file);

  ExpectRowOfFirstGroupIsCorruption(&options, dir.path());
}

// Found by sst_file_fuzzer during the long run: RocksDB's ingestion seeks to the file's first
// key, then to its last, and reads key() without asking Valid(); when only the last row group
// fails (here: a damaged last data block) the iterator dereferenced no group.
TEST(ForgedFileTest, IngestingAFileWhoseLastGroupFailsIsCorruption) {
  TempDir dir("forged-ingest");
  rocksdb::Options options = ColumnarFileOptions(false);  // many small blocks
  const std::string path = dir.Sub("damaged.sst");
  WriteFixtureFile(options, path, 400);
  std::string file = ReadFileBytes(path);
  // The last data block ends where the index begins; alter a byte just before its trailer.
  const FileRoot root = ReadFileRoot(file).root;
  const uint64_t data_end = root.at(FileBlock::kIndex).offset;
  file[data_end - kBlockTrailerSize - 3] ^= 0x40;
  WriteFileBytes(path, file);

  RenewTableFactory(&options);
  auto db = OpenDb(options, dir.Sub("db"));
  ASSERT_NE(db, nullptr);
  const rocksdb::Status s = db->IngestExternalFile({path}, rocksdb::IngestExternalFileOptions());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

}  // namespace
}  // namespace columnar
