#include "plugin/row_compaction_filter.h"

#include <algorithm>

#include "table_format/cell_reconcile.h"
#include "table_format/row_codec.h"

namespace columnar {

namespace {

int64_t FloorSeconds(int64_t micros) {
  return micros >= 0 ? micros / 1000000 : -((-micros + 999999) / 1000000);
}

// Deletions at or below this write time (micros) are purged: gc_grace_seconds before now.
int64_t PurgeBeforeMicros(const TableSchema& schema, int64_t now_seconds) {
  const int64_t before = now_seconds - GcGraceSeconds(schema.options());
  return before <= INT64_MIN / 1000000 ? INT64_MIN : before * 1000000;
}

class RowCompactionFilter : public rocksdb::CompactionFilter {
 public:
  RowCompactionFilter(const TableSchema& schema, int64_t now_seconds,
                      std::shared_ptr<RowCompactionFilterFactory::Stats> stats)
      : codec_(schema),
        now_seconds_(now_seconds),
        gc_grace_seconds_(GcGraceSeconds(schema.options())),
        purge_before_micros_(PurgeBeforeMicros(schema, now_seconds)),
        stats_(std::move(stats)) {
    for (const ColumnDef& column : schema.columns()) {
      if (!column.is_key() && !column.is_live()) has_dropped_columns_ = true;
    }
  }

  Decision FilterV2(int /*level*/, const rocksdb::Slice& /*key*/, ValueType value_type,
                    const rocksdb::Slice& existing_value, std::string* new_value,
                    std::string* /*skip_until*/) const override {
    RowMetadata meta;
    if (value_type == ValueType::kValue && RowCodec::HasCellMetadata(existing_value)) {
      return FilterCellRow(existing_value, new_value);
    }
    if (value_type != ValueType::kValue || !codec_.DecodeMetadata(existing_value, &meta).ok()) {
      stats_->other_entries++;
      return Decision::kKeep;
    }
    const bool expired =
        meta.has_expiry && static_cast<int64_t>(meta.expiry_seconds) <= now_seconds_;
    const bool may_hold_dropped_values =
        has_dropped_columns_ && meta.schema_version != codec_.schema().version();
    if (!expired && !may_hold_dropped_values) {
      // The header decides: the row stays as it is whatever its cells hold, so they are not
      // decoded (most rows of most compactions; a malformed body stays for readers to report).
      stats_->rows_kept++;
      return Decision::kKeep;
    }
    // A row is removed or rewritten only once all of it has been read: a value whose cells do
    // not decode is kept as it is.
    if (!codec_.DecodeCells(existing_value, &meta, &cells_).ok()) {
      stats_->other_entries++;
      return Decision::kKeep;
    }
    if (expired) {
      stats_->rows_expired++;
      return Decision::kRemove;
    }
    if (HoldsDroppedValues(meta) && Rewrite(meta, new_value)) {
      stats_->rows_rewritten++;
      return Decision::kChangeValue;
    }
    stats_->rows_kept++;
    return Decision::kKeep;
  }

  const char* Name() const override { return "columnar.RowCompactionFilter"; }

 private:
  Decision FilterCellRow(const rocksdb::Slice& existing_value, std::string* new_value) const {
    RowVersions row;
    if (!codec_.DecodeVersions(existing_value, &row).ok()) {
      stats_->other_entries++;
      return Decision::kKeep;
    }
    const size_t live_before = LiveParts(row);
    DropExpired(&row, now_seconds_);
    bool changed = LiveParts(row) != live_before;
    const bool purged = PurgeDeletions(&row);
    changed |= purged;
    if (!row.has_liveness && LiveParts(row) == 0 && !HasDeletions(row)) {
      // Nothing left, not even a deletion that hides older writes: the row goes (RocksDB turns
      // the removal into a deletion marker, so no older version resurfaces).
      (purged && live_before == 0 ? stats_->tombstones_purged : stats_->rows_expired)++;
      return Decision::kRemove;
    }
    if (row.schema_version != codec_.schema().version() && has_dropped_columns_) {
      RowVersions current;
      if (RowVersionsAt(codec_, row, codec_.schema().version(), &current).ok()) {
        row = std::move(current);
        changed = true;
      }
    }
    if (changed) {
      new_value->clear();
      if (codec_.EncodeVersions(row, new_value).ok()) {
        stats_->rows_rewritten++;
        return Decision::kChangeValue;
      }
    }
    stats_->rows_kept++;
    return Decision::kKeep;
  }

