// The Parquet footer and page headers (parquet.thrift, the fields this writer uses), and their
// Thrift compact serialization (thrift_compact.h). Field ids and enum values are Parquet's.
//
// File layout: "PAR1", then per row group and column a column chunk (an optional dictionary
// page, then data pages, each a PageHeader followed by its possibly compressed body), then the
// page indexes (every chunk's ColumnIndex, in row group then column order, then every chunk's
// OffsetIndex, in the same order; each chunk's ColumnChunk points at its two), then the
// FileMetaData, its length (4 bytes LE) and "PAR1".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace columnar {
namespace parquet {

enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};
enum class Repetition : int32_t { kRequired = 0, kOptional = 1 };
enum class ConvertedType : int32_t {
  kUtf8 = 0,
  kDate = 6,
  kTimestampMillis = 9,
  kTimestampMicros = 10,
  kInt32 = 17,
  kInt64 = 18,
};
enum class Encoding : int32_t {
  kPlain = 0,
  kRle = 3,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
};
enum class Codec : int32_t { kUncompressed = 0, kSnappy = 1, kZstd = 6 };
enum class PageType : int32_t { kDataPage = 0, kDictionaryPage = 2 };

// LogicalType union member, with the TimestampType's fields.
struct LogicalAnnotation {
  enum class Kind : uint8_t { kNone, kString, kDate, kTimestamp, kUuid, kInteger };
  Kind kind = Kind::kNone;
  bool timestamp_utc = true;
  bool timestamp_micros = false;  // else millis
  int8_t integer_bits = 32;       // kInteger, signed
};

struct SchemaElement {
  std::string name;
  std::optional<PhysicalType> type;  // unset for the root
  int32_t type_length = 0;           // FIXED_LEN_BYTE_ARRAY only
  std::optional<Repetition> repetition;
  int32_t num_children = -1;  // the root only
  std::optional<ConvertedType> converted_type;
  LogicalAnnotation logical;
};

// Min and max in the plain encoding of the column's type (no length prefix for byte arrays).
struct Statistics {
  int64_t null_count = 0;
  bool has_min_max = false;
  std::string min_value;
  std::string max_value;
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kInt32;
  std::vector<Encoding> encodings;
  std::string path;  // a single top-level column
  Codec codec = Codec::kUncompressed;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;  // pages and their headers
  int64_t total_compressed_size = 0;
  int64_t data_page_offset = 0;
  std::optional<int64_t> dictionary_page_offset;
  Statistics statistics;
  // ColumnChunk fields (not ColumnMetaData's): where the chunk's page indexes are, once the
  // file writer has placed them.
  std::optional<int64_t> offset_index_offset;
  int32_t offset_index_length = 0;
  std::optional<int64_t> column_index_offset;
  int32_t column_index_length = 0;
};

// The page index of one column chunk, so that readers can skip pages.
//
// PageLocation: 1 offset (the page header's file offset), 2 compressed_page_size (header and
// body), 3 first_row_index (within the row group). OffsetIndex: 1 page_locations, data pages
// only (not the dictionary page).
struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;
};
struct OffsetIndex {
  std::vector<PageLocation> page_locations;
};

// ColumnIndex: 1 null_pages (list<bool>, pages without a non-null value), 2 min_values,
// 3 max_values (list<binary>, statistics form, empty for null pages), 4 boundary_order,
// 5 null_counts (list<i64>). One entry per data page, in OffsetIndex order.
enum class BoundaryOrder : int32_t { kUnordered = 0, kAscending = 1, kDescending = 2 };
struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;
  std::vector<int64_t> null_counts;
};

// What a chunk contributes to the page indexes: the column index is left out when a page with
// values has no min / max (only NaNs, or a byte string longer than the statistics limit).
struct ChunkPageIndex {
  std::optional<ColumnIndex> column_index;
  OffsetIndex offset_index;
};

struct RowGroupMetaData {
  std::vector<ColumnMetaData> columns;
  int64_t total_byte_size = 0;  // uncompressed
  int64_t num_rows = 0;
  int64_t file_offset = 0;
  int64_t total_compressed_size = 0;
};

struct FileMetaData {
  std::vector<SchemaElement> schema;  // the root, then one element per column
  int64_t num_rows = 0;
  std::vector<RowGroupMetaData> row_groups;
  std::vector<std::pair<std::string, std::string>> key_value_metadata;
  std::string created_by;
};

struct PageHeader {
  PageType type = PageType::kDataPage;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  Statistics statistics;  // data pages
};

// Thrift compact serializations, appended to *out.
void SerializeFileMetaData(const FileMetaData& metadata, std::string* out);
void SerializePageHeader(const PageHeader& header, std::string* out);
void SerializeColumnIndex(const ColumnIndex& index, std::string* out);
void SerializeOffsetIndex(const OffsetIndex& index, std::string* out);

}  // namespace parquet
}  // namespace columnar
