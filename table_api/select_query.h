// SelectQuery: what Table::Select reads, and SelectPlan: the query checked against a schema
// and turned into encoded key ranges and a projection.
//
// Semantics:
//   - every partition key column needs a value; the last one may list several (IN), and
//     those partitions are read in ascending encoded-partition-key order (duplicates once),
//     whatever the clustering direction;
//   - the clustering restriction is equality on a prefix of the clustering columns, then
//     optional lower/upper bounds (each inclusive or exclusive, typed order) on the next one;
//   - rows come in the table's clustering order within a partition, or reversed;
//   - LIMIT counts rows across all partitions;
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

struct SelectQuery {
  // One entry per partition key column, in key order, each the column's values: exactly one,
  // except for the last column, which may have several (IN).
  std::vector<std::vector<Value>> partition_key;
  // Equality on the first clustering columns.
  std::vector<Value> clustering_prefix;
  // Bounds on the clustering column after the prefix.
  std::optional<ClusteringBound> lower_bound;
  std::optional<ClusteringBound> upper_bound;
  // Selected columns (see above); empty = all.
  std::vector<std::string> columns;
  // 0 = no limit.
  uint64_t limit = 0;
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

// One partition's share of a query.
struct PartitionScan {
  std::vector<Value> partition_key;
  KeyRange range;
};

struct SelectPlan {
  std::vector<PartitionScan> partitions;  // ascending encoded partition key, empty ranges dropped
  std::vector<ProjectedColumn> columns;
  uint64_t limit = 0;
  bool reversed = false;
  // The filter bound to the schema; null without one.
  std::shared_ptr<const BoundPredicate> filter;
  // Regular columns the query reads (projection and filter), by column id.
  std::vector<bool> needed_columns;
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
};

struct ScannedRow;

// Whether a row read from one of the plan's partitions matches the plan's filter (true
// without one).
bool RowMatchesFilter(const SelectPlan& plan, const TableSchema& schema,
                      const std::vector<Value>& partition_key, const ScannedRow& row);

// Checks `query` against `schema` and plans it. InvalidArgument naming the column for a
// missing or extra partition key value, IN on a column other than the last partition column,
// a wrong value type, too many clustering values, bounds without a clustering column to apply
// to, an unknown or dropped column, or writetime()/ttl() of a key column.
Status PlanSelect(const TableSchema& schema, const SelectQuery& query, SelectPlan* plan);

// The selected values of a row read from one of the plan's partitions (`partition_key`), at
// clock reading `now_seconds` (for ttl()), written over *out (whose buffers are reused).
void ProjectRow(const SelectPlan& plan, const std::vector<Value>& partition_key,
                const ScannedRow& row, int64_t now_seconds, Row* out);

}  // namespace columnar