  // Removes deletions older than gc_grace_seconds (Cassandra's rule): counted from the row's
  // local deletion time (when its latest deletion was made), or, in rows written before that
  // was kept, from each deletion's timestamp. Whether any went.
  bool PurgeDeletions(RowVersions* row) const {
    const bool by_local_time = row->has_local_deletion_time;
    if (by_local_time && row->local_deletion_seconds > now_seconds_ - gc_grace_seconds_) {
      return false;
    }
    const auto purgeable = [&](int64_t time) {
      return by_local_time || time <= purge_before_micros_;
    };
    bool purged = false;
    if (row->has_deletion && purgeable(row->deletion_time_micros)) {
      row->has_deletion = false;
      row->deletion_time_micros = 0;
      purged = true;
    }
    for (CellVersion& version : row->versions) {
      if (version.state == CellState::kDeleted && purgeable(version.write_time_micros)) {
        version = CellVersion();
        purged = true;
      }
    }
    if (!HasDeletions(*row)) {
      row->has_local_deletion_time = false;
      row->local_deletion_seconds = 0;
    }
    return purged;
  }

  // Live cells and liveness.
  static size_t LiveParts(const RowVersions& row) {
    size_t live = row.has_liveness ? 1 : 0;
    for (const CellVersion& version : row.versions) live += version.state == CellState::kLive;
    return live;
  }

  // The row (of an older schema version) has a value in a column dropped since.
  bool HoldsDroppedValues(const RowMetadata& meta) const {
    if (meta.schema_version == codec_.schema().version()) return false;
    for (const RowCell& cell : cells_) {
      if (cell.present && !codec_.schema().columns()[cell.column_id].is_live()) return true;
    }
    return false;
  }

  // The row without the values of dropped columns, at its own schema version: their cells
  // become nulls, which cost a presence bit. Moving the row to the current version instead
  // would give the columns added since then a deleted cell at the row's write time (a format-1
  // row has a cell for every column of its version), hiding older writes to them.
  bool Rewrite(const RowMetadata& meta, std::string* out) const {
    for (RowCell& cell : cells_) {
      if (!codec_.schema().columns()[cell.column_id].is_live()) {
        cell.present = false;
        cell.fixed_bits = 0;
        cell.bytes = Slice();
      }
    }
    out->clear();
    return codec_.EncodeCells(meta, cells_, out).ok();
  }

  RowCodec codec_;
  const int64_t now_seconds_;
  const int64_t gc_grace_seconds_;
  const int64_t purge_before_micros_;
  bool has_dropped_columns_ = false;
  std::shared_ptr<RowCompactionFilterFactory::Stats> stats_;
  mutable std::vector<RowCell> cells_;  // a filter runs on one compaction thread
};

}  // namespace

RowCompactionFilterFactory::RowCompactionFilterFactory(std::shared_ptr<const TableSchema> schema,
                                                       std::function<int64_t()> now_micros)
    : schema_(std::move(schema)), now_micros_(std::move(now_micros)) {}

void RowCompactionFilterFactory::SetSchema(std::shared_ptr<const TableSchema> schema) {
  std::lock_guard<std::mutex> lock(mutex_);
  schema_ = std::move(schema);
}

std::unique_ptr<rocksdb::CompactionFilter> RowCompactionFilterFactory::CreateCompactionFilter(
    const rocksdb::CompactionFilter::Context& /*context*/) {
  std::shared_ptr<const TableSchema> schema;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    schema = schema_;
  }
  return std::make_unique<RowCompactionFilter>(*schema, FloorSeconds(now_micros_()), stats_);
}

}  // namespace columnar
