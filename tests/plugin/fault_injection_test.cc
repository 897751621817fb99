// Reads of ColumnarTable files through a FileSystem that fails at random: opening a file, a
// read returning an I/O error, or a short read (fewer bytes than asked, no error). Every Get,
// MultiGet and scan must then either return an error Status or exactly the data written --
// never wrong data, a missing key or a crash -- and once the faults stop, the same database
// (after Resume when a background compaction failed, and after a reopen) must read everything
// correctly again: no failed read may leave anything wrong in the caches.
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/file_system.h>

#include <atomic>
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

// Decides which operations fail; shared by every file of the file system.
class FaultPolicy {
 public:
  void Enable(bool on) { enabled_ = on; }
  // Per mille of reads that fail, of reads cut short, of file opens that fail.
  void SetRates(int error, int short_read, int open_error) {
    error_ = error;
    short_ = short_read;
    open_error_ = open_error;
  }
  bool FailRead() { return Roll(error_, &errors_); }
  bool ShortRead() { return Roll(short_, &short_reads_); }
  bool FailOpen() { return Roll(open_error_, &open_errors_); }
  uint64_t injected() const { return errors_ + short_reads_ + open_errors_; }
  uint64_t short_reads() const { return short_reads_; }

 private:
  bool Roll(int per_mille, std::atomic<uint64_t>* count) {
    if (!enabled_) return false;
    thread_local std::mt19937 rng(std::random_device{}());
    if (static_cast<int>(rng() % 1000) >= per_mille) return false;
    (*count)++;
    return true;
  }

  std::atomic<bool> enabled_{false};
  int error_ = 0;
  int short_ = 0;
  int open_error_ = 0;
  std::atomic<uint64_t> errors_{0};
  std::atomic<uint64_t> short_reads_{0};
  std::atomic<uint64_t> open_errors_{0};
};

class FaultyRandomAccessFile : public rocksdb::FSRandomAccessFileOwnerWrapper {
 public:
  FaultyRandomAccessFile(std::unique_ptr<rocksdb::FSRandomAccessFile> file, FaultPolicy* policy)
      : FSRandomAccessFileOwnerWrapper(std::move(file)), policy_(policy) {}

  rocksdb::IOStatus Read(uint64_t offset, size_t n, const rocksdb::IOOptions& options,
                         rocksdb::Slice* result, char* scratch,
                         rocksdb::IODebugContext* dbg) const override {
    if (policy_->FailRead()) return rocksdb::IOStatus::IOError("injected read error");
    if (n > 1 && policy_->ShortRead()) {
      // Fewer bytes than asked for, without an error (as at end of file).
      return target()->Read(offset, n / 2, options, result, scratch, dbg);
    }
    return target()->Read(offset, n, options, result, scratch, dbg);
  }

  // Each request through Read, so every one can fail on its own.
  rocksdb::IOStatus MultiRead(rocksdb::FSReadRequest* reqs, size_t num_reqs,
                              const rocksdb::IOOptions& options,
                              rocksdb::IODebugContext* dbg) override {
    for (size_t i = 0; i < num_reqs; i++) {
      reqs[i].status =
          Read(reqs[i].offset, reqs[i].len, options, &reqs[i].result, reqs[i].scratch, dbg);
    }
    return rocksdb::IOStatus::OK();
  }

 private:
  FaultPolicy* policy_;
};

// Faults in table files (*.sst) only: the WAL, MANIFEST and OPTIONS files stay intact, so
// what is tested is how table reads fail, not RocksDB's recovery of its own logs.
class FaultyFileSystem : public rocksdb::FileSystemWrapper {
 public:
  explicit FaultyFileSystem(FaultPolicy* policy)
      : FileSystemWrapper(rocksdb::FileSystem::Default()), policy_(policy) {}
  const char* Name() const override { return "FaultyFileSystem"; }

  rocksdb::IOStatus NewRandomAccessFile(const std::string& name,
                                        const rocksdb::FileOptions& options,
                                        std::unique_ptr<rocksdb::FSRandomAccessFile>* file,
                                        rocksdb::IODebugContext* dbg) override {
    const bool table_file = name.size() > 4 && name.compare(name.size() - 4, 4, ".sst") == 0;
    if (table_file && policy_->FailOpen()) {
      return rocksdb::IOStatus::IOError("injected open error");
    }
    rocksdb::IOStatus s = target()->NewRandomAccessFile(name, options, file, dbg);
    if (s.ok() && table_file) {
      *file = std::make_unique<FaultyRandomAccessFile>(std::move(*file), policy_);
    }
    return s;
  }

