// Randomized differential test of expiry and maintenance through the Table API: the same
// random inserts (random TTLs and expiries, late writes into old days), row and partition
// deletes, clock moves, flushes, full and partial compactions, compactions of L0 into a level
// above the bottom, snapshots held across compactions, DropExpiredFiles, ALTER TABLE and
// reopens go to a BlockBasedTable, a ColumnarTable and a TieredTable table of access logs
// in one database, and to an in-memory model; every read of every table must equal the
// model's. With the time-window partitioner whole days expire as files, and every format
// must drop the same files; the tiered table must at some point hold row-oriented and
// columnar files at once.
#include <gtest/gtest.h>

#include <random>

#include "table_format/key_codec.h"
#include "tests/table_api/maintenance_test_util.h"
#include "tests/table_api/mirrored_writes.h"

namespace columnar {
namespace {

using test::TableKind;

constexpr int64_t kDaySeconds = 86400;
constexpr int32_t kFirstDay = 19700;
constexpr int kHostCount = 3;
constexpr int kTables = 3;
const char* const kNames[kTables] = {"bbt.logs", "col.logs", "tier.logs"};
const TableKind kKinds[kTables] = {TableKind::kBlockBased, TableKind::kColumnar,
                                   TableKind::kTiered};

class MaintenanceDifferential {
 public:
  MaintenanceDifferential(uint64_t seed, bool partitioner)
      : random_(seed),
        db_(int64_t{kFirstDay} * kDaySeconds + 8 * 3600,
            partitioner ? test::ConfigureColumnFamily(test::UseTimeWindowPartitioner) : nullptr) {
    for (int i = 0; i < kTables; i++) {
      db_.Create("CREATE TABLE " + std::string(kNames[i]) +
                     " (host text, day date, time timestamp, status int, msg text, "
                     "PRIMARY KEY ((host, day), time)) WITH CLUSTERING ORDER BY (time DESC)",
                 kKinds[i]);
    }
    FindTables();
  }

  ~MaintenanceDifferential() {
    if (snapshot_ != nullptr) db_.rocks()->ReleaseSnapshot(snapshot_);
  }

  void Run(int operations) {
    for (step_ = 0; step_ < operations && !::testing::Test::HasFailure(); step_++) RunOne();
    CheckAll("at the end");
    Reopen();
    CheckAll("after the final reopen");
    for (Table* table : tables_) db_.Compact(table);
    CheckAll("after the final compaction");
  }

  bool saw_both_formats() const { return saw_both_formats_; }
  uint64_t files_dropped() const { return files_dropped_; }
  // By the BlockBasedTable table's compaction filter, over every opening of the database.
  uint64_t rows_expired_by_compaction() const {
    return rows_expired_before_reopen_ + tables_[0]->compaction_filter_stats().rows_expired.load();
  }

 private:
  const TableSchema& schema() const { return *schema_; }
  uint64_t Uniform(uint64_t n) {
    return std::uniform_int_distribution<uint64_t>(0, n - 1)(random_);
  }
  bool OneIn(uint64_t n) { return Uniform(n) == 0; }

  void FindTables() {
    for (int i = 0; i < kTables; i++) tables_[i] = db_.Get(kNames[i]);
    schema_ = tables_[0]->schema();
  }

  int32_t Today() const { return static_cast<int32_t>(db_.clock().now_seconds() / kDaySeconds); }

  // Mostly today's rows; one in six a late row of one of the last ten days.
  std::vector<Value> RandomPartition() {
    const int32_t day = Today() - (OneIn(6) ? static_cast<int32_t>(Uniform(10)) : 0);
    return {Value::Text("host" + std::to_string(Uniform(kHostCount))), Value::Date(day)};
  }

  Row RandomRow() {
    const std::vector<Value> partition = RandomPartition();
    const int64_t day_start = int64_t{partition[1].int32_value()} * kDaySeconds;
    Row row(schema().columns().size());
    row[schema().partition_key()[0]] = partition[0];
    row[schema().partition_key()[1]] = partition[1];
    // Times on a coarse grid so that rows collide and deletes hit.
    row[schema().clustering_key()[0]] =
        Value::Timestamp((day_start + static_cast<int64_t>(Uniform(200)) * 432) * 1000);
    for (uint32_t id : schema().LiveRegularColumns()) {
      const LogicalType type = schema().columns()[id].type;
      if (OneIn(8)) continue;  // null
      row[id] = type == LogicalType::kInt ? Value::Int(static_cast<int32_t>(Uniform(600)))
                                          : Value::Text("m" + std::to_string(Uniform(1000)));
    }
    return row;
  }

