#include "table_api/catalog_write.h"

namespace columnar {
namespace {

// Writes `batch` synced, then flushes the column family (catalog_write.h).
Status WriteAndFlush(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                     rocksdb::WriteBatch* batch) {
  rocksdb::WriteOptions sync;
  sync.sync = true;
  Status s = db->Write(sync, batch);
  if (!s.ok()) return s;
  rocksdb::FlushOptions flush;
  flush.allow_write_stall = true;
  return db->Flush(flush, column_family);
}

}  // namespace

Status PutCatalogEntry(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                       const std::string& key, const std::string& value) {
  rocksdb::WriteBatch batch;
  Status s = batch.Put(column_family, key, value);
  return s.ok() ? WriteAndFlush(db, column_family, &batch) : s;
}

Status DeleteCatalogEntry(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                          const std::string& key) {
  rocksdb::WriteBatch batch;
  Status s = batch.Delete(column_family, key);
  return s.ok() ? WriteAndFlush(db, column_family, &batch) : s;
}

}  // namespace columnar
