// The table catalog: one entry per table in the column family "__columnar_catalog", keyed by
// the table's qualified name ("ks.table" or "table", also its column family's name). An entry
// holds the serialized schema (current version) and the stored storage settings, as text:
//
//   columnar-catalog:1\n
//   schema=<TableSchema::Serialize()>\n
//   table_factory=<StoredTableSettings::table_factory>\n
//   column_family=<StoredTableSettings::column_family>\n
//
// Entries are written with sync writes, so a table exists once CreateTable / AlterTable return.
#pragma once

#include <rocksdb/db.h>

#include <string>
#include <vector>

#include "table_api/table_storage.h"
#include "table_format/schema.h"

namespace columnar {

inline constexpr const char* kCatalogColumnFamilyName = "__columnar_catalog";

struct CatalogEntry {
  TableSchema schema;
  StoredTableSettings settings;
};

// InvalidArgument when a setting contains a line break (it could not be read back).
Status EncodeCatalogEntry(const CatalogEntry& entry, std::string* encoded);
// Corruption naming the problem when `encoded` is not an entry.
Status DecodeCatalogEntry(const Slice& encoded, CatalogEntry* entry);

// Catalog access on an open database.
class TableCatalog {
 public:
  TableCatalog(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family)
      : db_(db), column_family_(column_family) {}

  // Adds or replaces the entry of entry.schema's table.
  Status Put(const CatalogEntry& entry) const;
  // The entry of table `name` (qualified); NotFound when there is none.
  Status Get(const std::string& name, CatalogEntry* entry) const;
  Status Delete(const std::string& name) const;
  // Every entry, in name order.
  Status ReadAll(std::vector<CatalogEntry>* entries) const;

 private:
  rocksdb::DB* db_;
  rocksdb::ColumnFamilyHandle* column_family_;
};

// The entries of the database at `path` without opening it for writing (a read-only open of
// the default and catalog column families). No entries when it has no catalog column family.
Status ReadCatalogOfClosedDatabase(const rocksdb::DBOptions& options, const std::string& path,
                                   const std::vector<std::string>& column_families,
                                   std::vector<CatalogEntry>* entries);

}  // namespace columnar
