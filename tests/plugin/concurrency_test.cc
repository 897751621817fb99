// ColumnarTable readers shared between threads (RocksDB shares one table reader among all
// threads): reads at published snapshots on several threads while one thread writes, flushes
// and compacts, compared with BlockBasedTable; and many threads reading the same files
// through a cache far too small for them, so row groups are evicted while others use them.
#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "plugin/columnar_table.h"
#include "tests/plugin/differential_harness.h"
#include "tests/plugin/sst_file_fixtures.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

// ---------------------------------------------------------------------------------------------
// Readers against the differential harness's writer.

// A snapshot of each database taken at the same point of the write stream; released when the
// last reader lets go of it.
struct PublishedSnapshots {
  PublishedSnapshots(rocksdb::DB* reference_db, rocksdb::DB* tested_db)
      : reference_db(reference_db),
        tested_db(tested_db),
        reference(reference_db->GetSnapshot()),
        tested(tested_db->GetSnapshot()) {}
  ~PublishedSnapshots() {
    reference_db->ReleaseSnapshot(reference);
    tested_db->ReleaseSnapshot(tested);
  }
  rocksdb::DB* reference_db;
  rocksdb::DB* tested_db;
  const rocksdb::Snapshot* reference;
  const rocksdb::Snapshot* tested;
};

class SnapshotBoard {
 public:
  void Publish(std::shared_ptr<const PublishedSnapshots> snapshots) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (board_.size() == kKept) board_.erase(board_.begin());
    board_.push_back(std::move(snapshots));
  }
  std::shared_ptr<const PublishedSnapshots> Pick(std::mt19937_64& rng) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return board_.empty() ? nullptr : board_[rng() % board_.size()];
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    board_.clear();
  }

 private:
  static constexpr size_t kKept = 4;
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<const PublishedSnapshots>> board_;
};

// Keys in the harness's namespaces ("k", "e", "s") and around them.
std::string ReaderKey(std::mt19937_64& rng, size_t key_space) {
  char buf[32];
  switch (rng() % 4) {
    case 0:
      snprintf(buf, sizeof(buf), "e%05llu",
               static_cast<unsigned long long>(rng() % (key_space / 4 + 1)));
      break;
    case 1:
      snprintf(buf, sizeof(buf), "s%07llu", static_cast<unsigned long long>(rng() % 400));
      break;
    default:
      snprintf(buf, sizeof(buf), "k%06llu", static_cast<unsigned long long>(rng() % key_space));
  }
  return buf;
}

std::string IteratorEntry(rocksdb::Iterator* it) {
  return it->Valid() ? it->key().ToString() + "=>" + it->value().ToString() : "(end)";
}

class SnapshotReader {
 public:
  SnapshotReader(const PublishedSnapshots& snapshots, std::mt19937_64* rng, size_t key_space)
      : snapshots_(snapshots), rng_(*rng), key_space_(key_space) {
    reference_options_.snapshot = snapshots.reference;
    tested_options_.snapshot = snapshots.tested;
  }

  // Compares a scan in each direction, seek walks and point reads; false on a difference.
  bool CompareAll() { return CompareScans() && CompareSeeks() && ComparePointReads(); }

 private:
  bool Differs(rocksdb::Iterator* a, rocksdb::Iterator* b, const std::string& where) {
    if (IteratorEntry(a) == IteratorEntry(b) && a->status().code() == b->status().code())
      return false;
    ADD_FAILURE() << where << ": reference " << IteratorEntry(a) << " " << a->status().ToString()
                  << ", tested " << IteratorEntry(b) << " " << b->status().ToString();
    return true;
  }

  bool CompareScans() {
    std::unique_ptr<rocksdb::Iterator> a(snapshots_.reference_db->NewIterator(reference_options_));
    std::unique_ptr<rocksdb::Iterator> b(snapshots_.tested_db->NewIterator(tested_options_));
    for (a->SeekToFirst(), b->SeekToFirst();; a->Next(), b->Next()) {
      if (Differs(a.get(), b.get(), "forward scan")) return false;
      if (!a->Valid()) break;
    }
    for (a->SeekToLast(), b->SeekToLast();; a->Prev(), b->Prev()) {
      if (Differs(a.get(), b.get(), "backward scan")) return false;
      if (!a->Valid()) break;
    }
    return true;
  }

