#include "plugin/table_settings.h"

#include "table_format/generic_layout.h"

namespace columnar {

Status TableSettings::Create(const ColumnarTableOptions& options,
                             std::shared_ptr<const TableSettings>* out) {
  auto settings = std::make_shared<TableSettings>();
  settings->options_ = options;
  if (options.rows_per_group == 0 || options.rows_per_group > (1u << 20)) {
    return Status::InvalidArgument("ColumnarTable: rows_per_group must be in [1, 2^20]");
  }
  if (options.block_size == 0 || options.block_size > (256u << 20)) {
    return Status::InvalidArgument("ColumnarTable: block_size must be in [1, 256 MiB]");
  }
  if (options.bloom_bits_per_key < 0) {
    return Status::InvalidArgument("ColumnarTable: bloom_bits_per_key must be >= 0");
  }
  Status s = ColumnSettings::Parse(options.column_encodings, options.column_compression,
                                   options.column_compression_level, &settings->columns_);
  if (!s.ok()) return s;
  if (!options.schema.empty()) {
    return Status::NotSupported("ColumnarTable: schemas arrive with the typed layout");
  }
  settings->cache_ =
      options.cache != nullptr ? options.cache : rocksdb::NewLRUCache(options.cache_size);
  if (options.bloom_bits_per_key > 0) {
    settings->filter_policy_.reset(rocksdb::NewBloomFilterPolicy(options.bloom_bits_per_key));
  }
  *out = std::move(settings);
  return Status::OK();
}

std::unique_ptr<RowLayout> TableSettings::NewWriteLayout(
    const std::shared_ptr<const rocksdb::SliceTransform>& prefix_extractor) const {
  return std::make_unique<GenericLayout>(prefix_extractor);
}

}  // namespace columnar
