// TableSchema: a Cassandra-style table (partition key, clustering columns, regular columns,
// table options) with stable column ids and a schema version.
//
// Column ids are dense and assigned once, in declaration order (CREATE TABLE columns get
// 0..n-1); columns() is indexed by id. A dropped column stays in columns() with
// dropped_in_version set, so its id is never reused; re-adding its name creates a new id.
// Every successful ALTER bumps the version by one; CREATE gives version 1. The regular
// columns "live at version v" (added_in_version <= v < dropped_in_version) define the row
// layout of a value written at v (row_codec.h).
//
// Every logical type is allowed in partition and clustering keys (all are totally ordered by
// the key codec); nulls are never allowed in key columns.
//
// Serialized form (Serialize/Deserialize), one line of printable ASCII, safe inside RocksDB
// OPTIONS files and SST properties (no ; = { } # \ " ' newline CR, no leading or trailing
// space):
//
//   columnar-schema:1:<keyspace>:<table>:<version>:[<column>,...]:[<partition id>,...]:
//     [<clustering id>,...]:<default_time_to_live>:[<pair>,...]:[<pair>,...]:[<pair>,...]
//   column := (<name>:<cql type>:<role p|c|r>:<order a|d>:<added_in_version>:<dropped_in_version>)
//   pair   := (<key>:<value>)
//
// (written without the line break). The three pair lists are column_encodings,
// column_compression and the other options (name -> CQL text of the value), each sorted by
// key. Columns are listed in id order. Names, types (frozen<list<int>>), keys and values are
// percent-escaped (scalar type names need no escape): every
// byte outside [A-Za-z0-9_.-] is written as %XX (upper-case hex). Numbers are decimal
// without leading zeros.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "table_format/types.h"
#include "table_format/value.h"

namespace columnar {

enum class ColumnRole : uint8_t { kPartitionKey, kClustering, kRegular };
enum class ClusteringOrder : uint8_t { kAsc, kDesc };

struct ColumnDef {
  std::string name;
  LogicalType type = LogicalType::kText;
  ColumnRole role = ColumnRole::kRegular;
  ClusteringOrder order = ClusteringOrder::kAsc;  // meaningful for clustering columns only
  uint32_t id = 0;
  uint32_t added_in_version = 1;
  uint32_t dropped_in_version = 0;  // 0 = live

  bool is_live() const { return dropped_in_version == 0; }
  bool LiveAt(uint32_t version) const {
    return added_in_version <= version && (is_live() || version < dropped_in_version);
  }
  bool is_key() const { return role != ColumnRole::kRegular; }
};

bool operator==(const ColumnDef& a, const ColumnDef& b);

// Longest allowed default_time_to_live: Cassandra's limit of 20 years.
inline constexpr int64_t kMaxTimeToLiveSeconds = 630720000;

struct TableOptions {
  // Column name -> encoding name (encoding.h: "delta_of_delta", "alp", "auto", ...).
  std::map<std::string, std::string> column_encodings;
  // Column name or "default" -> "none" | "zstd".
  std::map<std::string, std::string> column_compression;
  // Seconds; 0 = rows do not expire unless written with a TTL.
  int64_t default_time_to_live = 0;
  // Every other WITH option: name -> its value as canonical CQL text, e.g.
  // compaction -> {'class': 'TimeWindowCompactionStrategy'}, sstable_format -> 'columnar'.
  std::map<std::string, std::string> other;
};

bool operator==(const TableOptions& a, const TableOptions& b);

// Cassandra's default gc_grace_seconds (10 days): how long deletions are kept to hide writes
// that arrive late with older timestamps.
inline constexpr int64_t kDefaultGcGraceSeconds = 864000;
// Largest gc_grace_seconds CQL accepts (Cassandra's: a 32-bit int).
inline constexpr int64_t kMaxGcGraceSeconds = 2147483647;
// The table's gc_grace_seconds (in `other`, validated by CREATE and ALTER TABLE), or the default
// when it is unset or, in a schema stored before it was validated, not a number in range.
int64_t GcGraceSeconds(const TableOptions& options);
// Whether `text` is a gc_grace_seconds value CQL accepts: an integer 0..kMaxGcGraceSeconds.
bool ParseGcGraceSeconds(const std::string& text, int64_t* seconds);

// The changes of one ALTER TABLE statement. Unset options stay as they are.
struct TableAlteration {
  std::vector<std::pair<std::string, LogicalType>> added_columns;
  std::vector<std::string> dropped_columns;
  std::optional<std::map<std::string, std::string>> column_encodings;
  std::optional<std::map<std::string, std::string>> column_compression;
  std::optional<int64_t> default_time_to_live;
  std::map<std::string, std::string> other_options;  // set or replaced
};

class TableSchema {
 public:
  TableSchema() = default;

