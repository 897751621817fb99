// Helpers for the Table API tests: the source documents' tables, a manual clock, and a
// fingerprint of everything a database holds (to check that a failed call wrote nothing).
#pragma once

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <atomic>
#include <initializer_list>
#include <memory>
#include <string>

#include "table_api/database.h"
#include "tests/plugin/test_db.h"

namespace columnar {
namespace test {

// A suite parameterized by TableFormat runs on both formats, each instance named after its
// format: INSTANTIATE_TEST_SUITE_P(BothFormats, Suite, test::BothFormats(),
// test::FormatParamName).
inline auto BothFormats() {
  return ::testing::Values(TableFormat::kBlockBasedTable, TableFormat::kColumnarTable);
}
inline std::string FormatParamName(const ::testing::TestParamInfo<TableFormat>& info) {
  return TableFormatName(info.param);
}

// The metrics table of the source documents (002_...), as written there with its storage
// options; `name` replaces metrics.v2metrics5. Without `sstable_format`, the statement leaves
// the format to the TableStorage it is created with.
inline std::string MetricsTableCql(const std::string& name = "metrics.v2metrics5",
                                   bool sstable_format = true) {
  return "CREATE TABLE " + name +
         " (\n"
         "    orgid text,\n"
         "    clusterhash bigint,\n"
         "    metricid bigint,\n"
         "    time int,\n"
         "    value float,\n"
         "    PRIMARY KEY ((orgid, clusterhash, metricid), time)\n"
         ") WITH CLUSTERING ORDER BY (time DESC)\n"
         "    AND compaction = {\n"
         "        'class': 'TimeWindowCompactionStrategy',\n"
         "        'compaction_window_size': '1',\n"
         "        'compaction_window_unit': 'DAYS'\n"
         "    }\n"
         "    AND compression = {\n"
         "        'class': 'ZstdCompressor',\n"
         "        'chunk_length_in_kb': '16'\n"
         "    }\n"
         "    AND default_time_to_live = 2592000\n" +
         std::string(sstable_format ? "    AND sstable_format = 'columnar'\n" : "") +
         "    AND column_encodings = {'time': 'delta_of_delta', 'value': 'alp'}\n"
         "    AND column_compression = {'time': 'zstd', 'value': 'zstd'};";
}

// The access16 table of the source documents (000_...); `name` replaces logs.access16.
inline std::string Access16TableCql(const std::string& name = "logs.access16") {
  return "CREATE TABLE " + name +
         " (\n"
         "    orgid text,\n"
         "    service text,\n"
         "    instance text,\n"
         "    day date,\n"
         "    time timestamp,\n"
         "    method ascii,\n"
         "    path text,\n"
         "    status int,\n"
         "    user_agent text,\n"
         "    client_ip ascii,\n"
         "    country ascii,\n"
         "    referrer text,\n"
         "    latency_ms int,\n"
         "    request_id ascii,\n"
         "    trace_id ascii,\n"
         "    user_id text,\n"
         "    host text,\n"
         "    protocol ascii,\n"
         "    content_type text,\n"
         "    bytes_sent bigint,\n"
         "    error_message text,\n"
         "    PRIMARY KEY ((orgid, service, instance, day), time)\n"
         ") WITH CLUSTERING ORDER BY (time DESC);";
}

// A clock the test moves by hand (microseconds since the epoch).
// A byte string from its byte values: BytesOf({0x15, 0x00}).
inline std::string BytesOf(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out.push_back(static_cast<char>(b));
  return out;
}

class ManualClock {
 public:
  explicit ManualClock(int64_t start_micros)
      : micros_(std::make_shared<std::atomic<int64_t>>(start_micros)) {}

  std::function<int64_t()> Function() const {
    auto micros = micros_;
    return [micros] { return micros->load(); };
  }
  int64_t now_micros() const { return micros_->load(); }
  int64_t now_seconds() const { return micros_->load() / 1000000; }
  void SetSeconds(int64_t seconds) { micros_->store(seconds * 1000000); }
  void AdvanceSeconds(int64_t seconds) { micros_->fetch_add(seconds * 1000000); }

 private:
  std::shared_ptr<std::atomic<int64_t>> micros_;
};

// Options of a test database on `env` (a memory env, say) read by `clock`, whose files are
// compacted only when a test asks (its files stay as the test wrote them).
inline DatabaseOptions ManualDatabaseOptions(const ManualClock& clock, rocksdb::Env* env) {
  DatabaseOptions options;
  options.now_micros = clock.Function();
  options.db_options.env = env;
  options.column_family_options.disable_auto_compactions = true;
  return options;
}

inline TableStorage ColumnarStorage() {
  TableStorage storage;
  storage.format = TableFormat::kColumnarTable;
  return storage;
}

inline TableStorage BlockBasedStorage() {
  TableStorage storage;
  storage.format = TableFormat::kBlockBasedTable;
  return storage;
}

// What `database` holds: the latest sequence number (every write, the catalog's included,
// advances it) and every key and value of the default and table column families. Equal fingerprints
// before and after a call mean the call wrote nothing.
inline std::string DatabaseFingerprint(Database* database) {
  rocksdb::DB* db = database->db();
  std::string out = std::to_string(db->GetLatestSequenceNumber()) + "\n";
  std::vector<rocksdb::ColumnFamilyHandle*> handles = {db->DefaultColumnFamily()};
  for (const std::string& name : database->ListTables()) {
    Table* table = nullptr;
    if (database->GetTable(name, &table).ok()) handles.push_back(table->column_family());
  }
  for (rocksdb::ColumnFamilyHandle* handle : handles) {
    out += "[" + handle->GetName() + "]\n";
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), handle));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      out += it->key().ToString(true) + "=" + it->value().ToString(true) + "\n";
    }
  }
  return out;
}

inline Table* MustGetTable(Database* database, const std::string& name) {
  Table* table = nullptr;
  const Status s = database->GetTable(name, &table);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return table;
}

// Selects `query` with the columnar scan path allowed and through RocksDB iterators only;
// expects both to succeed with the same rows, the iterators taking nothing from row-group
// statistics. Returns the columnar-allowed run's stats (its rows in *result).
inline SelectStats SelectBothWays(Table* table, SelectQuery query, ResultSet* result = nullptr) {
  ResultSet columnar, row_path;
  SelectStats stats, row_stats;
  query.allow_columnar_scan = true;
  Status s = table->Select(query, &columnar, &stats);
  EXPECT_TRUE(s.ok()) << s.ToString();
  query.allow_columnar_scan = false;
  s = table->Select(query, &row_path, &row_stats);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(row_stats.rows_from_stats, 0u);
  EXPECT_EQ(row_stats.row_groups_from_stats, 0u);
  EXPECT_TRUE(SerializeRows(columnar) == SerializeRows(row_path))
      << "columnar:\n"
      << ResultSetToString(columnar) << "row path:\n"
      << ResultSetToString(row_path);
  if (result != nullptr) *result = columnar;
  return stats;
}

}  // namespace test
}  // namespace columnar
