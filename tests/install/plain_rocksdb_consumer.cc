// A plain RocksDB program using the installed static plugin (built with pkg-config by
// install_and_build_example.sh): it registers the factories explicitly, creates a column
// family whose OPTIONS name ColumnarTable, closes, and reopens the database from its OPTIONS
// file, which finds ColumnarTable by name.
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/utilities/options_util.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "plugin/columnar_table.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  columnar::RegisterColumnarTableFactories();  // what the static library needs, once

  rocksdb::ConfigOptions config;
  config.ignore_unsupported_options = false;  // an unknown factory is an error, not a default
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::Status s = rocksdb::TableFactory::CreateFromString(
      config, "id=ColumnarTable;rows_per_group=64", &options.table_factory);
  if (s.ok() && std::string(options.table_factory->Name()) != "ColumnarTable") {
    s = rocksdb::Status::NotFound("ColumnarTable", options.table_factory->Name());
  }
  rocksdb::DB* raw = nullptr;
  if (s.ok()) s = rocksdb::DB::Open(options, path, &raw);
  std::unique_ptr<rocksdb::DB> db(raw);
  for (int i = 0; s.ok() && i < 1000; i++) {
    s = db->Put(rocksdb::WriteOptions(), "key" + std::to_string(1000 + i), std::to_string(i));
  }
  if (s.ok()) s = db->Flush(rocksdb::FlushOptions());
  if (s.ok()) s = db->Close();
  db.reset();

  // Reopen from the OPTIONS file: the table factory is recreated by name.
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  if (s.ok()) {
    s = rocksdb::LoadLatestOptions(config, path, &db_options, &descriptors);
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  if (s.ok()) s = rocksdb::DB::Open(db_options, path, descriptors, &handles, &raw);
  if (!s.ok()) {
    std::fprintf(stderr, "plain_rocksdb_consumer: %s\n", s.ToString().c_str());
    return 1;
  }
  db.reset(raw);
  std::string value;
  s = db->Get(rocksdb::ReadOptions(), "key1500", &value);
  std::printf("plain_rocksdb_consumer: %s key1500=%s\n",
              descriptors[0].options.table_factory->Name(),
              s.ok() ? value.c_str() : s.ToString().c_str());
  for (auto* handle : handles) db->DestroyColumnFamilyHandle(handle);
  return s.ok() && value == "500" ? 0 : 1;
}
