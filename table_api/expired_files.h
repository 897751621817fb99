// Whole-file expiry: the RocksDB form of the source documents' time-window expiry. Files whose
// every row has expired are removed without being read or rewritten.
//
// Mechanism: DB::DeleteFilesInRanges over each such file's key range, with background work
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
//   - late writes into the file's key range are newer (memtable or other files) and are
//     untouched: DeleteFilesInRanges deletes every file lying inside the range, so a range is
//     used only when every file inside it is itself a candidate; L0 files are never deleted
//     by it (they may overlap anything), and files being compacted are skipped;
//   - readers that still hold the old file set keep the files until they finish.
#pragma once

#include <rocksdb/db.h>

#include <cstdint>

#include "table_format/types.h"

namespace columnar {

struct ExpiredFilesResult {
  uint64_t files = 0;
  uint64_t bytes = 0;
};

Status DropExpiredFiles(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                        int64_t now_seconds, ExpiredFilesResult* result);

}  // namespace columnar
