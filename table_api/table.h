// Table: typed reads and writes of one table (one RocksDB column family). Obtained from
// Database (database.h), which owns it; safe to use from several threads, also while
// ALTER TABLE runs (each call works on the schema current when it starts).
//
// Writes (see row_writer.h for the options) follow Cassandra's cell semantics
// (docs/cell_semantics.md):
//   - a write sets the cells it names at its write timestamp (the option's, or the table's
//     monotonic server clock); a null value deletes the cell; other cells keep theirs. Per
//     cell the higher timestamp wins whatever the arrival order (cell_reconcile.h for ties);
//     writetime(col) and ttl(col) are the winning cell's;
//   - Insert(const Row&) and InsertBatch(RowWrite) without `named` write every regular column
//     (the whole row); at a timestamp above everything the table holds they are blind Puts
//     (time-series ingestion), otherwise they merge with the stored row like every other write
//     (a read-modify-write in the table's write order, write_order.h);
//   - every partition key and clustering column needs a value of its type; a wrong type, an
//     unknown column or an invalid option is an InvalidArgument and nothing is written;
//   - InsertBatch / ApplyBatch write all rows in one atomic WriteBatch, or none when one is
//     invalid.
// Reads: Select (select_query.h). Expired rows (expiry <= the clock's now, in seconds) are
// never returned, even before compaction removes them.
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/table.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "plugin/pushdown.h"
#include "table_api/column_batch.h"
#include "table_api/csv_import.h"
#include "table_api/parquet_export.h"
#include "table_api/partition_deletions.h"
#include "table_api/result_set.h"
#include "table_api/row_writer.h"
#include "table_api/select_query.h"
#include "table_api/table_maintenance.h"
#include "table_api/write_order.h"
#include "table_format/row_codec.h"
#include "table_format/schema.h"

namespace columnar {

class Database;
class ScanOutput;

class Table {
 public:
  // What a table needs from its database.
  struct Context {
    rocksdb::DB* db = nullptr;
    rocksdb::ColumnFamilyHandle* column_family = nullptr;
    std::shared_ptr<rocksdb::TableFactory> table_factory;
    std::function<int64_t()> now_micros;
    rocksdb::WriteOptions write_options;
    // The compaction filter, expiry collector and whole-file expiry of the table.
    std::shared_ptr<TableMaintenance> maintenance;
    // Reads may use the columnar scan path (DatabaseOptions::columnar_scan).
    bool columnar_scan = true;
    // The order of the table's writes, its server clock and high-water mark (loaded).
    std::shared_ptr<WriteOrder> write_order;
    // The table's partition deletions that later writes must respect (loaded).
    std::shared_ptr<PartitionDeletions> partition_deletions;
  };

  Table(Context context, TableSchema schema);
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  // "keyspace.table" or "table"; also the column family's name.
  const std::string& name() const { return name_; }
  // The current schema (a snapshot: ALTER TABLE installs a new one).
  std::shared_ptr<const TableSchema> schema() const;
  rocksdb::DB* db() const { return context_.db; }
  rocksdb::ColumnFamilyHandle* column_family() const { return context_.column_family; }
  // The column family's table factory ("BlockBasedTable", "ColumnarTable", ...).
  const std::shared_ptr<rocksdb::TableFactory>& table_factory() const {
    return context_.table_factory;
  }

  // A row of nulls, one entry per column id, to fill by id.
  Row NewRow() const;

  // INSERT of the whole row: every regular column (null or left-out ones are deleted cells).
  Status Insert(const Row& row, const RowWriteOptions& options = RowWriteOptions());
  Status Insert(const NamedRow& row, const RowWriteOptions& options = RowWriteOptions());
  // INSERT of the named cells (CQL's INSERT INTO t (cols) VALUES ...): the key columns and the
  // regular columns in `row` are written (null deletes the cell), others keep their cells.
  Status InsertCells(const NamedRow& row, const RowWriteOptions& options = RowWriteOptions());
  Status InsertBatch(const std::vector<RowWrite>& rows);
  Status InsertBatch(const std::vector<NamedRow>& rows,
                     const RowWriteOptions& options = RowWriteOptions());
  // UPDATE t SET ... WHERE <key>: writes the named cells without the row liveness, so a row
  // written only by updates disappears once all its cells are null (Cassandra's rule).
  Status Update(const NamedRow& row, const RowWriteOptions& options = RowWriteOptions());
  // Any mix of writes (RowWrite::kind) as one atomic WriteBatch (CQL's BATCH).
  Status ApplyBatch(const std::vector<RowWrite>& writes);

  // DELETE c1, c2 FROM t WHERE <key>: deletes those cells at the option's write time (or now).
  Status DeleteCells(const std::vector<Value>& partition_key,
                     const std::vector<Value>& clustering_key,
                     const std::vector<std::string>& columns,
                     const RowWriteOptions& options = RowWriteOptions());
  // Deletes the row with this primary key (all clustering values needed): hides every cell
  // written at or before the option's write time (or now), also cells of writes that arrive
  // later with an older timestamp. Stored as a row tombstone (a row value with the deletion
  // time and no cells), never a RocksDB Delete, so that it keeps hiding older writes; it
  // stays until a partition deletion or TRUNCATE removes it. TTL options are refused.
  Status DeleteRow(const std::vector<Value>& partition_key,
                   const std::vector<Value>& clustering_key,
                   const RowWriteOptions& options = RowWriteOptions());
  // Deletes the partition at the option's write time (or now): hides every cell written at or
  // before it, also cells of writes that arrive later with an older timestamp (until
  // gc_grace_seconds have passed), and keeps newer cells. Stored as one range deletion when the
  // partition holds nothing newer, else row by row, plus an entry for later writes
  // (partition_deletions.h). TTL options are refused.
  Status DeletePartition(const std::vector<Value>& partition_key,
                         const RowWriteOptions& options = RowWriteOptions());

