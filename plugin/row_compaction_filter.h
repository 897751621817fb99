// RowCompactionFilter: the column-aware compaction filter of a Table API table. During every
// compaction, for each Put whose value is a row of the table's schema:
//   - a row whose expiry has passed (expiry <= the clock's now, in seconds) is removed (RocksDB
//     turns the removal into a deletion marker, so no older version of the key resurfaces);
//   - a row still holding values of columns dropped by ALTER TABLE ... DROP is rewritten with
//     those cells null, at its own schema version (at a newer one a format-1 row would delete
//     the columns added since);
//
// Rows with per-cell metadata (row codec format 2, Cassandra's cell semantics) get the same per
// cell: expired cells and liveness are dropped, dropped columns removed, row and cell deletions
// (tombstones) older than the table's gc_grace_seconds (default 864000, as Cassandra) are
// purged, and a row left with nothing at all is removed. Until then tombstones stay, since they
// hide writes that arrive late with older timestamps. Cassandra counts gc_grace_seconds from
// the local time of the deletion, which rows do not store; here it counts from the deletion's
// timestamp (the same for deletions made with the server clock).
// Every other entry (deletions, merge operands, values that are not rows) is kept as is.
// RocksDB counts removals in its statistics (compaction.key.drop.user); the factory's Stats
// count each kind. Only public RocksDB headers here.
#pragma once

#include <rocksdb/compaction_filter.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

#include "table_format/schema.h"

namespace columnar {

class RowCompactionFilterFactory : public rocksdb::CompactionFilterFactory {
 public:
  struct Stats {
    std::atomic<uint64_t> rows_expired{0};
    std::atomic<uint64_t> tombstones_purged{0};  // deletions past gc_grace_seconds, row removed
    std::atomic<uint64_t> rows_rewritten{0};     // dropped columns removed
    std::atomic<uint64_t> rows_kept{0};  // rows whose header alone keeps them are not decoded
    // Not rows of the schema, or rows to remove or rewrite whose cells do not decode: kept.
    std::atomic<uint64_t> other_entries{0};
  };

  // `now_micros`: the clock expiry is judged by (the Table API's).
  RowCompactionFilterFactory(std::shared_ptr<const TableSchema> schema,
                             std::function<int64_t()> now_micros);

  // Compactions that start later use `schema` (ALTER TABLE).
  void SetSchema(std::shared_ptr<const TableSchema> schema);

  std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
      const rocksdb::CompactionFilter::Context& context) override;
  const char* Name() const override { return "columnar.RowCompactionFilterFactory"; }

  const Stats& stats() const { return *stats_; }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const TableSchema> schema_;
  std::function<int64_t()> now_micros_;
  std::shared_ptr<Stats> stats_ = std::make_shared<Stats>();
};

}  // namespace columnar
