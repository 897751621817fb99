// The Parquet footer and page headers (parquet.thrift, the fields this writer uses), and their
// Thrift compact serialization (thrift_compact.h). Field ids and enum values are Parquet's.
//
// File layout: "PAR1", then per row group and column a column chunk (an optional dictionary
// page, then data pages, each a PageHeader followed by its possibly compressed body), then the
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

}  // namespace parquet
}  // namespace columnar