  // Expiry mostly as a time-window table: a few days after the row's day ends.
  RowWriteOptions RandomWriteOptions(const Row& row) {
    const int64_t day_end =
        (int64_t{row[schema().partition_key()[1]].int32_value()} + 1) * kDaySeconds;
    RowWriteOptions options;
    switch (Uniform(20)) {
      case 0:
        options.ttl_seconds = 0;  // never expires
        break;
      case 1:
      case 2:
        options.ttl_seconds = 1 + Uniform(6 * 3600);
        break;
      case 3:
      case 4:
        options.ttl_seconds = kDaySeconds * (1 + Uniform(4));
        break;
      default:
        options.expiry_seconds = day_end + kDaySeconds * (1 + Uniform(3));
        break;
    }
    if (options.expiry_seconds && *options.expiry_seconds <= db_.clock().now_seconds()) {
      options.expiry_seconds = db_.clock().now_seconds() + 1 + Uniform(3600);
    }
    return options;
  }

  void Remember(const std::vector<Value>& partition) {
    std::string encoded;
    ASSERT_TRUE(EncodePartitionKey(schema(), partition, &encoded).ok());
    partitions_[encoded] = partition;
  }

  void Insert() {
    std::vector<RowWrite> rows;
    for (size_t i = 0, n = OneIn(5) ? 2 + Uniform(5) : 1; i < n; i++) {
      Row row = RandomRow();
      RowWriteOptions options = RandomWriteOptions(row);
      rows.emplace_back(std::move(row), options);
    }
    test::InsertEverywhere(tables_, &model_, schema(), rows, db_.clock().now_micros());
    for (const RowWrite& row : rows) {
      Remember({row.values[schema().partition_key()[0]], row.values[schema().partition_key()[1]]});
      written_.push_back(row.values);
    }
  }

  void DeleteRow() {
    if (written_.empty()) return;
    const Row& row = written_[Uniform(written_.size())];
    const std::vector<Value> partition = {row[schema().partition_key()[0]],
                                          row[schema().partition_key()[1]]};
    const std::vector<Value> clustering = {row[schema().clustering_key()[0]]};
    test::DeleteRowEverywhere(tables_, &model_, schema(), partition, clustering,
                              db_.clock().now_micros());
  }

  void DeletePartition() {
    const std::vector<Value> partition = RandomPartition();
    test::DeletePartitionEverywhere(tables_, &model_, schema(), partition,
                                    db_.clock().now_micros());
  }

  void Flush() {
    for (Table* table : tables_) db_.Flush(table);
    const auto [row, columnar] = db_.FormatCounts(tables_[2]);
    saw_both_formats_ |= row > 0 && columnar > 0;
  }

  // The whole table, or the partitions of one host (in key order, a contiguous range).
  void Compact() {
    if (OneIn(2)) {
      for (Table* table : tables_) db_.Compact(table);
      return;
    }
    std::string begin, end;
    const Value host = Value::Text("host" + std::to_string(Uniform(kHostCount)));
    ASSERT_TRUE(
        EncodeKeyComponent(host, LogicalType::kText, ClusteringOrder::kAsc, "host", &begin).ok());
    ASSERT_TRUE(PrefixSuccessor(begin, &end));
    const Slice begin_slice(begin), end_slice(end);
    for (Table* table : tables_) db_.Compact(table, &begin_slice, &end_slice);
  }

