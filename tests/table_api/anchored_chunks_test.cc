// Value chunks anchored to their row group's zone-map minimum (rice_delta_anchored, written
// once a file keeps the column's zone maps): every way of reading a file gives them their
// anchor. Float random walks (what rice_delta codes) with some nulls, read back whole through
// the columnar path and the row path, one row at a time (point reads), under a predicate on the
// value and through MIN / MAX from statistics; the file must really hold anchored chunks.
#include <gtest/gtest.h>
#include <rocksdb/env.h>

#include <map>
#include <random>

#include "table_format/column_stats.h"
#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr int64_t kSeriesStartSeconds = 1'700'000'000;
constexpr int kAnchoredRowsPerGroup = 16;
constexpr int kSeriesRows = 1600;  // a series' rows: 100 groups, well past the zone-map sample

class AnchoredChunksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_ = test::ManualDatabaseOptions(clock_, env_.get());
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    TableStorage storage = test::ColumnarStorage();
    storage.columnar.rows_per_group = kAnchoredRowsPerGroup;
    const Status s = db_->CreateTable(
        "CREATE TABLE s.m (series text, ts int, value float, reading double, "
        "PRIMARY KEY ((series), ts))",
        storage);
    ASSERT_TRUE(s.ok()) << s.ToString();
    table_ = test::MustGetTable(db_.get(), "s.m");
  }

  // Random walks in float and double; every 37th value null.
  void Fill(const std::string& series, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> step(0, 0.1);
    float value = 50;
    double reading = -3;
    for (int i = 0; i < kSeriesRows; i++) {
      Row row = table_->NewRow();
      row[0] = Value::Text(series);
      row[1] = Value::Int(i);
      if (i % 37 != 5) {
        row[2] = Value::Float(value);
        expected_[{series, i}] = value;
      }
      row[3] = Value::Double(reading);
      ASSERT_TRUE(table_->Insert(row).ok());
      value = static_cast<float>(value + step(rng));
      reading += step(rng);
    }
  }

  // Chunks of `column` per encoding name, over the table's files.
  std::map<std::string, uint64_t> Encodings(const std::string& column) {
    rocksdb::TablePropertiesCollection files;
    EXPECT_TRUE(db_->db()->GetPropertiesOfAllTables(table_->column_family(), &files).ok());
    std::map<std::string, uint64_t> encodings;
    for (const auto& [name, props] : files) {
      ColumnStats stats;
      EXPECT_TRUE(
          ColumnStats::Parse(props->user_collected_properties.at("columnar.column_stats"), &stats)
              .ok());
      for (const auto& [encoding, chunks] : stats.columns().at(column).encodings) {
        encodings[encoding] += chunks;
      }
    }
    return encodings;
  }

  ResultSet SelectBothWays(SelectQuery query) {
    ResultSet columnar, row_path;
    query.allow_columnar_scan = true;
    Status s = table_->Select(query, &columnar);
    EXPECT_TRUE(s.ok()) << s.ToString();
    query.allow_columnar_scan = false;
    s = table_->Select(query, &row_path);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_TRUE(SerializeRows(columnar) == SerializeRows(row_path));
    return columnar;
  }

  TempDir dir_{"anchored-chunks"};
  std::unique_ptr<rocksdb::Env> env_{rocksdb::NewMemEnv(rocksdb::Env::Default())};
  test::ManualClock clock_{kSeriesStartSeconds * 1000000};
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
  Table* table_ = nullptr;
  std::map<std::pair<std::string, int>, float> expected_;
};

TEST_F(AnchoredChunksTest, EveryReadPathGivesAnchoredChunksTheirAnchor) {
  Fill("a", 1);
  Fill("b", 2);
  ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), table_->column_family()).ok());
  ASSERT_TRUE(
      db_->db()
          ->CompactRange(rocksdb::CompactRangeOptions(), table_->column_family(), nullptr, nullptr)
          .ok());
  // All but the zone-map sample's groups (and a group or two the chooser codes otherwise).
  const std::map<std::string, uint64_t> value_encodings = Encodings("value");
  ASSERT_TRUE(value_encodings.count("rice_delta_anchored")) << value_encodings.size();
  EXPECT_GE(value_encodings.at("rice_delta_anchored"),
            2 * kSeriesRows / kAnchoredRowsPerGroup - 40u);
  EXPECT_TRUE(Encodings("reading").count("rice_delta_anchored"));

  // Whole partitions.
  for (const std::string series : {"a", "b"}) {
    const ResultSet rows = SelectBothWays(SelectQuery::ForPartition({Value::Text(series)}));
    ASSERT_EQ(rows.rows.size(), static_cast<size_t>(kSeriesRows));
    for (const auto& row : rows.rows) {
      const int ts = row[1].int32_value();
      auto it = expected_.find({series, ts});
      if (it == expected_.end()) {
        EXPECT_TRUE(row[2].is_null()) << ts;
      } else {
        EXPECT_EQ(row[2], Value::Float(it->second)) << ts;
      }
    }
  }
  // Point reads, a row of each group position.
  for (int ts = 0; ts < kSeriesRows; ts += 7) {
    SelectQuery point = SelectQuery::ForPartition({Value::Text("b")});
    point.clustering_prefix = {Value::Int(ts)};
    const ResultSet rows = SelectBothWays(point);
    ASSERT_EQ(rows.rows.size(), 1u) << ts;
    auto it = expected_.find({"b", ts});
    if (it != expected_.end()) {
      EXPECT_EQ(rows.rows[0][2], Value::Float(it->second)) << ts;
    }
  }
  // A predicate on the anchored column (zone maps prune, the rest decode), and MIN / MAX.
  SelectQuery filtered = SelectQuery::ForPartition({Value::Text("a")});
  filtered.filter = Predicate::Compare("value", CompareOp::kGe, Value::Float(50.5f));
  size_t matching = 0;
  for (const auto& [key, value] : expected_) matching += key.first == "a" && value >= 50.5f;
  EXPECT_EQ(SelectBothWays(filtered).rows.size(), matching);
  SelectQuery extremes = SelectQuery::ForPartition({Value::Text("a")});
  extremes.aggregates = {{Aggregate::Function::kMin, "value"},
                         {Aggregate::Function::kMax, "value"}};
  const ResultSet bounds = SelectBothWays(extremes);
  ASSERT_EQ(bounds.rows.size(), 1u);
  float lo = 1e9f, hi = -1e9f;
  for (const auto& [key, value] : expected_) {
    if (key.first != "a") continue;
    lo = std::min(lo, value);
    hi = std::max(hi, value);
  }
  EXPECT_EQ(bounds.rows[0][0], Value::Float(lo));
  EXPECT_EQ(bounds.rows[0][1], Value::Float(hi));
}

}  // namespace
}  // namespace columnar
