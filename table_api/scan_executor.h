// ScanExecutor: runs a planned SELECT (select_query.h) over a table's column family and hands
// its rows, filtered, projected and limited, to a ScanOutput. Two read paths, identical
// results:
//   - the row path: RowScanner over a RocksDB iterator confined to a key range (predicate
//     pushdown in the readers, the full filter again on the merged rows);
//   - the columnar scan path (plugin/column_scan.h): key spans that one ColumnarTable file
//     alone holds are read as typed column vectors of its row groups, filtered (the same
//     vectorised evaluator as pushdown), checked for expiry and projected on the vectors, and
//     handed out as ColumnBatches; the rest of the range goes through the row path. Outputs
//     that take statistics (aggregates) are first offered the groups whose zone maps describe
//     exactly the rows the scan returns, and may answer them without decoding.
// Both share the plan's projection semantics (ProjectRow for rows, ProjectGroup for vectors,
// each following select_query.h) and count which path served each row in SelectStats.
#pragma once

#include <rocksdb/db.h>

#include <memory>

#include "filter/evaluator.h"
#include "table_api/column_batch.h"
#include "table_api/row_scanner.h"
#include "table_api/select_query.h"

namespace columnar {

struct ColumnScanStatistics;

class ScanOutput {
 public:
  virtual ~ScanOutput() = default;
  // Whether the output can take row groups as statistics (AddStatistics); only then does the
  // columnar path offer them.
  virtual bool TakesStatistics() const { return false; }
  // A row group of the columnar path offered as its statistics (plugin/column_scan.h), from a
  // file of schema `schema`: true when the output took the group from them (it is then not
  // decoded); *more = false stops the scan.
  virtual bool AddStatistics(const TableSchema& /*schema*/, const ColumnScanStatistics& /*group*/,
                             bool* /*more*/) {
    return false;
  }
  // One projected row from the row path; false stops the scan.
  virtual bool AddRow(const Row& row) = 0;
  // Projected rows from the columnar path; false stops the scan.
  virtual bool AddBatch(const ColumnBatch& batch) = 0;
};

struct ScanSettings {
  rocksdb::DB* db = nullptr;
  rocksdb::ColumnFamilyHandle* column_family = nullptr;
  std::shared_ptr<const RowCodec> codec;
  RowScanner::LatestCodec latest_codec;
  int64_t now_seconds = 0;
  // With the read's snapshot (required with `columnar`) and pushdown spec.
  rocksdb::ReadOptions read_options;
  // Use the columnar scan path where it applies.
  bool columnar = false;
};

class ScanExecutor {
 public:
  ScanExecutor(const SelectPlan& plan, ScanSettings settings);

  // Reads the plan's rows into `output`; adds to *stats (optional) what each path served.
  Status Run(ScanOutput* output, SelectStats* stats);

 private:
  // Filters, projects and hands out one row of the row path; false when the output stopped.
  bool EmitRow(const std::vector<Value>& partition_key, const ScannedRow& row, ScanOutput* output);
  Status ReadRows(const PartitionScan& partition, const KeyRange& range, ScanOutput* output);
  Status ReadColumnar(const PartitionScan& partition, ScanOutput* output, SelectStats* stats);
  // A whole-table scan with a per-partition limit: each partition's first rows, then a seek
  // past the rest of it (row path only).
  Status ReadFirstRowsOfEachPartition(const PartitionScan& whole, ScanOutput* output);
  // One PartitionScan of the plan, by the path that applies.
  Status ReadScan(const PartitionScan& scan, ScanOutput* output, SelectStats* stats);
  bool LimitReached() const { return plan_.limit != 0 && returned_ >= plan_.limit; }
  bool PartitionDone() const {
    return plan_.per_partition_limit != 0 && partition_returned_ >= plan_.per_partition_limit;
  }
  // Rows the current partition may still return (LIMIT and PER PARTITION LIMIT).
  uint64_t RowsLeft() const;

  const SelectPlan& plan_;
  ScanSettings settings_;
  RowScanner scanner_;
  std::shared_ptr<const FilterEvaluator> evaluator_;  // the full filter, for column vectors
  uint64_t returned_ = 0;
  uint64_t partition_returned_ = 0;  // rows returned of the current partition
  uint64_t rejected_ = 0;
  uint64_t rows_row_path_ = 0;
  bool stopped_ = false;
  Row row_;
  ColumnBatch batch_;
};

}  // namespace columnar
