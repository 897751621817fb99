#include "table_format/cell_reconcile.h"

#include <algorithm>
#include <cstring>

namespace columnar {
namespace {

// Cell i of `row` becomes absent (no version, no value).
void ClearCell(size_t i, RowVersions* row) {
  row->versions[i] = CellVersion();
  row->cells[i].present = false;
  row->cells[i].bytes = Slice();
  row->cells[i].fixed_bits = 0;
}

int Sign(bool a_greater, bool b_greater) { return a_greater ? 1 : (b_greater ? -1 : 0); }

template <typename T>
int Compare3(T a, T b) {
  return Sign(a > b, b > a);
}

}  // namespace

int CompareSerializedValues(const RowCell& a, const RowCell& b) {
  if (a.type == LogicalType::kUuid || IsBytesType(a.type)) {
    const size_t common = std::min(a.bytes.size(), b.bytes.size());
    const int c = common == 0 ? 0 : std::memcmp(a.bytes.data(), b.bytes.data(), common);
    if (c != 0) return c > 0 ? 1 : -1;
    return Compare3(a.bytes.size(), b.bytes.size());
  }
  // Same width: big-endian bytes compare as the unsigned bit patterns.
  return Compare3(a.fixed_bits, b.fixed_bits);
}

int CompareCellVersions(const CellCandidate& a, const CellCandidate& b) {
  const CellVersion& x = a.version;
  const CellVersion& y = b.version;
  const bool x_exists = x.state != CellState::kAbsent;
  const bool y_exists = y.state != CellState::kAbsent;
  if (!x_exists || !y_exists) return Compare3(x_exists, y_exists);
  // 1. The higher write timestamp.
  if (int c = Compare3(x.write_time_micros, y.write_time_micros)) return c;
  // 2. A deletion beats a live cell.
  const bool x_deleted = x.state == CellState::kDeleted;
  const bool y_deleted = y.state == CellState::kDeleted;
  if (x_deleted != y_deleted) return Compare3(x_deleted, y_deleted);
  if (x_deleted) {
    // Two deletions (this store's choice, deletions written with a TTL expire): the one that
    // lasts longer, so the result does not depend on the order.
    if (int c = Compare3(!x.has_expiry, !y.has_expiry)) return c;
    return x.has_expiry ? Compare3(x.expiry_seconds, y.expiry_seconds) : 0;
  }
  // 3. Both live: expiring beats non-expiring, later expiry, larger TTL, greater value.
  if (int c = Compare3(x.has_expiry, y.has_expiry)) return c;
  if (x.has_expiry) {
    if (int c = Compare3(x.expiry_seconds, y.expiry_seconds)) return c;
    if (int c = Compare3(a.ttl_seconds, b.ttl_seconds)) return c;
  }
  return CompareSerializedValues(a.value, b.value);
}

int CompareLiveness(const RowLiveness& a, const RowLiveness& b) {
  if (int c = Compare3(a.write_time_micros, b.write_time_micros)) return c;
  if (int c = Compare3(a.has_expiry, b.has_expiry)) return c;
  return a.has_expiry ? Compare3(a.expiry_seconds, b.expiry_seconds) : 0;
}

Status MergeRowVersions(const RowVersions& a, const RowVersions& b, RowVersions* out) {
  if (a.schema_version != b.schema_version || a.cells.size() != b.cells.size() ||
      a.versions.size() != a.cells.size() || b.versions.size() != b.cells.size()) {
    return Status::InvalidArgument("rows to merge have different layouts");
  }
  RowVersions merged;
  merged.schema_version = a.schema_version;
  merged.has_deletion = a.has_deletion || b.has_deletion;
  merged.deletion_time_micros =
      a.has_deletion && b.has_deletion
          ? std::max(a.deletion_time_micros, b.deletion_time_micros)
          : (a.has_deletion ? a.deletion_time_micros : b.deletion_time_micros);
  merged.has_local_deletion_time = a.has_local_deletion_time || b.has_local_deletion_time;
  merged.local_deletion_seconds =
      std::max(a.has_local_deletion_time ? a.local_deletion_seconds : INT64_MIN,
               b.has_local_deletion_time ? b.local_deletion_seconds : INT64_MIN);
  if (!merged.has_local_deletion_time) merged.local_deletion_seconds = 0;
  const auto hidden = [&](int64_t time) {
    return merged.has_deletion && time <= merged.deletion_time_micros;
  };
  if (a.has_liveness || b.has_liveness) {
    const RowLiveness& winner =
        !b.has_liveness || (a.has_liveness && CompareLiveness(a.liveness, b.liveness) >= 0)
            ? a.liveness
            : b.liveness;
    if (!hidden(winner.write_time_micros)) {
      merged.has_liveness = true;
      merged.liveness = winner;
    }
  }
  merged.cells.resize(a.cells.size());
  merged.versions.resize(a.cells.size());
  for (size_t i = 0; i < a.cells.size(); i++) {
    if (a.cells[i].column_id != b.cells[i].column_id) {
      return Status::InvalidArgument("rows to merge have different columns");
    }
    const CellCandidate x{a.versions[i], a.cells[i]};
    const CellCandidate y{b.versions[i], b.cells[i]};
    const CellCandidate& winner = CompareCellVersions(x, y) >= 0 ? x : y;
    merged.cells[i] = winner.value;
    merged.versions[i] = winner.version;
    if (winner.version.state != CellState::kAbsent && hidden(winner.version.write_time_micros)) {
      ClearCell(i, &merged);
    }
  }
  *out = std::move(merged);
  return Status::OK();
}

Status RowVersionsAt(const RowCodec& codec, const RowVersions& row, uint32_t version,
                     RowVersions* out) {
  const std::vector<uint32_t>* ids = codec.ColumnsAt(version);
  if (ids == nullptr) return Status::InvalidArgument("unknown schema version");
  RowVersions converted;
  converted.schema_version = version;
  converted.has_liveness = row.has_liveness;
  converted.liveness = row.liveness;
  converted.has_deletion = row.has_deletion;
  converted.deletion_time_micros = row.deletion_time_micros;
  converted.has_local_deletion_time = row.has_local_deletion_time;
  converted.local_deletion_seconds = row.local_deletion_seconds;
  converted.cells.resize(ids->size());
  converted.versions.resize(ids->size());
  size_t from = 0;
  for (size_t i = 0; i < ids->size(); i++) {
    RowCell& cell = converted.cells[i];
    cell.column_id = (*ids)[i];
    cell.type = codec.schema().columns()[cell.column_id].type;
    // Both lists are in column-id order.
    while (from < row.cells.size() && row.cells[from].column_id < cell.column_id) from++;
    if (from < row.cells.size() && row.cells[from].column_id == cell.column_id) {
      cell = row.cells[from];
      converted.versions[i] = row.versions[from];
    }
  }
  *out = std::move(converted);
  return Status::OK();
}

void DropExpired(RowVersions* row, int64_t now_seconds) {
  if (now_seconds < 0) return;
  const uint64_t now = static_cast<uint64_t>(now_seconds);
  if (row->has_liveness && row->liveness.has_expiry && row->liveness.expiry_seconds <= now) {
    row->has_liveness = false;
    row->liveness = RowLiveness();
  }
  for (size_t i = 0; i < row->versions.size(); i++) {
    CellVersion& version = row->versions[i];
    if (version.state != CellState::kAbsent && version.has_expiry &&
        version.expiry_seconds <= now) {
      ClearCell(i, row);
    }
  }
}

void HideWrittenAtOrBefore(int64_t time_micros, RowVersions* row) {
  if (row->has_liveness && row->liveness.write_time_micros <= time_micros) {
    row->has_liveness = false;
    row->liveness = RowLiveness();
  }
  if (row->has_deletion && row->deletion_time_micros <= time_micros) {
    row->has_deletion = false;
    row->deletion_time_micros = 0;
  }
  for (size_t i = 0; i < row->versions.size(); i++) {
    CellVersion& version = row->versions[i];
    if (version.state != CellState::kAbsent && version.write_time_micros <= time_micros) {
      ClearCell(i, row);
    }
  }
}

bool IsEmptyRow(const RowVersions& row) {
  if (row.has_liveness || row.has_deletion) return false;
  for (const CellVersion& version : row.versions) {
    if (version.state != CellState::kAbsent) return false;
  }
  return true;
}

bool CellLiveAt(const CellVersion& version, int64_t now_seconds) {
  if (version.state != CellState::kLive) return false;
  return !version.has_expiry || now_seconds < 0 ||
         version.expiry_seconds > static_cast<uint64_t>(now_seconds);
}

bool RowVisibleAt(const RowVersions& row, const TableSchema& schema, int64_t now_seconds) {
  if (row.has_liveness && (!row.liveness.has_expiry || now_seconds < 0 ||
                           row.liveness.expiry_seconds > static_cast<uint64_t>(now_seconds))) {
    return true;
  }
  for (size_t i = 0; i < row.versions.size(); i++) {
    const uint32_t id = row.cells[i].column_id;
    if (id < schema.columns().size() && schema.columns()[id].is_live() &&
        CellLiveAt(row.versions[i], now_seconds)) {
      return true;
    }
  }
  return false;
}

}  // namespace columnar
