// RowExpiryCollectorFactory's properties (plugin/row_expiry_properties.h), fed entry by entry as
// RocksDB feeds a table builder's collectors: a file expires whole only when every entry is a
// Put of a row with an expiry, and its latest expiry is what FileFullyExpired compares.
#include "plugin/row_expiry_properties.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "table_format/row_codec.h"

namespace columnar {
namespace {

std::shared_ptr<const TableSchema> Schema() {
  auto schema = std::make_shared<TableSchema>();
  EXPECT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("p", LogicalType::kText)
                  .AddColumn("a", LogicalType::kInt)
                  .SetPartitionKey({"p"})
                  .Build(schema.get())
                  .ok());
  return schema;
}

struct CollectedEntry {
  rocksdb::EntryType type;
  uint64_t sequence;
  int64_t expiry_seconds;  // 0: the row has no expiry
};

rocksdb::UserCollectedProperties Collect(const std::vector<CollectedEntry>& entries) {
  const std::shared_ptr<const TableSchema> schema = Schema();
  RowExpiryCollectorFactory factory(schema);
  std::unique_ptr<rocksdb::TablePropertiesCollector> collector(
      factory.CreateTablePropertiesCollector(rocksdb::TablePropertiesCollectorFactory::Context()));
  for (const CollectedEntry& entry : entries) {
    std::string value;
    if (entry.type == rocksdb::kEntryPut) {
      RowMetadata meta;
      meta.has_expiry = entry.expiry_seconds != 0;
      meta.expiry_seconds = static_cast<uint64_t>(entry.expiry_seconds);
      EXPECT_TRUE(EncodeRow(*schema, meta, Row{Value(), Value::Int(7)}, &value).ok());
    }
    EXPECT_TRUE(collector->AddUserKey("key", value, entry.type, entry.sequence, 0).ok());
  }
  rocksdb::UserCollectedProperties properties;
  EXPECT_TRUE(collector->Finish(&properties).ok());
  return properties;
}

rocksdb::TableProperties WithUserProperties(const rocksdb::UserCollectedProperties& user) {
  rocksdb::TableProperties properties;
  properties.user_collected_properties = user;
  return properties;
}

TEST(RowExpiryPropertiesTest, EveryRowExpiringGivesTheLatestExpiry) {
  const rocksdb::UserCollectedProperties p = Collect({{rocksdb::kEntryPut, 0, 1000},
                                                      {rocksdb::kEntryPut, 0, 3000},
                                                      {rocksdb::kEntryPut, 0, 2000}});
  EXPECT_EQ(p.at(kExpiryAllRowsProperty), "1");
  EXPECT_EQ(p.at(kExpiryMaxProperty), "3000");
  EXPECT_EQ(p.at(kExpiryMaxSeqnoProperty), "0");
  EXPECT_FALSE(FileFullyExpired(WithUserProperties(p), 2999));
  EXPECT_TRUE(FileFullyExpired(WithUserProperties(p), 3000));
}

TEST(RowExpiryPropertiesTest, ARowWithoutExpiryKeepsTheFileWhereverItComes) {
  // The row without expiry first, in the middle, last: the later expiries are not read.
  for (size_t at = 0; at < 3; at++) {
    SCOPED_TRACE("at " + std::to_string(at));
    std::vector<CollectedEntry> entries = {{rocksdb::kEntryPut, 0, 1000},
                                           {rocksdb::kEntryPut, 0, 5000},
                                           {rocksdb::kEntryPut, 0, 2000}};
    entries[at].expiry_seconds = 0;
    const rocksdb::UserCollectedProperties p = Collect(entries);
    EXPECT_EQ(p.at(kExpiryAllRowsProperty), "0");
    EXPECT_EQ(p.at(kExpiryMaxProperty), "0");
    EXPECT_FALSE(FileFullyExpired(WithUserProperties(p), INT64_MAX));
  }
}

TEST(RowExpiryPropertiesTest, DeletesKeepTheFileAndSequenceNumbersAreAllCounted) {
  const rocksdb::UserCollectedProperties p = Collect({{rocksdb::kEntryPut, 4, 1000},
                                                      {rocksdb::kEntryDelete, 9, 0},
                                                      {rocksdb::kEntryPut, 12, 1000},
                                                      {rocksdb::kEntryPut, 7, 1000}});
  EXPECT_EQ(p.at(kExpiryAllRowsProperty), "0");
  EXPECT_EQ(p.at(kExpiryMaxSeqnoProperty), "12") << "counted after the file stopped expiring";
  const rocksdb::UserCollectedProperties late = Collect({{rocksdb::kEntryPut, 3, 1000},
                                                         {rocksdb::kEntryPut, 8, 1000},
                                                         {rocksdb::kEntryPut, 5, 1000}});
  EXPECT_EQ(late.at(kExpiryAllRowsProperty), "1");
  EXPECT_EQ(late.at(kExpiryMaxSeqnoProperty), "8");
  EXPECT_FALSE(FileFullyExpired(WithUserProperties(late), INT64_MAX)) << "sequence numbers > 0";
}

}  // namespace
}  // namespace columnar
