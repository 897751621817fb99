// User-defined timestamps (a comparator with timestamp_size() > 0, e.g.
// leveldb.BytewiseComparator.u64ts): BlockBasedTable supports them; ColumnarTable, which
// compares and hashes user keys whole, refuses such a column family with NotSupported when it
// is opened, and refuses to build or read files with such a comparator, instead of aborting on
// RocksDB's timestamp assertions or missing keys in its key filter. Differential: the same
// writes and reads against both formats, each behaving as documented.
#include <gtest/gtest.h>
#include <rocksdb/comparator.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>

#include <string>

#include "plugin/columnar_table.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace {

std::string Timestamp(uint64_t ts) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; i++) out[i] = static_cast<char>(ts >> (8 * i));  // little-endian
  return out;
}

// The comparator by its registry name (not declared in RocksDB 7.8's public headers).
const rocksdb::Comparator* U64TsComparator() {
  const rocksdb::Comparator* comparator = nullptr;
  const rocksdb::Status s = rocksdb::Comparator::CreateFromString(
      rocksdb::ConfigOptions(), "leveldb.BytewiseComparator.u64ts", &comparator);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(comparator->timestamp_size(), 8u);
  return comparator;
}

rocksdb::Options TimestampOptions(rocksdb::TableFactory* factory) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.comparator = U64TsComparator();
  options.table_factory.reset(factory);
  return options;
}

// Writes keys at timestamps 10 and 20, flushes, and reads them back at timestamps 15 and 25
// with Get and with a bounded iterator. Returns the results as text, or the open error.
std::string WriteAndRead(rocksdb::TableFactory* factory) {
  TempDir dir("user-timestamps");
  rocksdb::Status s;
  auto db = OpenDb(TimestampOptions(factory), dir.path(), &s);
  if (db == nullptr) return "open: " + s.ToString();
  std::string out;
  for (int i = 0; i < 100; i++) {
    const std::string key = "key" + std::to_string(100 + i);
    s = db->Put(rocksdb::WriteOptions(), key, Timestamp(10), "old" + std::to_string(i));
    if (s.ok()) s = db->Put(rocksdb::WriteOptions(), key, Timestamp(20), "new" + std::to_string(i));
    if (!s.ok()) return "put: " + s.ToString();
  }
  s = db->Flush(rocksdb::FlushOptions());
  if (!s.ok()) return "flush: " + s.ToString();
  for (uint64_t read_ts : {15, 25}) {
    const std::string ts = Timestamp(read_ts);
    rocksdb::Slice ts_slice(ts);
    rocksdb::ReadOptions read;
    read.timestamp = &ts_slice;
    std::string value;
    s = db->Get(read, "key150", &value);
    out += "get@" + std::to_string(read_ts) + "=" + (s.ok() ? value : s.ToString()) + " ";
    const rocksdb::Slice lower("key120"), upper("key125");
    read.iterate_lower_bound = &lower;
    read.iterate_upper_bound = &upper;
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(read));
    for (it->SeekToFirst(); it->Valid(); it->Next()) out += it->value().ToString() + ",";
    for (it->SeekToLast(); it->Valid(); it->Prev()) out += it->value().ToString() + ",";
    out += it->status().ToString() + " ";
  }
  return out;
}

TEST(UserTimestampTest, BlockBasedSupportsThemColumnarRefusesThem) {
  const std::string block_based = WriteAndRead(rocksdb::NewBlockBasedTableFactory());
  EXPECT_EQ(block_based,
            "get@15=old50 old20,old21,old22,old23,old24,old24,old23,old22,old21,old20,OK "
            "get@25=new50 new20,new21,new22,new23,new24,new24,new23,new22,new21,new20,OK ");
  const std::string columnar = WriteAndRead(NewColumnarTableFactory());
  EXPECT_EQ(columnar.rfind("open: Not implemented: ColumnarTable does not support user-defined "
                           "timestamps",
                           0),
            0u)
      << columnar;
}

TEST(UserTimestampTest, ColumnarRefusesToWriteFilesWithTimestamps) {
  TempDir dir("user-timestamps-sst");
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), TimestampOptions(NewColumnarTableFactory()));
  rocksdb::Status s = writer.Open(dir.Sub("file.sst"));
  if (s.ok()) s = writer.Put("key", Timestamp(1), "value");
  if (s.ok()) s = writer.Finish();
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
}

}  // namespace
}  // namespace columnar
