// Row writes of the Table API: the per-write options (write time, TTL or expiry), what a write
// names (Cassandra's INSERT / UPDATE / DELETE of cells or of the row), and the validation and
// encoding of one row into its RocksDB key and value.
//
// Semantics are Cassandra's, per cell (docs/cell_semantics.md): a write sets the cells it names
// (a null value deletes the cell) at its write timestamp, other cells keep theirs, and per
// cell the higher timestamp wins whatever the arrival order (ties as table_format/
// cell_reconcile.h breaks them). A whole-row INSERT names every regular column.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "table_format/row_codec.h"
#include "table_format/schema.h"
#include "table_format/value.h"

namespace columnar {

struct RowWriteOptions {
  // Microseconds since the epoch; unset = the database clock's now.
  std::optional<int64_t> write_time_micros;
  // Seconds to live from the clock's now (0 = never expires, overriding the table's
  // default_time_to_live, as CQL's USING TTL 0). At most kMaxTimeToLiveSeconds.
  std::optional<int64_t> ttl_seconds;
  // Absolute expiry in seconds since the epoch (the row is expired once now >= expiry).
  // Exclusive with ttl_seconds. With neither, the table's default_time_to_live applies.
  std::optional<int64_t> expiry_seconds;
};

// A row by column name: the primary key columns, and the regular columns a write names (a null
// value deletes that cell; columns left out keep their cells).
using NamedRow = std::map<std::string, Value>;

// Which CQL statement a write is.
enum class WriteKind : uint8_t {
  kInsert,       // writes the named cells and the row liveness (the row exists until deleted)
  kUpdate,       // writes the named cells only (the row disappears once they are all gone)
  kDeleteCells,  // deletes the named cells (values must be null)
  kDeleteRow,    // deletes the row: hides every cell written at or before its timestamp
};

// A row aligned with the schema: values indexed by column id (TableSchema::columns(), dropped
// columns included; entries of dropped columns must be null, missing trailing entries are
// null), with its write options.
struct RowWrite {
  RowWrite(Row row_values, RowWriteOptions write_options = RowWriteOptions())
      : values(std::move(row_values)), options(std::move(write_options)) {}

  Row values;
  RowWriteOptions options;
  WriteKind kind = WriteKind::kInsert;
  // The regular columns the write names, by column id (true = named). Empty: every regular
  // column (a whole-row INSERT; unset values delete their cells), the ingestion fast path.
  std::vector<bool> named;
};

// A row holding these primary key values, nulls elsewhere. InvalidArgument when the counts do
// not match the schema's key.
Status KeyRow(const TableSchema& schema, const std::vector<Value>& partition_key,
              const std::vector<Value>& clustering_key, Row* row);

// Whether `write` names every live regular column of `schema`.
bool NamesEveryColumn(const TableSchema& schema, const RowWrite& write);

// Resolves names to column ids. InvalidArgument naming the column for an unknown (or
// dropped) column.
Status RowFromNamedRow(const TableSchema& schema, const NamedRow& named, Row* row);

// The largest row (encoded key + value) the Table API writes. A ColumnarTable chunk or data
// block holds at most 1 GiB (table_format/chunk.h, data_block.h): a larger value would be
// accepted by RocksDB and only fail when a flush writes it, a background error that leaves
// the database read-only. Rows up to this size fit with room for the rest of their row group
// and block; the limit applies to every table format, so that the format never decides
// whether a write is accepted.
inline constexpr size_t kMaxRowBytes = size_t{256} << 20;

// The RocksDB key and value of `row` written with `options` at clock reading `now_micros`.
// InvalidArgument (naming the column or option) when a key column is missing or null, a value
// has the wrong type or is malformed, a dropped column has a value, the row is longer than
// the schema, the TTL/expiry options are invalid, or the encoded row is larger than
// kMaxRowBytes.
Status EncodeRowWrite(const RowCodec& codec, const Row& row, const RowWriteOptions& options,
                      int64_t now_micros, std::string* key, std::string* value);

// The cells `write` sets, as a row version at the codec's current schema version (cell
// values point into write.values), with its RocksDB key: every write of the statement's kind
// at `timestamp`, TTLs from `now_micros`. InvalidArgument as EncodeRowWrite, and for a TTL on
// a deletion or a value in a cell deletion.
Status BuildRowVersions(const RowCodec& codec, const RowWrite& write, int64_t timestamp,
                        int64_t now_micros, std::string* key, RowVersions* versions);
// Records `now_micros` as the time the row's deletions (if any) were made on this node:
// gc_grace_seconds counts from it.
void StampLocalDeletionTime(int64_t now_micros, RowVersions* row);

// Seconds since the epoch for a clock reading in microseconds (rounded down).
int64_t MicrosToSeconds(int64_t micros);

}  // namespace columnar
