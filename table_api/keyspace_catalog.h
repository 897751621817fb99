// The keyspace catalog: one entry per keyspace created with CREATE KEYSPACE, in the column
// family "__columnar_keyspaces" (created by the first CREATE KEYSPACE, so a database that
// never had one keeps its column families as they were), keyed by the keyspace name. An entry
// is the keyspace's canonical CREATE KEYSPACE statement, read back with the CQL parser:
//
//   columnar-keyspace:1\n
//   CREATE KEYSPACE <name> WITH replication = {...} AND durable_writes = <bool>;
//
// Keyspaces that tables name without a CREATE KEYSPACE (implicit ones, database.h) have no
// entry. Entries are written with sync writes.
#pragma once

#include <rocksdb/db.h>

#include <string>
#include <vector>

#include "table_api/cql_ddl_statements.h"

namespace columnar {

inline constexpr const char* kKeyspaceColumnFamilyName = "__columnar_keyspaces";

void EncodeKeyspaceEntry(const KeyspaceDefinition& keyspace, std::string* encoded);
// Corruption naming the problem when `encoded` is not an entry.
Status DecodeKeyspaceEntry(const Slice& encoded, KeyspaceDefinition* keyspace);

class KeyspaceCatalog {
 public:
  KeyspaceCatalog(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family)
      : db_(db), column_family_(column_family) {}

  Status Put(const KeyspaceDefinition& keyspace) const;
  Status Delete(const std::string& name) const;
  // Every entry, in name order.
  Status ReadAll(std::vector<KeyspaceDefinition>* keyspaces) const;

 private:
  rocksdb::DB* db_;
  rocksdb::ColumnFamilyHandle* column_family_;
};

}  // namespace columnar
