// The ColumnarTable file reader (plugin/) on arbitrary bytes written as an SST file into an
// in-memory Env: opened with SstFileReader (and, for some inputs, ingested into a database),
// iterated both ways, sought, Get, and checksum-verified. Damage must surface as a Status, never
// as a crash; an undamaged file must iterate the same keys forward and backward.
//
// Input: [flags u8] [file bytes]
//   bit 0: read with verify_checksums off (so damaged data blocks reach the decoders)
//   bit 1: a 3-byte prefix extractor (partition filters, prefix seeks)
//   bit 2: ingest into a database in the same Env and Get / iterate through it
//   bit 3: and compact it there (the builder rewrites what was read)
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/table.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "plugin/columnar_table.h"
#include "tests/fuzz/fuzz_schema.h"

namespace columnar {
namespace {

class AppendOperator : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing, const rocksdb::Slice& value,
             std::string* new_value, rocksdb::Logger*) const override {
    new_value->assign(existing ? existing->ToString() + "," : std::string());
    new_value->append(value.data(), value.size());
    return true;
  }
  const char* Name() const override { return "FuzzAppend"; }
};

rocksdb::Env* MemEnv() {
  static rocksdb::Env* env = rocksdb::NewMemEnv(rocksdb::Env::Default());
  return env;
}

rocksdb::Options FuzzOptions(bool prefix) {
  rocksdb::Options options;
  options.env = MemEnv();
  options.create_if_missing = true;
  options.merge_operator = std::make_shared<AppendOperator>();
  if (prefix) options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(3));
  // A fresh factory and cache per input: cache keys come from the file, and a forged file may
  // repeat the keys of an earlier one.
  ColumnarTableOptions table;
  table.cache_size = 1 << 20;
  options.table_factory.reset(NewColumnarTableFactory(table));
  return options;
}

// Keys and values seen by a full scan in one direction; false when the scan stopped on an
// error.
bool Scan(rocksdb::Iterator* it, bool forward, std::vector<std::string>* keys) {
  size_t steps = 0;
  for (forward ? it->SeekToFirst() : it->SeekToLast(); it->Valid() && steps < 100000;
       forward ? it->Next() : it->Prev(), steps++) {
    keys->push_back(it->key().ToString());
    (void)it->value();
  }
  return it->status().ok();
}

void ReadFile(const std::string& path, bool verify, bool prefix) {
  rocksdb::Options options = FuzzOptions(prefix);
  rocksdb::SstFileReader reader(options);
  if (!reader.Open(path).ok()) return;
  (void)reader.GetTableProperties();
  rocksdb::ReadOptions read;
  read.verify_checksums = verify;
  std::unique_ptr<rocksdb::Iterator> it(reader.NewIterator(read));
  std::vector<std::string> forward;
  std::vector<std::string> backward;
  const bool forward_ok = Scan(it.get(), true, &forward);
  const bool backward_ok = Scan(it.get(), false, &backward);
  if (forward_ok && backward_ok && forward.size() < 100000) {
    FUZZ_CHECK(forward.size() == backward.size());
    for (size_t i = 0; i < forward.size(); i++) {
      FUZZ_CHECK(forward[i] == backward[backward.size() - 1 - i]);
    }
  }
  // Seeks to keys of the file and just around them.
  for (size_t i = 0; i < forward.size() && i < 64; i += 7) {
    it->Seek(forward[i]);
    if (it->Valid() && it->status().ok()) FUZZ_CHECK(it->key().compare(forward[i]) >= 0);
    it->SeekForPrev(forward[i] + '\xff');
    (void)it->Valid();
    it->Seek(forward[i].substr(0, forward[i].size() / 2));
    if (it->Valid()) it->Next();
    if (it->Valid()) it->Prev();
  }
  it.reset();
  if (reader.VerifyChecksum().ok() && forward_ok) {
    // A file whose every checksum holds reads without error with verification on too.
    std::unique_ptr<rocksdb::Iterator> verified(reader.NewIterator(rocksdb::ReadOptions()));
    std::vector<std::string> keys;
    FUZZ_CHECK(Scan(verified.get(), true, &keys) || keys.size() >= 100000);
  }
}

// One database for the whole run (opening one per input would dominate the run time); each
// input is ingested into a column family of its own, dropped afterwards.
rocksdb::DB* SharedDb() {
  static rocksdb::DB* db = [] {
    rocksdb::Options options = FuzzOptions(false);
    rocksdb::DestroyDB("/fuzz/db", options);
    rocksdb::DB* opened = nullptr;
    FUZZ_CHECK(rocksdb::DB::Open(options, "/fuzz/db", &opened).ok());
    return opened;
  }();
  return db;
}

void IngestFile(const std::string& path, bool prefix, bool compact) {
  rocksdb::DB* db = SharedDb();
  static uint64_t counter = 0;
  rocksdb::ColumnFamilyHandle* handle = nullptr;
  FUZZ_CHECK(db->CreateColumnFamily(rocksdb::ColumnFamilyOptions(FuzzOptions(prefix)),
                                    "cf" + std::to_string(counter++), &handle)
                 .ok());
  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = false;
  ingest.verify_checksums_before_ingest = (counter % 2) == 0;
  if (db->IngestExternalFile(handle, {path}, ingest).ok()) {
    rocksdb::ReadOptions read;
    read.total_order_seek = true;
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(read, handle));
    std::vector<std::string> keys;
    Scan(it.get(), true, &keys);
    it.reset();
    for (size_t i = 0; i < keys.size() && i < 32; i += 3) {
      std::string value;
      (void)db->Get(rocksdb::ReadOptions(), handle, keys[i], &value);
      (void)db->Get(rocksdb::ReadOptions(), handle, keys[i] + '\x01', &value);
    }
    if (compact) (void)db->CompactRange(rocksdb::CompactRangeOptions(), handle, nullptr, nullptr);
  }
  FUZZ_CHECK(db->DropColumnFamily(handle).ok());
  FUZZ_CHECK(db->DestroyColumnFamilyHandle(handle).ok());
}

}  // namespace
}  // namespace columnar

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace columnar;
  if (size < 1) return 0;
  const uint8_t flags = data[0];
  rocksdb::Env* env = MemEnv();
  static bool dir_created = env->CreateDirIfMissing("/fuzz").ok();
  FUZZ_CHECK(dir_created);
  const std::string path = "/fuzz/input.sst";
  FUZZ_CHECK(rocksdb::WriteStringToFile(
                 env, rocksdb::Slice(reinterpret_cast<const char*>(data) + 1, size - 1), path)
                 .ok());
  ReadFile(path, /*verify=*/(flags & 1) == 0, (flags & 2) != 0);
  if (flags & 4) IngestFile(path, (flags & 2) != 0, (flags & 8) != 0);
  env->DeleteFile(path);
  return 0;
}
