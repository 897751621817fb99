// PartitionDeletions: the partition deletions of one table, kept so that writes arriving after a
// partition DELETE with a timestamp at or below the deletion's stay hidden, as in Cassandra
// (docs/cell_semantics.md).
//
// A partition DELETE removes the rows it hides when it is written (a range deletion, or row by
// row when the partition may hold newer cells), and raises its partition's high-water mark to
// its timestamp (write_order.h): every later write at or below it then takes the merge path,
// which asks this class for the partition's deletion and drops what it hides. Reads never need
// it: nothing the deletion hides is stored.
//
// Stored in the database's default column family, in the WriteBatch of the deletion itself (so a
// crash keeps both or neither), one entry per deleted partition:
//
//   key:   "columnar.partition_deletion/" <table> "/" <encoded partition key>
//   value: [deletion timestamp: fixed64 LE, microseconds, two's complement]
//          [local deletion time: fixed64 LE, seconds since the epoch, two's complement]
//
// The local deletion time is when the DELETE ran on this node: Cassandra purges a deletion
// gc_grace_seconds after it, and so does Find (an entry past it is ignored, and overwritten or
// removed by the next deletion of its partition, DROP TABLE or TRUNCATE).
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <atomic>
#include <cstdint>
#include <string>

#include "table_format/types.h"

namespace columnar {

class PartitionDeletions {
 public:
  // `metadata` is where entries are stored (the default column family); `table` names them.
  PartitionDeletions(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* metadata,
                     const std::string& table);

  // Learns whether the table has any entry, so that tables never partition-deleted skip the
  // lookup on their merges.
  Status Load();
  // Makes every lookup read the database (when Load failed).
  void AssumeSome() { any_.store(true); }

  // The deletion timestamp of `partition` (an encoded partition key) that still applies at
  // `now_seconds` with `gc_grace_seconds`; *found false when there is none.
  Status Find(const Slice& partition, int64_t now_seconds, int64_t gc_grace_seconds, bool* found,
              int64_t* deletion_time_micros) const;

  // Adds to `batch` the entry of a deletion of `partition` at `deletion_time_micros`, made at
  // `now_seconds` (replacing the stored one: the caller passes the later of the two, looked up
  // with Find under the partition's lock, write_order.h).
  Status Add(const Slice& partition, int64_t deletion_time_micros, int64_t now_seconds,
             rocksdb::WriteBatch* batch);

  // Deletes every entry of the table (DROP TABLE, TRUNCATE, and CREATE TABLE in case a dropped
  // table of the same name left some behind).
  Status DeleteAll(const rocksdb::WriteOptions& options);

 private:
  std::string KeyOf(const Slice& partition) const;
  // Whether the table has an entry stored.
  Status AnyStored(bool* any) const;

  rocksdb::DB* db_;
  rocksdb::ColumnFamilyHandle* metadata_;
  const std::string prefix_;
  std::atomic<bool> any_{false};
};

}  // namespace columnar
