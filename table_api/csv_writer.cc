#include "table_api/csv_writer.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <memory>

namespace columnar {
namespace {

void AppendQuoted(const std::string& text, std::string* out) {
  out->push_back('"');
  for (char c : text) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

template <typename Float>
void AppendFloat(Float value, std::string* out) {
  if (std::isnan(value)) {
    out->append("nan");
  } else if (std::isinf(value)) {
    out->append(value < 0 ? "-inf" : "inf");
  } else {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    out->append(buffer, result.ptr);
  }
}

// A CQL literal without its quotes ('2024-05-01' -> 2024-05-01).
std::string Unquoted(const Value& value) {
  std::string literal = value.ToCqlLiteral();
  if (literal.size() >= 2 && literal.front() == '\'' && literal.back() == '\'') {
    literal = literal.substr(1, literal.size() - 2);
  }
  return literal;
}

}  // namespace

void CsvWriter::AppendField(const Value& value, std::string* out) {
  if (value.is_null()) return;
  switch (value.type()) {
    case LogicalType::kBoolean:
      out->append(value.bool_value() ? "true" : "false");
      break;
    case LogicalType::kInt:
      out->append(std::to_string(value.int32_value()));
      break;
    case LogicalType::kBigInt:
      out->append(std::to_string(value.int64_value()));
      break;
    case LogicalType::kFloat:
      AppendFloat(value.float_value(), out);
      break;
    case LogicalType::kDouble:
      AppendFloat(value.double_value(), out);
      break;
    case LogicalType::kTimestamp:
    case LogicalType::kDate:
    case LogicalType::kUuid:
      out->append(Unquoted(value));
      break;
    case LogicalType::kText:
    case LogicalType::kAscii:
      AppendQuoted(value.bytes(), out);
      break;
    case LogicalType::kBlob: {
      static const char kDigits[] = "0123456789ABCDEF";
      std::string escaped;
      for (unsigned char c : value.bytes()) {
        escaped += "\\x";
        escaped.push_back(kDigits[c >> 4]);
        escaped.push_back(kDigits[c & 15]);
      }
      AppendQuoted(escaped, out);
      break;
    }
    default:
      // Frozen collections and tuples: the CQL literal, as cqlsh's COPY TO writes them.
      AppendQuoted(value.ToCqlLiteral(), out);
      break;
  }
}

Status CsvWriter::Open(const std::string& path, const std::vector<std::string>& names,
                       std::unique_ptr<CsvWriter>* writer, bool with_header) {
  writer->reset();
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return Status::IOError(path, std::strerror(errno));
  writer->reset(new CsvWriter(path, file));
  if (!with_header) return Status::OK();
  std::string header;
  for (size_t i = 0; i < names.size(); i++) {
    if (i > 0) header.push_back(',');
    AppendQuoted(names[i], &header);
  }
  return (*writer)->Write(header + "\n");
}

CsvWriter::~CsvWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

Status CsvWriter::Write(const std::string& text) {
  if (file_ == nullptr) return Status::IOError(path_, "already closed");
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) {
    return Status::IOError(path_, std::strerror(errno));
  }
  bytes_ += text.size();
  return Status::OK();
}

Status CsvWriter::AddRow(const std::vector<Value>& row) {
  line_.clear();
  for (size_t i = 0; i < row.size(); i++) {
    if (i > 0) line_.push_back(',');
    AppendField(row[i], &line_);
  }
  line_.push_back('\n');
  return Write(line_);
}

Status CsvWriter::Close() {
  const bool closed = file_ != nullptr && std::fclose(file_) == 0;
  file_ = nullptr;
  return closed ? Status::OK() : Status::IOError(path_, std::strerror(errno));
}

}  // namespace columnar
