#include "table_api/table_maintenance.h"

namespace columnar {

TableMaintenance::TableMaintenance(const TableSchema& schema, std::function<int64_t()> now_micros)
    : now_micros_(now_micros),
      compaction_filter_(std::make_shared<RowCompactionFilterFactory>(
          std::make_shared<const TableSchema>(schema), now_micros)),
      expiry_collector_(std::make_shared<RowExpiryCollectorFactory>(
          std::make_shared<const TableSchema>(schema))) {}

void TableMaintenance::Install(rocksdb::ColumnFamilyOptions* options) const {
  options->compaction_filter_factory = compaction_filter_;
  options->table_properties_collector_factories.push_back(expiry_collector_);
}

void TableMaintenance::SetSchema(const TableSchema& schema) {
  auto shared = std::make_shared<const TableSchema>(schema);
  compaction_filter_->SetSchema(shared);
  expiry_collector_->SetSchema(shared);
}

Status TableMaintenance::DropExpiredFiles(rocksdb::DB* db,
                                          rocksdb::ColumnFamilyHandle* column_family,
                                          ExpiredFilesResult* result) const {
  const int64_t micros = now_micros_();
  const int64_t seconds = micros >= 0 ? micros / 1000000 : -((-micros + 999999) / 1000000);
  return columnar::DropExpiredFiles(db, column_family, seconds, result);
}

}  // namespace columnar
