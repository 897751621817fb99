// Damaged ColumnarTable files: for a dense sample of byte offsets covering every region of the
// file (data blocks, index, both filters, range deletions, compression dictionary, properties,
// metaindex, root, footer; 400 offsets or every byte per region), a file with that byte
// altered must fail to open or fail VerifyChecksum, and reading it -- scans both ways and seeks
// through SstFileReader, Get and MultiGet through a DB -- must either report an error or
// return exactly the original data; bytes of data blocks, which every scan reads, must make
// the scan fail. Truncated files must not open. (Reads of damaged files with checksum
// verification off are in tools/columnar_sst_dump_test.cc: through a DB iterator they would
// trip RocksDB's own key-order assertions, which are live in Debian's build.)
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/sst_file_reader.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "table/format.h"
#include "table_format/data_block.h"
#include "table_format/file_root.h"
#include "tests/plugin/sst_file_fixtures.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

constexpr int kEntries = 3000;
// Offsets altered per region (all bytes of smaller regions).
constexpr size_t kOffsetsPerRegion = 400;

struct Region {
  std::string name;
  uint64_t begin = 0;
  uint64_t end = 0;
};

// The file's regions in file order, from its footer and root block (table_file.h).
std::vector<Region> FileRegions(const std::string& file) {
  const FileRootInFile found = ReadFileRoot(file);
  const FileRoot& root = found.root;
  static const char* const kBlockNames[] = {"index",           "key filter", "partition filter",
                                            "range deletions", "dictionary", "zone maps",
                                            "properties",      "metaindex"};
  std::vector<Region> regions{{"data blocks", 0, root.at(FileBlock::kIndex).offset}};
  for (size_t b = 0; b < root.blocks.size(); b++) {
    const BlockLocation& location = root.blocks[b];
    if (location.present()) {
      regions.push_back({kBlockNames[b], location.offset, location.offset + location.size});
    }
  }
  regions.push_back({"root", found.root_offset, found.root_offset + found.root_size});
  regions.push_back({"footer", found.footer_offset, file.size()});
  std::sort(regions.begin(), regions.end(),
            [](const Region& a, const Region& b) { return a.begin < b.begin; });
  return regions;
}

std::vector<uint64_t> SpreadOffsets(uint64_t begin, uint64_t end, size_t count) {
  std::vector<uint64_t> offsets;
  const uint64_t size = end - begin;
  if (size <= count) {
    for (uint64_t o = begin; o < end; o++) offsets.push_back(o);
    return offsets;
  }
  for (size_t k = 0; k < count; k++) offsets.push_back(begin + (size - 1) * k / (count - 1));
  return offsets;
}

// Inverts the byte at even offsets, one bit of it at odd ones.
std::string Damage(const std::string& file, uint64_t offset) {
  std::string damaged = file;
  const auto mask = static_cast<char>(offset % 2 == 0 ? 0xff : 1 << (offset / 2 % 8));
  damaged[offset] = static_cast<char>(damaged[offset] ^ mask);
  return damaged;
}

// What reading the intact file shows, to compare damaged reads with.
struct Expected {
  std::vector<std::pair<std::string, std::string>> entries;  // ascending
  std::vector<std::string> seek_targets;
};

// How one damaged file behaved.
enum class Outcome { kRejectedAtOpen, kReadError, kReadOriginal };

class DamagedFileChecker {
 public:
  // Reads in total order: the files have a prefix extractor, and RocksDB defines seeks and
  // scans across prefixes only in total order.
  DamagedFileChecker(rocksdb::Options options, const Expected& expected)
      : options_(std::move(options)), expected_(expected) {
    read_options_.total_order_seek = true;
  }

  // Checks `path`; on a silent wrong answer, describes it in *problem.
  Outcome Check(const std::string& path, std::string* problem) {
    RenewTableFactory(&options_);
    rocksdb::SstFileReader reader(options_);
    if (!reader.Open(path).ok()) return Outcome::kRejectedAtOpen;
    if (reader.VerifyChecksum().ok()) *problem = "VerifyChecksum passed";
    bool error = false;
    std::unique_ptr<rocksdb::Iterator> it(reader.NewIterator(read_options_));
    CheckScan(it.get(), true, &error, problem);
    CheckScan(it.get(), false, &error, problem);
    CheckSeeks(it.get(), &error, problem);
    return error ? Outcome::kReadError : Outcome::kReadOriginal;
  }

