#include "table_api/parquet/column_chunk_writer.h"

#include <snappy-c.h>
#include <zstd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "table_api/parquet/delta_binary_packed.h"
#include "table_api/parquet/delta_byte_array.h"
#include "table_api/parquet/rle_hybrid.h"
#include "table_format/frozen_type.h"

namespace columnar {
namespace parquet {
namespace {

void AppendLittleEndian(uint64_t value, size_t bytes, std::string* out) {
  for (size_t b = 0; b < bytes; b++) out->push_back(static_cast<char>((value >> (8 * b)) & 0xFF));
}

Status Compress(const ChunkOptions& options, const std::string& in, std::string* out) {
  switch (options.compression) {
    case Compression::kNone:
      *out = in;
      return Status::OK();
    case Compression::kZstd: {
      out->resize(ZSTD_compressBound(in.size()));
      const size_t n =
          ZSTD_compress(out->data(), out->size(), in.data(), in.size(), options.zstd_level);
      if (ZSTD_isError(n)) return Status::IOError("zstd: ", ZSTD_getErrorName(n));
      out->resize(n);
      return Status::OK();
    }
    case Compression::kSnappy: {
      size_t n = snappy_max_compressed_length(in.size());
      out->resize(n);
      if (snappy_compress(in.data(), in.size(), out->data(), &n) != SNAPPY_OK) {
        return Status::IOError("snappy compression failed");
      }
      out->resize(n);
      return Status::OK();
    }
  }
  return Status::InvalidArgument("unknown compression");
}

Encoding EncodingOf(ValueEncoding encoding) {
  switch (encoding) {
    case ValueEncoding::kDictionary:
      return Encoding::kRleDictionary;
    case ValueEncoding::kDeltaBinaryPacked:
      return Encoding::kDeltaBinaryPacked;
    case ValueEncoding::kDeltaLengthByteArray:
      return Encoding::kDeltaLengthByteArray;
    case ValueEncoding::kDeltaByteArray:
      return Encoding::kDeltaByteArray;
    case ValueEncoding::kPlain:
      break;
  }
  return Encoding::kPlain;
}

Codec CodecOf(Compression compression) {
  switch (compression) {
    case Compression::kSnappy:
      return Codec::kSnappy;
    case Compression::kZstd:
      return Codec::kZstd;
    case Compression::kNone:
      break;
  }
  return Codec::kUncompressed;
}

// How many values of a chunk the encoding candidates are tried on: enough for the compressor
// to see the data's redundancy, few enough to keep the choice a fraction of the export.
constexpr size_t kEncodingSampleValues = 1024;

}  // namespace

SchemaElement SchemaElementFor(const ColumnSpec& column) {
  using Kind = LogicalAnnotation::Kind;
  SchemaElement element;
  element.name = column.name;
  element.repetition = column.required ? Repetition::kRequired : Repetition::kOptional;
  switch (column.type) {
    case LogicalType::kBoolean:
      element.type = PhysicalType::kBoolean;
      break;
    case LogicalType::kInt:
      element.type = PhysicalType::kInt32;
      break;
    case LogicalType::kBigInt:
      element.type = PhysicalType::kInt64;
      break;
    case LogicalType::kFloat:
      element.type = PhysicalType::kFloat;
      break;
    case LogicalType::kDouble:
      element.type = PhysicalType::kDouble;
      break;
    case LogicalType::kTimestamp:
      element.type = PhysicalType::kInt64;
      element.converted_type = column.timestamp_micros ? ConvertedType::kTimestampMicros
                                                       : ConvertedType::kTimestampMillis;
      element.logical.kind = Kind::kTimestamp;
      element.logical.timestamp_micros = column.timestamp_micros;
      break;
    case LogicalType::kDate:
      element.type = PhysicalType::kInt32;
      element.converted_type = ConvertedType::kDate;
      element.logical.kind = Kind::kDate;
      break;
    case LogicalType::kText:
    case LogicalType::kAscii:
      element.type = PhysicalType::kByteArray;
      element.converted_type = ConvertedType::kUtf8;
      element.logical.kind = Kind::kString;
      break;
    case LogicalType::kBlob:
      element.type = PhysicalType::kByteArray;
      break;
    case LogicalType::kUuid:
      element.type = PhysicalType::kFixedLenByteArray;
      element.type_length = 16;
      element.logical.kind = Kind::kUuid;
      break;
    default:
      // Frozen collections and tuples: their CQL literal as a UTF8 string (Append).
      element.type = PhysicalType::kByteArray;
      element.converted_type = ConvertedType::kUtf8;
      element.logical.kind = Kind::kString;
      break;
  }
  return element;
}

ColumnChunkWriter::ColumnChunkWriter(ColumnSpec column, const ChunkOptions& options)
    : column_(std::move(column)),
      options_(options),
      element_(SchemaElementFor(column_)),
      is_bytes_(IsBytesType(column_.type)) {}

void ColumnChunkWriter::Append(const Value& value) {
  defined_.push_back(value.is_null() ? 0 : 1);
  if (value.is_null()) return;
  if (IsFrozenType(column_.type)) {
    bytes_.append(value.ToCqlLiteral());
    ends_.push_back(static_cast<uint32_t>(bytes_.size()));
  } else if (is_bytes_) {
    bytes_.append(value.bytes());
    ends_.push_back(static_cast<uint32_t>(bytes_.size()));
  } else {
    bits_.push_back(value.FixedBits());
  }
}

Slice ColumnChunkWriter::BytesAt(size_t i) const {
  const uint32_t begin = i == 0 ? 0 : ends_[i - 1];
  return Slice(bytes_.data() + begin, ends_[i] - begin);
}

// PLAIN: booleans are handled by AppendPlainRange (bit-packed); fixed widths little-endian;
// BYTE_ARRAY a 4-byte LE length then the bytes; FIXED_LEN_BYTE_ARRAY the bytes.
void ColumnChunkWriter::AppendPlain(size_t i, std::string* out) const {
  switch (*element_.type) {
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      AppendLittleEndian(bits_[i], 4, out);
      break;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      AppendLittleEndian(bits_[i], 8, out);
      break;
    case PhysicalType::kByteArray:
      AppendLittleEndian(BytesAt(i).size(), 4, out);
      out->append(BytesAt(i).data(), BytesAt(i).size());
      break;
    case PhysicalType::kFixedLenByteArray:
      out->append(BytesAt(i).data(), BytesAt(i).size());
      break;
    case PhysicalType::kBoolean:
      out->push_back(static_cast<char>(bits_[i] != 0));  // statistics form: one byte
      break;
  }
}

void ColumnChunkWriter::AppendPlainRange(size_t begin, size_t end, std::string* out) const {
  if (element_.type != PhysicalType::kBoolean) {
    for (size_t i = begin; i < end; i++) AppendPlain(i, out);
    return;
  }
  uint8_t byte = 0;
  for (size_t i = begin; i < end; i++) {
    if (bits_[i] != 0) byte |= static_cast<uint8_t>(1u << ((i - begin) % 8));
    if ((i - begin) % 8 == 7) {
      out->push_back(static_cast<char>(byte));
      byte = 0;
    }
  }
  if ((end - begin) % 8 != 0) out->push_back(static_cast<char>(byte));
}

bool ColumnChunkWriter::IsNaN(size_t i) const {
  if (column_.type == LogicalType::kFloat) {
    float f;
    const auto bits = static_cast<uint32_t>(bits_[i]);
    std::memcpy(&f, &bits, 4);
    return std::isnan(f);
  }
  if (column_.type == LogicalType::kDouble) {
    double d;
    std::memcpy(&d, &bits_[i], 8);
    return std::isnan(d);
  }
  return false;
}

int ColumnChunkWriter::Compare(size_t i, size_t j) const {
  if (is_bytes_) return BytesAt(i).compare(BytesAt(j));
  switch (*element_.type) {
    case PhysicalType::kBoolean:
      return static_cast<int>(bits_[i] != 0) - static_cast<int>(bits_[j] != 0);
    case PhysicalType::kInt32: {
      const auto a = static_cast<int32_t>(bits_[i]), b = static_cast<int32_t>(bits_[j]);
      return a < b ? -1 : (a > b ? 1 : 0);
    }
    case PhysicalType::kInt64: {
      const auto a = static_cast<int64_t>(bits_[i]), b = static_cast<int64_t>(bits_[j]);
      return a < b ? -1 : (a > b ? 1 : 0);
    }
    case PhysicalType::kFloat: {
      float a, b;
      const auto x = static_cast<uint32_t>(bits_[i]), y = static_cast<uint32_t>(bits_[j]);
      std::memcpy(&a, &x, 4);
      std::memcpy(&b, &y, 4);
      return a < b ? -1 : (a > b ? 1 : 0);
    }
    case PhysicalType::kDouble: {
      double a, b;
      std::memcpy(&a, &bits_[i], 8);
      std::memcpy(&b, &bits_[j], 8);
      return a < b ? -1 : (a > b ? 1 : 0);
    }
    default:
      return 0;
  }
}

bool ColumnChunkWriter::MinMaxOf(size_t begin, size_t end, size_t* min, size_t* max) const {
  *min = end;
  *max = end;
  for (size_t i = begin; i < end; i++) {
    if (IsNaN(i)) continue;
    if (is_bytes_ && BytesAt(i).size() > kMaxStatisticsBytes) return false;
    if (*min == end || Compare(i, *min) < 0) *min = i;
    if (*max == end || Compare(i, *max) > 0) *max = i;
  }
  return *min != end;
}

Statistics ColumnChunkWriter::StatisticsOf(size_t begin, size_t end, int64_t null_count) const {
  Statistics stats;
  stats.null_count = null_count;
  size_t min, max;
  if (!MinMaxOf(begin, end, &min, &max)) return stats;
  stats.has_min_max = true;
  AppendPlain(min, &stats.min_value);
  AppendPlain(max, &stats.max_value);
  if (element_.type == PhysicalType::kByteArray) {  // no length prefix in statistics
    stats.min_value.erase(0, 4);
    stats.max_value.erase(0, 4);
  }
  // Zeros: the min is written as -0.0 and the max as +0.0 (the Parquet rule), since the
  // chunk may hold both.
  const bool is_float = column_.type == LogicalType::kFloat;
  if (is_float || column_.type == LogicalType::kDouble) {
    const size_t width = is_float ? 4 : 8;
    const uint64_t sign = is_float ? (uint64_t{1} << 31) : (uint64_t{1} << 63);
    const uint64_t mask = is_float ? 0x7FFFFFFFu : ~sign;
    if ((bits_[min] & mask) == 0) {
      stats.min_value.clear();
      AppendLittleEndian(sign, width, &stats.min_value);
    }
    if ((bits_[max] & mask) == 0) {
      stats.max_value.clear();
      AppendLittleEndian(0, width, &stats.max_value);
    }
  }
  return stats;
}

bool ColumnChunkWriter::BuildDictionary(std::vector<uint32_t>* indices,
                                        std::vector<size_t>* distinct) const {
  const size_t n = value_count();
  if (!options_.dictionary || element_.type == PhysicalType::kBoolean || n == 0) return false;
  indices->resize(n);
  if (is_bytes_) {
    std::unordered_map<std::string_view, uint32_t> codes;
    for (size_t i = 0; i < n; i++) {
      const Slice bytes = BytesAt(i);
      const auto [it, added] = codes.emplace(std::string_view(bytes.data(), bytes.size()),
                                             static_cast<uint32_t>(distinct->size()));
      if (added) distinct->push_back(i);
      (*indices)[i] = it->second;
    }
  } else {
    std::unordered_map<uint64_t, uint32_t> codes;
    for (size_t i = 0; i < n; i++) {
      const auto [it, added] = codes.emplace(bits_[i], static_cast<uint32_t>(distinct->size()));
      if (added) distinct->push_back(i);
      (*indices)[i] = it->second;
    }
  }
  if (distinct->size() < n) return true;
  indices->clear();
  distinct->clear();
  return false;
}

std::vector<size_t> ColumnChunkWriter::PageRowEnds() const {
  std::vector<size_t> ends;
  const size_t rows = defined_.size();
  const size_t page_rows = std::max<uint32_t>(1, options_.page_rows);
  size_t fixed_width = 0;
  switch (*element_.type) {
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      fixed_width = 4;
      break;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      fixed_width = 8;
      break;
    case PhysicalType::kBoolean:
      fixed_width = 1;
      break;
    default:
      break;
  }
  size_t page_begin = 0, page_bytes = 0, value = 0;
  for (size_t row = 0; row < rows; row++) {
    if (defined_[row]) {
      page_bytes += is_bytes_ ? BytesAt(value).size() + 4 : fixed_width;
      value++;
    }
    if (row + 1 - page_begin == page_rows || page_bytes >= options_.page_bytes) {
      ends.push_back(row + 1);
      page_begin = row + 1;
      page_bytes = 0;
    }
  }
  if (ends.empty() || ends.back() != rows) ends.push_back(rows);  // one page when empty
  return ends;
}

void ColumnChunkWriter::AppendValues(ValueEncoding encoding, size_t begin, size_t end,
                                     const std::vector<uint32_t>& indices, int index_width,
                                     std::string* out) const {
  switch (encoding) {
    case ValueEncoding::kPlain:
      AppendPlainRange(begin, end, out);
      return;
    case ValueEncoding::kDictionary: {
      out->push_back(static_cast<char>(index_width));
      const std::vector<uint32_t> range(indices.begin() + begin, indices.begin() + end);
      AppendRleBitPacked(range, index_width, out);
      return;
    }
    case ValueEncoding::kDeltaBinaryPacked:
      AppendDeltaBinaryPacked(bits_.data() + begin, end - begin,
                              element_.type == PhysicalType::kInt32 ? 32 : 64, out);
      return;
    case ValueEncoding::kDeltaLengthByteArray:
    case ValueEncoding::kDeltaByteArray: {
      std::vector<std::string_view> values;
      values.reserve(end - begin);
      for (size_t i = begin; i < end; i++) {
        values.emplace_back(BytesAt(i).data(), BytesAt(i).size());
      }
      if (encoding == ValueEncoding::kDeltaByteArray) {
        AppendDeltaByteArray(values, out);
      } else {
        AppendDeltaLengthByteArray(values, out);
      }
      return;
    }
  }
}

Status ColumnChunkWriter::ChooseEncoding(bool has_dictionary, const std::vector<uint32_t>& indices,
                                         const std::vector<size_t>& distinct,
                                         ValueEncoding* encoding) const {
  std::vector<ValueEncoding> candidates = {ValueEncoding::kPlain};
  if (has_dictionary) candidates.push_back(ValueEncoding::kDictionary);
  if (options_.delta) {
    if (element_.type == PhysicalType::kInt32 || element_.type == PhysicalType::kInt64) {
      candidates.push_back(ValueEncoding::kDeltaBinaryPacked);
    } else if (element_.type == PhysicalType::kByteArray) {
      candidates.push_back(ValueEncoding::kDeltaLengthByteArray);
      candidates.push_back(ValueEncoding::kDeltaByteArray);
    }
  }
  *encoding = ValueEncoding::kPlain;
  if (candidates.size() == 1 || value_count() == 0) return Status::OK();
  // The candidates are tried on the chunk's first kEncodingSampleValues values: their
  // dictionary is the distinct values that appear there (the first ones of `distinct`).
  const size_t sample = std::min(value_count(), kEncodingSampleValues);
  size_t sample_distinct = 0;
  while (sample_distinct < distinct.size() && distinct[sample_distinct] < sample) {
    sample_distinct++;
  }
  const int index_width = has_dictionary ? std::max(1, BitWidthFor(sample_distinct - 1)) : 0;
  size_t best = SIZE_MAX;
  std::string values, compressed;
  for (ValueEncoding candidate : candidates) {
    size_t size = 0;
    if (candidate == ValueEncoding::kDictionary) {
      values.clear();
      for (size_t d = 0; d < sample_distinct; d++) AppendPlain(distinct[d], &values);
      Status s = Compress(options_, values, &compressed);
      if (!s.ok()) return s;
      size += compressed.size();
    }
    values.clear();
    AppendValues(candidate, 0, sample, indices, index_width, &values);
    Status s = Compress(options_, values, &compressed);
    if (!s.ok()) return s;
    size += compressed.size();
    if (size < best) {  // ties keep the earlier, simpler candidate
      best = size;
      *encoding = candidate;
    }
  }
  return Status::OK();
}

Status ColumnChunkWriter::AppendPage(const PageHeader& header_template, const std::string& body,
                                     std::string* out, ColumnMetaData* metadata) const {
  std::string compressed;
  Status s = Compress(options_, body, &compressed);
  if (!s.ok()) return s;
  PageHeader header = header_template;
  header.uncompressed_page_size = static_cast<int32_t>(body.size());
  header.compressed_page_size = static_cast<int32_t>(compressed.size());
  std::string header_bytes;
  SerializePageHeader(header, &header_bytes);
  out->append(header_bytes);
  out->append(compressed);
  metadata->total_uncompressed_size += header_bytes.size() + body.size();
  metadata->total_compressed_size += header_bytes.size() + compressed.size();
  return Status::OK();
}

Status ColumnChunkWriter::Flush(int64_t file_offset, std::string* out, ColumnMetaData* metadata,
                                ChunkPageIndex* page_index) {
  *metadata = ColumnMetaData();
  *page_index = ChunkPageIndex();
  metadata->type = *element_.type;
  metadata->path = column_.name;
  metadata->codec = CodecOf(options_.compression);
  metadata->num_values = static_cast<int64_t>(defined_.size());
  const size_t chunk_start = out->size();
  auto offset_now = [&] { return file_offset + static_cast<int64_t>(out->size() - chunk_start); };

  std::vector<uint32_t> indices;
  std::vector<size_t> distinct;
  const bool has_dictionary = BuildDictionary(&indices, &distinct);
  ValueEncoding encoding;
  Status s = ChooseEncoding(has_dictionary, indices, distinct, &encoding);
  if (!s.ok()) return s;
  last_encoding_ = encoding;
  const bool dictionary = encoding == ValueEncoding::kDictionary;
  const int index_width = dictionary ? std::max(1, BitWidthFor(distinct.size() - 1)) : 0;
  metadata->encodings = {Encoding::kPlain, Encoding::kRle};
  if (dictionary) {
    metadata->dictionary_page_offset = offset_now();
    std::string body;
    for (size_t i : distinct) AppendPlain(i, &body);
    PageHeader header;
    header.type = PageType::kDictionaryPage;
    header.num_values = static_cast<int32_t>(distinct.size());
    s = AppendPage(header, body, out, metadata);
    if (!s.ok()) return s;
  }
  const Encoding page_encoding = EncodingOf(encoding);
  if (page_encoding != Encoding::kPlain) metadata->encodings.push_back(page_encoding);
  metadata->data_page_offset = offset_now();

  // Data pages, and their page index entries.
  ColumnIndex column_index;
  bool column_index_complete = true;
  std::vector<std::pair<size_t, size_t>> page_min_max;  // value positions, non-null pages
  size_t row_begin = 0, value_begin = 0;
  std::vector<uint32_t> levels;
  for (size_t row_end : PageRowEnds()) {
    std::string body;
    levels.assign(defined_.begin() + row_begin, defined_.begin() + row_end);
    size_t defined = 0;
    for (uint32_t level : levels) defined += level;
    if (!column_.required) {
      std::string encoded;
      AppendRleBitPacked(levels, 1, &encoded);
      AppendLittleEndian(encoded.size(), 4, &body);
      body.append(encoded);
    }
    const size_t value_end = value_begin + defined;
    const int64_t nulls = static_cast<int64_t>(row_end - row_begin - defined);
    PageHeader header;
    header.type = PageType::kDataPage;
    header.num_values = static_cast<int32_t>(row_end - row_begin);
    header.statistics = StatisticsOf(value_begin, value_end, nulls);
    // A page without values needs no value encoding (and a dictionary page's bit width).
    header.encoding = defined > 0 || dictionary ? page_encoding : Encoding::kPlain;
    if (defined > 0 || dictionary) {
      AppendValues(encoding, value_begin, value_end, indices, index_width, &body);
    }
    PageLocation location;
    location.offset = offset_now();
    location.first_row_index = static_cast<int64_t>(row_begin);
    s = AppendPage(header, body, out, metadata);
    if (!s.ok()) return s;
    location.compressed_page_size = static_cast<int32_t>(offset_now() - location.offset);
    page_index->offset_index.page_locations.push_back(location);

    const bool null_page = defined == 0;
    column_index.null_pages.push_back(null_page);
    column_index.null_counts.push_back(nulls);
    column_index.min_values.push_back(header.statistics.min_value);
    column_index.max_values.push_back(header.statistics.max_value);
    if (!null_page) {
      size_t min, max;
      column_index_complete &= MinMaxOf(value_begin, value_end, &min, &max);
      page_min_max.emplace_back(min, max);
    }
    row_begin = row_end;
    value_begin = value_end;
  }
  if (column_index_complete) {
    column_index.boundary_order = BoundaryOrderOf(page_min_max);
    page_index->column_index = std::move(column_index);
  }
  metadata->statistics =
      StatisticsOf(0, value_count(), static_cast<int64_t>(rows() - value_count()));

  defined_.clear();
  bits_.clear();
  bytes_.clear();
  ends_.clear();
  return Status::OK();
}

BoundaryOrder ColumnChunkWriter::BoundaryOrderOf(
    const std::vector<std::pair<size_t, size_t>>& page_min_max) const {
  bool ascending = true, descending = true;
  for (size_t p = 1; p < page_min_max.size(); p++) {
    const auto& [min_before, max_before] = page_min_max[p - 1];
    const auto& [min, max] = page_min_max[p];
    ascending &= Compare(min_before, min) <= 0 && Compare(max_before, max) <= 0;
    descending &= Compare(min_before, min) >= 0 && Compare(max_before, max) >= 0;
  }
  if (ascending) return BoundaryOrder::kAscending;
  return descending ? BoundaryOrder::kDescending : BoundaryOrder::kUnordered;
}

}  // namespace parquet
}  // namespace columnar
