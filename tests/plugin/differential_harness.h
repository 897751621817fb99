// A differential harness: the same random stream of writes, deletes, merges, entities,
// snapshots, flushes, compactions and reopens goes to a database using BlockBasedTable and one
// using the table factory under test; every read must return the same thing from both.
//
// RocksDB itself (with its own table format) is the reference model, so anything the table
// format gets wrong -- a missing version, a wrong order, a lost tombstone -- shows up as a
// difference.
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>
#include <rocksdb/wide_columns.h>
#include <rocksdb/write_batch.h>

#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tests/plugin/test_db.h"

namespace columnar {

// Appends operands with ',' (an associative merge both databases share).
class AppendMergeOperator : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice& /*key*/, const rocksdb::Slice* existing,
             const rocksdb::Slice& value, std::string* new_value,
             rocksdb::Logger* /*logger*/) const override {
    new_value->assign(existing != nullptr ? existing->ToString() + "," : "");
    new_value->append(value.data(), value.size());
    return true;
  }
  const char* Name() const override { return "test.append"; }
};

struct DifferentialOptions {
  uint64_t seed = 1;
  size_t operations = 5000;
  size_t key_space = 1500;
  // How often (in operations) the full comparison runs.
  size_t verify_every = 1000;
  bool allow_reopen = true;
  // Adjusts the options of the database under test (table factory, prefix extractor ...).
  std::function<void(rocksdb::Options*)> configure_test;
  // Adjusts both databases' options.
  std::function<void(rocksdb::Options*)> configure_both;
  // Optional generators for the main key space and its values (for example well-formed rows
  // of a table schema); the harness's own are used when unset or when they return nullopt.
  std::function<std::optional<std::string>(std::mt19937_64&)> random_key;
  std::function<std::optional<std::string>(std::mt19937_64&)> random_value;
};

class DifferentialHarness {
 public:
  DifferentialHarness(const std::string& name, DifferentialOptions options);
  ~DifferentialHarness();

  // Runs the whole random stream; ADD_FAILUREs on the first mismatches and returns false.
  bool Run();

  // One random operation (write, snapshot, flush, compaction or reopen).
  void Step();
  // Compares everything readable, latest and at every live snapshot.
  bool VerifyAll();

  rocksdb::DB* reference() { return reference_.get(); }
  rocksdb::DB* tested() { return tested_.get(); }
  std::mt19937_64& rng() { return rng_; }
  std::string RandomKey();

  // A pair of snapshots taken at the same logical point.
  struct SnapshotPair {
    const rocksdb::Snapshot* reference;
    const rocksdb::Snapshot* tested;
  };
  // Compares reads of both databases at `pair` (null snapshots = latest).
  bool Compare(const SnapshotPair& pair, const std::string& where);

 private:
  rocksdb::Options MakeOptions(bool tested) const;
  void Open();
  void Close();
  void RandomWrite();
  void RandomBatch();
  std::string RandomValue();
  void ReleaseAllSnapshots();
  void MakeReadOptions(const SnapshotPair& pair, rocksdb::ReadOptions* ro_ref,
                       rocksdb::ReadOptions* ro_test) const;
  bool CompareScans(const SnapshotPair& pair, const std::string& where);
  bool ComparePrefixWalks(const SnapshotPair& pair, const std::string& where);
  bool CompareSeeks(const SnapshotPair& pair, const std::string& where);
  bool ComparePointReads(const SnapshotPair& pair, const std::string& where);

  TempDir dir_;
  DifferentialOptions options_;
  std::mt19937_64 rng_;
  std::shared_ptr<rocksdb::MergeOperator> merge_operator_;
  std::unique_ptr<rocksdb::DB> reference_;
  std::unique_ptr<rocksdb::DB> tested_;
  std::vector<SnapshotPair> snapshots_;
  size_t single_delete_next_ = 0;
  size_t prefix_length_ = 0;
  size_t failures_ = 0;
};

}  // namespace columnar
