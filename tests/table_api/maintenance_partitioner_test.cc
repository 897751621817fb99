// TimeWindowSstPartitionerFactory: compaction output cut at day changes for tables whose
// partition key ends in a date (each file then holds exactly one run of equal days in key
// order), and at partition changes once a file holds min_file_bytes for other tables (no
// partition split across files, files of several partitions); reads unchanged (model), on
// BlockBasedTable, ColumnarTable and TieredTable tables. Also the partitioner's decisions on
// single keys: never between versions of one key, never for keys outside the schema.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "plugin/time_window_partitioner.h"
#include "table_format/cql_parser.h"
#include "table_format/key_codec.h"
#include "tests/table_api/maintenance_test_util.h"

namespace columnar {
namespace {

using test::TableKind;

constexpr int64_t kPartitionerStart = 1'700'000'000;
constexpr int32_t kDay = 19700;
constexpr uint64_t kMinFileBytes = 8 * 1024;

const char kLogsCql[] =
    "CREATE TABLE ks.logs (host text, day date, time timestamp, msg text, "
    "PRIMARY KEY ((host, day), time)) WITH CLUSTERING ORDER BY (time DESC)";
const char kMetricsCql[] =
    "CREATE TABLE ks.metrics (orgid text, clusterhash bigint, metricid bigint, time int, "
    "value float, PRIMARY KEY ((orgid, clusterhash, metricid), time)) "
    "WITH CLUSTERING ORDER BY (time DESC)";

void InstallPartitioner(const TableSchema& schema, rocksdb::ColumnFamilyOptions* options) {
  TimeWindowPartitionerOptions partitioner;
  partitioner.min_file_bytes = kMinFileBytes;
  options->sst_partitioner_factory =
      std::make_shared<TimeWindowSstPartitionerFactory>(schema, partitioner);
}

std::string PartitionOf(const TableSchema& schema, const std::string& key) {
  size_t length = 0;
  EXPECT_TRUE(PartitionKeyLength(schema, key, &length).ok());
  return key.substr(0, length);
}

class MaintenancePartitionerTest : public ::testing::TestWithParam<TableKind> {
 protected:
  void Insert(Table* table, const NamedRow& named) {
    const TableSchema& schema = *table->schema();
    ASSERT_TRUE(table->Insert(named).ok());
    Row row;
    ASSERT_TRUE(RowFromNamedRow(schema, named, &row).ok());
    models_[table->name()].Insert(schema, row, RowWriteOptions(), db_.clock().now_micros());
    std::vector<Value> partition;
    for (uint32_t id : schema.partition_key()) partition.push_back(row[id]);
    std::string encoded;
    ASSERT_TRUE(EncodePartitionKey(schema, partition, &encoded).ok());
    partitions_[table->name()][encoded] = partition;
  }

  void ExpectMatchesModel(Table* table) {
    std::vector<std::vector<Value>> partitions;
    for (const auto& [encoded, values] : partitions_[table->name()]) partitions.push_back(values);
    test::ExpectPartitionsMatchModel(table, models_[table->name()], partitions,
                                     db_.clock().now_micros(), "after the compaction");
  }

  // The table's files in key order; all must be in one level.
  std::vector<rocksdb::LiveFileMetaData> SortedFiles(Table* table) const {
    std::vector<rocksdb::LiveFileMetaData> files = db_.Files(table);
    std::sort(files.begin(), files.end(),
              [](const auto& a, const auto& b) { return a.smallestkey < b.smallestkey; });
    for (const auto& file : files) EXPECT_EQ(file.level, files.front().level);
    return files;
  }

