// Helpers for the maintenance tests (compaction filter, expiry, whole-file expiry, tiered
// formats, time-window partitioner): a Table API database in memory with a manual clock,
// RocksDB statistics and no automatic compactions (every flush and compaction is the test's
// own, so runs are deterministic), tables of the three storage kinds, and views of what the
// table's files hold.
#pragma once

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/statistics.h>

#include <atomic>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "plugin/tiered_table_factory.h"
#include "plugin/time_window_partitioner.h"
#include "table_api/database.h"
#include "tests/table_api/table_model.h"
#include "tests/table_api/test_util.h"

namespace columnar {
namespace test {

enum class TableKind { kBlockBased, kColumnar, kTiered };

inline const char* TableKindName(TableKind kind) {
  switch (kind) {
    case TableKind::kBlockBased:
      return "BlockBasedTable";
    case TableKind::kColumnar:
      return "ColumnarTable";
    default:
      return "TieredTable";
  }
}

// gtest prints parameters with it.
inline void PrintTo(TableKind kind, std::ostream* os) { *os << TableKindName(kind); }

// Parameters of a test suite run on every kind of table.
inline auto AllTableKinds() {
  return ::testing::Values(TableKind::kBlockBased, TableKind::kColumnar, TableKind::kTiered);
}

inline std::string TableKindParamName(const ::testing::TestParamInfo<TableKind>& info) {
  return TableKindName(info.param);
}

// The storage of a table of `kind`. A tiered table is created as a ColumnarTable table whose
// factory is wrapped in a TieredTable (row tier BlockBasedTable), as db_bench_ext's
// configuration T does; the wrapped factory is what the catalog stores.
inline TableStorage StorageFor(TableKind kind) {
  TableStorage storage;
  storage.format =
      kind == TableKind::kBlockBased ? TableFormat::kBlockBasedTable : TableFormat::kColumnarTable;
  storage.columnar.rows_per_group = 16;
  if (kind == TableKind::kTiered) {
    storage.adjust_column_family = [](rocksdb::ColumnFamilyOptions* options) {
      TieredTableOptions tiered;
      tiered.columnar_from_level = 1;
      tiered.columnar_table = options->table_factory;
      options->table_factory.reset(NewTieredTableFactory(tiered));
    };
  }
  return storage;
}

using ConfigureColumnFamily =
    std::function<void(const TableSchema& schema, rocksdb::ColumnFamilyOptions* options)>;

// The clock of a MaintenanceDb: microseconds since the epoch, moved by the test.
class TestClock {
 public:
  explicit TestClock(int64_t micros) : micros_(std::make_shared<std::atomic<int64_t>>(micros)) {}

  std::function<int64_t()> Function() const {
    auto micros = micros_;
    return [micros] { return micros->load(); };
  }
  int64_t now_micros() const { return micros_->load(); }
  int64_t now_seconds() const { return MicrosToSeconds(now_micros()); }
  void SetMicros(int64_t micros) { micros_->store(micros); }
  void SetSeconds(int64_t seconds) { SetMicros(seconds * 1000000); }
  void AdvanceMicros(int64_t micros) { micros_->fetch_add(micros); }
  void AdvanceSeconds(int64_t seconds) { AdvanceMicros(seconds * 1000000); }

 private:
  std::shared_ptr<std::atomic<int64_t>> micros_;
};

// A DatabaseOptions::configure_column_family that installs the time-window partitioner with
// its default options.
inline void UseTimeWindowPartitioner(const TableSchema& schema,
                                     rocksdb::ColumnFamilyOptions* options) {
  options->sst_partitioner_factory = std::make_shared<TimeWindowSstPartitionerFactory>(schema);
}

// A Table API database in an in-memory file system.
class MaintenanceDb {
 public:
  explicit MaintenanceDb(int64_t start_seconds, ConfigureColumnFamily configure = nullptr)
      : clock_(start_seconds * 1000000) {
    options_.now_micros = clock_.Function();
    options_.db_options.env = env_.get();
    options_.db_options.statistics = rocksdb::CreateDBStatistics();
    rocksdb::ColumnFamilyOptions& cf = options_.column_family_options;
    cf.disable_auto_compactions = true;
    cf.level_compaction_dynamic_level_bytes = true;
    cf.num_levels = 7;
    options_.configure_column_family = std::move(configure);
    Reopen();
  }

  Database* get() const { return db_.get(); }
  rocksdb::DB* rocks() const { return db_->db(); }
  TestClock& clock() { return clock_; }
  const TestClock& clock() const { return clock_; }
  uint64_t Ticker(rocksdb::Tickers ticker) const {
    return options_.db_options.statistics->getTickerCount(ticker);
  }

