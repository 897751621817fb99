#include "table_format/column_settings.h"

#include <algorithm>
#include <set>

namespace columnar {

namespace {

std::string Trim(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  const size_t end = s.find_last_not_of(" \t");
  return s.substr(begin, end - begin + 1);
}

}  // namespace

Status ParseColumnMap(const std::string& text, std::map<std::string, std::string>* out) {
  out->clear();
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = Trim(text.substr(start, comma - start));
    start = comma + 1;
    if (item.empty()) continue;
    const size_t colon = item.find(':');
    std::string column = colon == std::string::npos ? "default" : Trim(item.substr(0, colon));
    std::string value = colon == std::string::npos ? item : Trim(item.substr(colon + 1));
    if (column.empty() || value.empty()) {
      return Status::InvalidArgument("column option: malformed entry '" + item + "'");
    }
    if (!out->emplace(column, value).second) {
      return Status::InvalidArgument("column option: column '" + column + "' given twice");
    }
  }
  return Status::OK();
}

Status ColumnSettings::Parse(const std::string& encodings, const std::string& compression,
                             int compression_level, ColumnSettings* out) {
  *out = ColumnSettings();
  out->compression_level_ = compression_level;
  std::map<std::string, std::string> entries;
  Status s = ParseColumnMap(encodings, &entries);
  if (!s.ok()) return s;
  for (const auto& [column, name] : entries) {
    Encoding encoding;
    if (!ParseEncodingName(name, &encoding)) {
      return Status::InvalidArgument("column_encodings: unknown encoding '" + name +
                                     "' for column '" + column + "'");
    }
    out->encodings_[column] = encoding;
  }
  s = ParseColumnMap(compression, &entries);
  if (!s.ok()) return s;
  for (const auto& [column, name] : entries) {
    ColumnCompression c;
    if (!ParseColumnCompressionName(name, &c)) {
      return Status::InvalidArgument("column_compression: unknown compression '" + name +
                                     "' for column '" + column + "' (none or zstd)");
    }
    if (column == "default") {
      out->default_compression_ = c;
      out->default_compression_set_ = true;
    } else {
      out->compressions_[column] = c;
    }
  }
  return Status::OK();
}

ChunkWriteOptions ColumnSettings::For(const std::string& column, PhysicalType /*type*/) const {
  ChunkWriteOptions options;
  options.checksum = false;  // table files checksum whole blocks
  options.zstd_level = compression_level_;
  auto encoding = encodings_.find(column);
  if (encoding == encodings_.end()) encoding = encodings_.find("default");
  if (encoding != encodings_.end()) options.encoding = encoding->second;
  auto compression = compressions_.find(column);
  options.compression =
      compression != compressions_.end() ? compression->second : default_compression_;
  return options;
}

ChunkWriteOptions ShortLivedColumnSettings::For(const std::string& column,
                                                PhysicalType type) const {
  ChunkWriteOptions options = base_->For(column, type);
  options.short_lived = true;
  const bool bodies_lz4_takes = type == PhysicalType::kBytes || type == PhysicalType::kFloat64 ||
                                type == PhysicalType::kFloat32;
  options.constant_or_plain =
      bodies_lz4_takes && lz4_blocks_ && options.compression == ColumnCompression::kNone;
  return options;
}

void ColumnSettings::AddDefaults(const std::map<std::string, std::string>& encodings,
                                 const std::map<std::string, std::string>& compression) {
  for (const auto& [column, name] : encodings) {
    Encoding encoding;
    if (ParseEncodingName(name, &encoding)) encodings_.emplace(column, encoding);
  }
  for (const auto& [column, name] : compression) {
    ColumnCompression c;
    if (!ParseColumnCompressionName(name, &c)) continue;
    if (column != "default") {
      compressions_.emplace(column, c);
    } else if (!default_compression_set_) {
      default_compression_ = c;
      default_compression_set_ = true;
    }
  }
}

std::vector<std::string> ColumnSettings::NamedColumns() const {
  std::set<std::string> names;
  for (const auto& entry : encodings_) names.insert(entry.first);
  for (const auto& entry : compressions_) names.insert(entry.first);
  names.erase("default");
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace columnar
