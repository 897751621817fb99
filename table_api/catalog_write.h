// How the catalogs (tables, keyspaces) change their column family. A change is written synced,
// then flushed: the catalogs change rarely, and a change left in the memtable would keep its
// write-ahead log file, and every later one, from being deleted until RocksDB's
// max_total_wal_size forces a flush (gigabytes of logs under a steady load, all replayed when
// the database reopens).
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <string>

#include "table_format/types.h"

namespace columnar {

Status PutCatalogEntry(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                       const std::string& key, const std::string& value);
Status DeleteCatalogEntry(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                          const std::string& key);

}  // namespace columnar
