// columnar_sst_dump's library: what it prints for real ColumnarTable files, and how it fails
// for missing, foreign and damaged ones.
#include "tools/sst_dumper.h"

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "plugin/columnar_table.h"
#include "tests/plugin/sst_file_fixtures.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

rocksdb::Options ColumnarOptions() {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.table_factory.reset(NewColumnarTableFactory());
  return options;
}

// An SstFileWriter file with puts (one with binary bytes), a merge, a delete and a range
// deletion.
std::string WriteSampleFile(const TempDir& dir, const rocksdb::Options& options) {
  const std::string path = dir.Sub("sample.sst");
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  EXPECT_TRUE(writer.Open(path).ok());
  for (int i = 0; i < 300; i++) {
    char key[16];
    snprintf(key, sizeof(key), "key%04d", i);
    EXPECT_TRUE(writer.Put(key, "value" + std::to_string(i * 7)).ok());
  }
  EXPECT_TRUE(writer.Put("x\x01y", std::string("b\0in'\\", 6)).ok());
  EXPECT_TRUE(writer.Merge("y-merge", "operand").ok());
  EXPECT_TRUE(writer.Delete("z-deleted").ok());
  EXPECT_TRUE(writer.DeleteRange("a-begin", "a-end").ok());
  EXPECT_TRUE(writer.Finish().ok());
  return path;
}

std::string Dump(const std::string& path, const DumpOptions& options, rocksdb::Status* status) {
  std::ostringstream out;
  *status = DumpSstFile(path, options, out);
  return out.str();
}

size_t CountLinesStartingWith(const std::string& text, const std::string& prefix) {
  std::istringstream lines(text);
  size_t count = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) == 0) count++;
  }
  return count;
}

// Field `field` (0: the name) of the column storage line of `column`, or "" without one.
std::string ColumnStorageField(const std::string& text, const std::string& column, size_t field) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::vector<std::string> parts;
    for (std::string part; fields >> part;) parts.push_back(part);
    if (parts.size() > field && parts[0] == column && line.rfind("  " + column + " ", 0) == 0) {
      return parts[field];
    }
  }
  return "";
}

TEST(ColumnarSstDumpTest, EscapesBytes) {
  EXPECT_EQ(EscapeBytes(rocksdb::Slice("ab\x01\\'", 5), false), "ab\\x01\\x5c\\x27");
  EXPECT_EQ(EscapeBytes(rocksdb::Slice("\x00\xff", 2), true), "0x00FF");
  EXPECT_EQ(EscapeBytes("", true), "0x");
}

TEST(ColumnarSstDumpTest, PrintsPropertiesColumnsEntriesAndVerification) {
  TempDir dir("dump");
  const std::string path = WriteSampleFile(dir, ColumnarOptions());
  DumpOptions options;
  options.show_entries = true;
  options.verify = true;
  rocksdb::Status s;
  const std::string text = Dump(path, options, &s);
  ASSERT_TRUE(s.ok()) << s.ToString() << "\n" << text;
  EXPECT_NE(text.find("  # entries: 304\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  comparator name: leveldb.BytewiseComparator\n"), std::string::npos);
  EXPECT_NE(text.find("  layout: generic"), std::string::npos) << text;
  EXPECT_NE(text.find("  rows per group: 128\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  rocksdb.external_sst_file.version: "), std::string::npos) << text;
  EXPECT_NE(text.find("Column storage (encoded chunk bytes, before outer block compression; 303 "
                      "rows)"),
            std::string::npos)
      << text;
  EXPECT_EQ(CountLinesStartingWith(text, "  total "), 1u) << text;
  // The value column's entropy estimate, from the file read back: "value<7i>" below 1000
  // stays whole in the template split and counts 8 bits a byte, above it splits into a template
  // and a parameter.
  EXPECT_EQ(ColumnStorageField(text, "value", 3), "3.91") << text;
  EXPECT_NE(text.find("100.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("Checksum verification: OK\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  'key0000' @0 PUT => 'value0'\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  'x\\x01y' @0 PUT => 'b\\x00in\\x27\\x5c'\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  'y-merge' @0 MERGE => 'operand'\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  'z-deleted' @0 DELETE => ''\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  'a-begin' @0 RANGE_DELETE => 'a-end' (exclusive end)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(CountLinesStartingWith(text, "  'key"), 300u);
}

TEST(ColumnarSstDumpTest, EntryLimitAndHex) {
  TempDir dir("dump-limit");
  const std::string path = WriteSampleFile(dir, ColumnarOptions());
  DumpOptions options;
  options.show_properties = false;
  options.show_entries = true;
  options.entry_limit = 2;
  options.hex = true;
  rocksdb::Status s;
  const std::string text = Dump(path, options, &s);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(text.find("Table properties"), std::string::npos);
  EXPECT_EQ(CountLinesStartingWith(text, "  0x"), 2u) << text;
  // "key0000" => "value0"
  EXPECT_NE(text.find("  0x6B657930303030 @0 PUT => 0x76616C756530\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  ... (first 2 entries shown)\n"), std::string::npos) << text;
}

TEST(ColumnarSstDumpTest, DatabaseDirectoryWithEntitiesAndSequenceNumbers) {
  TempDir dir("dump-db");
  auto db = OpenDb(ColumnarOptions(), dir.path());
  ASSERT_NE(db, nullptr);
  rocksdb::WideColumns columns{{rocksdb::kDefaultWideColumnName, "d"}, {"c1", "v1"}};
  ASSERT_TRUE(db->PutEntity(rocksdb::WriteOptions(), db->DefaultColumnFamily(), "e", columns).ok());
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "s", "once").ok());
  const rocksdb::Snapshot* snapshot = db->GetSnapshot();  // keeps both versions of "s"
  ASSERT_TRUE(db->SingleDelete(rocksdb::WriteOptions(), "s").ok());
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  db->ReleaseSnapshot(snapshot);
  std::vector<std::string> files;
  ASSERT_TRUE(ListSstFiles(dir.path(), &files).ok());
  ASSERT_EQ(files.size(), 1u);
  DumpOptions options;
  options.show_entries = true;
  rocksdb::Status s;
  const std::string text = Dump(files[0], options, &s);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_NE(text.find("  'e' @1 ENTITY => {'': 'd', 'c1': 'v1'}\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  's' @3 SINGLE_DELETE => ''\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  's' @2 PUT => 'once'\n"), std::string::npos) << text;
}

