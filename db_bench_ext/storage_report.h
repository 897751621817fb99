// Storage of one table after the load: SST bytes, their breakdown by component, and the
// per-column encoded sizes ColumnarTable files record ("columnar.column_stats": bytes of each
// column's chunks before outer block compression).
#pragma once

#include "db_bench_ext/results.h"
#include "table_api/database.h"

namespace columnar {
namespace bench {

Status MeasureStorage(const Table& table, ConfigResult* result);

// RocksDB's compaction statistics of the column family, in bytes.
void MeasureCompactionBytes(const Table& table, uint64_t* read_bytes, uint64_t* written_bytes);

}  // namespace bench
}  // namespace columnar
