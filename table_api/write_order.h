// WriteOrder: one table's server clock, its high-water marks and the locks that order writes to
// the same partitions; together they decide whether a write may be a blind Put (Cassandra cell
// semantics, docs/cell_semantics.md).
//
// A whole-row INSERT is a blind Put only when its timestamp is above every timestamp ever
// written to its key: then each of its cells wins over anything stored, and the Put is the row
// Cassandra's rules give. The bound is kept per bucket of partitions (65,536 buckets by a hash
// of the encoded partition key, each the highest timestamp written to any key of its
// partitions): time series write increasing timestamps per partition, so ingestion with client
// timestamps (event time plus jitter across series) stays blind; a collision only costs a
// merge. Every other write (partial INSERT, UPDATE, cell and row deletions, and whole rows at
// or below the mark) is a read-modify-write.
//
// For both to be right, a read-modify-write and any other write to the same key must not
// interleave. A write locks the buckets of the partitions it writes (striped mutexes, taken in
// ascending order, so two batches never deadlock), checks the marks, reads what it merges with,
// writes its WriteBatch and raises the marks before it unlocks. Writes to other partitions go
// on in parallel and keep RocksDB's group commit; validation and encoding happen before the
// lock.
//
// The server clock is monotonic within the process: max(now, last + 1) microseconds, so two
// writes never share a server timestamp. It is read before the lock, so a write may find its
// partition's mark already above its server time (another writer of the partition locked
// first); it then merges, which is slower but gives the same row.
//
// The marks survive reopening as one upper bound stored in the database's default column family
// under "columnar.write_high_water/<table>" (decimal microseconds). A write whose timestamp
// passes the stored bound raises it (with 1 s of slack, so about once a second under steady
// ingestion) in its own WriteBatch, holding the bound's mutex until the batch is written: a
// write never reaches RocksDB above a bound that is not yet stored. After a reopen every bucket
// starts at the stored bound, so writes at or below it are merged, never blind.
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "table_format/types.h"

namespace columnar {

class WriteOrder {
 public:
  // `metadata` is where the bound is stored (the default column family); `table` names it.
  WriteOrder(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* metadata, std::string table,
             std::function<int64_t()> now_micros);

  // Reads the stored bound (none: nothing written yet). A malformed stored bound is Corruption,
  // and leaves the marks at their maximum: every write then merges (slower, never wrong).
  Status Load();

  // The clock's reading, in microseconds (for TTLs).
  int64_t NowMicros() const { return now_micros_(); }
  // The next server timestamp: max(now, previous + 1) microseconds.
  int64_t NextServerTime();

  // The locks of the partitions one WriteBatch writes. Unlocks when destroyed.
  class Turn {
   public:
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;
    ~Turn();
    // Whether a write at `timestamp` to a key of partitions[i] (of the Lock call) is above
    // everything written to that partition's bucket before this turn. Writes of the turn's own
    // batch to the same key are the caller's to merge.
    bool AboveHighWater(size_t i, int64_t timestamp) const;
    // Records that the batch writes partitions[i] at `timestamp`.
    void Raise(size_t i, int64_t timestamp);
    // Before the batch is written: adds the stored bound's update to `batch` when the batch
    // passes it (and keeps the bound's mutex until Written()).
    void AddStoredBound(rocksdb::WriteBatch* batch);
    // After the batch was written (`ok`: successfully). Raises the marks either way (higher
    // marks only cost merges); the stored bound moves only when it was written.
    void Written(bool ok);

   private:
    friend class WriteOrder;
    Turn(WriteOrder* order, std::vector<size_t> buckets);
    WriteOrder* order_;
    std::vector<size_t> buckets_;                     // of the Lock call's partitions, in order
    std::vector<size_t> stripes_;                     // locked, ascending
    std::vector<std::pair<size_t, int64_t>> raised_;  // bucket, timestamp
    int64_t batch_high_ = INT64_MIN;
    std::unique_lock<std::mutex> stored_lock_;
    int64_t pending_stored_ = INT64_MIN;
  };

  // Locks the buckets of `partitions` (encoded partition keys; duplicates allowed).
  std::unique_ptr<Turn> Lock(const std::vector<Slice>& partitions);

  // The key of `table`'s stored bound in the metadata column family.
  static std::string HighWaterKey(const std::string& table);
  // Deletes the stored bound (DROP TABLE); best effort.
  Status DeleteStored();

 private:
  static size_t BucketOf(const Slice& partition);

  rocksdb::DB* db_;
  rocksdb::ColumnFamilyHandle* metadata_;
  const std::string key_;
  std::function<int64_t()> now_micros_;
  std::atomic<int64_t> last_server_time_{INT64_MIN};

  // Bucket b is guarded by stripe b % stripes: the highest timestamp written to its partitions.
  std::unique_ptr<std::mutex[]> stripe_locks_;
  std::vector<int64_t> buckets_;

  // The bound stored in the database: every written timestamp is at or below it.
  std::mutex stored_mutex_;  // held by a turn raising it, from AddStoredBound to Written
  std::atomic<int64_t> stored_high_water_{INT64_MIN};
};

}  // namespace columnar