TEST(ColumnarSstDumpTest, MissingPathsAndEmptyDirectories) {
  TempDir dir("dump-missing");
  std::vector<std::string> files;
  EXPECT_TRUE(ListSstFiles(dir.Sub("nope.sst"), &files).IsNotFound());
  EXPECT_TRUE(ListSstFiles(dir.path(), &files).IsNotFound());
  EXPECT_TRUE(files.empty());
  rocksdb::Status s;
  Dump(dir.Sub("nope.sst"), DumpOptions(), &s);
  EXPECT_FALSE(s.ok());
}

TEST(ColumnarSstDumpTest, ForeignAndDamagedFilesFail) {
  TempDir dir("dump-bad");
  rocksdb::Options block_based;
  const std::string bbt = WriteSampleFile(dir, block_based);
  rocksdb::Status s;
  Dump(bbt, DumpOptions(), &s);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("not a ColumnarTable file"), std::string::npos) << s.ToString();

  const std::string path = WriteSampleFile(dir, ColumnarOptions());
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(10);  // inside the first data block
    file.put('\x7f');
  }
  DumpOptions verify;
  verify.verify = true;
  const std::string text = Dump(path, verify, &s);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(text.find("Checksum verification: Corruption"), std::string::npos) << text;

  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 1);
  Dump(path, DumpOptions(), &s);
  EXPECT_FALSE(s.ok());
}

// With data block checksums off (--no-checksums), damaged blocks reach the decoders: any
// answer is allowed, a crash or a memory error (under ASan) is not.
TEST(ColumnarSstDumpTest, SalvagingDamagedDataBlocksDoesNotCrash) {
  for (const bool compressed : {false, true}) {
    TempDir dir("dump-salvage");
    const std::string path = dir.Sub("file.sst");
    const rocksdb::Options options = ColumnarFileOptions(compressed);
    WriteFixtureFile(options, path, 3000);
    const std::string intact = ReadFileBytes(path);
    rocksdb::SstFileReader reader(options);
    ASSERT_TRUE(reader.Open(path).ok());
    const uint64_t data_end = reader.GetTableProperties()->data_size;
    ASSERT_GT(data_end, 0u);
    DumpOptions salvage;
    salvage.show_properties = false;
    salvage.show_entries = true;
    salvage.verify_reads = false;
    DumpOptions checked = salvage;
    checked.verify_reads = true;
    size_t refused = 0;
    for (uint64_t offset = 0; offset < data_end; offset += data_end / 300 + 1) {
      std::string damaged = intact;
      damaged[offset] = static_cast<char>(damaged[offset] ^ (offset % 2 == 0 ? 0xff : 0x04));
      WriteFileBytes(path, damaged);
      rocksdb::Status s;
      Dump(path, salvage, &s);
      Dump(path, checked, &s);
      ASSERT_TRUE(s.IsCorruption()) << "byte " << offset << ": " << s.ToString();
      refused++;
    }
    EXPECT_GE(refused, 250u);
  }
}

}  // namespace
}  // namespace columnar
