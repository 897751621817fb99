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

// Guards the `schema` string of every factory. ALTER TABLE replaces it (UpdateSchema) while
// RocksDB may serialize the options (OPTIONS files, GetOptionString) or compare them, reading
// the string through the option framework, which knows nothing of the factory's lock: the
// option's parse, serialize and compare functions take this lock instead. One lock for all
// factories, since those functions see only the string's address.
std::mutex& SchemaOptionMutex() {
  static auto* mutex = new std::mutex;
  return *mutex;
}

std::string LockedSchemaCopy(const std::string& schema) {
  std::lock_guard<std::mutex> lock(SchemaOptionMutex());
  return schema;
}

// A string option whose value is read and written under SchemaOptionMutex(); otherwise
// (quoting, parsing) it is a plain kString option.
OptionTypeInfo LockedStringField(size_t offset) {
  OptionTypeInfo info = Field(offset, OptionType::kString);
  info.SetParseFunc([](const rocksdb::ConfigOptions& opts, const std::string& name,
                       const std::string& value, void* addr) {
    std::string parsed;
    Status s = Field(0, OptionType::kString).Parse(opts, name, value, &parsed);
    if (!s.ok()) return s;
    std::lock_guard<std::mutex> lock(SchemaOptionMutex());
    *static_cast<std::string*>(addr) = std::move(parsed);
    return Status::OK();
  });
  info.SetSerializeFunc([](const rocksdb::ConfigOptions& opts, const std::string& name,
                           const void* addr, std::string* value) {
    const std::string copy = LockedSchemaCopy(*static_cast<const std::string*>(addr));
    return Field(0, OptionType::kString).Serialize(opts, name, &copy, value);
  });
  info.SetEqualsFunc([](const rocksdb::ConfigOptions& /*opts*/, const std::string& /*name*/,
                        const void* addr1, const void* addr2, std::string* /*mismatch*/) {
    std::lock_guard<std::mutex> lock(SchemaOptionMutex());
    return *static_cast<const std::string*>(addr1) == *static_cast<const std::string*>(addr2);
  });
  return info;
}

const std::unordered_map<std::string, OptionTypeInfo>& ColumnarTableTypeInfo() {
  static const auto* info = new std::unordered_map<std::string, OptionTypeInfo>{
      {"rows_per_group",
       Field(offsetof(ColumnarTableOptions, rows_per_group), OptionType::kUInt32T)},
      {"group_target_bytes",
       Field(offsetof(ColumnarTableOptions, group_target_bytes), OptionType::kUInt32T)},
      {"block_size", Field(offsetof(ColumnarTableOptions, block_size), OptionType::kUInt32T)},
      {"max_inline_value_bytes",
       Field(offsetof(ColumnarTableOptions, max_inline_value_bytes), OptionType::kUInt32T)},
      {"column_encodings",
       Field(offsetof(ColumnarTableOptions, column_encodings), OptionType::kString)},
      {"column_compression",
       Field(offsetof(ColumnarTableOptions, column_compression), OptionType::kString)},
      {"column_compression_level",
       Field(offsetof(ColumnarTableOptions, column_compression_level), OptionType::kInt)},
      {"schema", LockedStringField(offsetof(ColumnarTableOptions, schema))},
      {"bloom_bits_per_key",
       Field(offsetof(ColumnarTableOptions, bloom_bits_per_key), OptionType::kDouble)},
      {"whole_key_filter",
       Field(offsetof(ColumnarTableOptions, whole_key_filter), OptionType::kBoolean)},
      {"partition_filter",
       Field(offsetof(ColumnarTableOptions, partition_filter), OptionType::kBoolean)},
      {"copy_row_groups",
       Field(offsetof(ColumnarTableOptions, copy_row_groups), OptionType::kBoolean)},
      {"cache_size", Field(offsetof(ColumnarTableOptions, cache_size), OptionType::kUInt64T)},
  };
  return *info;
}

// ColumnarTable compares and hashes user keys whole (row-group index, iterate bounds, key and
// partition filters, the typed layout's key columns), so user-defined timestamps are refused
// rather than half supported: a comparator with timestamps would make bounds assert and the
// key filter miss keys read at a timestamp.
Status CheckNoTimestamps(const rocksdb::Comparator* comparator) {
  if (comparator == nullptr || comparator->timestamp_size() == 0) return Status::OK();
  return Status::NotSupported(std::string("ColumnarTable does not support user-defined "
                                          "timestamps (comparator ") +
                              comparator->Name() + "); use BlockBasedTable for this column family");
}

}  // namespace

