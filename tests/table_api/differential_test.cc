// Differential tests of the Table API: the same random operations (inserts and batches with
// TTLs, expiries and write times; row and partition deletes; clock moves; ALTER TABLE ADD /
// DROP; snapshots taken and released; flushes, compactions and reopens) go to a
// BlockBasedTable table and a ColumnarTable table of the same schema in one database, and to
// an in-memory model. Every read (partition scans, IN lists, clustering prefixes and ranges,
// inclusive or exclusive, both directions, LIMIT, projections, writetime() and ttl(), ALLOW
// FILTERING predicates, latest or at a snapshot) must return identical ResultSets from all
// three. The model evaluates filters naively on every row of its full copy of the table, so
// the ColumnarTable side checks predicate pushdown (zone maps, placeholders that shadow older
// versions, rows dropped at sequence number 0) against a full scan.
// Schemas: the source documents' metrics and access16 tables, and random schemas.
#include <gtest/gtest.h>
#include <rocksdb/env.h>

#include <algorithm>
#include <functional>

#include "table_format/cql_lexer.h"
#include "tests/table_api/table_model.h"
#include "tests/table_api/test_util.h"
#include "tests/table_format/random_values.h"

namespace columnar {
namespace {

using test::ModelSelector;

constexpr int64_t kStartSeconds = 1'700'000'000;

// CREATE TABLE text for a table called `name`.
using TableCql = std::function<std::string(const std::string& name)>;

class ApiDifferential {
 public:
  ApiDifferential(TableCql cql, uint64_t seed) : random_(seed) {
    options_.now_micros = clock_.Function();
    // In memory: flushes, compactions and reopens without waiting for the disk.
    options_.db_options.env = env_.get();
    TableStorage block_based = test::BlockBasedStorage();
    TableStorage columnar = test::ColumnarStorage();
    // Small groups and blocks, so a few hundred rows span many of both.
    columnar.columnar.rows_per_group = 1 + random_.Uniform(8);
    columnar.columnar.block_size = 256;
    columnar.columnar.column_compression = random_.OneIn(2) ? "zstd" : "none";
    EXPECT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    for (const auto& [name, storage] :
         {std::make_pair(kNames[0], block_based), std::make_pair(kNames[1], columnar)}) {
      const Status s = db_->CreateTable(cql(name), storage);
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
    FindTables();
    MakeKeyPools();
  }

  ~ApiDifferential() { ReleaseSnapshots(); }

  void Run(size_t operations) {
    for (size_t i = 0; i < operations && !::testing::Test::HasFailure(); i++) RunOne();
    for (Table* table : tables_) FlushAndCompact(table);
    CheckEveryPartition("after the final compaction");
    Reopen();
    CheckEveryPartition("after the final reopen");
    // The key pools are small so that queries find rows: a run of empty results proves little.
    EXPECT_GT(nonempty_checks_ * 3, checks_) << nonempty_checks_ << " of " << checks_;
  }

  // The ColumnarTable side took every pushdown path at least once: the run has teeth.
  void ExpectPushdownExercised() const {
    EXPECT_GT(filtered_checks_, 100u);
    EXPECT_GT(snapshot_checks_, 20u);
    EXPECT_GT(pushdown_.row_groups_pruned + pushdown_.row_groups_without_match, 0u);
    EXPECT_GT(pushdown_.rows_built, 0u);
    EXPECT_GT(pushdown_.placeholders, 0u);
    EXPECT_GT(pushdown_.rows_dropped, 0u);
  }

 private:
  static constexpr const char* kNames[2] = {"bbt.t", "col.t"};

  const TableSchema& schema() const { return *schema_; }

  void FindTables() {
    for (int i = 0; i < 2; i++) tables_[i] = test::MustGetTable(db_.get(), kNames[i]);
    schema_ = tables_[0]->schema();
    EXPECT_EQ(schema_->columns(), tables_[1]->schema()->columns());
  }

  // Few distinct values per key column, so rows collide, partitions fill and ranges hit.
  void MakeKeyPools() {
    const size_t partition_columns = schema().partition_key().size();
    for (const ColumnDef& column : schema().columns()) {
      if (!column.is_key()) {
        ValuePool(column);
        continue;
      }
      const bool last_partition_column =
          column.role == ColumnRole::kPartitionKey &&
          column.id == schema().partition_key()[partition_columns - 1];
      const size_t clustering = schema().clustering_key().size();
      size_t wanted = 4;  // the last partition column (IN lists)
      if (column.role == ColumnRole::kPartitionKey && !last_partition_column) wanted = 2;
      if (column.role == ColumnRole::kClustering) wanted = clustering == 1 ? 16 : 5;
      std::vector<Value>& pool = pools_[column.id];
      for (int attempt = 0; attempt < 20 && pool.size() < wanted; attempt++) {
        Value value = random_.Of(column.type);
        if (std::find(pool.begin(), pool.end(), value) == pool.end()) pool.push_back(value);
      }
    }
  }

  const Value& Pick(uint32_t id) { return pools_[id][random_.Uniform(pools_[id].size())]; }

  // A regular column's few frequent values (so that filters on it hit), made on first use.
  const std::vector<Value>& ValuePool(const ColumnDef& column) {
    std::vector<Value>& pool = pools_[column.id];
    for (int i = 0; pool.empty() && i < 3; i++) pool.push_back(random_.Of(column.type));
    return pool;
  }

  // Null a quarter of the time, else half from the pool, half random.
  Value RegularValue(const ColumnDef& column) {
    if (random_.OneIn(4)) return Value();
    const std::vector<Value>& pool = ValuePool(column);
    return random_.OneIn(2) ? pool[random_.Uniform(pool.size())] : random_.Of(column.type);
  }

  std::vector<Value> RandomPartition() {
    std::vector<Value> values;
    for (uint32_t id : schema().partition_key()) values.push_back(Pick(id));
    return values;
  }

  std::vector<Value> RandomClustering() {
    std::vector<Value> values;
    for (uint32_t id : schema().clustering_key()) values.push_back(Pick(id));
    return values;
  }

  Row RandomRow() {
    Row row(schema().columns().size());
    for (uint32_t id : schema().partition_key()) row[id] = Pick(id);
    for (uint32_t id : schema().clustering_key()) row[id] = Pick(id);
    for (uint32_t id : schema().LiveRegularColumns()) {
      row[id] = RegularValue(schema().columns()[id]);
    }
    return row;
  }

  RowWriteOptions RandomWriteOptions() {
    RowWriteOptions options;
    if (random_.OneIn(2)) {
      options.write_time_micros =
          static_cast<int64_t>(random_.Uniform(4'000'000'000'000'000)) - 1'000'000'000'000'000;
    }
    switch (random_.Uniform(10)) {
      case 0:
      case 1:
        options.ttl_seconds = 1 + random_.Uniform(20);
        break;
      case 2:
        options.ttl_seconds = 0;
        break;
      case 3:
        options.expiry_seconds = clock_.now_seconds() - 2 + random_.Uniform(20);
        break;
      case 4:
        options.ttl_seconds = 1'000'000;
        break;
      default:
        break;
    }
    return options;
  }

  void Insert() {
    const Row row = RandomRow();
    const RowWriteOptions options = RandomWriteOptions();
    for (Table* table : tables_) ASSERT_TRUE(table->Insert(row, options).ok());
    model_.Insert(schema(), row, options, clock_.now_micros());
  }

  void InsertBatch() {
    std::vector<RowWrite> rows;
    for (size_t i = 0, n = 2 + random_.Uniform(4); i < n; i++) {
      rows.emplace_back(RandomRow(), RandomWriteOptions());
    }
    for (Table* table : tables_) ASSERT_TRUE(table->InsertBatch(rows).ok());
    for (const RowWrite& row : rows) {
      model_.Insert(schema(), row.values, row.options, clock_.now_micros());
    }
  }

  void DeleteRow() {
    const std::vector<Value> partition = RandomPartition();
    const std::vector<Value> clustering = RandomClustering();
    for (Table* table : tables_) ASSERT_TRUE(table->DeleteRow(partition, clustering).ok());
    model_.DeleteRow(schema(), partition, clustering);
  }

  void DeletePartition() {
    const std::vector<Value> partition = RandomPartition();
    for (Table* table : tables_) ASSERT_TRUE(table->DeletePartition(partition).ok());
    model_.DeletePartition(schema(), partition);
  }

  void Alter() {
    const std::vector<uint32_t> regular = schema().LiveRegularColumns();
    std::string change;
    if (!regular.empty() && random_.OneIn(3)) {
      change = "DROP " +
               CqlIdentifier(schema().columns()[regular[random_.Uniform(regular.size())]].name);
    } else {
      change = "ADD added" + std::to_string(schema().next_column_id()) + " " +
               LogicalTypeName(random_.Type());
    }
    for (const char* name : kNames) {
      const Status s = db_->AlterTable("ALTER TABLE " + std::string(name) + " " + change);
      ASSERT_TRUE(s.ok()) << change << ": " << s.ToString();
    }
    FindTables();
  }

  void FlushAndCompact(Table* table, bool compact = true) {
    ASSERT_TRUE(db_->db()->Flush(rocksdb::FlushOptions(), table->column_family()).ok());
    if (!compact) return;
    ASSERT_TRUE(
        db_->db()
            ->CompactRange(rocksdb::CompactRangeOptions(), table->column_family(), nullptr, nullptr)
            .ok());
  }

  void Reopen() {
    ReleaseSnapshots();
    schema_.reset();
    tables_[0] = tables_[1] = nullptr;
    db_.reset();
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    FindTables();
  }

  // Holds a snapshot of the database and a copy of the model as it is now.
  void TakeSnapshot() {
    if (snapshots_.size() >= 3) return ReleaseSnapshot();
    snapshots_.push_back({db_->db()->GetSnapshot(), model_});
  }

  void ReleaseSnapshot() {
    if (snapshots_.empty()) return;
    const size_t i = random_.Uniform(snapshots_.size());
    db_->db()->ReleaseSnapshot(snapshots_[i].snapshot);
    snapshots_.erase(snapshots_.begin() + static_cast<std::ptrdiff_t>(i));
  }

  void ReleaseSnapshots() {
    while (!snapshots_.empty()) ReleaseSnapshot();
  }

  // A literal of the column's type, mostly one of its frequent values.
  Value Literal(const ColumnDef& column) {
    if (column.is_key()) return random_.OneIn(4) ? random_.Of(column.type) : Pick(column.id);
    const std::vector<Value>& pool = ValuePool(column);
    return random_.OneIn(4) ? random_.Of(column.type) : pool[random_.Uniform(pool.size())];
  }

  // A leaf on a clustering or live regular column.
  Predicate RandomLeaf(const std::vector<const ColumnDef*>& columns) {
    const ColumnDef& column = *columns[random_.Uniform(columns.size())];
    switch (random_.Uniform(8)) {
      case 0:
        return Predicate::IsNull(column.name);
      case 1:
        return Predicate::IsNotNull(column.name);
      case 2: {
        std::vector<Value> list;
        for (size_t i = 0, n = random_.Uniform(4); i < n; i++) list.push_back(Literal(column));
        return Predicate::In(column.name, std::move(list));
      }
      default:
        return Predicate::Compare(column.name, kAllCompareOps[random_.Uniform(6)], Literal(column));
    }
  }

  Predicate RandomFilter(const std::vector<const ColumnDef*>& columns, int depth) {
    if (depth == 0 || random_.OneIn(2)) return RandomLeaf(columns);
    std::vector<Predicate> children;
    for (size_t i = 0, n = 1 + random_.Uniform(3); i < n; i++) {
      children.push_back(RandomFilter(columns, depth - 1));
    }
    return random_.OneIn(3) ? Predicate::Or(std::move(children))
                            : Predicate::And(std::move(children));
  }

  std::optional<Predicate> MaybeFilter() {
    std::vector<const ColumnDef*> columns;
    for (const ColumnDef& column : schema().columns()) {
      if (column.is_live() && column.role != ColumnRole::kPartitionKey) columns.push_back(&column);
    }
    if (columns.empty() || random_.OneIn(2)) return std::nullopt;
    return RandomFilter(columns, 2);
  }

  std::optional<ClusteringBound> RandomBound(uint32_t id) {
    if (random_.OneIn(2)) return std::nullopt;
    const Value value = random_.OneIn(4) ? random_.Of(schema().columns()[id].type) : Pick(id);
    return ClusteringBound{value, random_.OneIn(2)};
  }

  std::vector<ModelSelector> RandomSelectors() {
    std::vector<ModelSelector> selectors;
    if (random_.OneIn(3)) return selectors;  // all columns
    for (const ColumnDef& column : schema().columns()) {
      if (!column.is_live() || random_.OneIn(2)) continue;
      selectors.push_back({ModelSelector::Kind::kColumn, column.name});
      if (!column.is_key() && random_.OneIn(2)) {
        selectors.push_back(
            {random_.OneIn(2) ? ModelSelector::Kind::kWriteTime : ModelSelector::Kind::kTtl,
             column.name});
      }
    }
    std::shuffle(selectors.begin(), selectors.end(), random_.rng());
    if (selectors.empty()) selectors.push_back({{}, schema().partition_column(0).name});
    return selectors;
  }

  SelectQuery RandomQuery(const std::vector<ModelSelector>& selectors) {
    SelectQuery query;
    const std::vector<Value> partition = RandomPartition();
    for (const Value& value : partition) query.partition_key.push_back({value});
    for (size_t i = 0, extra = random_.Uniform(3); i < extra; i++) {
      query.partition_key.back().push_back(Pick(schema().partition_key().back()));
    }
    const size_t clustering = schema().clustering_key().size();
    const size_t fixed = random_.Uniform(clustering + 1);
    for (size_t i = 0; i < fixed; i++) {
      query.clustering_prefix.push_back(Pick(schema().clustering_key()[i]));
    }
    if (fixed < clustering) {
      query.lower_bound = RandomBound(schema().clustering_key()[fixed]);
      query.upper_bound = RandomBound(schema().clustering_key()[fixed]);
    }
    for (const ModelSelector& selector : selectors) query.columns.push_back(selector.Text());
    query.limit = random_.OneIn(3) ? 1 + random_.Uniform(10) : 0;
    query.reversed = random_.OneIn(2);
    query.filter = MaybeFilter();
    return query;
  }

  void Check(const SelectQuery& query, const std::vector<ModelSelector>& selectors,
             const std::string& when, const test::TableModel& model) {
    const ResultSet expected = model.Select(schema(), query, selectors, clock_.now_micros());
    checks_++;
    nonempty_checks_ += !expected.rows.empty();
    filtered_checks_ += query.filter.has_value();
    snapshot_checks_ += query.snapshot != nullptr;
    for (Table* table : tables_) {
      ResultSet got;
      SelectStats stats;
      const Status s = table->Select(query, &got, &stats);
      if (table == tables_[1]) AddStats(stats);
      ASSERT_TRUE(s.ok()) << table->name() << ": " << s.ToString();
      ASSERT_EQ(got.column_names, expected.column_names) << table->name();
      ASSERT_EQ(got.column_types, expected.column_types) << table->name();
      ASSERT_TRUE(got.rows == expected.rows && SerializeRows(got) == SerializeRows(expected))
          << table->name() << " " << when << ", step " << step_ << ", limit " << query.limit
          << (query.reversed ? ", reversed" : "")
          << (query.filter ? ", filter " + query.filter->ToString() : "") << "\nexpected:\n"
          << ResultSetToString(expected) << "got:\n"
          << ResultSetToString(got);
    }
  }

  void AddStats(const SelectStats& stats) {
    pushdown_.row_groups_pruned += stats.row_groups_pruned;
    pushdown_.row_groups_without_match += stats.row_groups_without_match;
    pushdown_.rows_built += stats.rows_built;
    pushdown_.placeholders += stats.placeholders;
    pushdown_.rows_dropped += stats.rows_dropped;
  }

  void CheckRandomQuery() {
    const std::vector<ModelSelector> selectors = RandomSelectors();
    SelectQuery query = RandomQuery(selectors);
    if (snapshots_.empty() || random_.OneIn(2))
      return Check(query, selectors, "random query", model_);
    const HeldSnapshot& held = snapshots_[random_.Uniform(snapshots_.size())];
    query.snapshot = held.snapshot;
    Check(query, selectors, "random query at a snapshot", held.model);
  }

  // Every partition of the key pools, whole, in both directions.
  void CheckEveryPartition(const std::string& when) {
    std::vector<std::vector<Value>> partitions = {{}};
    for (uint32_t id : schema().partition_key()) {
      std::vector<std::vector<Value>> extended;
      for (const std::vector<Value>& prefix : partitions) {
        for (const Value& value : pools_[id]) {
          extended.push_back(prefix);
          extended.back().push_back(value);
        }
      }
      partitions = std::move(extended);
    }
    for (const std::vector<Value>& partition : partitions) {
      for (bool reversed : {false, true}) {
        SelectQuery query = SelectQuery::ForPartition(partition);
        query.reversed = reversed;
        Check(query, {}, when, model_);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }

  void RunOne() {
    step_++;
    const uint64_t choice = random_.Uniform(100);
    if (choice < 35) {
      Insert();
    } else if (choice < 45) {
      InsertBatch();
    } else if (choice < 52) {
      DeleteRow();
    } else if (choice < 54) {
      DeletePartition();
    } else if (choice < 57) {
      clock_.AdvanceSeconds(1 + random_.Uniform(3));
    } else if (choice < 61) {
      FlushAndCompact(tables_[random_.Uniform(2)], /*compact=*/false);
    } else if (choice < 63) {
      FlushAndCompact(tables_[random_.Uniform(2)]);
    } else if (choice < 64) {
      Reopen();
    } else if (choice < 65) {
      Alter();
    } else if (choice < 67) {
      TakeSnapshot();
    } else if (choice < 68) {
      ReleaseSnapshot();
    } else {
      CheckRandomQuery();
    }
  }

  TempDir dir_{"table-api-differential"};
  std::unique_ptr<rocksdb::Env> env_{rocksdb::NewMemEnv(rocksdb::Env::Default())};
  test::ManualClock clock_{kStartSeconds * 1000000 + 250000};
  test::RandomValues random_;
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
  Table* tables_[2] = {nullptr, nullptr};
  std::shared_ptr<const TableSchema> schema_;
  std::map<uint32_t, std::vector<Value>> pools_;
  test::TableModel model_;
  struct HeldSnapshot {
    const rocksdb::Snapshot* snapshot;
    test::TableModel model;  // the model when the snapshot was taken
  };
  std::vector<HeldSnapshot> snapshots_;
  size_t step_ = 0;
  size_t checks_ = 0;
  size_t nonempty_checks_ = 0;
  size_t filtered_checks_ = 0;
  size_t snapshot_checks_ = 0;
  SelectStats pushdown_;  // summed over the ColumnarTable side's reads
};

std::string RandomSchemaCql(uint64_t seed, const std::string& name) {
  test::RandomValues random(seed);
  std::string cql = test::RandomSchema(&random, 5).ToCql();
  const std::string created = "CREATE TABLE ks.t ";
  EXPECT_EQ(cql.compare(0, created.size(), created), 0) << cql;
  return "CREATE TABLE " + name + " " + cql.substr(created.size());
}

TEST(TableApiDifferentialTest, MetricsTable) {
  // Without its sstable_format: each side's TableStorage picks the format.
  ApiDifferential run(
      [](const std::string& name) { return test::MetricsTableCql(name, /*sstable_format=*/false); },
      11);
  run.Run(3000);
  run.ExpectPushdownExercised();
}

TEST(TableApiDifferentialTest, Access16Table) {
  ApiDifferential run(test::Access16TableCql, 12);
  run.Run(1500);
  run.ExpectPushdownExercised();
}

TEST(TableApiDifferentialTest, RandomSchemas) {
  for (uint64_t seed = 1; seed <= 12 && !::testing::Test::HasFailure(); seed++) {
    SCOPED_TRACE("schema seed " + std::to_string(seed));
    ApiDifferential([seed](const std::string& name) { return RandomSchemaCql(seed, name); },
                    100 + seed)
        .Run(600);
  }
}

}  // namespace
}  // namespace columnar
