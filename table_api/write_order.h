// WriteOrder: the order of one table's writes and its server clock, which decide whether a
// write may be a blind Put (Cassandra cell semantics, docs/cell_semantics.md).
//
// A whole-row INSERT is a blind Put only when its timestamp is above every timestamp ever
// written to its key: then each of its cells wins over anything stored, and the Put is the row
// Cassandra's rules give. The bound is kept per bucket of partitions (65,536 buckets by a hash
// of the encoded partition key, each the highest timestamp written to any key of its
// partitions): time series write increasing timestamps per partition, so ingestion with client
// timestamps (event time plus jitter across series) stays blind; a collision only costs a
// merge. Every other write (partial INSERT, UPDATE,
// cell and row deletions, and whole rows at or below the mark) is a read-modify-write.
// For both to be right, writes to a key must reach RocksDB in the order their timestamps and
// reads were taken: each write takes a ticket (and, for the server clock, a timestamp) when
// it starts, encodes its rows in parallel with other writers, then waits for its turn, in
// ticket order, to check the mark, read what it merges with, write, and raise the mark.
//
// The server clock is monotonic within the process: max(now, last + 1) microseconds, so two
// writes never share a server timestamp. The high-water mark survives reopening as an upper
// bound stored in the database's default column family under
// "columnar.write_high_water/<table>" (decimal microseconds), raised (with 1 s of slack, so at
// most about once a second under steady ingestion) in the same WriteBatch as the write that
// passes it. After a reopen, writes at or below the stored bound are merged, never blind.
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "table_format/types.h"

namespace columnar {

class WriteOrder {
 public:
  // `metadata` is where the mark is stored (the default column family); `table` names it.
  WriteOrder(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* metadata, std::string table,
             std::function<int64_t()> now_micros);

  // Reads the stored mark (none: nothing written yet). A malformed stored mark is Corruption,
  // and leaves the mark at its maximum: every write then merges (slower, never wrong).
  Status Load();

  // One write's place in the order. Ends (lets the next write in) when destroyed.
  class Ticket {
   public:
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    ~Ticket();
    // The server timestamp taken with the ticket (microseconds).
    int64_t server_time() const { return server_time_; }
    // The clock reading the ticket was taken at (for TTLs).
    int64_t now_micros() const { return now_micros_; }
    // Waits until every earlier ticket has ended. The calls below need the turn.
    void WaitTurn();
    // Whether a write at `timestamp` to a key of partition `partition` (encoded) is above
    // everything written to that partition's bucket before this turn (writes of the turn's own
    // batch to the same key are the caller's to merge).
    bool AboveHighWater(const Slice& partition, int64_t timestamp) const;
    // Records that a write at `timestamp` to `partition` is part of this turn's batch; adds the
    // stored mark's update to `batch` when it passes the stored bound.
    void Raise(const Slice& partition, int64_t timestamp, rocksdb::WriteBatch* batch);
    // Call once the batch was written: the raised mark becomes the table's.
    void Committed();

   private:
    friend class WriteOrder;
    Ticket(WriteOrder* order, uint64_t number, int64_t server_time, int64_t now_micros);
    WriteOrder* order_;
    uint64_t number_;
    int64_t server_time_;
    int64_t now_micros_;
    bool turn_ = false;
    int64_t pending_high_water_ = INT64_MIN;
    std::vector<std::pair<size_t, int64_t>> raised_;  // bucket, timestamp
    int64_t pending_stored_ = INT64_MIN;
  };

  std::unique_ptr<Ticket> Begin();

  // The key of `table`'s stored mark in the metadata column family.
  static std::string HighWaterKey(const std::string& table);
  // Deletes the stored mark (DROP TABLE); best effort.
  Status DeleteStored();

 private:
  rocksdb::DB* db_;
  rocksdb::ColumnFamilyHandle* metadata_;
  const std::string key_;
  std::function<int64_t()> now_micros_;

  std::mutex mutex_;
  std::condition_variable turn_changed_;
  uint64_t next_ticket_ = 0;
  uint64_t serving_ = 0;  // the ticket whose turn it is
  int64_t last_server_time_ = INT64_MIN;
  static size_t BucketOf(const Slice& partition);
  // Read and written by the ticket holding the turn only.
  std::vector<int64_t> buckets_;  // per partition bucket: the highest timestamp written
  int64_t high_water_ = INT64_MIN;
  int64_t stored_high_water_ = INT64_MIN;
};

}  // namespace columnar
