// The parts of RocksDB's TableReader contract that the differential tests do not reach:
// approximate offsets and sizes, the standard table properties (compared with what
// BlockBasedTable records for the same writes), reads that must not do I/O
// (read_tier = kBlockCacheTier), fill_cache = false, readahead, and iterate bounds.
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/table.h>
#include <rocksdb/table_properties.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "plugin/columnar_table.h"
#include "tests/plugin/sst_file_fixtures.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

using Model = std::map<std::string, std::string>;

rocksdb::Options ContractOptions(rocksdb::TableFactory* factory) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.merge_operator = std::make_shared<AppendMergeOperator>();
  options.compression = rocksdb::kZSTD;
  options.write_buffer_size = 64 << 20;  // one flush, one file
  options.table_factory.reset(factory);
  return options;
}

rocksdb::TableFactory* SmallGroupsFactory() {
  ColumnarTableOptions table;
  table.rows_per_group = 32;
  table.block_size = 4096;
  return NewColumnarTableFactory(table);
}

// Puts, deletes, merges and range deletions over 5000 keys, flushed into one file.
Model WriteOneFile(rocksdb::DB* db) {
  Model model;
  for (int i = 0; i < 5000; i++) {
    const std::string key = FixtureKey(i);
    if (i % 13 == 0) {
      EXPECT_TRUE(db->Delete(rocksdb::WriteOptions(), key).ok());
    } else if (i % 17 == 0) {
      EXPECT_TRUE(db->Merge(rocksdb::WriteOptions(), key, "m").ok());
      model[key] = "m";
    } else {
      EXPECT_TRUE(db->Put(rocksdb::WriteOptions(), key, FixtureValue(i)).ok());
      model[key] = FixtureValue(i);
    }
  }
  EXPECT_TRUE(db->DeleteRange(rocksdb::WriteOptions(), db->DefaultColumnFamily(), FixtureKey(4990),
                              FixtureKey(5000))
                  .ok());
  model.erase(model.lower_bound(FixtureKey(4990)), model.end());
  EXPECT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  return model;
}

uint64_t TotalSstBytes(const std::string& path) {
  uint64_t total = 0;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    if (entry.path().extension() == ".sst") total += entry.file_size();
  }
  return total;
}

uint64_t ApproximateSize(rocksdb::DB* db, const std::string& start, const std::string& limit) {
  rocksdb::Range range(start, limit);
  uint64_t size = 0;
  rocksdb::SizeApproximationOptions options;
  options.include_memtables = false;
  options.include_files = true;
  EXPECT_TRUE(db->GetApproximateSizes(options, db->DefaultColumnFamily(), &range, 1, &size).ok());
  return size;
}

std::shared_ptr<const rocksdb::TableProperties> OnlyTableProperties(rocksdb::DB* db) {
  rocksdb::TablePropertiesCollection collection;
  EXPECT_TRUE(db->GetPropertiesOfAllTables(&collection).ok());
  EXPECT_EQ(collection.size(), 1u);
  return collection.empty() ? std::make_shared<rocksdb::TableProperties>()
                            : collection.begin()->second;
}

TEST(TableReaderContractTest, ApproximateSizesAreMonotonicAndWithinTheFile) {
  TempDir dir("approximate");
  auto db = OpenDb(ContractOptions(SmallGroupsFactory()), dir.path());
  ASSERT_NE(db, nullptr);
  WriteOneFile(db.get());
  const uint64_t file_bytes = TotalSstBytes(dir.path());
  uint64_t previous = 0;
  for (int i = 0; i <= 5000; i += 50) {
    const uint64_t size = ApproximateSize(db.get(), "", FixtureKey(i));
    EXPECT_GE(size, previous) << "up to " << FixtureKey(i);
    EXPECT_LE(size, file_bytes);
    previous = size;
  }
  const uint64_t whole = ApproximateSize(db.get(), "", "q");
  const uint64_t first_half = ApproximateSize(db.get(), "", FixtureKey(2500));
  const uint64_t second_half = ApproximateSize(db.get(), FixtureKey(2500), "q");
  EXPECT_LE(whole, file_bytes);
  EXPECT_GE(whole, file_bytes / 2) << "the data blocks are most of the file";
  EXPECT_GE(first_half, whole * 35 / 100);
  EXPECT_LE(first_half, whole * 65 / 100);
  EXPECT_LE(first_half + second_half, whole + whole / 50);
  EXPECT_GE(first_half + second_half, whole - whole / 50);
  EXPECT_EQ(ApproximateSize(db.get(), "a", "b"), 0u) << "before the file";
  EXPECT_EQ(ApproximateSize(db.get(), "q", "r"), 0u) << "after the file";
  EXPECT_LE(ApproximateSize(db.get(), FixtureKey(1000), FixtureKey(1001)), whole / 20);
}