  bool CompareSeeks() {
    std::unique_ptr<rocksdb::Iterator> a(snapshots_.reference_db->NewIterator(reference_options_));
    std::unique_ptr<rocksdb::Iterator> b(snapshots_.tested_db->NewIterator(tested_options_));
    for (int walk = 0; walk < 20; walk++) {
      const std::string target = ReaderKey(rng_, key_space_);
      const bool forward = walk % 2 == 0;
      if (forward) {
        a->Seek(target);
        b->Seek(target);
      } else {
        a->SeekForPrev(target);
        b->SeekForPrev(target);
      }
      for (int step = 0; step < 6 && a->Valid(); step++) {
        if (Differs(a.get(), b.get(), "seek walk from " + target)) return false;
        if ((rng_() % 3 == 0) != forward) {
          a->Next();
          b->Next();
        } else {
          a->Prev();
          b->Prev();
        }
      }
      if (Differs(a.get(), b.get(), "seek walk end from " + target)) return false;
    }
    return true;
  }

  bool ComparePointReads() {
    std::vector<std::string> keys;
    for (int i = 0; i < 30; i++) keys.push_back(ReaderKey(rng_, key_space_));
    for (const std::string& key : keys) {
      std::string va, vb;
      const rocksdb::Status sa = snapshots_.reference_db->Get(reference_options_, key, &va);
      const rocksdb::Status sb = snapshots_.tested_db->Get(tested_options_, key, &vb);
      if (sa.code() != sb.code() || va != vb) {
        ADD_FAILURE() << "Get(" << key << "): reference " << sa.ToString() << " " << va
                      << ", tested " << sb.ToString() << " " << vb;
        return false;
      }
    }
    std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
    std::vector<std::string> va, vb;
    const auto sa = snapshots_.reference_db->MultiGet(reference_options_, slices, &va);
    const auto sb = snapshots_.tested_db->MultiGet(tested_options_, slices, &vb);
    for (size_t i = 0; i < keys.size(); i++) {
      if (sa[i].code() != sb[i].code() || va[i] != vb[i]) {
        ADD_FAILURE() << "MultiGet(" << keys[i] << ") differs";
        return false;
      }
    }
    return true;
  }

  const PublishedSnapshots& snapshots_;
  std::mt19937_64& rng_;
  size_t key_space_;
  rocksdb::ReadOptions reference_options_;
  rocksdb::ReadOptions tested_options_;
};

TEST(ColumnarConcurrencyTest, ReadersAtSnapshotsMatchBlockBasedTableWhileWriting) {
  constexpr size_t kOperations = 3000;
  constexpr size_t kPublishEvery = 100;
  constexpr int kReaders = 3;
  DifferentialOptions options;
  options.seed = 101;
  options.key_space = 1200;
  options.allow_reopen = false;  // readers hold the databases
  options.configure_test = [](rocksdb::Options* o) {
    ColumnarTableOptions table;
    table.rows_per_group = 16;
    table.block_size = 2048;
    table.cache_size = 256 << 10;
    o->table_factory.reset(NewColumnarTableFactory(table));
  };
  DifferentialHarness harness("concurrent", options);
  SnapshotBoard board;
  board.Publish(std::make_shared<PublishedSnapshots>(harness.reference(), harness.tested()));

  std::atomic<bool> writing{true};
  std::atomic<bool> failed{false};
  std::atomic<size_t> comparisons{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < kReaders; r++) {
    readers.emplace_back([&, r] {
      std::mt19937_64 rng(1000 + r);
      while (writing.load() && !failed.load()) {
        const auto snapshots = board.Pick(rng);
        if (!SnapshotReader(*snapshots, &rng, options.key_space).CompareAll()) failed = true;
        comparisons++;
      }
    });
  }
  for (size_t op = 1; op <= kOperations && !failed.load(); op++) {
    harness.Step();
    if (::testing::Test::HasFatalFailure()) break;
    if (op % kPublishEvery == 0) {
      board.Publish(std::make_shared<PublishedSnapshots>(harness.reference(), harness.tested()));
    }
  }
  writing = false;
  for (std::thread& reader : readers) reader.join();
  board.Clear();
  EXPECT_FALSE(failed.load());
  EXPECT_GE(comparisons.load(), static_cast<size_t>(kReaders));
  EXPECT_TRUE(harness.VerifyAll());
}

// ---------------------------------------------------------------------------------------------
// Many readers, one set of files, a tiny cache.

class TinyCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ColumnarTableOptions table;
    table.rows_per_group = 32;
    table.block_size = 2048;
    table.cache_size = 16 << 10;  // a few row groups: every thread evicts the others' groups
    options_.create_if_missing = true;
    options_.write_buffer_size = 64 << 10;
    options_.compression = rocksdb::kZSTD;
    options_.table_factory.reset(NewColumnarTableFactory(table));
    db_ = OpenDb(options_, dir_.path());
    ASSERT_NE(db_, nullptr);
    for (int round = 0; round < 3; round++) {
      for (int i = round; i < 6000; i += 2 + round) {
        const std::string value = FixtureValue(i + round * 7);
        ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), FixtureKey(i), value).ok());
        model_[FixtureKey(i)] = value;
      }
      ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
    }
    ASSERT_TRUE(db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
    for (int i = 0; i < 6000; i += 5) {  // a second level of files over the compacted one
      ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), FixtureKey(i), "top").ok());
      model_[FixtureKey(i)] = "top";
    }
    ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
    keys_.assign(model_.size(), "");
    size_t k = 0;
    for (const auto& entry : model_) keys_[k++] = entry.first;
  }

  // One reader thread's work: Gets, MultiGets, short walks, a full scan with pinned data.
  void ReadRandomly(uint64_t seed, int rounds) {
    std::mt19937_64 rng(seed);
    for (int round = 0; round < rounds && !::testing::Test::HasFailure(); round++) {
      rocksdb::ReadOptions read_options;
      read_options.fill_cache = rng() % 4 != 0;
      switch (rng() % 4) {
        case 0:
          CheckGets(read_options, rng);
          break;
        case 1:
          CheckMultiGet(read_options, rng);
          break;
        case 2:
          CheckWalk(read_options, rng);
          break;
        default:
          if (round % 8 == 0) CheckPinnedScan();
      }
    }
  }

  void CheckGets(const rocksdb::ReadOptions& read_options, std::mt19937_64& rng) {
    for (int i = 0; i < 20; i++) {
      const int n = static_cast<int>(rng() % 6000);
      std::string value;
      const rocksdb::Status s = db_->Get(read_options, FixtureKey(n), &value);
      const auto expected = model_.find(FixtureKey(n));
      if (expected == model_.end()) {
        ASSERT_TRUE(s.IsNotFound()) << FixtureKey(n) << ": " << s.ToString();
      } else {
        ASSERT_TRUE(s.ok()) << s.ToString();
        ASSERT_EQ(value, expected->second) << FixtureKey(n);
      }
    }
  }

  void CheckMultiGet(const rocksdb::ReadOptions& read_options, std::mt19937_64& rng) {
    std::vector<std::string> keys;
    for (int i = 0; i < 16; i++) keys.push_back(keys_[rng() % keys_.size()]);
    std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
    std::vector<std::string> values;
    const auto statuses = db_->MultiGet(read_options, slices, &values);
    for (size_t i = 0; i < keys.size(); i++) {
      ASSERT_TRUE(statuses[i].ok()) << statuses[i].ToString();
      ASSERT_EQ(values[i], model_.at(keys[i]));
    }
  }

  void CheckWalk(const rocksdb::ReadOptions& read_options, std::mt19937_64& rng) {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read_options));
    const size_t start = rng() % keys_.size();
    it->Seek(keys_[start]);
    for (size_t k = start; k < std::min(keys_.size(), start + 100); k++, it->Next()) {
      ASSERT_TRUE(it->Valid()) << it->status().ToString();
      ASSERT_EQ(it->key().ToString(), keys_[k]);
      ASSERT_EQ(it->value().ToString(), model_.at(keys_[k]));
    }
    it->SeekForPrev(keys_[start]);
    for (size_t k = start + 1; k-- > (start > 100 ? start - 100 : 0); it->Prev()) {
      ASSERT_TRUE(it->Valid()) << it->status().ToString();
      ASSERT_EQ(it->key().ToString(), keys_[k]);
    }
  }

  // With pin_data, keys and values stay valid until the iterator goes away, even when the
  // cache evicts what they point into.
  void CheckPinnedScan() {
    rocksdb::ReadOptions read_options;
    read_options.pin_data = true;
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read_options));
    std::vector<std::pair<rocksdb::Slice, rocksdb::Slice>> seen;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      std::string pinned;
      ASSERT_TRUE(it->GetProperty("rocksdb.iterator.is-key-pinned", &pinned).ok());
      ASSERT_EQ(pinned, "1");
      seen.emplace_back(it->key(), it->value());
    }
    ASSERT_TRUE(it->status().ok()) << it->status().ToString();
    ASSERT_EQ(seen.size(), keys_.size());
    for (size_t k = 0; k < seen.size(); k++) {
      ASSERT_EQ(seen[k].first.ToString(), keys_[k]);
      ASSERT_EQ(seen[k].second.ToString(), model_.at(keys_[k]));
    }
  }

  TempDir dir_{"tiny-cache"};
  rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
  std::map<std::string, std::string> model_;
  std::vector<std::string> keys_;
};

TEST_F(TinyCacheTest, ManyThreadsReadTheSameFiles) {
  constexpr int kThreads = 8;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([this, t] { ReadRandomly(500 + t, 60); });
  }
  for (std::thread& thread : threads) thread.join();
  // Everything read again, single-threaded, after all that eviction.
  ExpectReadsMatch(db_.get(), model_, "after the concurrent reads");
}

}  // namespace
}  // namespace columnar
