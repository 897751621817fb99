#include "table_api/json_text.h"

#include "table_format/frozen_value.h"

namespace columnar {

namespace {

// A timestamp or date literal in ISO form ('2024-05-01T10:00:05.000Z'), unquoted and with a
// space for the T as Cassandra prints it; an integer literal (out of range) as is.
std::string DateTimeText(const Value& value, bool* quoted) {
  std::string literal = value.ToCqlLiteral();
  *quoted = literal.size() >= 2 && literal.front() == '\'';
  if (!*quoted) return literal;
  literal = literal.substr(1, literal.size() - 2);
  const size_t t = literal.find('T');
  if (t != std::string::npos) literal[t] = ' ';
  return literal;
}

bool IsNonFinite(const std::string& literal) {
  return literal.find_first_of("NI") != std::string::npos;  // NaN, Infinity
}

}  // namespace

std::string JsonQuoted(const std::string& text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
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
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (byte < 0x20 || byte == 0x7f) {
          out += std::string("\\u00") + kHex[byte >> 4] + kHex[byte & 15];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

namespace {

// Cassandra's toJson of a collection: lists, sets and tuples as arrays, maps as objects whose
// keys are JSON strings (a key that is not a string in JSON is quoted: {"1": "a"}).
std::string FrozenJsonText(const Value& value) {
  FrozenElements elements;
  if (!DecodeFrozenValue(value.type(), value.bytes(), &elements).ok()) return "null";
  const bool is_map = FrozenTypeOf(value.type()).kind == FrozenKind::kMap;
  std::string out = is_map ? "{" : "[";
  for (size_t i = 0; i < elements.size(); i++) {
    if (i > 0) out += is_map && i % 2 == 1 ? ": " : ", ";
    std::string text = JsonValueText(elements[i]);
    if (is_map && i % 2 == 0 && (text.empty() || text[0] != '"')) text = JsonQuoted(text);
    out += text;
  }
  return out + (is_map ? "}" : "]");
}

}  // namespace

std::string JsonValueText(const Value& value) {
  if (value.is_null()) return "null";
  if (IsFrozenType(value.type())) return FrozenJsonText(value);
  switch (value.type()) {
    case LogicalType::kText:
    case LogicalType::kAscii:
      return JsonQuoted(value.bytes());
    case LogicalType::kBoolean:
    case LogicalType::kInt:
    case LogicalType::kBigInt:
      return value.ToCqlLiteral();
    case LogicalType::kFloat:
    case LogicalType::kDouble: {
      const std::string literal = value.ToCqlLiteral();
      return IsNonFinite(literal) ? JsonQuoted(literal) : literal;
    }
    case LogicalType::kTimestamp:
    case LogicalType::kDate: {
      bool quoted = false;
      const std::string text = DateTimeText(value, &quoted);
      return quoted ? JsonQuoted(text) : text;
    }
    case LogicalType::kBlob:
    case LogicalType::kUuid:
      return JsonQuoted(value.ToCqlLiteral());
    default:
      break;
  }
  return "null";
}

std::string JsonObjectText(const std::vector<std::string>& names, const Row& row) {
  std::string out = "{";
  for (size_t i = 0; i < names.size() && i < row.size(); i++) {
    if (i > 0) out += ", ";
    out += JsonQuoted(names[i]) + ": " + JsonValueText(row[i]);
  }
  return out + "}";
}

}  // namespace columnar