  // Expired rows are removed by compactions (the table's compaction filter); this removes, in
  // addition, whole files whose every row has expired, without reading them
  // (expired_files.h). Call it periodically, e.g. once a day.
  Status DropExpiredFiles(ExpiredFilesResult* result);
  // What the table's compaction filter did so far.
  const RowCompactionFilterFactory::Stats& compaction_filter_stats() const {
    return context_.maintenance->compaction_stats();
  }
  TableMaintenance& maintenance() const { return *context_.maintenance; }

  // Replaces *result with the rows `query` selects; *stats (optional) gets what predicate
  // pushdown did.
  Status Select(const SelectQuery& query, ResultSet* result, SelectStats* stats = nullptr) const;

  // Writes the rows `options` selects, at one snapshot, to a Parquet file at `path`
  // (parquet_export.h); *result (optional) gets what was written. InvalidArgument for an
  // unknown column, a bad partition key or option (no file is left behind); IOError when the
  // file cannot be written.
  Status ExportParquet(const std::string& path, const ExportParquetOptions& options,
                       ExportParquetResult* result = nullptr) const;
  // The same rows as CSV (csv_writer.h has the format); the Parquet-only options are ignored.
  Status ExportCsv(const std::string& path, const ExportParquetOptions& options,
                   ExportParquetResult* result = nullptr) const;
  // Reads rows from the CSV file at `path` (csv_import.h, csv_reader.h) and writes them in
  // batches; *result (optional) gets the count written. A bad record (wrong field count, a
  // value its column's type cannot hold, a row the table refuses) stops the import with
  // InvalidArgument naming its line: every row before it is written, none from it on.
  Status ImportCsv(const std::string& path, const ImportCsvOptions& options,
                   ImportCsvResult* result = nullptr);
  // The rows `query` selects, as ColumnBatches (column_batch.h) in result order, until `visit`
  // returns false. Key spans served by the columnar scan path arrive as the batches of their
  // row groups; rows read through iterators are gathered into batches of up to kScanBatchRows.
  // The batches are valid during the visit only.
  using BatchVisitor = std::function<bool(const ColumnBatch& batch)>;
  static constexpr size_t kScanBatchRows = 1024;
  Status Scan(const SelectQuery& query, const BatchVisitor& visit,
              SelectStats* stats = nullptr) const;

 private:
  friend class Database;

  // Installs the schema of an ALTER TABLE, once the catalog holds it.
  void SetSchema(TableSchema schema);
  std::shared_ptr<const RowCodec> codec() const;
  // Validates, encodes and writes `writes` as one WriteBatch in the table's write order.
  Status ApplyWrites(const RowCodec& codec, const std::vector<RowWrite>& writes);
  Status Write(rocksdb::WriteBatch* batch);
  // The row at `key` (of `partition`) in its latest version merged with `incoming` (a
  // `whole_row` INSERT at `timestamp` drops a row deletion below it) and with the partition's
  // deletion, encoded into *value, or an empty *value when nothing is left to store;
  // `in_batch` is the key's value written earlier in the same batch (null: read the table).
  Status MergeWithStored(const RowCodec& codec, const std::string& key, const Slice& partition,
                         const std::string* in_batch, const RowVersions& incoming, bool whole_row,
                         int64_t timestamp, int64_t now_micros, std::string* value) const;
  // A stored row value; TryAgain when it is of a schema version newer than `codec`'s (an ALTER
  // TABLE ran since the write began).
  Status DecodeStored(const RowCodec& codec, const Slice& stored, RowVersions* row) const;
  // Adds to `batch` what a deletion at `timestamp` of the partition whose keys start with
  // `start` does to its stored rows: rows left with nothing deleted, the others rewritten
  // without what it hides.
  Status HideRowsOfPartition(const RowCodec& codec, const std::string& start, int64_t timestamp,
                             int64_t now_micros, rocksdb::WriteBatch* batch) const;
  // The read options of a Select (`snapshot` may be null). Predicate pushdown adds its scan
  // spec (ReadOptions::table_filter) here.
  rocksdb::ReadOptions SelectReadOptions(const rocksdb::Snapshot* snapshot,
                                         const std::shared_ptr<const ScanSpec>& spec) const;
  std::shared_ptr<ScanSpec> NewScanSpec(const SelectPlan& plan, int64_t now_seconds) const;
  // Plans `query` and runs it into `output` (Select and Scan).
  Status Run(const SelectQuery& query, const SelectPlan& plan,
             const std::shared_ptr<const RowCodec>& codec, ScanOutput* output,
             SelectStats* stats) const;
  // Whether a query may use the columnar scan path.
  bool UsesColumnarScan(const SelectQuery& query, const SelectPlan& plan) const;
  static void CopyStats(const PushdownCounters& counters, SelectStats* stats);
  Status DeleteKeysFrom(const std::string& first_key, rocksdb::WriteBatch* batch) const;
  Status WithName(const Status& s) const;
  Status Export(const std::string& path, const ExportParquetOptions& options, bool csv,
                ExportParquetResult* result) const;

  const std::string name_;
  const Context context_;
  mutable std::mutex mutex_;  // guards codec_
  std::shared_ptr<const RowCodec> codec_;
};

}  // namespace columnar
