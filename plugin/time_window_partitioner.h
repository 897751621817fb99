// TimeWindowSstPartitionerFactory: compaction output files cut at the boundaries of a Table
// API table's time windows, so that whole files expire together and whole-file expiry
// (expired_files.h) can drop them unread. Public RocksDB API only (rocksdb::SstPartitioner).
//
// Two modes, chosen from the table's schema:
//   - kDay, when the partition key ends in a `date` column (the access logs'
//     PRIMARY KEY ((orgid, service, instance, day), time)): a file is cut wherever that day
//     changes between two consecutive keys, so every compaction output file holds the rows of
//     one day only (of one or more consecutive partitions). A day's files all expire once its
//     last row has; the cost is at least one file per run of partitions sharing a day;
//   - kPartition, for every other table (typically clustered by a time column, as the metrics'
//     PRIMARY KEY ((orgid, clusterhash, metricid), time)): a file is cut where the partition
//     key changes once the file holds at least `min_file_bytes`, so a partition is split
//     across files only when it alone outgrows the target file size, and a partition that
//     stops receiving data ends up in files that expire whole.
// Neither mode ever cuts between two versions of one key. Keys that are not keys of the
// schema never cause a cut. Flushes are not partitioned (RocksDB calls partitioners only in
// compactions to level 1 and deeper).
//
// Install it through DatabaseOptions::configure_column_family (it needs the schema and has no
// string form, so it must not be stored with the table's settings):
//
//   options.configure_column_family = [](const TableSchema& schema,
//                                        rocksdb::ColumnFamilyOptions* cf) {
//     cf->sst_partitioner_factory = std::make_shared<TimeWindowSstPartitionerFactory>(schema);
//   };
#pragma once

#include <rocksdb/sst_partitioner.h>

#include <cstdint>
#include <memory>

#include "table_format/schema.h"

namespace columnar {

struct TimeWindowPartitionerOptions {
  // kPartition mode: the size a compaction output file must reach before it is cut at the next
  // partition change. About half of target_file_size_base keeps files between half and the
  // whole target size.
  uint64_t min_file_bytes = 32ull << 20;
};

class TimeWindowSstPartitionerFactory : public rocksdb::SstPartitionerFactory {
 public:
  enum class Mode { kDay, kPartition };

  explicit TimeWindowSstPartitionerFactory(
      const TableSchema& schema,
      const TimeWindowPartitionerOptions& options = TimeWindowPartitionerOptions());

  static const char* kClassName() { return "columnar.TimeWindowSstPartitionerFactory"; }
  const char* Name() const override { return kClassName(); }

  std::unique_ptr<rocksdb::SstPartitioner> CreatePartitioner(
      const rocksdb::SstPartitioner::Context& context) const override;

  Mode mode() const { return mode_; }
  // The mode for `schema`: kDay when its last partition key column is a date.
  static Mode ModeFor(const TableSchema& schema);

 private:
  std::shared_ptr<const TableSchema> schema_;
  TimeWindowPartitionerOptions options_;
  Mode mode_;
};

}  // namespace columnar
