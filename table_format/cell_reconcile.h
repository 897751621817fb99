// Cassandra's reconciliation of cell versions (per column: which of two writes wins, whatever
// their arrival order) and its application to whole rows with per-cell metadata (row_codec.h).
//
// The rule (Cassandra's Cells.reconcile as changed by CASSANDRA-14592; ScyllaDB matches it):
//   1. the higher write timestamp wins;
//   2. equal timestamps, one a deletion: the deletion wins;
//   3. equal timestamps, both live: an expiring cell beats one that does not expire; between
//      two expiring cells the later expiry wins, then the larger TTL; only then the greater
//      value, compared as Cassandra serializes it (unsigned bytes; big-endian for fixed-width
//      types, so the same order as the unsigned bit patterns).
// A row deletion at time t hides every cell and the row liveness written at or before t.
// This store's additions: a deletion written with a TTL (a null in an INSERT or UPDATE USING
// TTL) expires with it, and between two deletions of one timestamp the longer-lasting wins.
//
// The rule is a total order on versions, so merging is commutative and associative: stored
// rows and new writes can be combined in any order (read-modify-write, compaction, replay) and
// give the same row.
#pragma once

#include <cstdint>

#include "table_format/row_codec.h"

namespace columnar {

// One version of a cell with its value (value.present iff version.state == kLive).
struct CellCandidate {
  CellVersion version;
  RowCell value;
  // The cell's TTL in seconds, when known (0 = none or unknown). Rows stored by the row codec
  // keep only the expiry, so stored cells compare with 0 here (see docs/cell_semantics.md).
  int64_t ttl_seconds = 0;
};

// > 0 when `a` wins over `b`, < 0 when `b` wins, 0 when they are the same version (same
// state, time, expiry, TTL and value). A cell that does not exist (kAbsent) loses to any cell.
int CompareCellVersions(const CellCandidate& a, const CellCandidate& b);

// Which value bytes are greater as Cassandra serializes them; same type required.
int CompareSerializedValues(const RowCell& a, const RowCell& b);

// Liveness: the higher timestamp wins; equal: expiring wins, then the later expiry.
int CompareLiveness(const RowLiveness& a, const RowLiveness& b);

// Combines two versions of one row, both at the same schema version: per cell the winner of
// CompareCellVersions, the winning liveness, the later deletion; then cells and liveness at or
// below the deletion time are dropped. Cell values in *out point where the winners' did.
// InvalidArgument when the rows do not have the same layout.
Status MergeRowVersions(const RowVersions& a, const RowVersions& b, RowVersions* out);

// `row` (decoded by `codec` at any version) laid out at `version` (same codec): columns that
// version holds and `row` does not have no cell; columns `row` holds that `version` does not
// are dropped.
Status RowVersionsAt(const RowCodec& codec, const RowVersions& row, uint32_t version,
                     RowVersions* out);

// Removes what has expired at `now_seconds` (cells and deletions become absent, the liveness
// goes): on one node expired data is purged, so it neither shows nor shadows older writes.
void DropExpired(RowVersions* row, int64_t now_seconds);

// What a partition deletion at `time_micros` does to one of its rows: cells (live or deleted)
// and the liveness written at or before it go, and so does a row deletion at or before it.
void HideWrittenAtOrBefore(int64_t time_micros, RowVersions* row);
// Whether the row holds nothing: no liveness, no deletion, no cell.
bool IsEmptyRow(const RowVersions& row);

// Whether a live cell is still live at `now_seconds` (not expired).
bool CellLiveAt(const CellVersion& version, int64_t now_seconds);
// Whether the row is returned by reads at `now_seconds`: its liveness has not expired, or some
// cell of a column `schema` still has is live (Cassandra: a row written only by UPDATEs
// disappears once its cells are gone, also when they go with a dropped column).
bool RowVisibleAt(const RowVersions& row, const TableSchema& schema, int64_t now_seconds);

}  // namespace columnar
