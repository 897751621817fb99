#include "table_api/csv_reader.h"

#include <cctype>
#include <cerrno>
#include <cstring>

#include "table_format/cql_lexer.h"

namespace columnar {
namespace {

constexpr size_t kReadSize = size_t{1} << 20;

std::string LowercaseField(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// CsvWriter writes nan, inf and -inf; Value::FromCqlLiteral reads NaN and (-)Infinity.
std::string FloatLiteral(const std::string& text) {
  const std::string lower = LowercaseField(text);
  if (lower == "inf" || lower == "+inf" || lower == "infinity") return "Infinity";
  if (lower == "-inf" || lower == "-infinity") return "-Infinity";
  return lower == "nan" ? "NaN" : text;
}

bool AllDigits(const std::string& text) {
  size_t start = !text.empty() && text[0] == '-' ? 1 : 0;
  if (start == text.size()) return false;
  for (size_t i = start; i < text.size(); i++) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// \xAB\xCD... (CsvWriter) or 0xabcd (cqlsh).
Status ParseBlob(const std::string& text, Value* value) {
  std::string bytes;
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    if (text.size() % 2 != 0) return Status::InvalidArgument("odd number of hex digits");
    for (size_t i = 2; i < text.size(); i += 2) {
      const int high = HexDigit(text[i]), low = HexDigit(text[i + 1]);
      if (high < 0 || low < 0) return Status::InvalidArgument("not a hex digit in a blob");
      bytes.push_back(static_cast<char>(high * 16 + low));
    }
  } else {
    if (text.size() % 4 != 0) return Status::InvalidArgument("blob is not \\x escapes");
    for (size_t i = 0; i < text.size(); i += 4) {
      const int high = HexDigit(text[i + 2]), low = HexDigit(text[i + 3]);
      if (text[i] != '\\' || text[i + 1] != 'x' || high < 0 || low < 0) {
        return Status::InvalidArgument("blob is not \\x escapes or 0x hex");
      }
      bytes.push_back(static_cast<char>(high * 16 + low));
    }
  }
  *value = Value::Blob(bytes);
  return Status::OK();
}

}  // namespace

Status CsvReader::Open(const std::string& path, std::unique_ptr<CsvReader>* reader) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return Status::IOError("cannot open " + path, std::strerror(errno));
  reader->reset(new CsvReader(path, file));
  return Status::OK();
}

CsvReader::~CsvReader() { std::fclose(file_); }

bool CsvReader::Peek(char* c) {
  if (position_ == buffer_.size()) {
    buffer_.resize(kReadSize);
    const size_t read = std::fread(buffer_.data(), 1, kReadSize, file_);
    buffer_.resize(read);
    position_ = 0;
    if (read == 0) {
      if (std::ferror(file_) && status_.ok()) status_ = Status::IOError("cannot read " + path_);
      return false;
    }
  }
  *c = buffer_[position_];
  return true;
}

bool CsvReader::Get(char* c) {
  if (!Peek(c)) return false;
  position_++;
  if (*c == '\n') line_++;
  return true;
}

Status CsvReader::Next(std::vector<CsvField>* fields, bool* done) {
  fields->clear();
  record_line_ = line_;
  char c;
  *done = !Peek(&c);
  if (*done) return status_;
  fields->emplace_back();
  bool in_quotes = false;
  bool after_quotes = false;  // a quoted field has ended; only , or the line end may follow
  while (Get(&c)) {
    CsvField& field = fields->back();
    if (in_quotes) {
      if (c != '"') {
        field.text.push_back(c);
      } else if (char next; Peek(&next) && next == '"') {
        Get(&next);
        field.text.push_back('"');
      } else {
        in_quotes = false;
        after_quotes = true;
      }
      continue;
    }
    if (c == ',') {
      fields->emplace_back();
      after_quotes = false;
    } else if (c == '\n') {
      break;
    } else if (c == '\r') {
      if (char next; Peek(&next) && next == '\n') continue;  // CRLF
      field.text.push_back(c);
    } else if (after_quotes) {
      return Status::InvalidArgument("line " + std::to_string(line_) +
                                     ": text after the closing quote of a field");
    } else if (c == '"' && field.text.empty() && !field.quoted) {
      field.quoted = true;
      in_quotes = true;
    } else {
      field.text.push_back(c);
    }
  }
  if (!status_.ok()) return status_;
  if (in_quotes) {
    return Status::InvalidArgument("line " + std::to_string(record_line_) +
                                   ": a quoted field is not closed before the end of the file");
  }
  return Status::OK();
}

Status CsvReader::ParseField(LogicalType type, const CsvField& field, Value* value) {
  if (field.text.empty() && !field.quoted) {
    *value = Value();
    return Status::OK();
  }
  switch (type) {
    case LogicalType::kText:
      *value = Value::Text(field.text);
      return Status::OK();
    case LogicalType::kAscii:
      *value = Value::Ascii(field.text);
      return Status::OK();
    case LogicalType::kBlob:
      return ParseBlob(field.text, value);
    case LogicalType::kBoolean:
      return Value::FromCqlLiteral(type, LowercaseField(field.text), value);
    case LogicalType::kFloat:
    case LogicalType::kDouble:
      return Value::FromCqlLiteral(type, FloatLiteral(field.text), value);
    case LogicalType::kTimestamp:
    case LogicalType::kDate:
      return Value::FromCqlLiteral(
          type, AllDigits(field.text) ? field.text : QuoteCqlString(field.text), value);
    default:
      return Value::FromCqlLiteral(type, field.text, value);
  }
}

}  // namespace columnar