 private:
  void CheckScan(rocksdb::Iterator* it, bool forward, bool* error, std::string* problem) const {
    const auto& entries = expected_.entries;
    size_t seen = 0;
    for (forward ? it->SeekToFirst() : it->SeekToLast(); it->Valid();
         forward ? it->Next() : it->Prev(), seen++) {
      const size_t index = forward ? seen : entries.size() - 1 - seen;
      if (seen >= entries.size() || it->key() != entries[index].first ||
          it->value() != entries[index].second) {
        *problem = std::string(forward ? "forward" : "backward") + " scan returned a wrong entry";
        return;
      }
    }
    if (!it->status().ok()) {
      *error = true;
    } else if (seen != entries.size()) {
      *problem = std::string(forward ? "forward" : "backward") + " scan ended early without error";
    }
  }

  void CheckSeeks(rocksdb::Iterator* it, bool* error, std::string* problem) const {
    const auto& entries = expected_.entries;
    for (const std::string& target : expected_.seek_targets) {
      const auto after = std::lower_bound(entries.begin(), entries.end(), target,
                                          [](const std::pair<std::string, std::string>& e,
                                             const std::string& t) { return e.first < t; });
      it->Seek(target);
      if (!it->status().ok()) {
        *error = true;
      } else if (after == entries.end()
                     ? it->Valid()
                     : !it->Valid() || it->key() != after->first || it->value() != after->second) {
        *problem = "Seek(" + target + ") returned a wrong answer";
      }
    }
  }

  rocksdb::Options options_;
  const Expected& expected_;
  rocksdb::ReadOptions read_options_;
};

Expected ExpectedFrom(const std::map<std::string, std::string>& visible) {
  Expected expected;
  expected.entries.assign(visible.begin(), visible.end());
  for (int i = -1; i <= kEntries; i += 37) {
    expected.seek_targets.push_back(i < 0 ? "" : FixtureKey(i));
    expected.seek_targets.push_back(FixtureKey(i < 0 ? 0 : i) + "+");
  }
  expected.seek_targets.push_back("z");
  return expected;
}

// Files live in an in-memory Env: the tests write thousands of damaged copies, and on disk
// that I/O, not the reading, would take most of the time. Reads go through the same
// RandomAccessFileReader path either way.
class CorruptionFixture {
 protected:
  void Build(bool compressed) {
    options_ = ColumnarFileOptions(compressed);
    options_.env = env_.get();
    path_ = dir_.Sub("file.sst");
    visible_ = WriteFixtureFile(options_, path_, kEntries);
    file_ = ReadFileBytes(path_);
    expected_ = ExpectedFrom(visible_);
    regions_ = FileRegions(file_);
  }

  std::string ReadFileBytes(const std::string& path) const {
    std::string bytes;
    EXPECT_TRUE(rocksdb::ReadFileToString(env_.get(), path, &bytes).ok()) << path;
    return bytes;
  }

  void WriteFileBytes(const std::string& path, const std::string& bytes) const {
    ASSERT_TRUE(rocksdb::WriteStringToFile(env_.get(), bytes, path).ok()) << path;
  }

  const Region* FindRegion(const std::string& name) const {
    for (const Region& region : regions_) {
      if (region.name == name) return &region;
    }
    return nullptr;
  }

  std::unique_ptr<rocksdb::Env> env_{rocksdb::NewMemEnv(rocksdb::Env::Default())};
  TempDir dir_{"corruption"};  // names only: the files are in env_
  rocksdb::Options options_;
  std::string path_;
  std::map<std::string, std::string> visible_;
  std::string file_;
  Expected expected_;
  std::vector<Region> regions_;
};

std::string CompressionName(bool compressed) {
  return compressed ? "ZstdDictionaryAndColumns" : "Uncompressed";
}

// Parameter: compressed.
class CorruptionTest : public CorruptionFixture, public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { Build(GetParam()); }
};