  // L0 into level 5, above the bottom level (where CompactRange puts everything): files
  // that keep their sequence numbers, inside the key ranges of bottom files.
  void CompactL0ToLevel5() {
    for (Table* table : tables_) {
      std::vector<std::string> l0;
      for (const rocksdb::LiveFileMetaData& file : db_.Files(table)) {
        if (file.level == 0) l0.push_back(file.name);
      }
      if (l0.empty()) continue;
      const Status s =
          db_.rocks()->CompactFiles(rocksdb::CompactionOptions(), table->column_family(), l0, 5);
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
  }

  // A snapshot held across compactions keeps sequence numbers, old versions and deletions in
  // their output (Table API reads do not use it).
  void ToggleSnapshot() {
    if (snapshot_ != nullptr) {
      db_.rocks()->ReleaseSnapshot(snapshot_);
      snapshot_ = nullptr;
    } else {
      snapshot_ = db_.rocks()->GetSnapshot();
    }
  }

  // Every format removes the same files: their layouts depend only on the keys.
  void DropExpiredFiles() {
    ExpiredFilesResult results[kTables];
    for (int i = 0; i < kTables; i++) {
      const Status s = tables_[i]->DropExpiredFiles(&results[i]);
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
    EXPECT_EQ(results[1].files, results[0].files) << "step " << step_;
    EXPECT_EQ(results[2].files, results[0].files) << "step " << step_;
    files_dropped_ += results[0].files;
    CheckAll("after DropExpiredFiles");
  }

  void Alter() {
    const std::vector<uint32_t> regular = schema().LiveRegularColumns();
    const std::string change =
        regular.size() > 1 && OneIn(2)
            ? "DROP " + schema().columns()[regular[Uniform(regular.size())]].name
            : "ADD extra" + std::to_string(schema().next_column_id()) + " text";
    for (const char* name : kNames) {
      const Status s = db_.get()->AlterTable("ALTER TABLE " + std::string(name) + " " + change);
      ASSERT_TRUE(s.ok()) << change << ": " << s.ToString();
    }
    FindTables();
  }

  void Reopen() {
    if (snapshot_ != nullptr) ToggleSnapshot();
    rows_expired_before_reopen_ = rows_expired_by_compaction();
    db_.Reopen();
    model_.Reopened();
    FindTables();
  }

  void Check(const std::vector<std::vector<Value>>& partitions, const std::string& when) {
    for (Table* table : tables_) {
      test::ExpectPartitionsMatchModel(table, model_, partitions, db_.clock().now_micros(),
                                       when + ", step " + std::to_string(step_));
    }
  }

  void CheckAll(const std::string& when) {
    std::vector<std::vector<Value>> partitions;
    for (const auto& [encoded, values] : partitions_) partitions.push_back(values);
    Check(partitions, when);
  }

  void RunOne() {
    const uint64_t choice = Uniform(100);
    if (choice < 40) {
      Insert();
    } else if (choice < 45) {
      DeleteRow();
    } else if (choice < 46) {
      DeletePartition();
    } else if (choice < 56) {
      db_.clock().AdvanceSeconds(OneIn(3) ? 1 + Uniform(60) : 3600 * (1 + Uniform(8)));
    } else if (choice < 61) {
      Flush();
    } else if (choice < 63) {
      Compact();
    } else if (choice < 64) {
      if (OneIn(2)) {
        CompactL0ToLevel5();
      } else {
        ToggleSnapshot();
      }
    } else if (choice < 68) {
      DropExpiredFiles();
    } else if (choice == 68) {
      Reopen();
    } else if (choice == 69 && OneIn(2)) {
      Alter();
    } else if (!partitions_.empty()) {
      auto it = partitions_.begin();
      std::advance(it, Uniform(partitions_.size()));
      Check({it->second}, "random partition");
    }
  }

  std::mt19937_64 random_;
  test::MaintenanceDb db_;
  Table* tables_[kTables] = {};
  std::shared_ptr<const TableSchema> schema_;
  test::TableModel model_;
  std::map<std::string, std::vector<Value>> partitions_;  // every partition written, by key
  std::vector<Row> written_;
  int step_ = 0;
  bool saw_both_formats_ = false;
  uint64_t files_dropped_ = 0;
  uint64_t rows_expired_before_reopen_ = 0;
  const rocksdb::Snapshot* snapshot_ = nullptr;
};

TEST(MaintenanceDifferentialTest, WithTimeWindowPartitioner) {
  MaintenanceDifferential test(/*seed=*/1, /*partitioner=*/true);
  test.Run(3000);
  EXPECT_TRUE(test.saw_both_formats());
  EXPECT_GT(test.files_dropped(), 10u);
  EXPECT_GT(test.rows_expired_by_compaction(), 100u);
}

TEST(MaintenanceDifferentialTest, WithoutPartitioner) {
  MaintenanceDifferential test(/*seed=*/2, /*partitioner=*/false);
  test.Run(2000);
  EXPECT_TRUE(test.saw_both_formats());
  EXPECT_GT(test.rows_expired_by_compaction(), 100u);
}

}  // namespace
}  // namespace columnar
