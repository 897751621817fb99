// The predicate-pushdown channel between the Table API and ColumnarTable readers
// (ARCHITECTURE.md sections 3 and 6). The Table API puts a PushdownTableFilter in
// ReadOptions::table_filter; RocksDB calls it per file with the file's properties (a whole
// file may be skipped there), hands the same ReadOptions to every table reader, and a
// ColumnarTable reader recovers the ScanSpec with std::function::target<PushdownTableFilter>().
//
// The reconciliation rule, which keeps results right after updates and deletes:
//   - a row version failing the predicate is left out only when its sequence number is 0 (no
//     older version of its key can exist below it); otherwise a placeholder with the same
//     internal key (value kFilteredRowPlaceholder) still shadows older versions;
//   - deletions, merge operands and values that are not rows of the schema always pass;
//   - the Table API applies the full predicate again after RocksDB's merge;
//   - a file is skipped by its statistics only when its largest sequence number is 0 and it
//     holds nothing but rows.
// Only public RocksDB headers here: the Table API includes this file.
#pragma once

#include <rocksdb/table_properties.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "filter/bound_predicate.h"
#include "filter/evaluator.h"
#include "filter/zone_map_set.h"

namespace columnar {

// The value of a row version the reader filtered out but must still return. Not a valid row
// (the row codec's format byte is 1), so readers of rows tell it apart.
inline constexpr char kFilteredRowPlaceholder[] = "\xff";
inline Slice FilteredRowPlaceholder() { return Slice(kFilteredRowPlaceholder, 1); }

// What pushdown saved in one query; shared by every file the query reads.
struct PushdownCounters {
  std::atomic<uint64_t> files_skipped{0};
  std::atomic<uint64_t> row_groups_pruned{0};         // by zone maps, no decoding
  std::atomic<uint64_t> row_groups_without_match{0};  // decoded predicate columns, no match
  std::atomic<uint64_t> row_groups_with_match{0};
  std::atomic<uint64_t> rows_built{0};  // typed rows returned
  std::atomic<uint64_t> placeholders{0};
  std::atomic<uint64_t> rows_dropped{0};
};

struct ScanSpec {
  // The table's predicate, bound to its current schema; null when the scan only hides expired
  // rows.
  std::shared_ptr<const BoundPredicate> predicate;
  // Prepared once per query from `predicate`.
  std::shared_ptr<const FilterEvaluator> evaluator;
  // Regular columns the caller reads from returned rows (projection and predicate columns),
  // by column id; empty = all.
  std::vector<bool> keep_columns;
  // Rows whose expiry is <= now are treated as failing (INT64_MIN: no expiry check).
  int64_t now_seconds = INT64_MIN;
  std::shared_ptr<PushdownCounters> counters = std::make_shared<PushdownCounters>();
};

// Property names the builder writes and the file-level skip reads.
inline constexpr char kMaxSequenceProperty[] = "columnar.max_sequence";
inline constexpr char kOnlyRowsProperty[] = "columnar.only_rows";
// The zone map column id of row expiry (not a schema column).
inline constexpr uint32_t kExpiryZoneMapColumn = 0xfffffff0u;

// True when `file_stats` (a file's merged zone maps) prove no row of the file matches. Only
// for files whose largest sequence number is 0 and that hold nothing but rows.
bool FileRuledOut(const ScanSpec& spec, const ZoneMapSet& file_stats);

// The callable stored in ReadOptions::table_filter. Copies share the spec.
class PushdownTableFilter {
 public:
  explicit PushdownTableFilter(std::shared_ptr<const ScanSpec> spec) : spec_(std::move(spec)) {}
  // False (skip the file) only under the rule above, when its properties prove that every row
  // has expired (any table format).
  bool operator()(const rocksdb::TableProperties& properties) const;
  const std::shared_ptr<const ScanSpec>& spec() const { return spec_; }

 private:
  std::shared_ptr<const ScanSpec> spec_;
};

}  // namespace columnar
