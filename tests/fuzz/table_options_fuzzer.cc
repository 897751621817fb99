// The ColumnarTable options-string parser: arbitrary text after "id=ColumnarTable;" goes
// through RocksDB's TableFactory::CreateFromString (our option table) and PrepareOptions /
// ValidateOptions (TableSettings::Create: column_encodings, column_compression and the schema,
// as serialized text or CREATE TABLE). Options that validate must write an SST file that
// reads back the rows written.
#include <rocksdb/convenience.h>
#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "plugin/columnar_table.h"
#include "tests/fuzz/fuzz_schema.h"

namespace columnar {
namespace {

rocksdb::Env* MemEnv() {
  static rocksdb::Env* env = rocksdb::NewMemEnv(rocksdb::Env::Default());
  return env;
}

// Writes 100 rows with the factory and reads them back.
void WriteAndRead(const std::shared_ptr<rocksdb::TableFactory>& factory) {
  rocksdb::Options options;
  options.env = MemEnv();
  options.table_factory = factory;
  const std::string path = "/fuzz/options.sst";
  MemEnv()->CreateDirIfMissing("/fuzz");
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  if (!writer.Open(path).ok()) return;
  char key[16];
  for (int i = 0; i < 100; i++) {
    snprintf(key, sizeof(key), "k%05d", i);
    if (!writer.Put(key, std::string(i % 23, static_cast<char>('a' + i % 26))).ok()) return;
  }
  if (!writer.Finish().ok()) return;
  rocksdb::SstFileReader reader(options);
  FUZZ_CHECK(reader.Open(path).ok());
  std::unique_ptr<rocksdb::Iterator> it(reader.NewIterator(rocksdb::ReadOptions()));
  int rows = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    snprintf(key, sizeof(key), "k%05d", rows);
    FUZZ_CHECK(it->key() == rocksdb::Slice(key));
    FUZZ_CHECK(it->value() == std::string(rows % 23, static_cast<char>('a' + rows % 26)));
    rows++;
  }
  FUZZ_CHECK(it->status().ok());
  FUZZ_CHECK(rows == 100);
  FUZZ_CHECK(reader.VerifyChecksum().ok());
  MemEnv()->DeleteFile(path);
}

}  // namespace
}  // namespace columnar

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace columnar;
  // The factories register when a program calls this (Database::Open does); nothing else in
  // this target pulls the plugin in, and without it every "id=ColumnarTable" failed to parse.
  static const bool registered = (RegisterColumnarTableFactories(), true);
  (void)registered;
  std::string text(reinterpret_cast<const char*>(data), size);
  rocksdb::ConfigOptions config;
  config.ignore_unknown_options = false;
  std::shared_ptr<rocksdb::TableFactory> factory;
  if (!rocksdb::TableFactory::CreateFromString(config, "id=ColumnarTable;" + text, &factory).ok()) {
    return 0;
  }
  // RocksDB's own parser (not ours) accepts an empty id, e.g. one cut short by a NUL byte, as
  // "no factory".
  if (factory == nullptr) return 0;
  // A later "id=" in the text names another factory (the last one wins), e.g.
  // "id=BlockBasedTable" (found by this target; in the corpus): not ours to check.
  if (std::string(factory->Name()) != kColumnarTableName) return 0;
  (void)factory->GetPrintableOptions();
  std::string serialized;
  (void)factory->GetOptionString(config, &serialized);
  if (!factory->PrepareOptions(config).ok()) return 0;
  rocksdb::Options options;
  if (!factory->ValidateOptions(rocksdb::DBOptions(options), rocksdb::ColumnFamilyOptions(options))
           .ok()) {
    return 0;
  }
  const auto* table = factory->GetOptions<ColumnarTableOptions>();
  FUZZ_CHECK(table != nullptr);
  // Huge caches and row groups are the caller's choice: only write with modest ones.
  if (table->cache_size <= (64u << 20) && table->rows_per_group <= 4096 &&
      table->block_size <= (1u << 20) && table->group_target_bytes <= (1u << 20)) {
    WriteAndRead(factory);
  }
  return 0;
}
