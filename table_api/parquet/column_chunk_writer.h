// ColumnChunkWriter: buffers one column's values of a row group and encodes them as a Parquet
// column chunk (parquet_metadata.h has the file layout):
//
//   [dictionary page]  PageHeader + the distinct values, PLAIN, when the chunk's values are
//                      dictionary encoded (never for booleans)
//   data pages         PageHeader + body; a page ends after `page_rows` rows or once its values
//                      reach `page_bytes` (PLAIN size), so that the page index can skip pages.
//                      Body = definition levels (optional columns: 4-byte LE length +
//                      RLE/bit-packed, bit width 1), then the non-null values in the chunk's
//                      value encoding; the body is compressed as a whole
//
// The value encoding is chosen per chunk: the smallest, after compression, of PLAIN,
// RLE_DICTIONARY (1 byte bit width + RLE/bit-packed indices, with the dictionary page), and
// the delta encodings of the type: DELTA_BINARY_PACKED for INT32 / INT64
// (delta_binary_packed.h), DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY for BYTE_ARRAY
// (delta_byte_array.h). Pages without values are PLAIN (an empty body after the levels).
//
// Every page header and the chunk carry statistics: null count, and min / max in the column
// type's order (signed integers, IEEE floats without NaN with -0.0 as a zero min and +0.0 as a
// zero max, unsigned bytes for strings, blobs and uuids), omitted when there is no non-NaN
// value or a byte string longer than kMaxStatisticsBytes. The same per-page statistics, with
// each page's location, make the chunk's page index (ChunkPageIndex).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
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
  // A data page ends once its values' PLAIN size reaches this many bytes.
  uint32_t page_bytes = 1 << 20;
  Compression compression = Compression::kZstd;
  int zstd_level = 3;
  bool dictionary = true;
  // Delta encodings (DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY) as
  // candidates for the chunk's value encoding.
  bool delta = true;
};

inline constexpr size_t kMaxStatisticsBytes = 256;

// How a chunk's non-null values are encoded in its data pages.
enum class ValueEncoding : uint8_t {
  kPlain,
  kDictionary,
  kDeltaBinaryPacked,
  kDeltaLengthByteArray,
  kDeltaByteArray,
};

// The schema element (physical type, repetition, logical type) of `column`.
SchemaElement SchemaElementFor(const ColumnSpec& column);

class ColumnChunkWriter {
 public:
  ColumnChunkWriter(ColumnSpec column, const ChunkOptions& options);

  // A null (optional columns only) or a value of the column's type.
  void Append(const Value& value);
  uint64_t rows() const { return defined_.size(); }
  // Encodes the buffered rows as a chunk starting at file offset `file_offset`, appends it to
  // *out, fills *metadata and *page_index (page offsets are file offsets), and empties the
  // buffer. IOError when a compressor fails.
  Status Flush(int64_t file_offset, std::string* out, ColumnMetaData* metadata,
               ChunkPageIndex* page_index);
  // The value encoding the last Flush chose.
  ValueEncoding last_encoding() const { return last_encoding_; }

 private:
  size_t value_count() const { return is_bytes_ ? ends_.size() : bits_.size(); }
  Slice BytesAt(size_t i) const;
  void AppendPlain(size_t i, std::string* out) const;
  void AppendPlainRange(size_t begin, size_t end, std::string* out) const;
  // Negative, zero or positive: value i against value j in the statistics order.
  int Compare(size_t i, size_t j) const;
  bool IsNaN(size_t i) const;
  // The positions of the min and max of values [begin, end), or false when they have no
  // statistics (no non-NaN value, or a byte string too long).
  bool MinMaxOf(size_t begin, size_t end, size_t* min, size_t* max) const;
  Statistics StatisticsOf(size_t begin, size_t end, int64_t null_count) const;
  // Dictionary indices of every value and the distinct values in order of appearance, or
  // false when dictionaries are off, for booleans, or when no value repeats.
  bool BuildDictionary(std::vector<uint32_t>* indices, std::vector<size_t>* distinct) const;
  // The row index after each data page.
  std::vector<size_t> PageRowEnds() const;
  // Appends values [begin, end) in `encoding` (kDictionary: the bit width byte and the
  // indices).
  void AppendValues(ValueEncoding encoding, size_t begin, size_t end,
                    const std::vector<uint32_t>& indices, int index_width, std::string* out) const;
  // Ascending / descending when every page's min and max (value positions, pages with values)
  // are ordered so, else unordered.
  BoundaryOrder BoundaryOrderOf(const std::vector<std::pair<size_t, size_t>>& page_min_max) const;
  // The candidate whose values (and dictionary) are smallest after compression.
  Status ChooseEncoding(bool has_dictionary, const std::vector<uint32_t>& indices,
                        const std::vector<size_t>& distinct, ValueEncoding* encoding) const;
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
  ValueEncoding last_encoding_ = ValueEncoding::kPlain;
};

}  // namespace parquet
}  // namespace columnar
