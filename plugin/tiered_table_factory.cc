#include "plugin/tiered_table_factory.h"

#include <rocksdb/utilities/options_type.h>

#include "file/random_access_file_reader.h"
#include "plugin/columnar_table.h"
#include "plugin/table_file.h"
#include "table/format.h"
#include "table/table_builder.h"

namespace columnar {

namespace {

using rocksdb::OptionType;
using rocksdb::OptionTypeFlags;
using rocksdb::OptionTypeInfo;
using rocksdb::OptionVerificationType;

const std::unordered_map<std::string, OptionTypeInfo>& TieredTableTypeInfo() {
  static const auto* info = new std::unordered_map<std::string, OptionTypeInfo>{
      {"columnar_from_level",
       {offsetof(TieredTableOptions, columnar_from_level), OptionType::kInt,
        OptionVerificationType::kNormal, OptionTypeFlags::kNone}},
      {"row_table", OptionTypeInfo::AsCustomSharedPtr<rocksdb::TableFactory>(
                        offsetof(TieredTableOptions, row_table), OptionVerificationType::kNormal,
                        OptionTypeFlags::kNone)},
      {"columnar_table", OptionTypeInfo::AsCustomSharedPtr<rocksdb::TableFactory>(
                             offsetof(TieredTableOptions, columnar_table),
                             OptionVerificationType::kNormal, OptionTypeFlags::kNone)},
  };
  return *info;
}

}  // namespace

TieredTableFactory::TieredTableFactory(const TieredTableOptions& options) : options_(options) {
  if (options_.row_table == nullptr) {
    rocksdb::BlockBasedTableOptions block_based;
    block_based.block_size = 16 * 1024;
    options_.row_table.reset(rocksdb::NewBlockBasedTableFactory(block_based));
  }
  if (options_.columnar_table == nullptr) {
    options_.columnar_table.reset(NewColumnarTableFactory());
  }
  RegisterOptions(&options_, &TieredTableTypeInfo());
}

bool TieredTableFactory::WritesColumnar(rocksdb::TableFileCreationReason reason, int level) const {
  if (reason == rocksdb::TableFileCreationReason::kFlush ||
      reason == rocksdb::TableFileCreationReason::kRecovery) {
    return false;
  }
  // Unknown levels (SstFileWriter, repair) are settled data.
  return level < 0 || level >= options_.columnar_from_level;
}

rocksdb::TableBuilder* TieredTableFactory::NewTableBuilder(
    const rocksdb::TableBuilderOptions& table_builder_options,
    rocksdb::WritableFileWriter* file) const {
  const bool columnar =
      WritesColumnar(table_builder_options.reason, table_builder_options.level_at_creation);
  const auto& factory = columnar ? options_.columnar_table : options_.row_table;
  return factory->NewTableBuilder(table_builder_options, file);
}

rocksdb::Status TieredTableFactory::NewTableReader(
    const rocksdb::ReadOptions& read_options,
    const rocksdb::TableReaderOptions& table_reader_options,
    std::unique_ptr<rocksdb::RandomAccessFileReader>&& file, uint64_t file_size,
    std::unique_ptr<rocksdb::TableReader>* table_reader,
    bool prefetch_index_and_filter_in_cache) const {
  rocksdb::Footer footer;
  rocksdb::Status s =
      rocksdb::ReadFooterFromFile(rocksdb::IOOptions(), file.get(), nullptr, file_size, &footer);
  if (!s.ok()) return s;
  const auto& factory = footer.table_magic_number() == kColumnarTableMagicNumber
                            ? options_.columnar_table
                            : options_.row_table;
  return factory->NewTableReader(read_options, table_reader_options, std::move(file), file_size,
                                 table_reader, prefetch_index_and_filter_in_cache);
}

rocksdb::Status TieredTableFactory::ValidateOptions(
    const rocksdb::DBOptions& db_options, const rocksdb::ColumnFamilyOptions& cf_options) const {
  if (options_.row_table == nullptr || options_.columnar_table == nullptr) {
    return rocksdb::Status::InvalidArgument("TieredTable: both table factories are required");
  }
  rocksdb::Status s = options_.row_table->ValidateOptions(db_options, cf_options);
  if (s.ok()) s = options_.columnar_table->ValidateOptions(db_options, cf_options);
  if (s.ok()) s = TableFactory::ValidateOptions(db_options, cf_options);
  return s;
}

std::string TieredTableFactory::GetPrintableOptions() const {
  std::string out = "  columnar_from_level: " + std::to_string(options_.columnar_from_level) + "\n";
  out += "  row_table: " + std::string(options_.row_table->Name()) + "\n";
  out += options_.row_table->GetPrintableOptions();
  out += "  columnar_table: " + std::string(options_.columnar_table->Name()) + "\n";
  out += options_.columnar_table->GetPrintableOptions();
  return out;
}

rocksdb::TableFactory* NewTieredTableFactory(const TieredTableOptions& options) {
  return new TieredTableFactory(options);
}

}  // namespace columnar
