#include "table_api/table_catalog.h"

#include <algorithm>
#include <memory>

#include "table_api/catalog_write.h"
#include "table_api/status_context.h"

namespace columnar {
namespace {

constexpr const char kTableEntryHeader[] = "columnar-catalog:1";
constexpr const char* kFieldNames[] = {"schema", "table_factory", "column_family"};

// Splits "name=value\n" lines; the value is everything after the first '='.
Status ReadField(Slice* in, const char* name, std::string* value) {
  const std::string prefix = std::string(name) + "=";
  const char* end = std::find(in->data(), in->data() + in->size(), '\n');
  const Slice line(in->data(), static_cast<size_t>(end - in->data()));
  if (end == in->data() + in->size() || !line.starts_with(prefix)) {
    return Status::Corruption(std::string("catalog entry: missing field ") + name);
  }
  value->assign(line.data() + prefix.size(), line.size() - prefix.size());
  in->remove_prefix(line.size() + 1);
  return Status::OK();
}

}  // namespace

Status EncodeCatalogEntry(const CatalogEntry& entry, std::string* encoded) {
  const std::string values[] = {entry.schema.Serialize(), entry.settings.table_factory,
                                entry.settings.column_family};
  *encoded = std::string(kTableEntryHeader) + "\n";
  for (size_t i = 0; i < std::size(values); i++) {
    if (values[i].find('\n') != std::string::npos) {
      return Status::InvalidArgument(std::string("table setting ") + kFieldNames[i] +
                                     " contains a line break");
    }
    *encoded += std::string(kFieldNames[i]) + "=" + values[i] + "\n";
  }
  return Status::OK();
}

Status DecodeCatalogEntry(const Slice& encoded, CatalogEntry* entry) {
  Slice in = encoded;
  const std::string header = std::string(kTableEntryHeader) + "\n";
  if (!in.starts_with(header)) return Status::Corruption("catalog entry: unknown format");
  in.remove_prefix(header.size());
  std::string schema;
  Status s = ReadField(&in, kFieldNames[0], &schema);
  if (s.ok()) s = ReadField(&in, kFieldNames[1], &entry->settings.table_factory);
  if (s.ok()) s = ReadField(&in, kFieldNames[2], &entry->settings.column_family);
  if (s.ok() && !in.empty()) s = Status::Corruption("catalog entry: unexpected trailing text");
  if (s.ok()) s = WithContext("catalog entry", TableSchema::Deserialize(schema, &entry->schema));
  return s;
}

Status TableCatalog::Put(const CatalogEntry& entry) const {
  std::string encoded;
  Status s = EncodeCatalogEntry(entry, &encoded);
  if (!s.ok()) return s;
  return PutCatalogEntry(db_, column_family_, entry.schema.QualifiedName(), encoded);
}

Status TableCatalog::Get(const std::string& name, CatalogEntry* entry) const {
  std::string encoded;
  Status s = db_->Get(rocksdb::ReadOptions(), column_family_, name, &encoded);
  if (s.IsNotFound()) return Status::NotFound("the catalog has no table " + name);
  return s.ok() ? DecodeCatalogEntry(encoded, entry) : s;
}

Status TableCatalog::Delete(const std::string& name) const {
  return DeleteCatalogEntry(db_, column_family_, name);
}

Status TableCatalog::ReadAll(std::vector<CatalogEntry>* entries) const {
  entries->clear();
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), column_family_));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    CatalogEntry entry;
    Status s = DecodeCatalogEntry(it->value(), &entry);
    if (s.ok() && entry.schema.QualifiedName() != it->key().ToString()) {
      s = Status::Corruption("catalog entry holds the schema of " + entry.schema.QualifiedName());
    }
    if (!s.ok()) return WithContext("table " + it->key().ToString(), s);
    entries->push_back(std::move(entry));
  }
  return it->status();
}

Status ReadCatalogOfClosedDatabase(const rocksdb::DBOptions& options, const std::string& path,
                                   const std::vector<std::string>& column_families,
                                   std::vector<CatalogEntry>* entries) {
  entries->clear();
  const bool has_catalog = std::find(column_families.begin(), column_families.end(),
                                     kCatalogColumnFamilyName) != column_families.end();
  if (!has_catalog) return Status::OK();
  const std::vector<rocksdb::ColumnFamilyDescriptor> descriptors = {
      {rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions()},
      {kCatalogColumnFamilyName, rocksdb::ColumnFamilyOptions()}};
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  Status s = rocksdb::DB::OpenForReadOnly(options, path, descriptors, &handles, &raw);
  if (!s.ok()) return WithContext("reading the table catalog", s);
  std::unique_ptr<rocksdb::DB> db(raw);
  s = TableCatalog(db.get(), handles[1]).ReadAll(entries);
  for (rocksdb::ColumnFamilyHandle* handle : handles) db->DestroyColumnFamilyHandle(handle);
  Status closed = db->Close();
  return s.ok() ? closed : s;
}

}  // namespace columnar