  test::MaintenanceDb db_{kPartitionerStart, InstallPartitioner};
  std::map<std::string, test::TableModel> models_;
  // By table: every partition written, by its encoded key.
  std::map<std::string, std::map<std::string, std::vector<Value>>> partitions_;
};

TEST_P(MaintenancePartitionerTest, LogsAreCutWhereTheDayChanges) {
  Table* table = db_.Create(kLogsCql, GetParam());
  ASSERT_NE(table, nullptr);
  // Key order h0/d0, h0/d1, h1/d1, h1/d2, h1/d3, h2/d3: the runs of equal days are
  // [h0/d0] [h0/d1 h1/d1] [h1/d2] [h1/d3 h2/d3].
  const std::vector<std::pair<const char*, int32_t>> partitions = {
      {"h1", kDay + 2}, {"h0", kDay},     {"h2", kDay + 3},
      {"h1", kDay + 1}, {"h0", kDay + 1}, {"h1", kDay + 3}};
  for (const auto& [host, day] : partitions) {
    for (int i = 0; i < 300; i++) {
      Insert(table, {{"host", Value::Text(host)},
                     {"day", Value::Date(day)},
                     {"time", Value::Timestamp((int64_t{day} * 86400 + i * 7) * 1000)},
                     {"msg", Value::Text("GET /index.html " + std::to_string(i))}});
    }
    db_.Flush(table);  // files of one partition each: every day in many L0 files
  }
  db_.Compact(table);
  ExpectMatchesModel(table);

  // Expected files: the runs of equal days in key order, from the first key to the last.
  std::vector<std::pair<std::string, std::string>> runs;
  int32_t run_day = 0;
  for (const auto& [key, value] : db_.RawEntries(table)) {
    std::vector<Value> partition, clustering;
    ASSERT_TRUE(DecodeKey(*table->schema(), key, &partition, &clustering).ok());
    const int32_t day = partition[1].int32_value();
    if (runs.empty() || day != run_day) runs.emplace_back(key, key);
    runs.back().second = key;
    run_day = day;
  }
  ASSERT_EQ(runs.size(), 4u);
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& file : SortedFiles(table)) files.emplace_back(file.smallestkey, file.largestkey);
  EXPECT_EQ(files, runs);
}

TEST_P(MaintenancePartitionerTest, MetricsAreCutAtPartitionChangesPastTheMinimumSize) {
  Table* table = db_.Create(kMetricsCql, GetParam());
  ASSERT_NE(table, nullptr);
  std::mt19937 random(7);
  // Enough points for several files past the minimum size, also as the encodings get denser.
  for (int series = 0; series < 80; series++) {
    const int points = 20 + static_cast<int>(random() % 200);
    for (int i = 0; i < points; i++) {
      Insert(table, {{"orgid", Value::Text("org" + std::to_string(series % 3))},
                     {"clusterhash", Value::BigInt(series * 7919)},
                     {"metricid", Value::BigInt(series)},
                     {"time", Value::Int(kPartitionerStart - i * 10)},
                     {"value", Value::Float(static_cast<float>(random() % 100000) / 7)}});
    }
    if (series % 10 == 9) db_.Flush(table);
  }
  db_.Compact(table);
  ExpectMatchesModel(table);

  const std::vector<rocksdb::LiveFileMetaData> files = SortedFiles(table);
  ASSERT_GT(files.size(), 2u);
  EXPECT_LT(files.size(), 20u);  // several partitions per file
  const TableSchema& schema = *table->schema();
  for (size_t i = 0; i + 1 < files.size(); i++) {
    // No partition is split, and only files past the minimum size were cut.
    EXPECT_NE(PartitionOf(schema, files[i].largestkey),
              PartitionOf(schema, files[i + 1].smallestkey))
        << "file " << i;
    EXPECT_GE(files[i].size, kMinFileBytes / 2) << "file " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(AllKinds, MaintenancePartitionerTest, test::AllTableKinds(),
                         test::TableKindParamName);

// The partitioner's decisions on single keys.
class TimeWindowPartitionerDecisionsTest : public ::testing::Test {
 protected:
  static TableSchema Schema(const std::string& cql) {
    CreateTableStatement statement;
    const Status s = ParseCreateTable(cql, &statement);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return statement.schema;
  }

  static std::string Key(const TableSchema& schema, const std::vector<Value>& partition,
                         const std::vector<Value>& clustering) {
    std::string key;
    EXPECT_TRUE(EncodeKey(schema, partition, clustering, &key).ok());
    return key;
  }

  static bool Cuts(rocksdb::SstPartitioner* partitioner, const std::string& previous,
                   const std::string& current, uint64_t file_bytes) {
    const Slice a(previous), b(current);
    return partitioner->ShouldPartition(rocksdb::PartitionerRequest(a, b, file_bytes)) ==
           rocksdb::kRequired;
  }

  static std::unique_ptr<rocksdb::SstPartitioner> New(const TimeWindowSstPartitionerFactory& f) {
    return f.CreatePartitioner(rocksdb::SstPartitioner::Context());
  }
};

TEST_F(TimeWindowPartitionerDecisionsTest, DayMode) {
  const TableSchema schema = Schema(kLogsCql);
  const TimeWindowSstPartitionerFactory factory(schema);
  EXPECT_EQ(factory.mode(), TimeWindowSstPartitionerFactory::Mode::kDay);
  auto partitioner = New(factory);
  auto key = [&](const char* host, int32_t day, int64_t ms) {
    return Key(schema, {Value::Text(host), Value::Date(day)}, {Value::Timestamp(ms)});
  };
  EXPECT_FALSE(Cuts(partitioner.get(), key("a", kDay, 2), key("a", kDay, 1), 0));
  EXPECT_FALSE(Cuts(partitioner.get(), key("a", kDay, 1), key("a", kDay, 1), 1 << 30));
  EXPECT_FALSE(Cuts(partitioner.get(), key("a", kDay, 1), key("b", kDay, 9), 0));
  EXPECT_TRUE(Cuts(partitioner.get(), key("a", kDay, 1), key("a", kDay + 1, 1), 0));
  EXPECT_TRUE(Cuts(partitioner.get(), key("a", kDay + 1, 1), key("b", kDay, 1), 0));
  EXPECT_FALSE(Cuts(partitioner.get(), "not a key", key("b", kDay + 1, 1), 0));
  EXPECT_FALSE(Cuts(partitioner.get(), "", key("b", kDay, 1), 0));
  // Trivial moves only for files within one partition.
  EXPECT_TRUE(partitioner->CanDoTrivialMove(key("a", kDay, 9), key("a", kDay, 1)));
  EXPECT_FALSE(partitioner->CanDoTrivialMove(key("a", kDay, 9), key("b", kDay, 1)));
}

TEST_F(TimeWindowPartitionerDecisionsTest, PartitionMode) {
  const TableSchema schema = Schema(kMetricsCql);
  TimeWindowPartitionerOptions options;
  options.min_file_bytes = 1000;
  const TimeWindowSstPartitionerFactory factory(schema, options);
  EXPECT_EQ(factory.mode(), TimeWindowSstPartitionerFactory::Mode::kPartition);
  auto partitioner = New(factory);
  auto key = [&](int64_t metric, int32_t time) {
    return Key(schema, {Value::Text("org"), Value::BigInt(1), Value::BigInt(metric)},
               {Value::Int(time)});
  };
  EXPECT_FALSE(Cuts(partitioner.get(), key(1, 5), key(2, 9), 999));
  EXPECT_TRUE(Cuts(partitioner.get(), key(1, 5), key(2, 9), 1000));
  EXPECT_FALSE(Cuts(partitioner.get(), key(1, 5), key(1, 4), 1 << 30));
  EXPECT_FALSE(Cuts(partitioner.get(), key(1, 5), key(1, 5), 1 << 30));
  EXPECT_FALSE(Cuts(partitioner.get(), key(1, 5), "\xff", 1 << 30));
  EXPECT_TRUE(partitioner->CanDoTrivialMove(key(1, 5), key(3, 0)));
  // Without a minimum size, every partition change is cut and trivial moves need one
  // partition.
  options.min_file_bytes = 0;
  auto strict = New(TimeWindowSstPartitionerFactory(schema, options));
  EXPECT_TRUE(Cuts(strict.get(), key(1, 5), key(2, 9), 0));
  EXPECT_FALSE(strict->CanDoTrivialMove(key(1, 5), key(3, 0)));
  EXPECT_TRUE(strict->CanDoTrivialMove(key(1, 5), key(1, 0)));
}

}  // namespace
}  // namespace columnar