 private:
  FaultPolicy* policy_;
};

using Model = std::map<std::string, std::string>;

struct ReadTally {
  uint64_t ok = 0;
  uint64_t errors = 0;
};

// A point read: the right value, NotFound for a key never written (or deleted), or an error.
void CheckGet(rocksdb::DB* db, const Model& model, const std::string& key, ReadTally* outcome) {
  std::string value;
  const rocksdb::Status s = db->Get(rocksdb::ReadOptions(), key, &value);
  const auto it = model.find(key);
  if (s.ok()) {
    ASSERT_TRUE(it != model.end()) << key << " read but never written";
    ASSERT_EQ(value, it->second) << key;
    outcome->ok++;
  } else if (s.IsNotFound()) {
    ASSERT_TRUE(it == model.end()) << key << " reported missing: wrong data";
    outcome->ok++;
  } else {
    outcome->errors++;
  }
}

void CheckMultiGet(rocksdb::DB* db, const Model& model, const std::vector<std::string>& keys,
                   ReadTally* outcome) {
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<std::string> values;
  const std::vector<rocksdb::Status> statuses =
      db->MultiGet(rocksdb::ReadOptions(), slices, &values);
  for (size_t i = 0; i < keys.size(); i++) {
    const auto it = model.find(keys[i]);
    if (statuses[i].ok()) {
      ASSERT_TRUE(it != model.end()) << keys[i];
      ASSERT_EQ(values[i], it->second) << keys[i];
      outcome->ok++;
    } else if (statuses[i].IsNotFound()) {
      ASSERT_TRUE(it == model.end()) << keys[i] << " reported missing: wrong data";
      outcome->ok++;
    } else {
      outcome->errors++;
    }
  }
}

// Up to `steps` entries from `start`, forward or backward: each must be the model's next entry;
// the scan may end early only with an error status.
void CheckScan(rocksdb::DB* db, const Model& model, const std::string& start, bool forward,
               int steps, ReadTally* outcome) {
  // The options have a prefix extractor: scans that cross partitions need total order.
  rocksdb::ReadOptions read;
  read.total_order_seek = true;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(read));
  if (forward) {
    it->Seek(start);
    auto expected = model.lower_bound(start);
    int i = 0;
    for (; it->Valid(); it->Next()) {
      ASSERT_TRUE(expected != model.end()) << it->key().ToString() << " past the last key";
      ASSERT_EQ(it->key().ToString(), expected->first);
      ASSERT_EQ(it->value().ToString(), expected->second) << expected->first;
      ++expected;
      if (++i == steps) break;
    }
    if (!it->status().ok()) {
      outcome->errors++;
      return;
    }
    if (!it->Valid()) {
      ASSERT_TRUE(expected == model.end())
          << "forward scan from " << start << " ended without error after " << i << " entries, at "
          << expected->first;
    }
  } else {
    it->SeekForPrev(start);
    auto expected = model.upper_bound(start);  // reverse: entries before this
    int i = 0;
    for (; it->Valid(); it->Prev()) {
      ASSERT_TRUE(expected != model.begin()) << it->key().ToString() << " before the first key";
      --expected;
      ASSERT_EQ(it->key().ToString(), expected->first);
      ASSERT_EQ(it->value().ToString(), expected->second) << expected->first;
      if (++i == steps) break;
    }
    if (!it->status().ok()) {
      outcome->errors++;
      return;
    }
    if (!it->Valid()) {
      ASSERT_TRUE(expected == model.begin())
          << "backward scan from " << start << " ended without error after " << i
          << " entries, before " << (expected == model.end() ? "<end>" : expected->first);
    }
  }
  outcome->ok++;
}

rocksdb::Options FaultOptions(bool compressed, rocksdb::Env* env) {
  rocksdb::Options options = ColumnarFileOptions(compressed);
  options.env = env;
  // Point reads only: ColumnarFileOptions' append merge operator is not needed.
  ColumnarTableOptions table = *options.table_factory->GetOptions<ColumnarTableOptions>();
  table.cache_size = 64 << 10;  // a tiny cache: reads keep going to the files
  options.table_factory.reset(NewColumnarTableFactory(table));
  options.max_open_files = 8;  // table readers are closed and reopened (open faults)
  options.disable_auto_compactions = true;
  return options;
}

