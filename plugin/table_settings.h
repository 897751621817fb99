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

namespace columnar {

class TableSettings {
 public:
  // Parses `options`; a malformed column option or schema is InvalidArgument.
  static Status Create(const ColumnarTableOptions& options,
                       std::shared_ptr<const TableSettings>* out);

  const ColumnarTableOptions& options() const { return options_; }
  const ColumnSettings& columns() const { return columns_; }
  rocksdb::Cache* cache() const { return cache_.get(); }
  // Null when bloom filters are disabled.
  const rocksdb::FilterPolicy* filter_policy() const { return filter_policy_.get(); }

  // The layout new files are written with.
  std::unique_ptr<RowLayout> NewWriteLayout(
      const std::shared_ptr<const rocksdb::SliceTransform>& prefix_extractor) const;

 private:
  ColumnarTableOptions options_;
  ColumnSettings columns_;
  std::shared_ptr<rocksdb::Cache> cache_;
  std::shared_ptr<const rocksdb::FilterPolicy> filter_policy_;
};

}  // namespace columnar
