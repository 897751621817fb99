// ColumnChunkWriter: buffers one column's values of a row group and encodes them as a Parquet
// column chunk (parquet_metadata.h has the file layout):
//
//   [dictionary page]  PageHeader + the distinct values, PLAIN, when dictionary encoding is
//                      smaller than plain (never for booleans)
//   data pages         PageHeader + body, `page_rows` rows each; body = definition levels
//                      (optional columns: 4-byte LE length + RLE/bit-packed, bit width 1),
//                      then the non-null values: PLAIN, RLE_DICTIONARY (1 byte bit width +
//                      RLE/bit-packed indices) or, for integers without a dictionary,
//                      DELTA_BINARY_PACKED where smaller than PLAIN (delta_binary_packed.h);
//                      the body is compressed as a whole
//
// Every page header and the chunk carry statistics: null count, and min / max in the column
// type's order (signed integers, IEEE floats without NaN with -0.0 as a zero min and +0.0 as a
// zero max, unsigned bytes for strings, blobs and uuids), omitted when there is no non-NaN
// value or a byte string longer than kMaxStatisticsBytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table_api/parquet/parquet_metadata.h"
#include "table_format/value.h"

namespace columnar {
namespace parquet {

// A column of an exported file, from a CQL type.
struct ColumnSpec {
  std::string name;
  LogicalType type = LogicalType::kText;
  bool required = false;          // key columns: no definition levels
  bool timestamp_micros = false;  // kTimestamp holding microseconds (write times)
};

enum class Compression : uint8_t { kNone, kSnappy, kZstd };

struct ChunkOptions {
  uint32_t page_rows = 8192;
  Compression compression = Compression::kZstd;
  int zstd_level = 3;
  bool dictionary = true;
  // DELTA_BINARY_PACKED pages for integer columns without a dictionary, where smaller.
  bool delta = true;
};

inline constexpr size_t kMaxStatisticsBytes = 256;

// The schema element (physical type, repetition, logical type) of `column`.
SchemaElement SchemaElementFor(const ColumnSpec& column);

class ColumnChunkWriter {
 public:
  ColumnChunkWriter(ColumnSpec column, const ChunkOptions& options);

  // A null (optional columns only) or a value of the column's type.
  void Append(const Value& value);
  uint64_t rows() const { return defined_.size(); }
  // Encodes the buffered rows as a chunk starting at file offset `file_offset`, appends it to
  // *out, fills *metadata, and empties the buffer. IOError when a compressor fails.
  Status Flush(int64_t file_offset, std::string* out, ColumnMetaData* metadata);

 private:
  size_t value_count() const { return is_bytes_ ? ends_.size() : bits_.size(); }
  Slice BytesAt(size_t i) const;
  void AppendPlain(size_t i, std::string* out) const;
  void AppendPlainRange(size_t begin, size_t end, std::string* out) const;
  // Negative, zero or positive: value i against value j in the statistics order.
  int Compare(size_t i, size_t j) const;
  bool IsNaN(size_t i) const;
  Statistics StatisticsOf(size_t begin, size_t end, int64_t null_count) const;
  // Dictionary indices of every value and the distinct values in order of appearance, or
  // false when plain encoding is smaller.
  bool BuildDictionary(std::vector<uint32_t>* indices, std::vector<size_t>* distinct) const;
  Status AppendPage(const PageHeader& header_template, const std::string& body, std::string* out,
                    ColumnMetaData* metadata) const;

  const ColumnSpec column_;
  const ChunkOptions options_;
  const SchemaElement element_;
  const bool is_bytes_;
  std::vector<uint8_t> defined_;  // per row
  std::vector<uint64_t> bits_;    // fixed-width values (non-null only)
  std::string bytes_;             // byte strings, concatenated
  std::vector<uint32_t> ends_;    // end offset of each byte string in bytes_
};

}  // namespace parquet
}  // namespace columnar
