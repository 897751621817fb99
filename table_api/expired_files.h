// Whole-file expiry: the RocksDB form of the source documents' time-window expiry. Files whose
// every row has expired are removed without being read or rewritten.
//
// Mechanism: DB::DeleteFile of each such file, by its file number, with background work
// (flushes, compactions) paused while the file set is inspected and changed.
//
// Why it is safe:
//   - a candidate file holds nothing but Puts of rows whose expiry is <= now
//     (row_expiry_properties.h). Expired rows are invisible to every read -- the Table API
//     hides them whatever the snapshot, since expiry is judged by the clock -- so removing
//     them changes no result, provided no older version of their keys becomes visible;
//   - its largest sequence number is 0. RocksDB zeroes sequence numbers only in bottommost
//     output, for keys no snapshot distinguishes, so nothing older than these rows exists
//     below them: no older version can resurface;
//   - only the judged files are deleted, by number: DeleteFile removes exactly that file (if
//     it is still live, in the last non-empty level and not being compacted; RocksDB checks
//     this under its mutex). Pausing background work does not stop IngestExternalFile, so a
//     file may be ingested between the inspection and the deletion, even inside a
//     candidate's key range; deleting by key range (DeleteFilesInRanges) would delete it
//     with the candidate, deleting by number never touches it. Late writes into a
//     candidate's range are newer (memtable or other files) and likewise untouched;
//   - conservatively, a candidate is used only when every file lying inside its key range is
//     itself a candidate, and L0 files are never deleted;
//   - readers that still hold the old file set keep the files until they finish.
#pragma once

#include <rocksdb/db.h>

#include <cstdint>
#include <functional>

#include "table_format/types.h"

namespace columnar {

struct ExpiredFilesResult {
  uint64_t files = 0;
  uint64_t bytes = 0;
};

// `after_inspection` (tests): runs once the files are judged, before any is deleted.
Status DropExpiredFiles(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                        int64_t now_seconds, ExpiredFilesResult* result,
                        const std::function<void()>& after_inspection = nullptr);

}  // namespace columnar