void RunFaultInjection(bool compressed) {
  TempDir dir(compressed ? "faults-compressed" : "faults");
  FaultPolicy policy;
  auto fs = std::make_shared<FaultyFileSystem>(&policy);
  std::unique_ptr<rocksdb::Env> env = rocksdb::NewCompositeEnv(fs);
  const rocksdb::Options options = FaultOptions(compressed, env.get());

  Model model;
  std::unique_ptr<rocksdb::DB> db = OpenDb(options, dir.path());
  ASSERT_TRUE(db != nullptr);
  constexpr int kKeys = 6000;
  for (int file = 0; file < 4; file++) {
    for (int i = file; i < kKeys; i += 4) {
      const std::string key = FixtureKey(i);
      if (i % 13 == 0 && file > 0) {
        ASSERT_TRUE(db->Delete(rocksdb::WriteOptions(), FixtureKey(i - 1)).ok());
        model.erase(FixtureKey(i - 1));
      }
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, FixtureValue(i + file)).ok());
      model[key] = FixtureValue(i + file);
    }
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  }

  std::mt19937 rng(compressed ? 7 : 11);
  auto random_key = [&] { return FixtureKey(static_cast<int>(rng() % (kKeys + 50))); };
  policy.SetRates(/*error=*/30, /*short_read=*/30, /*open_error=*/30);
  policy.Enable(true);
  ReadTally outcome;
  bool compaction_failed = false;
  for (int round = 0; round < 1500; round++) {
    switch (rng() % 5) {
      case 0:
      case 1:
        CheckGet(db.get(), model, random_key(), &outcome);
        break;
      case 2: {
        std::vector<std::string> keys;
        for (int k = 0; k < 8; k++) keys.push_back(random_key());
        CheckMultiGet(db.get(), model, keys, &outcome);
        break;
      }
      default:
        CheckScan(db.get(), model, random_key(), rng() % 2 == 0, 150, &outcome);
        break;
    }
    if (::testing::Test::HasFatalFailure()) return;
    if (round == 700) {
      // A compaction reading through the faults fails as a whole or not at all.
      compaction_failed = !db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok();
    }
  }
  // Reopening with faults: the open may fail, but retrying works.
  db.reset();
  for (int attempt = 0; attempt < 50 && db == nullptr; attempt++) {
    rocksdb::DB* raw = nullptr;
    if (rocksdb::DB::Open(options, dir.path(), &raw).ok()) db.reset(raw);
  }
  ASSERT_TRUE(db != nullptr) << "50 opens failed";
  for (int round = 0; round < 300; round++) {
    CheckScan(db.get(), model, random_key(), true, 100, &outcome);
    CheckGet(db.get(), model, random_key(), &outcome);
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_GT(policy.injected(), 100u);
  EXPECT_GT(policy.short_reads(), 10u);
  EXPECT_GT(outcome.errors, 10u) << "the faults never reached a read";
  EXPECT_GT(outcome.ok, 100u);

  // Faults stop: everything reads right again, in the same process and caches.
  policy.Enable(false);
  rocksdb::Status s = db->Resume();
  ASSERT_TRUE(s.ok()) << s.ToString();
  ReadTally clean;
  CheckScan(db.get(), model, "", true, kKeys * 2, &clean);
  CheckScan(db.get(), model, "\xff", false, kKeys * 2, &clean);
  for (int i = 0; i < kKeys + 50; i += 3) CheckGet(db.get(), model, FixtureKey(i), &clean);
  if (::testing::Test::HasFatalFailure()) return;
  EXPECT_EQ(clean.errors, 0u);
  s = db->VerifyChecksum();
  EXPECT_TRUE(s.ok()) << s.ToString();
  s = db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
  EXPECT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "zz-after-faults", "v").ok());
  model["zz-after-faults"] = "v";
  CheckScan(db.get(), model, "", true, kKeys * 2, &clean);
  EXPECT_EQ(clean.errors, 0u);
  std::printf(
      "faults (%s): %llu injected, %llu reads ok, %llu errors, compaction under "
      "faults %s\n",
      compressed ? "compressed" : "plain", static_cast<unsigned long long>(policy.injected()),
      static_cast<unsigned long long>(outcome.ok), static_cast<unsigned long long>(outcome.errors),
      compaction_failed ? "failed" : "succeeded");
}

TEST(FaultInjectionTest, ReadFaultsAreStatusesNeverWrongDataAndTheDatabaseRecovers) {
  RunFaultInjection(/*compressed=*/false);
}

TEST(FaultInjectionTest, CompressedFilesUnderReadFaults) { RunFaultInjection(/*compressed=*/true); }

}  // namespace
}  // namespace columnar