TEST_P(CorruptionTest, IntactFileReadsBackAndRegionsCoverTheFile) {
  DamagedFileChecker checker(options_, expected_);
  std::string problem;
  rocksdb::SstFileReader reader(options_);
  ASSERT_TRUE(reader.Open(path_).ok());
  EXPECT_TRUE(reader.VerifyChecksum().ok());
  EXPECT_EQ(checker.Check(path_, &problem), Outcome::kReadOriginal);
  // The intact file is a valid "damaged" file except that it verifies.
  EXPECT_EQ(problem, "VerifyChecksum passed");

  std::vector<std::string> names;
  uint64_t covered = 0;
  for (const Region& region : regions_) {
    EXPECT_EQ(region.begin, covered) << region.name << " does not follow the previous region";
    covered = region.end;
    names.push_back(region.name);
  }
  EXPECT_EQ(covered, file_.size());
  std::vector<std::string> expected_names{"data blocks", "index", "key filter", "partition filter",
                                          "range deletions"};
  if (GetParam()) expected_names.push_back("dictionary");
  for (const char* name : {"properties", "metaindex", "root", "footer"}) {
    expected_names.push_back(name);
  }
  EXPECT_EQ(names, expected_names);
}

TEST_P(CorruptionTest, TruncatedFilesAreRejected) {
  DamagedFileChecker checker(options_, expected_);
  const std::string truncated_path = dir_.Sub("truncated.sst");
  std::vector<uint64_t> lengths = SpreadOffsets(0, file_.size() - 300, 200);
  for (uint64_t length = file_.size() - 300; length < file_.size(); length++) {
    lengths.push_back(length);
  }
  for (uint64_t length : lengths) {
    WriteFileBytes(truncated_path, file_.substr(0, length));
    std::string problem;
    EXPECT_EQ(checker.Check(truncated_path, &problem), Outcome::kRejectedAtOpen)
        << "truncated to " << length << " bytes";
    ASSERT_EQ(problem, "") << "truncated to " << length << " bytes";
  }
}

// A footer whose root handle has size 0 (what some damaged footers decode to) must be
// refused, without reading an empty range (a null memcpy source: UBSan aborts).
TEST_P(CorruptionTest, EmptyRootHandleIsRejected) {
  const uint64_t footer_offset = file_.size() - rocksdb::Footer::kNewVersionsEncodedLength;
  rocksdb::Footer footer;
  ASSERT_TRUE(footer
                  .DecodeFrom(rocksdb::Slice(file_.data() + footer_offset,
                                             rocksdb::Footer::kNewVersionsEncodedLength),
                              footer_offset)
                  .ok());
  rocksdb::FooterBuilder damaged_footer;
  damaged_footer.Build(footer.table_magic_number(), footer.format_version(), footer_offset,
                       footer.checksum_type(), footer.metaindex_handle(),
                       rocksdb::BlockHandle(footer.index_handle().offset(), 0));
  const std::string damaged_path = dir_.Sub("empty-root.sst");
  WriteFileBytes(damaged_path,
                 file_.substr(0, footer_offset) + damaged_footer.GetSlice().ToString());
  rocksdb::SstFileReader reader(options_);
  EXPECT_TRUE(reader.Open(damaged_path).IsCorruption());
}

INSTANTIATE_TEST_SUITE_P(Compression, CorruptionTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return CompressionName(info.param);
                         });

