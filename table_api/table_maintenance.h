// TableMaintenance: the maintenance half of a Table API table (issue: TTL expiry and dropped
// columns, the source documents' time-window expiry): the column-aware compaction filter
// (row_compaction_filter.h), the properties collector that lets a fully expired file be
// recognised unread (row_expiry_properties.h), and whole-file expiry (expired_files.h).
// Installed into the table's column family options whenever the table is created or opened.
#pragma once

#include <rocksdb/options.h>

#include <functional>
#include <memory>

#include "plugin/row_compaction_filter.h"
#include "plugin/row_expiry_properties.h"
#include "table_api/expired_files.h"
#include "table_format/schema.h"

namespace columnar {

class TableMaintenance {
 public:
  TableMaintenance(const TableSchema& schema, std::function<int64_t()> now_micros);

  // Sets the compaction filter factory and adds the properties collector.
  void Install(rocksdb::ColumnFamilyOptions* options) const;
  // After ALTER TABLE.
  void SetSchema(const TableSchema& schema);

  const RowCompactionFilterFactory::Stats& compaction_stats() const {
    return compaction_filter_->stats();
  }
  // Removes the column family's fully expired files (expired_files.h).
  Status DropExpiredFiles(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                          ExpiredFilesResult* result) const;

 private:
  std::function<int64_t()> now_micros_;
  std::shared_ptr<RowCompactionFilterFactory> compaction_filter_;
  std::shared_ptr<RowExpiryCollectorFactory> expiry_collector_;
};

}  // namespace columnar
