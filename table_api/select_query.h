// SelectQuery: what Table::Select reads, and SelectPlan: the query checked against a schema
// and turned into encoded key ranges and a projection.
//
// Semantics:
//   - every partition key column needs a value, or none does: a query without the partition
//     key reads the whole table (every partition, in encoded key order; clustering
//     restrictions and `reversed` need the partition key, filter on clustering columns
//     instead); the last one may list several (IN), and
//     those partitions are read in ascending encoded-partition-key order (duplicates once),
//     whatever the clustering direction;
//   - the clustering restriction is equality on a prefix of the clustering columns, then
//     optional lower/upper bounds (each inclusive or exclusive, typed order) or a list of
//     values (IN) on the next one;
//   - rows come in the table's clustering order within a partition, or reversed;
//   - LIMIT counts rows across all partitions; PER PARTITION LIMIT (per_partition_limit)
//     returns at most that many rows of each partition, applied before LIMIT (the first rows
//     of each partition in the query's order);
//   - columns: names, "writetime(col)" (the row's write time in microseconds, bigint, when
//     `col` is non-null, else null) or "ttl(col)" (seconds left before the row expires, int,
//     when `col` is non-null and the row has an expiry, else null); empty selects every live
//     column: partition key, clustering columns, then regular columns in id order.
#pragma once

#include <rocksdb/snapshot.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "filter/bound_predicate.h"
#include "filter/predicate.h"
#include "table_format/key_codec.h"
#include "table_format/schema.h"
#include "table_format/value.h"

namespace columnar {

// An aggregate of a SELECT (aggregation.h).
struct Aggregate {
  enum class Function : uint8_t { kCount, kMin, kMax, kSum, kAvg };
  Function function = Function::kCount;
  std::string column;  // empty: COUNT(*)
};

// The most partitions the IN restrictions of one query may select (Cassandra's limit on the
// cartesian product of IN restrictions is the same).
inline constexpr uint64_t kMaxPartitionsPerQuery = 65535;

struct SelectQuery {
  // One entry per partition key column, in key order, each the column's values: one, or
  // several (IN) on any columns; the query reads every combination (at most
  // kMaxPartitionsPerQuery), in ascending encoded partition key order. Empty: every partition.
  std::vector<std::vector<Value>> partition_key;
  // Equality on the first clustering columns.
  std::vector<Value> clustering_prefix;
  // IN on the clustering column after the prefix: the rows whose value there is one of these
  // (read in clustering order, duplicates once); not with bounds.
  std::vector<Value> clustering_in;
  // Bounds on the clustering column after the prefix.
  std::optional<ClusteringBound> lower_bound;
  std::optional<ClusteringBound> upper_bound;
  // Selected columns (see above); empty = all.
  std::vector<std::string> columns;
  // 0 = no limit.
  uint64_t limit = 0;
  // At most this many rows of each partition (CQL's PER PARTITION LIMIT); 0 = no limit. Not
  // with aggregates. A whole-table scan with it reads through the row path and seeks past
  // the rest of a partition once it has its rows.
  uint64_t per_partition_limit = 0;
  // False: the table's clustering order; true: the reverse.
  bool reversed = false;
  // ALLOW FILTERING: only rows matching this predicate (over any live column: partition key,
  // clustering and regular columns; filter/predicate.h) are returned. ColumnarTable files
  // evaluate it while reading (pushdown.h; partition key values come from each row's
  // partition); every row is checked again after RocksDB's merge.
  std::optional<Predicate> filter;
  // Reads the data as of this snapshot (DB::GetSnapshot of the table's database, released by
  // the caller after the query); null reads the latest data, all partitions of the query at
  // one implicit snapshot.
  const rocksdb::Snapshot* snapshot = nullptr;
  // Aggregates (aggregation.h): when given, `columns` must be empty and the result has one row
  // per group: the group-by columns, then one column per aggregate, named "count(*)",
  // "count(col)", "min(col)", "max(col)", "sum(col)", "avg(col)". LIMIT counts groups.
  std::vector<Aggregate> aggregates;
  // GROUP BY the first `group_by` primary key columns (partition key columns, then clustering
  // columns, in key order); 0 = one group over every row read.
  size_t group_by = 0;
  // With group_by > the partition key columns and the last group-by column the first
  // clustering column (int, bigint, timestamp or date): groups by floor(value / width) * width
  // of it instead (a time bucket, in the column's units: seconds for int times, ms for
  // timestamps).
  std::optional<int64_t> time_bucket;

  // False: read through RocksDB iterators only, never the columnar scan path (column_scan.h);
  // results are identical either way (tests and benchmarks compare the two).
  bool allow_columnar_scan = true;

