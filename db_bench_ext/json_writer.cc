#include "db_bench_ext/json_writer.h"

#include <cstdio>
#include <stdexcept>

#include "db_bench_ext/number_format.h"

namespace columnar {
namespace bench {

std::string JsonQuote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof(escape), "\\u%04x", static_cast<unsigned char>(c));
          out += escape;
        } else {
          out.push_back(c);  // UTF-8 passes through unchanged
        }
    }
  }
  out.push_back('"');
  return out;
}

void JsonWriter::NewLine() {
  out_.push_back('\n');
  out_.append(2 * levels_.size(), ' ');
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (levels_.empty()) {
    if (!out_.empty()) throw std::logic_error("JSON document already has a root value");
    return;
  }
  if (levels_.back().is_object) throw std::logic_error("JSON object value without a key");
  if (!levels_.back().empty) out_.push_back(',');
  levels_.back().empty = false;
  NewLine();
}

void JsonWriter::Key(std::string_view key) {
  if (levels_.empty() || !levels_.back().is_object || after_key_) {
    throw std::logic_error("JSON key outside an object");
  }
  if (!levels_.back().empty) out_.push_back(',');
  levels_.back().empty = false;
  NewLine();
  out_ += JsonQuote(key);
  out_ += ": ";
  after_key_ = true;
}

void JsonWriter::Open(char bracket, bool is_object) {
  BeforeValue();
  out_.push_back(bracket);
  levels_.push_back({is_object});
}

void JsonWriter::Close(char bracket) {
  if (levels_.empty() || after_key_) throw std::logic_error("unbalanced JSON container");
  const bool empty = levels_.back().empty;
  levels_.pop_back();
  if (!empty) NewLine();
  out_.push_back(bracket);
}

void JsonWriter::BeginObject() { Open('{', true); }
void JsonWriter::EndObject() {
  if (levels_.empty() || !levels_.back().is_object) throw std::logic_error("not in an object");
  Close('}');
}
void JsonWriter::BeginArray() { Open('[', false); }
void JsonWriter::EndArray() {
  if (levels_.empty() || levels_.back().is_object) throw std::logic_error("not in an array");
  Close(']');
}

void JsonWriter::String(std::string_view value) {
  BeforeValue();
  out_ += JsonQuote(value);
}

void JsonWriter::Number(double value) {
  BeforeValue();
  out_ += FormatJsonNumber(value);
}

void JsonWriter::Integer(int64_t value) {
  BeforeValue();
  out_ += std::to_string(value);
}

void JsonWriter::Unsigned(uint64_t value) {
  BeforeValue();
  out_ += std::to_string(value);
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  out_ += value ? "true" : "false";
}

void JsonWriter::Null() {
  BeforeValue();
  out_ += "null";
}

}  // namespace bench
}  // namespace columnar
