// ExportParquetOptions: what Table::ExportParquet (table.h) writes. The export reads the
// table's reconciled view at one snapshot (the latest version of every row, deletes applied,
// expired rows left out, as Select returns them) and writes a standard Parquet file
// (table_api/parquet/): one Parquet column per selected CQL column, with its logical type
//
//   boolean -> BOOLEAN               int -> INT32              bigint -> INT64
//   float -> FLOAT                   double -> DOUBLE          date -> INT32 DATE
//   timestamp -> INT64 TIMESTAMP(MILLIS, UTC)                  uuid -> FIXED_LEN_BYTE_ARRAY(16)
//   UUID text, ascii -> BYTE_ARRAY STRING blob -> BYTE_ARRAY
//
// key columns REQUIRED, regular columns OPTIONAL (definition levels for nulls); optionally
// `writetime` (INT64 TIMESTAMP(MICROS, UTC), the row's write time) and `expiry` (INT64
// TIMESTAMP(MILLIS, UTC), when the row expires; null when it does not). The footer's key-value
// metadata holds the CQL schema (columnar.cql_schema: CREATE TABLE text), the table name and
// the snapshot's sequence number.
#pragma once

#include <rocksdb/snapshot.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "table_api/parquet/column_chunk_writer.h"
#include "table_format/value.h"

namespace columnar {

struct ExportParquetOptions {
  // Which rows: every partition (the default); or only these partitions (full partition keys,
  // one Value per partition key column); or the partitions whose encoded key lies in
  // [from_partition, to_partition) (either end optional; encoded order is typed order for a
  // single partition column). `partitions` and the range are exclusive.
  std::vector<std::vector<Value>> partitions;
  std::optional<std::vector<Value>> from_partition;
  std::optional<std::vector<Value>> to_partition;
  // The data as of this snapshot (from db()->GetSnapshot(), released by the caller); null
  // takes one when the export starts, so concurrent writes never leak into the file.
  const rocksdb::Snapshot* snapshot = nullptr;
  // Columns to export, by name; empty = every live column (partition key, clustering, regular).
  std::vector<std::string> columns;
  bool include_writetime = false;  // a `writetime` column
  bool include_expiry = false;     // an `expiry` column
  uint64_t row_group_rows = 122880;
  // A data page ends after page_rows rows or once its values' PLAIN size reaches page_bytes;
  // each page is an entry of the page index (ColumnIndex / OffsetIndex), what readers skip.
  uint32_t page_rows = 8192;
  uint32_t page_bytes = 1 << 20;
  parquet::Compression compression = parquet::Compression::kZstd;
  int zstd_level = 3;
  bool dictionary = true;  // dictionary pages where they are smaller than plain
  // Delta encodings (DELTA_BINARY_PACKED for integers, DELTA_LENGTH_BYTE_ARRAY and
  // DELTA_BYTE_ARRAY for text / blob) as candidates: each column chunk takes the smallest,
  // after compression, of plain, dictionary and these.
  bool delta = true;
  // CSV only: the first line names the columns (cqlsh's COPY TO WITH HEADER = true).
  bool csv_header = true;
};

struct ExportParquetResult {
  uint64_t rows = 0;
  uint64_t bytes = 0;  // the file's size
  uint64_t row_groups = 0;
  uint64_t sequence = 0;  // the snapshot's sequence number
};

// "none" | "snappy" | "zstd" (case-insensitive). InvalidArgument otherwise.
Status ParseParquetCompression(const std::string& name, parquet::Compression* compression);

}  // namespace columnar
