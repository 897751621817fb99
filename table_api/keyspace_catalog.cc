#include "table_api/keyspace_catalog.h"

#include <memory>

#include "table_api/catalog_write.h"
#include "table_api/status_context.h"

namespace columnar {
namespace {

constexpr const char kKeyspaceEntryHeader[] = "columnar-keyspace:1\n";

}  // namespace

void EncodeKeyspaceEntry(const KeyspaceDefinition& keyspace, std::string* encoded) {
  *encoded = kKeyspaceEntryHeader + keyspace.ToCql();
}

Status DecodeKeyspaceEntry(const Slice& encoded, KeyspaceDefinition* keyspace) {
  Slice in = encoded;
  if (!in.starts_with(kKeyspaceEntryHeader))
    return Status::Corruption("keyspace entry: unknown format");
  in.remove_prefix(sizeof(kKeyspaceEntryHeader) - 1);
  CreateKeyspaceStatement statement;
  const Status s = ParseCreateKeyspace(in, &statement);
  if (!s.ok()) {
    return Status::Corruption("keyspace entry",
                              s.getState() != nullptr ? s.getState() : s.ToString());
  }
  *keyspace = std::move(statement.keyspace);
  return Status::OK();
}

Status KeyspaceCatalog::Put(const KeyspaceDefinition& keyspace) const {
  std::string encoded;
  EncodeKeyspaceEntry(keyspace, &encoded);
  return PutCatalogEntry(db_, column_family_, keyspace.name, encoded);
}

Status KeyspaceCatalog::Delete(const std::string& name) const {
  return DeleteCatalogEntry(db_, column_family_, name);
}

Status KeyspaceCatalog::ReadAll(std::vector<KeyspaceDefinition>* keyspaces) const {
  keyspaces->clear();
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), column_family_));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    KeyspaceDefinition keyspace;
    Status s = DecodeKeyspaceEntry(it->value(), &keyspace);
    if (s.ok() && keyspace.name != it->key().ToString()) {
      s = Status::Corruption("keyspace entry holds keyspace " + keyspace.name);
    }
    if (!s.ok()) return WithContext("keyspace " + it->key().ToString(), s);
    keyspaces->push_back(std::move(keyspace));
  }
  return it->status();
}

}  // namespace columnar
