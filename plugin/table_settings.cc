#include "plugin/table_settings.h"

#include "plugin/oversized_values.h"
#include "plugin/table_file.h"
#include "table_format/cql_parser.h"
#include "table_format/generic_layout.h"
#include "table_format/typed_layout.h"

namespace columnar {

Status ParseSchemaOption(const std::string& text, TableSchema* schema) {
  // Either the serialized form (OPTIONS files, properties) or CQL CREATE TABLE text.
  Status s = TableSchema::Deserialize(text, schema);
  if (s.ok()) return s;
  CreateTableStatement statement;
  Status cql = ParseCreateTable(text, &statement);
  if (!cql.ok()) {
    return Status::InvalidArgument("ColumnarTable: schema is neither a serialized schema (" +
                                   s.ToString() + ") nor CREATE TABLE text (" + cql.ToString() +
                                   ")");
  }
  *schema = statement.schema;
  return Status::OK();
}

Status TableSettings::Create(const ColumnarTableOptions& options,
                             const std::shared_ptr<rocksdb::Cache>& default_cache,
                             std::shared_ptr<const TableSettings>* out) {
  auto settings = std::make_shared<TableSettings>();
  settings->options_ = options;
  if (options.rows_per_group == 0 || options.rows_per_group > kMaxRowsPerGroup) {
    return Status::InvalidArgument("ColumnarTable: rows_per_group must be in [1, 2^20]");
  }
  if (options.block_size == 0 || options.block_size > (256u << 20)) {
    return Status::InvalidArgument("ColumnarTable: block_size must be in [1, 256 MiB]");
  }
  if (options.max_inline_value_bytes == 0 ||
      options.max_inline_value_bytes > kMaxInlineValueBytes) {
    return Status::InvalidArgument("ColumnarTable: max_inline_value_bytes must be in [1, 256 MiB]");
  }
  if (options.bloom_bits_per_key < 0) {
    return Status::InvalidArgument("ColumnarTable: bloom_bits_per_key must be >= 0");
  }
  Status s = ColumnSettings::Parse(options.column_encodings, options.column_compression,
                                   options.column_compression_level, &settings->columns_);
  if (!s.ok()) return s;
  if (!options.schema.empty()) {
    auto schema = std::make_shared<TableSchema>();
    s = ParseSchemaOption(options.schema, schema.get());
    if (!s.ok()) return s;
    // The schema's own WITH column_encodings / column_compression apply where the factory's
    // options say nothing.
    settings->columns_.AddDefaults(schema->options().column_encodings,
                                   schema->options().column_compression);
    settings->schema_text_ = schema->Serialize();
    settings->schema_ = std::move(schema);
  }
  // Version 1 of the row-group format; every option a group's encoding depends on.
  settings->pass_through_options_ =
      "1;rows_per_group=" + std::to_string(options.rows_per_group) +
      ";group_target_bytes=" + std::to_string(options.group_target_bytes) +
      ";max_inline_value_bytes=" + std::to_string(options.max_inline_value_bytes) +
      ";column_compression=" + options.column_compression +
      ";column_compression_level=" + std::to_string(options.column_compression_level) +
      ";column_encodings=" + options.column_encodings;
  // A rebuild (ALTER TABLE, options re-parsed) keeps the factory's cache: RocksDB holds it
  // for the block-cache DB properties (an entry of its own in it) as long as the column
  // family lives, and cached row groups stay useful.
  if (options.cache != nullptr) {
    settings->cache_ = options.cache;
  } else if (default_cache != nullptr) {
    settings->cache_ = default_cache;
    if (settings->cache_->GetCapacity() != options.cache_size) {
      settings->cache_->SetCapacity(options.cache_size);
    }
  } else {
    settings->cache_ = rocksdb::NewLRUCache(options.cache_size);
  }
  if (options.bloom_bits_per_key > 0) {
    settings->filter_policy_.reset(rocksdb::NewBloomFilterPolicy(options.bloom_bits_per_key));
  }
  *out = std::move(settings);
  return Status::OK();
}

std::unique_ptr<RowLayout> TableSettings::NewWriteLayout(
    const std::shared_ptr<const rocksdb::SliceTransform>& prefix_extractor) const {
  if (schema_ != nullptr) return std::make_unique<TypedLayout>(*schema_);
  return std::make_unique<GenericLayout>(prefix_extractor);
}

}  // namespace columnar
