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
#include <cmath>
#include <functional>
#include <limits>

#include "table_format/cql_lexer.h"
#include "tests/table_api/mirrored_writes.h"
#include "tests/table_api/table_model.h"
#include "tests/table_api/test_util.h"
#include "tests/table_format/random_values.h"

namespace columnar {
namespace {

using test::ModelSelector;

constexpr int64_t kDifferentialStartSeconds = 1'700'000'000;

// CREATE TABLE text for a table called `name`.
using TableCql = std::function<std::string(const std::string& name)>;

std::string FirstDifference(const ResultSet& got, const ResultSet& expected);

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
      Status s = db_->CreateTable(cql(name), storage);
      EXPECT_TRUE(s.ok()) << s.ToString();
      // The model keeps every tombstone: so do the tables (gc_grace_seconds counts from when a
      // deletion was made, so the largest value outlasts the test whatever its timestamps).
      s = db_->AlterTable("ALTER TABLE " + std::string(name) +
                          " WITH gc_grace_seconds = 2147483647");
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
    // No snapshot is held after the reopen: compaction leaves one version per key at sequence
    // number 0, and row groups wholly inside a query's range can be answered from their
    // statistics (aggregation.h). Aggregates over them, against the model and the row path.
    RefillPartitions(8);
    for (Table* table : tables_) FlushAndCompact(table);
    // Every other one aggregates few columns: one without statistics (a string cut to its
    // 16-byte bound, a column whose zone maps were left out, a float sum) decodes the group.
    for (int i = 0; i < 60 && !::testing::Test::HasFailure(); i++) {
      CheckRandomAggregate(i % 2 == 0 ? 2 : 8);
    }
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
    EXPECT_GT(aggregate_checks_, 10u);
    EXPECT_GT(pushdown_.row_groups_from_stats, 0u);
    // Both read paths served rows.
    EXPECT_GT(pushdown_.rows_columnar, 0u);
    EXPECT_GT(pushdown_.rows_row_path, 0u);
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

  // Rows merged from writes of several timestamps are stored with per-cell metadata, which
  // row-group statistics do not serve; the random timestamps make most rows so. A few
  // partitions rewritten from scratch (deleted above every timestamp written, then whole rows
  // above the deletion) give groups of plain rows for the aggregates.
  void RefillPartitions(int count) {
    constexpr int64_t kAboveEveryWrite = 3'000'000'000'000'000;  // RandomWriteOptions' end
    RowWriteOptions refill;
    refill.write_time_micros = kAboveEveryWrite + 1;
    for (int i = 0; i < count; i++) {
      const std::vector<Value> partition = RandomPartition();
      test::DeletePartitionEverywhere(tables_, &model_, schema(), partition, clock_.now_micros(),
                                      kAboveEveryWrite);
      std::vector<RowWrite> rows;
      for (int r = 0; r < 30; r++) {
        Row row = RandomRow();
        for (size_t k = 0; k < partition.size(); k++) {
          row[schema().partition_key()[k]] = partition[k];
        }
        rows.emplace_back(std::move(row), refill);
      }
      test::InsertEverywhere(tables_, &model_, schema(), rows, clock_.now_micros());
    }
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
    test::InsertEverywhere(tables_, &model_, schema(), rows, clock_.now_micros());
  }

  // A write of some cells (INSERT or UPDATE of named columns, or DELETE of cells) with random
  // options; null values delete their cells.
  RowWrite RandomCellWrite() {
    RowWrite write(RandomRow(), RandomWriteOptions());
    const uint64_t kind = random_.Uniform(3);
    write.kind =
        kind == 0 ? WriteKind::kInsert : (kind == 1 ? WriteKind::kUpdate : WriteKind::kDeleteCells);
    if (write.kind == WriteKind::kDeleteCells) {
      write.options.ttl_seconds.reset();  // deletions take no TTL
      write.options.expiry_seconds.reset();
    }
    write.named.assign(schema().columns().size(), false);
    for (uint32_t id : schema().LiveRegularColumns()) {
      write.named[id] = random_.OneIn(2);
      if (!write.named[id] || write.kind == WriteKind::kDeleteCells) write.values[id] = Value();
    }
    return write;
  }

  // Partial writes, alone or as a batch that may also hold whole rows and row deletions.
  void WriteCells() {
    std::vector<RowWrite> writes;
    for (size_t i = 0, n = 1 + random_.Uniform(4); i < n; i++) {
      if (n > 1 && random_.OneIn(4)) {
        writes.emplace_back(RandomRow(), RandomWriteOptions());
      } else {
        writes.push_back(RandomCellWrite());
      }
    }
    test::WriteEverywhere(tables_, &model_, schema(), writes, clock_.now_micros());
  }

