// TableSettings: a factory's options, parsed and validated once, shared (immutably) by every
// builder and reader the factory creates.
#pragma once

#include <rocksdb/cache.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/slice_transform.h>

#include <memory>
#include <string>

#include "plugin/columnar_table.h"
#include "table_format/column_settings.h"
#include "table_format/row_layout.h"
#include "table_format/schema.h"

namespace columnar {

class TableSettings {
 public:
  // Parses `options`; a malformed column option or schema is InvalidArgument. The cache is
  // options.cache when set, else `default_cache`, else a new one of options.cache_size.
  static Status Create(const ColumnarTableOptions& options,
                       const std::shared_ptr<rocksdb::Cache>& default_cache,
                       std::shared_ptr<const TableSettings>* out);

  const ColumnarTableOptions& options() const { return options_; }
  const ColumnSettings& columns() const { return columns_; }
  rocksdb::Cache* cache() const { return cache_.get(); }
  const std::shared_ptr<rocksdb::Cache>& shared_cache() const { return cache_; }
  // Null when bloom filters are disabled.
  const rocksdb::FilterPolicy* filter_policy() const { return filter_policy_.get(); }
  // The table schema new files are written with; null for the schema-less layout.
  const std::shared_ptr<const TableSchema>& schema() const { return schema_; }

  // What a row group's bytes depend on besides the schema (the options that shape or encode
  // groups), as stored in long-lived files' kPassThroughProperty: a compaction may copy a
  // group of a file whose property and schema match these settings (columnar_table_builder.h).
  const std::string& pass_through_options() const { return pass_through_options_; }
  // The schema's serialized form (kSchemaProperty); empty without a schema.
  const std::string& schema_text() const { return schema_text_; }

  // The layout new files are written with.
  std::unique_ptr<RowLayout> NewWriteLayout(
      const std::shared_ptr<const rocksdb::SliceTransform>& prefix_extractor) const;

 private:
  ColumnarTableOptions options_;
  ColumnSettings columns_;
  std::shared_ptr<rocksdb::Cache> cache_;
  std::shared_ptr<const rocksdb::FilterPolicy> filter_policy_;
  std::shared_ptr<const TableSchema> schema_;
  std::string pass_through_options_;
  std::string schema_text_;
};

// Parses the `schema` option: TableSchema::Serialize() output or CQL CREATE TABLE text.
Status ParseSchemaOption(const std::string& text, TableSchema* schema);

}  // namespace columnar
