// TieredTable: a table factory that writes new data row-oriented and settled data columnar,
// the RocksDB form of the source documents' tiered formats (BTI for the active window,
// columnar once a window closes). Flush output, and compaction output above
// `columnar_from_level`, use the row factory (BlockBasedTable by default): cheap to write and
// rewritten soon anyway. Compaction output at `columnar_from_level` and deeper uses the
// columnar factory (ColumnarTable by default).
//
// Readers pick the format of each file from its footer's magic number, so a database of
// either format opened with TieredTable reads all its files and migrates as compactions
// rewrite them.
#pragma once

#include <rocksdb/table.h>

#include <memory>

namespace columnar {

struct TieredTableOptions {
  static const char* kName() { return "TieredTableOptions"; }

  int columnar_from_level = 1;
  // Both are configurable like any table factory ("row_table={id=BlockBasedTable;...}").
  std::shared_ptr<rocksdb::TableFactory> row_table;
  std::shared_ptr<rocksdb::TableFactory> columnar_table;
};

inline constexpr const char* kTieredTableName = "TieredTable";

class TieredTableFactory : public rocksdb::TableFactory {
 public:
  explicit TieredTableFactory(const TieredTableOptions& options = TieredTableOptions());

  static const char* kClassName() { return kTieredTableName; }
  const char* Name() const override { return kClassName(); }

  using rocksdb::TableFactory::NewTableReader;
  rocksdb::Status NewTableReader(const rocksdb::ReadOptions& read_options,
                                 const rocksdb::TableReaderOptions& table_reader_options,
                                 std::unique_ptr<rocksdb::RandomAccessFileReader>&& file,
                                 uint64_t file_size,
                                 std::unique_ptr<rocksdb::TableReader>* table_reader,
                                 bool prefetch_index_and_filter_in_cache) const override;
  rocksdb::TableBuilder* NewTableBuilder(const rocksdb::TableBuilderOptions& table_builder_options,
                                         rocksdb::WritableFileWriter* file) const override;
  bool IsDeleteRangeSupported() const override { return true; }
  std::string GetPrintableOptions() const override;
  rocksdb::Status ValidateOptions(const rocksdb::DBOptions& db_options,
                                  const rocksdb::ColumnFamilyOptions& cf_options) const override;

  // The factory of the columnar tier (a ColumnarTable unless configured otherwise).
  rocksdb::TableFactory* columnar_table() const { return options_.columnar_table.get(); }

  // Which factory writes a file created for `reason` at `level` (-1: unknown level).
  bool WritesColumnar(rocksdb::TableFileCreationReason reason, int level) const;

 private:
  TieredTableOptions options_;
};

rocksdb::TableFactory* NewTieredTableFactory(
    const TieredTableOptions& options = TieredTableOptions());

}  // namespace columnar