  void DeleteRow() {
    const std::vector<Value> partition = RandomPartition();
    const std::vector<Value> clustering = RandomClustering();
    // Half of them at a client timestamp: they hide only what is at or below it.
    test::DeleteRowEverywhere(tables_, &model_, schema(), partition, clustering,
                              clock_.now_micros(), RandomWriteOptions().write_time_micros);
  }

  void DeletePartition() {
    const std::vector<Value> partition = RandomPartition();
    // Half of them at a client timestamp: they keep newer cells, and hide older writes that
    // arrive after them.
    test::DeletePartitionEverywhere(tables_, &model_, schema(), partition, clock_.now_micros(),
                                    RandomWriteOptions().write_time_micros);
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
    model_.Reopened();
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

  // `partition_columns`: also filter on partition key columns (queries without partition key).
  std::optional<Predicate> MaybeFilter(bool partition_columns = false) {
    std::vector<const ColumnDef*> columns;
    for (const ColumnDef& column : schema().columns()) {
      if (column.is_live() && (partition_columns || column.role != ColumnRole::kPartitionKey)) {
        columns.push_back(&column);
      }
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
    if (random_.OneIn(5)) {
      // Every partition, in key order (no clustering restriction, not reversed).
      for (const ModelSelector& selector : selectors) query.columns.push_back(selector.Text());
      query.limit = random_.OneIn(3) ? 1 + random_.Uniform(10) : 0;
      query.filter = MaybeFilter(/*partition_columns=*/true);
      return query;
    }
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
      // The ColumnarTable side reads each query three ways: Select with the columnar scan path
      // allowed, Select through iterators only, and Scan's batches.
      for (const char* way : {"select", "select, row path only", "scan batches"}) {
        if (table == tables_[0] && std::string(way) != "select") continue;
        SelectQuery variant = query;
        variant.allow_columnar_scan = std::string(way) != "select, row path only";
        ResultSet got;
        SelectStats stats;
        Status s;
        if (std::string(way) == "scan batches") {
          got.column_names = expected.column_names;
          got.column_types = expected.column_types;
          s = table->Scan(
              variant,
              [&](const ColumnBatch& batch) {
                EXPECT_EQ(batch.column_names, expected.column_names);
                EXPECT_EQ(batch.column_types, expected.column_types);
                for (size_t row = 0; row < batch.row_count; row++)
                  batch.GetRow(row, got.AppendRow());
                return true;
              },
              &stats);
        } else {
          s = table->Select(variant, &got, &stats);
        }
        if (table == tables_[1]) AddStats(stats);
        ASSERT_TRUE(s.ok()) << table->name() << " " << way << ": " << s.ToString();
        ASSERT_EQ(stats.rows_columnar + stats.rows_row_path, got.rows.size()) << way;
        ASSERT_EQ(got.column_names, expected.column_names) << table->name();
        ASSERT_EQ(got.column_types, expected.column_types) << table->name();
        ASSERT_TRUE(got.rows == expected.rows && SerializeRows(got) == SerializeRows(expected))
            << table->name() << " (" << way << ") " << when << ", step " << step_ << ", limit "
            << query.limit << (query.reversed ? ", reversed" : "")
            << (query.partition_key.empty() ? ", whole table" : "")
            << (query.filter ? ", filter " + query.filter->ToString() : "") << "\nexpected:\n"
            << ResultSetToString(expected) << "got:\n"
            << ResultSetToString(got);
      }
    }
  }

  void AddStats(const SelectStats& stats) {
    pushdown_.rows_columnar += stats.rows_columnar;
    pushdown_.rows_row_path += stats.rows_row_path;
    pushdown_.row_groups_pruned += stats.row_groups_pruned;
    pushdown_.row_groups_without_match += stats.row_groups_without_match;
    pushdown_.rows_built += stats.rows_built;
    pushdown_.placeholders += stats.placeholders;
    pushdown_.rows_dropped += stats.rows_dropped;
    pushdown_.rows_from_stats += stats.rows_from_stats;
    pushdown_.row_groups_from_stats += stats.row_groups_from_stats;
  }

  // The aggregates of `query` computed naively from the model's rows (aggregation.h's
  // semantics written out on Values).
  ResultSet ModelAggregates(const SelectQuery& query, const test::TableModel& model) {
    SelectQuery rows_query = query;
    rows_query.aggregates.clear();
    rows_query.group_by = 0;
    rows_query.time_bucket.reset();
    rows_query.limit = 0;
    std::vector<ModelSelector> selectors;
    std::vector<std::string> key_names;
    for (size_t i = 0; i < query.group_by; i++) {
      const size_t pk = schema().partition_key().size();
      const uint32_t id = i < pk ? schema().partition_key()[i] : schema().clustering_key()[i - pk];
      selectors.push_back({ModelSelector::Kind::kColumn, schema().columns()[id].name});
    }
    for (const Aggregate& aggregate : query.aggregates) {
      selectors.push_back({ModelSelector::Kind::kColumn, aggregate.column.empty()
                                                             ? schema().partition_column(0).name
                                                             : aggregate.column});
    }
    const ResultSet rows = model.Select(schema(), rows_query, selectors, clock_.now_micros());
    ResultSet out;
    std::vector<Value> key;
    std::vector<const Row*> group;
    auto bucketed = [&](const Row& row) {
      std::vector<Value> k(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(query.group_by));
      if (query.time_bucket && !k.back().is_null()) {
        const bool wide =
            k.back().type() == LogicalType::kBigInt || k.back().type() == LogicalType::kTimestamp;
        const int64_t v = wide ? k.back().int64_value() : k.back().int32_value();
        const int64_t w = *query.time_bucket;
        // A bucket starting below the type's minimum is labelled with the minimum.
        const __int128 start = static_cast<__int128>(v / w - ((v % w != 0 && v < 0) ? 1 : 0)) * w;
        const int64_t lowest =
            wide ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int32_t>::min();
        const int64_t b = start < lowest ? lowest : static_cast<int64_t>(start);
        k.back() = Value::FromFixedBits(
            k.back().type(),
            wide ? static_cast<uint64_t>(b) : static_cast<uint32_t>(static_cast<int32_t>(b)));
      }
      return k;
    };
    auto emit = [&]() {
      if (query.limit != 0 && out.rows.size() >= query.limit) return;
      Row result = key;
      for (size_t a = 0; a < query.aggregates.size(); a++) {
        const Aggregate& aggregate = query.aggregates[a];
        const size_t column = query.group_by + a;
        uint64_t count = 0;
        std::optional<Value> best;
        double float_sum = 0;
        uint64_t int_sum = 0;
        bool floating = false;
        for (const Row* row : group) {
          const Value& v = (*row)[column];
          if (!aggregate.column.empty() && v.is_null()) continue;
          count++;
          if (aggregate.column.empty()) continue;
          floating = v.type() == LogicalType::kFloat || v.type() == LogicalType::kDouble;
          if (v.type() == LogicalType::kFloat) float_sum += static_cast<double>(v.float_value());
          if (v.type() == LogicalType::kDouble) float_sum += v.double_value();
          if (v.type() == LogicalType::kInt)
            int_sum += static_cast<uint64_t>(int64_t{v.int32_value()});
          if (v.type() == LogicalType::kBigInt) int_sum += static_cast<uint64_t>(v.int64_value());
          const int order = best ? CompareValues(v, *best) : 0;
          if (!best || (aggregate.function == Aggregate::Function::kMin ? order < 0 : order > 0)) {
            best = v;
          }
        }
        const ColumnDef* input =
            aggregate.column.empty() ? nullptr : schema().FindColumn(aggregate.column);
        if (input != nullptr) {
          floating = input->type == LogicalType::kFloat || input->type == LogicalType::kDouble;
        }
        // NaN payloads depend on the order of operands, which compilers may swap: one NaN.
        const auto canonical = [](double v) {
          return std::isnan(v) ? std::numeric_limits<double>::quiet_NaN() : v;
        };
        float_sum = canonical(float_sum);
        const double sum =
            floating ? float_sum : static_cast<double>(static_cast<int64_t>(int_sum));
        switch (aggregate.function) {
          case Aggregate::Function::kCount:
            result.push_back(Value::BigInt(static_cast<int64_t>(count)));
            break;
          case Aggregate::Function::kMin:
          case Aggregate::Function::kMax:
            result.push_back(best ? *best : Value());
            break;
          case Aggregate::Function::kSum:
            result.push_back(floating ? Value::Double(float_sum)
                                      : Value::BigInt(static_cast<int64_t>(int_sum)));
            break;
          case Aggregate::Function::kAvg:
            result.push_back(
                count == 0 ? Value() : Value::Double(canonical(sum / static_cast<double>(count))));
            break;
        }
      }
      out.rows.push_back(std::move(result));
    };
    for (const Row& row : rows.rows) {
      std::vector<Value> k = bucketed(row);
      if (!group.empty() && k != key) {
        emit();
        group.clear();
      }
      key = std::move(k);
      group.push_back(&row);
    }
    if (!group.empty() || query.group_by == 0) emit();
    return out;
  }

  // Aggregates count(*) and each live column with chance 1 / `column_one_in`.
  void CheckRandomAggregate(uint64_t column_one_in = 2) {
    SelectQuery query;
    const size_t partition_columns = schema().partition_key().size();
    const bool whole_table = random_.OneIn(4);
    if (!whole_table) {
      for (const Value& value : RandomPartition()) query.partition_key.push_back({value});
      query.reversed = random_.OneIn(3);
    }
    switch (random_.Uniform(3)) {
      case 0:
        query.group_by = 0;
        break;
      case 1:
        query.group_by = partition_columns;
        break;
      default:
        query.group_by = partition_columns + (schema().clustering_key().empty() ? 0 : 1);
        break;
    }
    const LogicalType first_clustering =
        schema().clustering_key().empty() ? LogicalType::kText : schema().clustering_column(0).type;
    if (query.group_by == partition_columns + 1 && random_.OneIn(2) &&
        (first_clustering == LogicalType::kInt || first_clustering == LogicalType::kBigInt ||
         first_clustering == LogicalType::kTimestamp || first_clustering == LogicalType::kDate)) {
      query.time_bucket = 1 + static_cast<int64_t>(random_.Uniform(1000));
    }
    query.aggregates.push_back({Aggregate::Function::kCount, ""});
    for (const ColumnDef& column : schema().columns()) {
      if (!column.is_live() || !random_.OneIn(column_one_in)) continue;
      const bool numeric =
          column.type == LogicalType::kInt || column.type == LogicalType::kBigInt ||
          column.type == LogicalType::kFloat || column.type == LogicalType::kDouble;
      const auto function = static_cast<Aggregate::Function>(random_.Uniform(numeric ? 5 : 3));
      query.aggregates.push_back({function, column.name});
    }
    query.limit = random_.OneIn(4) ? 1 + random_.Uniform(3) : 0;
    query.filter = MaybeFilter(/*partition_columns=*/whole_table);
    const ResultSet expected = ModelAggregates(query, model_);
    aggregate_checks_++;
    for (Table* table : tables_) {
      for (bool columnar : {true, false}) {
        if (table == tables_[0] && !columnar) continue;
        SelectQuery variant = query;
        variant.allow_columnar_scan = columnar;
        ResultSet got;
        SelectStats stats;
        const Status s = table->Select(variant, &got, &stats);
        if (table == tables_[1]) AddStats(stats);
        ASSERT_TRUE(s.ok()) << table->name() << ": " << s.ToString();
        ASSERT_TRUE(got.rows == expected.rows && SerializeRows(got) == SerializeRows(expected))
            << table->name() << (columnar ? " columnar allowed" : " row path") << ", step " << step_
            << ", group_by " << query.group_by
            << (query.time_bucket ? ", bucket " + std::to_string(*query.time_bucket) : "")
            << ", limit " << query.limit << (query.reversed ? ", reversed" : "")
            << (query.filter ? ", filter " + query.filter->ToString() : "") << "\n"
            << FirstDifference(got, expected) << "\nexpected:\n"
            << ResultSetToString(expected) << "got:\n"
            << ResultSetToString(got);
      }
    }
  }

  void CheckRandomQuery() {
    if (random_.OneIn(6)) return CheckRandomAggregate();
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
    SelectQuery whole_table;
    Check(whole_table, {}, when + ", whole table", model_);
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
    if (choice < 22) {
      Insert();
    } else if (choice < 35) {
      WriteCells();
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
  test::ManualClock clock_{kDifferentialStartSeconds * 1000000 + 250000};
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
  size_t aggregate_checks_ = 0;
  SelectStats pushdown_;  // summed over the ColumnarTable side's reads
};

// Where two results first differ (for failure messages): the row, and both rows serialized.
std::string FirstDifference(const ResultSet& got, const ResultSet& expected) {
  for (size_t i = 0; i < std::max(got.rows.size(), expected.rows.size()); i++) {
    if (i >= got.rows.size() || i >= expected.rows.size() || !(got.rows[i] == expected.rows[i])) {
      std::string a, b;
      if (i < got.rows.size()) AppendSerializedRow(got.rows[i], &a);
      if (i < expected.rows.size()) AppendSerializedRow(expected.rows[i], &b);
      return "first difference at row " + std::to_string(i) + ": got " +
             rocksdb::Slice(a).ToString(true) + ", expected " + rocksdb::Slice(b).ToString(true);
    }
  }
  return "rows equal";
}

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
