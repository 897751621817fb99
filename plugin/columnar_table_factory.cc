#include "plugin/columnar_table_factory.h"

#include <rocksdb/utilities/options_type.h>

#include "plugin/columnar_table_builder.h"
#include "plugin/columnar_table_reader.h"

namespace columnar {

namespace {

using rocksdb::OptionType;
using rocksdb::OptionTypeFlags;
using rocksdb::OptionTypeInfo;
using rocksdb::OptionVerificationType;

OptionTypeInfo Field(size_t offset, OptionType type) {
  return OptionTypeInfo(offset, type, OptionVerificationType::kNormal, OptionTypeFlags::kNone);
}

const std::unordered_map<std::string, OptionTypeInfo>& ColumnarTableTypeInfo() {
  static const auto* info = new std::unordered_map<std::string, OptionTypeInfo>{
      {"rows_per_group",
       Field(offsetof(ColumnarTableOptions, rows_per_group), OptionType::kUInt32T)},
      {"group_target_bytes",
       Field(offsetof(ColumnarTableOptions, group_target_bytes), OptionType::kUInt32T)},
      {"block_size", Field(offsetof(ColumnarTableOptions, block_size), OptionType::kUInt32T)},
      {"column_encodings",
       Field(offsetof(ColumnarTableOptions, column_encodings), OptionType::kString)},
      {"column_compression",
       Field(offsetof(ColumnarTableOptions, column_compression), OptionType::kString)},
      {"column_compression_level",
       Field(offsetof(ColumnarTableOptions, column_compression_level), OptionType::kInt)},
      {"schema", Field(offsetof(ColumnarTableOptions, schema), OptionType::kString)},
      {"bloom_bits_per_key",
       Field(offsetof(ColumnarTableOptions, bloom_bits_per_key), OptionType::kDouble)},
      {"whole_key_filter",
       Field(offsetof(ColumnarTableOptions, whole_key_filter), OptionType::kBoolean)},
      {"partition_filter",
       Field(offsetof(ColumnarTableOptions, partition_filter), OptionType::kBoolean)},
      {"cache_size", Field(offsetof(ColumnarTableOptions, cache_size), OptionType::kUInt64T)},
  };
  return *info;
}

}  // namespace

ColumnarTableFactory::ColumnarTableFactory(const ColumnarTableOptions& options)
    : options_(options) {
  RegisterOptions(&options_, &ColumnarTableTypeInfo());
}

Status ColumnarTableFactory::GetSettings(std::shared_ptr<const TableSettings>* settings) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (settings_ == nullptr) {
    Status s = TableSettings::Create(options_, nullptr, &settings_);
    if (!s.ok()) return s;
  }
  *settings = settings_;
  return Status::OK();
}

Status ColumnarTableFactory::Rebuild() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<const TableSettings> created;
  Status s =
      TableSettings::Create(options_, settings_ ? settings_->shared_cache() : nullptr, &created);
  if (s.ok()) settings_ = std::move(created);
  return s;
}

rocksdb::Status ColumnarTableFactory::PrepareOptions(const rocksdb::ConfigOptions& config_options) {
  Status s = Rebuild();
  if (!s.ok()) return s;
  return TableFactory::PrepareOptions(config_options);
}

Status ColumnarTableFactory::UpdateSchema(const std::string& schema) {
  std::string previous;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    previous = options_.schema;
    options_.schema = schema;
  }
  Status s = Rebuild();
  if (!s.ok()) {
    std::lock_guard<std::mutex> lock(mutex_);
    options_.schema = previous;
  }
  return s;
}

Status UpdateColumnarTableSchema(rocksdb::TableFactory* factory, const std::string& schema) {
  auto* columnar = dynamic_cast<ColumnarTableFactory*>(factory);
  if (columnar == nullptr) {
    return Status::InvalidArgument("UpdateColumnarTableSchema: not a ColumnarTable factory");
  }
  return columnar->UpdateSchema(schema);
}

rocksdb::Status ColumnarTableFactory::ValidateOptions(
    const rocksdb::DBOptions& db_options, const rocksdb::ColumnFamilyOptions& cf_options) const {
  std::shared_ptr<const TableSettings> settings;
  Status s = GetSettings(&settings);
  if (!s.ok()) return s;
  return TableFactory::ValidateOptions(db_options, cf_options);
}

rocksdb::Status ColumnarTableFactory::NewTableReader(
    const rocksdb::ReadOptions& read_options,
    const rocksdb::TableReaderOptions& table_reader_options,
    std::unique_ptr<rocksdb::RandomAccessFileReader>&& file, uint64_t file_size,
    std::unique_ptr<rocksdb::TableReader>* table_reader,
    bool /*prefetch_index_and_filter_in_cache*/) const {
  std::shared_ptr<const TableSettings> settings;
  Status s = GetSettings(&settings);
  if (!s.ok()) return s;
  return ColumnarTableReader::Open(read_options, table_reader_options, std::move(file), file_size,
                                   std::move(settings), table_reader);
}

rocksdb::TableBuilder* ColumnarTableFactory::NewTableBuilder(
    const rocksdb::TableBuilderOptions& table_builder_options,
    rocksdb::WritableFileWriter* file) const {
  // A builder must always be returned; invalid options surface as its status.
  std::shared_ptr<const TableSettings> settings;
  Status s = GetSettings(&settings);
  return new ColumnarTableBuilder(table_builder_options, file, std::move(settings), s);
}

std::string ColumnarTableFactory::GetPrintableOptions() const {
  const ColumnarTableOptions& o = options_;
  std::string out;
  out += "  rows_per_group: " + std::to_string(o.rows_per_group) + "\n";
  out += "  group_target_bytes: " + std::to_string(o.group_target_bytes) + "\n";
  out += "  block_size: " + std::to_string(o.block_size) + "\n";
  out += "  column_encodings: " + o.column_encodings + "\n";
  out += "  column_compression: " + o.column_compression + "\n";
  out += "  column_compression_level: " + std::to_string(o.column_compression_level) + "\n";
  out += "  schema: " + (o.schema.empty() ? std::string("(none)") : o.schema) + "\n";
  out += "  bloom_bits_per_key: " + std::to_string(o.bloom_bits_per_key) + "\n";
  out += "  whole_key_filter: " + std::string(o.whole_key_filter ? "true" : "false") + "\n";
  out += "  partition_filter: " + std::string(o.partition_filter ? "true" : "false") + "\n";
  out += "  cache_size: " + std::to_string(o.cache_size) + "\n";
  return out;
}

rocksdb::TableFactory* NewColumnarTableFactory(const ColumnarTableOptions& options) {
  return new ColumnarTableFactory(options);
}

}  // namespace columnar