// Parameters: compressed, region name. One test per region, so that a region whose damage
// crashes the process fails alone.
class RegionCorruptionTest : public CorruptionFixture,
                             public ::testing::TestWithParam<std::tuple<bool, std::string>> {
 protected:
  void SetUp() override {
    Build(std::get<0>(GetParam()));
    region_ = FindRegion(std::get<1>(GetParam()));
    if (region_ == nullptr) GTEST_SKIP() << "no such region in this file";
  }

  // Point reads go through TableReader::Get and MultiGet, which only a DB calls: the file is
  // ingested into a database, which is reopened read-only with the file altered in place.
  void CheckDatabaseGets(uint64_t offset, const std::string& db_path, const std::string& ingested) {
    WriteFileBytes(ingested, Damage(file_, offset));
    rocksdb::Options options = options_;
    RenewTableFactory(&options);
    rocksdb::DB* raw = nullptr;
    if (!rocksdb::DB::OpenForReadOnly(options, db_path, &raw).ok()) return;
    std::unique_ptr<rocksdb::DB> db(raw);
    const std::string where = "byte " + std::to_string(offset) + " altered:";
    std::vector<std::string> keys;
    for (int i = 0; i < kEntries + 3; i += 23) keys.push_back(FixtureKey(i));
    keys.push_back("p99-absent");
    for (const std::string& key : keys) {
      std::string value;
      CheckPointRead(db->Get(rocksdb::ReadOptions(), key, &value), key, value, where);
    }
    std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
    std::vector<std::string> values;
    const std::vector<rocksdb::Status> statuses =
        db->MultiGet(rocksdb::ReadOptions(), slices, &values);
    for (size_t i = 0; i < keys.size(); i++) {
      CheckPointRead(statuses[i], keys[i], values[i], where + " MultiGet");
    }
  }

  // An error, or exactly what the intact file holds.
  void CheckPointRead(const rocksdb::Status& s, const std::string& key, const std::string& value,
                      const std::string& where) {
    const auto expected = visible_.find(key);
    if (s.ok()) {
      ASSERT_TRUE(expected != visible_.end() && expected->second == value)
          << where << " Get(" << key << ") returned a wrong value";
    } else if (s.IsNotFound()) {
      ASSERT_TRUE(expected == visible_.end()) << where << " Get(" << key << ") lost the key";
    }
  }

  std::string IngestIntoDatabase(const std::string& db_path) {
    auto db = OpenDb(options_, db_path);
    EXPECT_NE(db, nullptr);
    rocksdb::IngestExternalFileOptions ingest;
    EXPECT_TRUE(db->IngestExternalFile({path_}, ingest).ok());
    db.reset();
    std::vector<std::string> children;
    EXPECT_TRUE(env_->GetChildren(db_path, &children).ok());
    for (const std::string& child : children) {
      if (child.size() > 4 && child.compare(child.size() - 4, 4, ".sst") == 0) {
        return db_path + "/" + child;
      }
    }
    ADD_FAILURE() << "no table file in " << db_path;
    return "";
  }

  const Region* region_ = nullptr;
};

TEST_P(RegionCorruptionTest, AlteredBytesAreDetectedAndNeverReadAsData) {
  DamagedFileChecker checker(options_, expected_);
  const std::string damaged_path = dir_.Sub("damaged.sst");
  std::map<Outcome, size_t> outcomes;
  const std::vector<uint64_t> offsets =
      SpreadOffsets(region_->begin, region_->end, kOffsetsPerRegion);
  for (uint64_t offset : offsets) {
    WriteFileBytes(damaged_path, Damage(file_, offset));
    std::string problem;
    const Outcome outcome = checker.Check(damaged_path, &problem);
    outcomes[outcome]++;
    ASSERT_EQ(problem, "") << "byte " << offset << " altered";
    if (region_->name == "data blocks") {
      // Every scan reads every data block.
      ASSERT_NE(outcome, Outcome::kReadOriginal) << "byte " << offset << " altered";
    }
  }
  printf(
      "  %s [%llu, %llu): %zu offsets altered: %zu rejected at open, %zu read errors, %zu "
      "read the original data\n",
      region_->name.c_str(), static_cast<unsigned long long>(region_->begin),
      static_cast<unsigned long long>(region_->end), offsets.size(),
      outcomes[Outcome::kRejectedAtOpen], outcomes[Outcome::kReadError],
      outcomes[Outcome::kReadOriginal]);

  const std::string db_path = dir_.Sub("db");
  const std::string ingested = IngestIntoDatabase(db_path);
  ASSERT_EQ(ReadFileBytes(ingested), file_) << "ingestion changed the file";
  for (uint64_t offset : SpreadOffsets(region_->begin, region_->end, kOffsetsPerRegion / 10)) {
    ASSERT_NO_FATAL_FAILURE(CheckDatabaseGets(offset, db_path, ingested));
  }
}

const std::vector<std::string>& RegionNames() {
  static const auto* names = new std::vector<std::string>{"data blocks",
                                                          "index",
                                                          "key filter",
                                                          "partition filter",
                                                          "range deletions",
                                                          "dictionary",
                                                          "properties",
                                                          "metaindex",
                                                          "root",
                                                          "footer"};
  return *names;
}

INSTANTIATE_TEST_SUITE_P(Regions, RegionCorruptionTest,
                         ::testing::Combine(::testing::Bool(), ::testing::ValuesIn(RegionNames())),
                         [](const ::testing::TestParamInfo<std::tuple<bool, std::string>>& info) {
                           std::string name = CompressionName(std::get<0>(info.param)) + "_" +
                                              std::get<1>(info.param);
                           for (char& c : name) {
                             if (c == ' ') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace columnar