TEST(TableReaderContractTest, StandardPropertiesMatchBlockBasedTable) {
  TempDir dir("properties");
  rocksdb::BlockBasedTableOptions bbt;
  bbt.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  auto reference = OpenDb(ContractOptions(rocksdb::NewBlockBasedTableFactory(bbt)), dir.Sub("bbt"));
  auto tested = OpenDb(ContractOptions(SmallGroupsFactory()), dir.Sub("columnar"));
  ASSERT_NE(reference, nullptr);
  ASSERT_NE(tested, nullptr);
  WriteOneFile(reference.get());
  WriteOneFile(tested.get());
  const auto expected = OnlyTableProperties(reference.get());
  const auto got = OnlyTableProperties(tested.get());

  EXPECT_EQ(got->num_entries, expected->num_entries);
  EXPECT_EQ(got->num_deletions, expected->num_deletions);
  EXPECT_EQ(got->num_merge_operands, expected->num_merge_operands);
  EXPECT_EQ(got->num_range_deletions, expected->num_range_deletions);
  EXPECT_EQ(got->raw_key_size, expected->raw_key_size);
  EXPECT_EQ(got->raw_value_size, expected->raw_value_size);
  EXPECT_EQ(got->comparator_name, expected->comparator_name);
  EXPECT_EQ(got->merge_operator_name, expected->merge_operator_name);
  EXPECT_EQ(got->prefix_extractor_name, expected->prefix_extractor_name);
  EXPECT_EQ(got->column_family_id, expected->column_family_id);
  EXPECT_EQ(got->filter_policy_name, expected->filter_policy_name);
  EXPECT_GT(got->num_filter_entries, 0u);
  EXPECT_EQ(got->column_family_name, "default");
  EXPECT_EQ(got->orig_file_number, expected->orig_file_number);
  EXPECT_GT(got->creation_time, 0u);
  EXPECT_GT(got->file_creation_time, 0u);
  std::string db_id;
  ASSERT_TRUE(tested->GetDbIdentity(db_id).ok());
  EXPECT_EQ(got->db_id, db_id);
  std::string session_id;
  ASSERT_TRUE(tested->GetDbSessionId(session_id).ok());
  EXPECT_EQ(got->db_session_id, session_id);

  const uint64_t file_bytes = TotalSstBytes(dir.Sub("columnar"));
  EXPECT_GT(got->data_size, 0u);
  EXPECT_GT(got->index_size, 0u);
  EXPECT_GT(got->filter_size, 0u);
  EXPECT_LT(got->data_size + got->index_size + got->filter_size, file_bytes);
  EXPECT_GT(got->num_data_blocks, 1u);
  const uint64_t row_groups = std::stoull(got->user_collected_properties.at("columnar.row_groups"));
  EXPECT_LE(got->num_data_blocks, row_groups);
  EXPECT_GE(row_groups, (got->num_entries - got->num_range_deletions) / 32);

  uint64_t reader_memory = 0;
  ASSERT_TRUE(tested->GetIntProperty("rocksdb.estimate-table-readers-mem", &reader_memory));
  EXPECT_GT(reader_memory, 0u);
  rocksdb::Range everything("", "q");
  rocksdb::TablePropertiesCollection in_range;
  ASSERT_TRUE(
      tested->GetPropertiesOfTablesInRange(tested->DefaultColumnFamily(), &everything, 1, &in_range)
          .ok());
  EXPECT_EQ(in_range.size(), 1u);
}

class CacheTierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Reopen();
    model_ = WriteOneFile(db_.get());
    Reopen();  // a new factory: nothing cached
  }

  void Reopen() {
    db_.reset();
    db_ = OpenDb(ContractOptions(SmallGroupsFactory()), dir_.path());
    ASSERT_NE(db_, nullptr);
  }

  // Gets without I/O: each is Incomplete or the right answer. Returns how many answered.
  size_t CacheOnlyGets() {
    rocksdb::ReadOptions cache_only;
    cache_only.read_tier = rocksdb::kBlockCacheTier;
    size_t answered = 0;
    for (int i = 0; i < 5000; i += 7) {
      const std::string key = FixtureKey(i);
      std::string value;
      const rocksdb::Status s = db_->Get(cache_only, key, &value);
      const auto expected = model_.find(key);
      if (s.IsIncomplete()) continue;
      answered++;
      if (expected == model_.end()) {
        EXPECT_TRUE(s.IsNotFound()) << key << ": " << s.ToString();
      } else {
        EXPECT_TRUE(s.ok()) << key << ": " << s.ToString();
        EXPECT_EQ(value, expected->second) << key;
      }
    }
    return answered;
  }

  void Scan(const rocksdb::ReadOptions& read_options) {
    ExpectScanMatches(db_.get(), model_, read_options);
  }

  TempDir dir_{"cache-tier"};
  std::unique_ptr<rocksdb::DB> db_;
  Model model_;
};

