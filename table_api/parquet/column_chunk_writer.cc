#include "table_api/parquet/column_chunk_writer.h"

#include <snappy-c.h>
#include <zstd.h>

#include <cmath>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "table_api/parquet/delta_binary_packed.h"
#include "table_api/parquet/rle_hybrid.h"

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
  if (is_bytes_) {
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

Statistics ColumnChunkWriter::StatisticsOf(size_t begin, size_t end, int64_t null_count) const {
  Statistics stats;
  stats.null_count = null_count;
  size_t min = end, max = end;
  for (size_t i = begin; i < end; i++) {
    if (IsNaN(i)) continue;
    if (is_bytes_ && BytesAt(i).size() > kMaxStatisticsBytes) return stats;
    if (min == end || Compare(i, min) < 0) min = i;
    if (max == end || Compare(i, max) > 0) max = i;
  }
  if (min == end) return stats;
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
  size_t plain_bytes = 0, dictionary_bytes = 0;
  if (is_bytes_) {
    std::unordered_map<std::string_view, uint32_t> codes;
    for (size_t i = 0; i < n; i++) {
      const Slice bytes = BytesAt(i);
      const auto [it, added] = codes.emplace(std::string_view(bytes.data(), bytes.size()),
                                             static_cast<uint32_t>(distinct->size()));
      if (added) {
        distinct->push_back(i);
        dictionary_bytes += bytes.size() + 4;
      }
      (*indices)[i] = it->second;
      plain_bytes += bytes.size() + 4;
    }
  } else {
    std::unordered_map<uint64_t, uint32_t> codes;
    const size_t width =
        (element_.type == PhysicalType::kInt32 || element_.type == PhysicalType::kFloat) ? 4 : 8;
    for (size_t i = 0; i < n; i++) {
      const auto [it, added] = codes.emplace(bits_[i], static_cast<uint32_t>(distinct->size()));
      if (added) distinct->push_back(i);
      (*indices)[i] = it->second;
    }
    plain_bytes = n * width;
    dictionary_bytes = distinct->size() * width;
  }
  const size_t index_bytes = n * std::max(1, BitWidthFor(distinct->size() - 1)) / 8;
  if (dictionary_bytes + index_bytes < plain_bytes * 9 / 10) return true;
  indices->clear();
  distinct->clear();
  return false;
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

Status ColumnChunkWriter::Flush(int64_t file_offset, std::string* out, ColumnMetaData* metadata) {
  *metadata = ColumnMetaData();
  metadata->type = *element_.type;
  metadata->path = column_.name;
  metadata->codec = CodecOf(options_.compression);
  metadata->num_values = static_cast<int64_t>(defined_.size());
  const size_t chunk_start = out->size();
  auto offset_now = [&] { return file_offset + static_cast<int64_t>(out->size() - chunk_start); };

  std::vector<uint32_t> indices;
  std::vector<size_t> distinct;
  const bool dictionary = BuildDictionary(&indices, &distinct);
  const int index_width = dictionary ? std::max(1, BitWidthFor(distinct.size() - 1)) : 0;
  Status s;
  if (dictionary) {
    metadata->dictionary_page_offset = offset_now();
    std::string body;
    for (size_t i : distinct) AppendPlain(i, &body);
    PageHeader header;
    header.type = PageType::kDictionaryPage;
    header.num_values = static_cast<int32_t>(distinct.size());
    s = AppendPage(header, body, out, metadata);
    if (!s.ok()) return s;
    metadata->encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary};
  } else {
    metadata->encodings = {Encoding::kPlain, Encoding::kRle};
  }
  metadata->data_page_offset = offset_now();

  const size_t rows = defined_.size();
  const size_t page_rows = std::max<uint32_t>(1, options_.page_rows);
  size_t value_begin = 0;
  std::vector<uint32_t> levels;
  std::vector<uint32_t> page_indices;
  for (size_t row_begin = 0; row_begin < rows || (rows == 0 && row_begin == 0);
       row_begin += page_rows) {
    const size_t row_end = std::min(rows, row_begin + page_rows);
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
    PageHeader header;
    header.type = PageType::kDataPage;
    header.num_values = static_cast<int32_t>(row_end - row_begin);
    header.statistics =
        StatisticsOf(value_begin, value_end, static_cast<int64_t>(row_end - row_begin - defined));
    if (dictionary) {
      header.encoding = Encoding::kRleDictionary;
      body.push_back(static_cast<char>(index_width));
      page_indices.assign(indices.begin() + value_begin, indices.begin() + value_end);
      AppendRleBitPacked(page_indices, index_width, &body);
    } else {
      // PLAIN, or DELTA_BINARY_PACKED for integers where it is smaller (sorted or slowly
      // changing values: times, counters).
      header.encoding = Encoding::kPlain;
      std::string values;
      AppendPlainRange(value_begin, value_end, &values);
      const bool integer =
          element_.type == PhysicalType::kInt32 || element_.type == PhysicalType::kInt64;
      if (options_.delta && integer && value_end > value_begin) {
        std::string delta;
        AppendDeltaBinaryPacked(bits_.data() + value_begin, value_end - value_begin,
                                element_.type == PhysicalType::kInt32 ? 32 : 64, &delta);
        if (delta.size() < values.size()) {
          values.swap(delta);
          header.encoding = Encoding::kDeltaBinaryPacked;
          if (metadata->encodings.back() != Encoding::kDeltaBinaryPacked) {
            metadata->encodings.push_back(Encoding::kDeltaBinaryPacked);
          }
        }
      }
      body.append(values);
    }
    s = AppendPage(header, body, out, metadata);
    if (!s.ok()) return s;
    value_begin = value_end;
    if (rows == 0) break;
  }
  metadata->statistics = StatisticsOf(0, value_count(), static_cast<int64_t>(rows - value_count()));

  defined_.clear();
  bits_.clear();
  bytes_.clear();
  ends_.clear();
  return Status::OK();
}

}  // namespace parquet
}  // namespace columnar