ColumnarTableFactory::ColumnarTableFactory(const ColumnarTableOptions& options)
    : options_(options) {
  RegisterOptions(&options_, &ColumnarTableTypeInfo());
}

ColumnarTableOptions ColumnarTableFactory::OptionsCopy() const {
  std::lock_guard<std::mutex> lock(SchemaOptionMutex());
  return options_;
}

Status ColumnarTableFactory::GetSettings(std::shared_ptr<const TableSettings>* settings) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (settings_ == nullptr) {
    Status s = TableSettings::Create(OptionsCopy(), nullptr, &settings_);
    if (!s.ok()) return s;
  }
  *settings = settings_;
  return Status::OK();
}

Status ColumnarTableFactory::Rebuild() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<const TableSettings> created;
  Status s = TableSettings::Create(OptionsCopy(), settings_ ? settings_->shared_cache() : nullptr,
                                   &created);
  if (s.ok()) settings_ = std::move(created);
  return s;
}

rocksdb::Status ColumnarTableFactory::PrepareOptions(const rocksdb::ConfigOptions& config_options) {
  Status s = Rebuild();
  if (!s.ok()) return s;
  return TableFactory::PrepareOptions(config_options);
}

Status ColumnarTableFactory::UpdateSchema(const std::string& schema) {
  // One ALTER at a time; the string itself changes under the option lock (readers are
  // RocksDB's option serialization and GetPrintableOptions).
  std::lock_guard<std::mutex> update(update_mutex_);
  std::string previous = schema;
  {
    std::lock_guard<std::mutex> lock(SchemaOptionMutex());
    options_.schema.swap(previous);
  }
  Status s = Rebuild();
  if (!s.ok()) {
    std::lock_guard<std::mutex> lock(SchemaOptionMutex());
    options_.schema.swap(previous);
  }
  return s;
}

const void* ColumnarTableFactory::GetOptionsPtr(const std::string& name) const {
  // RocksDB's block-cache DB properties (rocksdb.block-cache-capacity, -usage, -pinned-usage,
  // -entry-stats) ask the table factory for its cache under this name: the shared cache of
  // decoded row groups and blocks is this format's block cache. It outlives every rebuild of
  // the settings (they keep it).
  if (name == kBlockCacheOpts()) {
    std::shared_ptr<const TableSettings> settings;
    return GetSettings(&settings).ok() ? settings->cache() : nullptr;
  }
  return TableFactory::GetOptionsPtr(name);
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
  if (s.ok()) s = CheckNoTimestamps(cf_options.comparator);
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
  if (s.ok()) s = CheckNoTimestamps(table_reader_options.internal_comparator.user_comparator());
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
  if (s.ok()) s = CheckNoTimestamps(table_builder_options.internal_comparator.user_comparator());
  return new ColumnarTableBuilder(table_builder_options, file, std::move(settings), s);
}

std::string ColumnarTableFactory::GetPrintableOptions() const {
  const ColumnarTableOptions o = OptionsCopy();
  std::string out;
  out += "  rows_per_group: " + std::to_string(o.rows_per_group) + "\n";
  out += "  group_target_bytes: " + std::to_string(o.group_target_bytes) + "\n";
  out += "  block_size: " + std::to_string(o.block_size) + "\n";
  out += "  max_inline_value_bytes: " + std::to_string(o.max_inline_value_bytes) + "\n";
  out += "  column_encodings: " + o.column_encodings + "\n";
  out += "  column_compression: " + o.column_compression + "\n";
  out += "  column_compression_level: " + std::to_string(o.column_compression_level) + "\n";
  out += "  schema: " + (o.schema.empty() ? std::string("(none)") : o.schema) + "\n";
  out += "  bloom_bits_per_key: " + std::to_string(o.bloom_bits_per_key) + "\n";
  out += "  whole_key_filter: " + std::string(o.whole_key_filter ? "true" : "false") + "\n";
  out += "  partition_filter: " + std::string(o.partition_filter ? "true" : "false") + "\n";
  out += "  copy_row_groups: " + std::string(o.copy_row_groups ? "true" : "false") + "\n";
  out += "  cache_size: " + std::to_string(o.cache_size) + "\n";
  return out;
}

rocksdb::TableFactory* NewColumnarTableFactory(const ColumnarTableOptions& options) {
  return new ColumnarTableFactory(options);
}

}  // namespace columnar
