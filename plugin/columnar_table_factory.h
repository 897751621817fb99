// ColumnarTableFactory: creates builders and readers of ColumnarTable files. Its options are
// registered with RocksDB's option framework, so CreateFromString and OPTIONS files
// round-trip them.
#pragma once

#include <rocksdb/table.h>

#include <memory>
#include <mutex>

#include "plugin/columnar_table.h"
#include "plugin/table_settings.h"

namespace columnar {

class ColumnarTableFactory : public rocksdb::TableFactory {
 public:
  explicit ColumnarTableFactory(const ColumnarTableOptions& options = ColumnarTableOptions());

  static const char* kClassName() { return kColumnarTableName; }
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
  // kBlockCacheOpts(): the shared cache (RocksDB's block-cache DB properties read it).
  const void* GetOptionsPtr(const std::string& name) const override;
  rocksdb::Status PrepareOptions(const rocksdb::ConfigOptions& config_options) override;
  rocksdb::Status ValidateOptions(const rocksdb::DBOptions& db_options,
                                  const rocksdb::ColumnFamilyOptions& cf_options) const override;

  // The settings in force (parsed options, shared cache), or why the options are invalid.
  Status GetSettings(std::shared_ptr<const TableSettings>* settings) const;

  // Files built from now on use `schema` (see UpdateColumnarTableSchema).
  Status UpdateSchema(const std::string& schema);

 private:
  Status Rebuild();
  // options_, read under the lock that guards its schema string.
  ColumnarTableOptions OptionsCopy() const;

  ColumnarTableOptions options_;
  mutable std::mutex mutex_;
  std::mutex update_mutex_;  // serialises UpdateSchema
  // Rebuilt by PrepareOptions; built lazily from options_ when a factory made in C++ is used
  // without it.
  mutable std::shared_ptr<const TableSettings> settings_;
};

}  // namespace columnar
