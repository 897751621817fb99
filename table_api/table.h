// Table: typed reads and writes of one table (one RocksDB column family). Obtained from
// Database (database.h), which owns it; safe to use from several threads, also while
// ALTER TABLE runs (each call works on the schema current when it starts).
//
// Writes (see row_writer.h for the options):
//   - a row is written whole: the RocksDB value holds every regular column (unset ones null),
//     so inserting an existing key replaces the row; the latest write in RocksDB's sequence
//     order wins, write times are only stored and returned by writetime();
//   - every partition key and clustering column needs a value of its type; a wrong type, an
//     unknown column or an invalid option is an InvalidArgument and nothing is written;
//   - InsertBatch writes all rows in one atomic WriteBatch, or none when one is invalid.
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
#include "table_api/result_set.h"
#include "table_api/row_writer.h"
#include "table_api/select_query.h"
#include "table_api/table_maintenance.h"
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

  Status Insert(const Row& row, const RowWriteOptions& options = RowWriteOptions());
  Status Insert(const NamedRow& row, const RowWriteOptions& options = RowWriteOptions());
  Status InsertBatch(const std::vector<RowWrite>& rows);
  Status InsertBatch(const std::vector<NamedRow>& rows,
                     const RowWriteOptions& options = RowWriteOptions());

  // Deletes the row with this primary key (all clustering values needed).
  Status DeleteRow(const std::vector<Value>& partition_key,
                   const std::vector<Value>& clustering_key);
  // Deletes every row of the partition, with one range deletion over its keys.
  Status DeletePartition(const std::vector<Value>& partition_key);

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
  Status EncodeWrites(const RowCodec& codec, const std::vector<RowWrite>& rows,
                      rocksdb::WriteBatch* batch) const;
  Status Write(rocksdb::WriteBatch* batch);
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