  // A query of one partition (one value per partition key column).
  static SelectQuery ForPartition(const std::vector<Value>& partition_values);
};

// Where a selected column's value comes from.
struct ProjectedColumn {
  enum class Source : uint8_t { kPartitionKey, kClustering, kRegular, kWriteTime, kTtl };
  Source source = Source::kRegular;
  // kPartitionKey / kClustering: position in the key; otherwise the column id.
  size_t index = 0;
  std::string name;  // as shown in the result
  LogicalType type = LogicalType::kText;
};

// One partition's share of a query (or the whole table's, for a query without partition key);
// with IN on a clustering column, one per value, consecutive, in key order.
struct PartitionScan {
  std::vector<Value> partition_key;  // empty for the whole table
  KeyRange range;
};

// The aggregation part of a plan: the plan's first `group_columns` columns are the group key
// (the last one bucketed by `bucket_width` when set), the others the aggregates' inputs.
struct AggregatePlan {
  struct Item {
    Aggregate::Function function = Aggregate::Function::kCount;
    int input = -1;  // index into SelectPlan::columns; -1 for COUNT(*)
    LogicalType input_type = LogicalType::kBigInt;
    std::string name;
    LogicalType result_type = LogicalType::kBigInt;
  };
  size_t group_columns = 0;
  std::optional<int64_t> bucket_width;
  std::vector<Item> items;
  uint64_t group_limit = 0;  // LIMIT on groups (the scan itself is not limited)
};

struct SelectPlan {
  std::vector<PartitionScan> partitions;  // ascending encoded partition key, empty ranges dropped
  // No partition key given: one PartitionScan over the whole table; rows carry their own
  // partition key values (ScannedRow::partition).
  bool whole_table = false;
  std::vector<ProjectedColumn> columns;
  uint64_t limit = 0;
  uint64_t per_partition_limit = 0;  // 0 = none
  bool reversed = false;
  // The filter bound to the schema; null without one.
  std::shared_ptr<const BoundPredicate> filter;
  // Regular columns the projection reads (values, writetime(), ttl()), by column id.
  std::vector<bool> projected_columns;
  // Regular columns the query reads (projection and filter), by column id.
  std::vector<bool> needed_columns;
  // Set for queries with aggregates: `columns` are then what the aggregation reads.
  std::optional<AggregatePlan> aggregation;
};

// What predicate pushdown did for one Select (pushdown.h), and what the final filter removed.
struct SelectStats {
  uint64_t files_skipped = 0;
  uint64_t row_groups_pruned = 0;
  uint64_t row_groups_without_match = 0;
  uint64_t row_groups_with_match = 0;
  uint64_t rows_built = 0;
  uint64_t placeholders = 0;
  uint64_t rows_dropped = 0;
  uint64_t rows_rejected_after_merge = 0;
  // Which read path served the rows returned (column_scan.h): typed column vectors straight
  // from ColumnarTable row groups, or RocksDB iterators.
  uint64_t rows_columnar = 0;
  uint64_t rows_row_path = 0;
  uint64_t columnar_row_groups = 0;  // row groups read as columns
  uint64_t columnar_pieces = 0;      // key spans served as columns
  uint64_t row_pieces = 0;           // key spans served by iterators (with the columnar path)
  // Regular columns of those row groups decoded from their chunks, and taken decoded from the
  // cache (a scan of the same groups before left them there).
  uint64_t columnar_columns_decoded = 0;
  uint64_t columnar_columns_cached = 0;
  // Aggregates answered from row-group statistics (zone maps) without decoding: the rows and
  // row groups so counted (not in rows_columnar / rows_row_path).
  uint64_t rows_from_stats = 0;
  uint64_t row_groups_from_stats = 0;
};

struct ScannedRow;

// Whether a row read from one of the plan's partitions matches the plan's filter (true
// without one).
bool RowMatchesFilter(const SelectPlan& plan, const TableSchema& schema,
                      const std::vector<Value>& partition_key, const ScannedRow& row);

// Checks `query` against `schema` and plans it. InvalidArgument naming the column for a
// missing or extra partition key value, IN lists selecting too many partitions,
// a wrong value type, too many clustering values, bounds without a clustering column to apply
// to, an unknown or dropped column, or writetime()/ttl() of a key column.
Status PlanSelect(const TableSchema& schema, const SelectQuery& query, SelectPlan* plan);

// The selected values of a row read from one of the plan's partitions (`partition_key`), at
// clock reading `now_seconds` (for ttl()), written over *out (whose buffers are reused).
void ProjectRow(const SelectPlan& plan, const std::vector<Value>& partition_key,
                const ScannedRow& row, int64_t now_seconds, Row* out);

}  // namespace columnar