  const std::string& keyspace() const { return keyspace_; }
  const std::string& table() const { return table_; }
  // "keyspace.table", or "table" without a keyspace.
  std::string QualifiedName() const;
  uint32_t version() const { return version_; }

  // Every column ever defined, dropped ones included, indexed by id.
  const std::vector<ColumnDef>& columns() const { return columns_; }
  uint32_t next_column_id() const { return static_cast<uint32_t>(columns_.size()); }
  // The live column with this name, or nullptr.
  const ColumnDef* FindColumn(const std::string& name) const;
  // The column with this id (live or dropped), or nullptr.
  const ColumnDef* ColumnById(uint32_t id) const;

  // Key column ids in key order.
  const std::vector<uint32_t>& partition_key() const { return partition_key_; }
  const std::vector<uint32_t>& clustering_key() const { return clustering_key_; }
  const ColumnDef& partition_column(size_t i) const { return columns_[partition_key_[i]]; }
  const ColumnDef& clustering_column(size_t i) const { return columns_[clustering_key_[i]]; }

  // Ids of the regular columns live at the current version / at `version`, in id order.
  std::vector<uint32_t> LiveRegularColumns() const { return RegularColumnsAt(version_); }
  std::vector<uint32_t> RegularColumnsAt(uint32_t version) const;
  // Names of the live columns: partition key, clustering key, then regular columns (the
  // columns of SELECT *, COPY TO and COPY FROM).
  std::vector<std::string> LiveColumnNamesInKeyOrder() const;

  const TableOptions& options() const { return options_; }

  // Applies an ALTER TABLE: adds regular columns (new ids), drops regular columns (and their
  // per-column options), updates options; validates everything first and bumps the version.
  // On error *altered is left untouched.
  Status Alter(const TableAlteration& alteration, TableSchema* altered) const;

  std::string Serialize() const;
  static Status Deserialize(const Slice& serialized, TableSchema* schema);

  // A CREATE TABLE statement for the live columns and the options (not the ids or version).
  std::string ToCql() const;

 private:
  friend class TableSchemaBuilder;
  friend bool operator==(const TableSchema& a, const TableSchema& b);

  // Checks every invariant; used by Build, Alter and Deserialize.
  Status Validate() const;
  Status ValidateOptions() const;

  std::string keyspace_;
  std::string table_;
  uint32_t version_ = 1;
  std::vector<ColumnDef> columns_;
  std::vector<uint32_t> partition_key_;
  std::vector<uint32_t> clustering_key_;
  TableOptions options_;
};

bool operator==(const TableSchema& a, const TableSchema& b);
inline bool operator!=(const TableSchema& a, const TableSchema& b) { return !(a == b); }

// Builds a version-1 schema. Columns get ids in the order they are added.
//
//   TableSchema schema;
//   Status s = TableSchemaBuilder("metrics", "v2metrics5")
//                  .AddColumn("orgid", LogicalType::kText)
//                  .AddColumn("time", LogicalType::kInt)
//                  .AddColumn("value", LogicalType::kFloat)
//                  .SetPartitionKey({"orgid"})
//                  .AddClusteringColumn("time", ClusteringOrder::kDesc)
//                  .Build(&schema);
class TableSchemaBuilder {
 public:
  TableSchemaBuilder(std::string keyspace, std::string table);

  TableSchemaBuilder& AddColumn(std::string name, LogicalType type);
  TableSchemaBuilder& SetPartitionKey(std::vector<std::string> names);
  TableSchemaBuilder& AddClusteringColumn(std::string name,
                                          ClusteringOrder order = ClusteringOrder::kAsc);
  TableSchemaBuilder& SetOptions(TableOptions options);

  // InvalidArgument when a name is empty or duplicated, the partition key is empty, a key
  // names an unknown column or repeats one, or an option is invalid.
  Status Build(TableSchema* schema) const;

 private:
  std::string keyspace_;
  std::string table_;
  std::vector<std::pair<std::string, LogicalType>> columns_;
  std::vector<std::string> partition_key_;
  std::vector<std::pair<std::string, ClusteringOrder>> clustering_;
  TableOptions options_;
};

}  // namespace columnar