TEST_F(CacheTierTest, CacheOnlyReadsAreIncompleteUntilTheCacheHoldsTheData) {
  // Only keys the bloom filter rules out, or tombstoned ones, can be answered cold.
  const size_t cold = CacheOnlyGets();
  EXPECT_LT(cold, 5000u / 7 / 4);

  rocksdb::ReadOptions uncached;
  uncached.fill_cache = false;
  uncached.readahead_size = 256 << 10;
  ASSERT_NO_FATAL_FAILURE(Scan(uncached));
  EXPECT_EQ(CacheOnlyGets(), cold) << "fill_cache=false must leave the cache as it was";

  ASSERT_NO_FATAL_FAILURE(Scan(rocksdb::ReadOptions()));
  EXPECT_EQ(CacheOnlyGets(), 5000u / 7 + 1) << "a filling scan caches every row group";

  rocksdb::ReadOptions cache_only;
  cache_only.read_tier = rocksdb::kBlockCacheTier;
  ASSERT_NO_FATAL_FAILURE(Scan(cache_only));
  const std::vector<std::string> key_strings{FixtureKey(1), FixtureKey(2), FixtureKey(13)};
  const std::vector<rocksdb::Slice> keys(key_strings.begin(), key_strings.end());
  std::vector<std::string> values;
  const auto statuses = db_->MultiGet(cache_only, keys, &values);
  EXPECT_TRUE(statuses[0].ok() && values[0] == model_.at(FixtureKey(1)));
  EXPECT_TRUE(statuses[1].ok() && values[1] == model_.at(FixtureKey(2)));
  EXPECT_TRUE(statuses[2].IsNotFound());
}

TEST_F(CacheTierTest, CacheOnlyIteratorsAreIncompleteOrRight) {
  rocksdb::ReadOptions cache_only;
  cache_only.read_tier = rocksdb::kBlockCacheTier;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(cache_only));
  it->Seek(FixtureKey(2000));
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsIncomplete()) << it->status().ToString();
  std::string value;
  ASSERT_TRUE(db_->Get(rocksdb::ReadOptions(), FixtureKey(2001), &value).ok());
  it.reset(db_->NewIterator(cache_only));
  it->Seek(FixtureKey(2001));
  ASSERT_TRUE(it->Valid()) << it->status().ToString();
  EXPECT_EQ(it->value().ToString(), model_.at(FixtureKey(2001)));
  for (int steps = 0; it->Valid() && steps < 200; steps++) it->Next();
  EXPECT_TRUE(it->Valid() || it->status().IsIncomplete()) << it->status().ToString();
}

TEST_F(CacheTierTest, IterateBoundsAreRespected) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 60; round++) {
    std::string lower = FixtureKey(static_cast<int>(rng() % 5100));
    std::string upper = FixtureKey(static_cast<int>(rng() % 5100));
    if (upper < lower) std::swap(lower, upper);
    if (round % 5 == 0) lower += "+";  // bounds between keys
    rocksdb::Slice lower_slice(lower), upper_slice(upper);
    rocksdb::ReadOptions bounded;
    bounded.iterate_lower_bound = &lower_slice;
    bounded.iterate_upper_bound = &upper_slice;
    std::vector<std::string> expected;
    for (auto it = model_.lower_bound(lower); it != model_.end() && it->first < upper; ++it) {
      expected.push_back(it->first);
    }
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(bounded));
    std::vector<std::string> forward, backward;
    for (it->SeekToFirst(); it->Valid(); it->Next()) forward.push_back(it->key().ToString());
    for (it->SeekToLast(); it->Valid(); it->Prev()) backward.push_back(it->key().ToString());
    ASSERT_TRUE(it->status().ok());
    std::reverse(backward.begin(), backward.end());
    ASSERT_EQ(forward, expected) << "[" << lower << ", " << upper << ")";
    ASSERT_EQ(backward, expected) << "[" << lower << ", " << upper << ")";
    // Seeks outside the bounds land on the bounds.
    it->Seek("");
    ASSERT_EQ(it->Valid() ? it->key().ToString() : "", expected.empty() ? "" : expected.front());
    it->SeekForPrev("z");
    ASSERT_EQ(it->Valid() ? it->key().ToString() : "", expected.empty() ? "" : expected.back());
  }
}

}  // namespace
}  // namespace columnar
