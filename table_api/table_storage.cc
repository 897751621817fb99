#include "table_api/table_storage.h"

#include <rocksdb/convenience.h>

#include <unordered_map>

#include "plugin/tiered_table_factory.h"

namespace columnar {
namespace {

// Strict parsing: a stored setting this library does not understand is an error, not a
// silent default.
rocksdb::ConfigOptions StorageConfigOptions() {
  rocksdb::ConfigOptions config;
  config.ignore_unknown_options = false;
  config.ignore_unsupported_options = false;
  return config;
}

bool IsColumnarFactory(const rocksdb::TableFactory* factory) {
  return factory != nullptr && std::string(factory->Name()) == kColumnarTableName;
}

}  // namespace

const char* TableFormatName(TableFormat format) {
  return format == TableFormat::kColumnarTable ? kColumnarTableName : "BlockBasedTable";
}

Status NewTableColumnFamilyOptions(const rocksdb::ColumnFamilyOptions& base,
                                   const TableStorage& storage, const TableSchema& schema,
                                   rocksdb::ColumnFamilyOptions* options) {
  *options = base;
  if (storage.format.value_or(TableFormat::kColumnarTable) == TableFormat::kColumnarTable) {
    ColumnarTableOptions columnar = storage.columnar;
    columnar.schema = schema.Serialize();
    options->table_factory.reset(NewColumnarTableFactory(columnar));
  } else {
    options->table_factory.reset(rocksdb::NewBlockBasedTableFactory(storage.block_based));
  }
  if (storage.adjust_column_family) storage.adjust_column_family(options);
  if (options->table_factory == nullptr) {
    return Status::InvalidArgument("adjust_column_family left the table without a table factory");
  }
  // Checks the factory's options now (a bad ColumnarTable option would otherwise surface at
  // the first flush).
  return options->table_factory->ValidateOptions(rocksdb::DBOptions(), *options);
}

Status StoreTableSettings(const rocksdb::ColumnFamilyOptions& options,
                          StoredTableSettings* settings) {
  const rocksdb::ConfigOptions config = StorageConfigOptions();
  // GetOptionString reports options without a string form; ToString then gives the same
  // options with the factory's id, which CreateFromString needs.
  std::string options_only;
  Status s = options.table_factory->GetOptionString(config, &options_only);
  if (!s.ok()) return s;
  settings->table_factory = options.table_factory->ToString(config);
  return rocksdb::GetStringFromColumnFamilyOptions(config, options, &settings->column_family);
}

Status RestoreTableColumnFamilyOptions(const rocksdb::ColumnFamilyOptions& base,
                                       const StoredTableSettings& settings,
                                       const TableSchema& schema,
                                       rocksdb::ColumnFamilyOptions* options) {
  const rocksdb::ConfigOptions config = StorageConfigOptions();
  std::unordered_map<std::string, std::string> stored;
  Status s = rocksdb::StringToMap(settings.column_family, &stored);
  // The factory is rebuilt from its own string below (with its options and the schema).
  stored.erase("table_factory");
  if (s.ok()) s = rocksdb::GetColumnFamilyOptionsFromMap(config, base, stored, options);
  std::shared_ptr<rocksdb::TableFactory> factory;
  if (s.ok()) s = rocksdb::TableFactory::CreateFromString(config, settings.table_factory, &factory);
  if (s.ok()) s = ApplySchemaToTableFactory(factory.get(), schema);
  if (s.ok()) options->table_factory = std::move(factory);
  return s;
}

Status ApplySchemaToTableFactory(rocksdb::TableFactory* factory, const TableSchema& schema) {
  // A tiered table's columnar tier writes rows of the schema too.
  if (auto* tiered = dynamic_cast<TieredTableFactory*>(factory)) factory = tiered->columnar_table();
  if (!IsColumnarFactory(factory)) return Status::OK();
  return UpdateColumnarTableSchema(factory, schema.Serialize());
}

Status CqlTableFormat(const TableSchema& schema, std::optional<TableFormat>* format) {
  format->reset();
  const auto& other = schema.options().other;
  const auto option = other.find("sstable_format");
  if (option == other.end()) return Status::OK();
  const std::string& value = option->second;  // canonical CQL text: a quoted string
  if (value == "'columnar'") {
    *format = TableFormat::kColumnarTable;
  } else if (value == "'block_based'" || value == "'big'" || value == "'bti'") {
    *format = TableFormat::kBlockBasedTable;
  } else {
    return Status::InvalidArgument("sstable_format " + value +
                                   " is not a known format (use 'columnar' or 'block_based')");
  }
  return Status::OK();
}

Status StorageForCqlTable(const TableStorage& defaults, const TableSchema& schema,
                          TableStorage* storage) {
  std::optional<TableFormat> format;
  Status s = CqlTableFormat(schema, &format);
  if (!s.ok()) return s;
  *storage = defaults;
  if (format.has_value()) storage->format = format;
  return Status::OK();
}

Status StorageForCreateTable(const TableStorage& given, const TableSchema& schema,
                             TableStorage* storage) {
  std::optional<TableFormat> format;
  Status s = CqlTableFormat(schema, &format);
  if (!s.ok()) return s;
  if (format.has_value() && given.format.has_value() && *format != *given.format) {
    return Status::InvalidArgument(std::string("the statement's sstable_format asks for ") +
                                   TableFormatName(*format) + " but its TableStorage::format is " +
                                   TableFormatName(*given.format) +
                                   ": leave TableStorage::format unset or make them agree");
  }
  *storage = given;
  if (format.has_value()) storage->format = format;
  return Status::OK();
}

}  // namespace columnar
