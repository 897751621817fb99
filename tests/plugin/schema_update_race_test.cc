// UpdateColumnarTableSchema (how ALTER TABLE reaches a live column family) while RocksDB reads
// the factory's options from other threads (OPTIONS-file serialization, GetPrintableOptions,
// option comparison): every read must see one whole schema, never a torn or freed string.
#include <gtest/gtest.h>
#include <rocksdb/convenience.h>
#include <rocksdb/table.h>

#include <atomic>
#include <string>
#include <thread>

#include "plugin/columnar_table.h"

namespace columnar {
namespace {

// A valid CREATE TABLE with `columns` regular columns (long names: the strings differ in
// length, so replacing one reallocates).
std::string SchemaWith(int columns) {
  std::string cql = "CREATE TABLE ks.t (p text, c int";
  for (int i = 0; i < columns; i++) {
    cql += ", column_with_a_long_name_" + std::to_string(i) + " text";
  }
  return cql + ", PRIMARY KEY ((p), c))";
}

TEST(SchemaUpdateRaceTest, OptionReadersSeeWholeSchemas) {
  const std::string small = SchemaWith(3);
  const std::string large = SchemaWith(60);
  ColumnarTableOptions options;
  options.schema = small;
  std::shared_ptr<rocksdb::TableFactory> factory(NewColumnarTableFactory(options));
  std::shared_ptr<rocksdb::TableFactory> other(NewColumnarTableFactory(options));

  std::atomic<bool> done{false};
  std::atomic<int> torn{0};
  std::atomic<int> reads{0};
  auto whole = [&](const std::string& text) {
    const bool has_small = text.find(small) != std::string::npos;
    const bool has_large = text.find(large) != std::string::npos;
    return has_small != has_large;
  };
  std::thread serializer([&] {
    rocksdb::ConfigOptions config;
    while (!done.load()) {
      std::string text;
      if (!factory->GetOptionString(config, &text).ok() || !whole(text)) torn++;
      std::string mismatch;
      factory->AreEquivalent(config, other.get(), &mismatch);
      reads++;
    }
  });
  std::thread printer([&] {
    while (!done.load()) {
      if (!whole(factory->GetPrintableOptions())) torn++;
      reads++;
    }
  });
  for (int i = 0; i < 3000; i++) {
    const rocksdb::Status s = UpdateColumnarTableSchema(factory.get(), i % 2 == 0 ? large : small);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  done = true;
  serializer.join();
  printer.join();
  EXPECT_GT(reads.load(), 0);
  EXPECT_EQ(torn.load(), 0);
}

}  // namespace
}  // namespace columnar