  // Closes and opens the database again (tables are looked up anew by the caller).
  void Reopen() {
    db_.reset();
    const Status s = Database::Open(options_, dir_.path(), &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  Table* Create(const std::string& cql, TableKind kind) {
    Table* table = nullptr;
    const Status s = db_->CreateTable(cql, StorageFor(kind), &table);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return table;
  }

  Table* Get(const std::string& name) const { return MustGetTable(db_.get(), name); }

  void Flush(Table* table) {
    const Status s = rocks()->Flush(rocksdb::FlushOptions(), table->column_family());
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  // A manual compaction of [begin, end] (null: unbounded); with a compaction filter installed
  // the bottommost level is compacted too, so the output is bottommost.
  void Compact(Table* table, const Slice* begin = nullptr, const Slice* end = nullptr) {
    const Status s =
        rocks()->CompactRange(rocksdb::CompactRangeOptions(), table->column_family(), begin, end);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  void FlushAndCompact(Table* table) {
    Flush(table);
    Compact(table);
  }

  // The live SST files of the table's column family.
  std::vector<rocksdb::LiveFileMetaData> Files(const Table* table) const {
    std::vector<rocksdb::LiveFileMetaData> all, mine;
    rocks()->GetLiveFilesMetaData(&all);
    for (const rocksdb::LiveFileMetaData& file : all) {
      if (file.column_family_name == table->column_family()->GetName()) mine.push_back(file);
    }
    return mine;
  }

  uint64_t FileBytes(const Table* table) const {
    uint64_t bytes = 0;
    for (const rocksdb::LiveFileMetaData& file : Files(table)) bytes += file.size;
    return bytes;
  }

  rocksdb::TablePropertiesCollection Properties(const Table* table) const {
    rocksdb::TablePropertiesCollection properties;
    const Status s = rocks()->GetPropertiesOfAllTables(table->column_family(), &properties);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return properties;
  }

  // Entries (of every type) the table's files hold, by their properties.
  uint64_t EntriesInFiles(const Table* table) const {
    uint64_t entries = 0;
    for (const auto& file : Properties(table)) entries += file.second->num_entries;
    return entries;
  }

  // Files of each format: (row-oriented, columnar); columnar files carry "columnar.layout".
  std::pair<int, int> FormatCounts(const Table* table) const {
    int row = 0, columnar = 0;
    for (const auto& file : Properties(table)) {
      (file.second->user_collected_properties.count("columnar.layout") ? columnar : row)++;
    }
    return {row, columnar};
  }

  // Every key and value visible in the table's column family, expired rows included (a plain
  // RocksDB scan: no expiry check, no pushdown).
  std::vector<std::pair<std::string, std::string>> RawEntries(const Table* table) const {
    std::vector<std::pair<std::string, std::string>> entries;
    std::unique_ptr<rocksdb::Iterator> it(
        rocks()->NewIterator(rocksdb::ReadOptions(), table->column_family()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      entries.emplace_back(it->key().ToString(), it->value().ToString());
    }
    EXPECT_TRUE(it->status().ok()) << it->status().ToString();
    return entries;
  }

 private:
  TempDir dir_{"maintenance"};
  std::unique_ptr<rocksdb::Env> env_{rocksdb::NewMemEnv(rocksdb::Env::Default())};
  TestClock clock_;
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
};

// Checks that every partition in `partitions` reads the same from `table` as from `model` at
// the clock's now, whole and in both directions. `when` names the step in failure messages.
inline void ExpectPartitionsMatchModel(const Table* table, const TableModel& model,
                                       const std::vector<std::vector<Value>>& partitions,
                                       int64_t now_micros, const std::string& when) {
  const std::shared_ptr<const TableSchema> schema = table->schema();
  for (const std::vector<Value>& partition : partitions) {
    for (const bool reversed : {false, true}) {
      SelectQuery query = SelectQuery::ForPartition(partition);
      query.reversed = reversed;
      const ResultSet expected = model.Select(*schema, query, {}, now_micros);
      ResultSet got;
      const Status s = table->Select(query, &got);
      ASSERT_TRUE(s.ok()) << table->name() << " " << when << ": " << s.ToString();
      ASSERT_TRUE(got.rows == expected.rows && SerializeRows(got) == SerializeRows(expected))
          << table->name() << " " << when << (reversed ? ", reversed" : "") << "\nexpected:\n"
          << ResultSetToString(expected) << "got:\n"
          << ResultSetToString(got);
    }
  }
}

}  // namespace test
}  // namespace columnar
