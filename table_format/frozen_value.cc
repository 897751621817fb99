#include "table_format/frozen_value.h"

#include <algorithm>
#include <utility>

#include "table_format/cql_lexer.h"
#include "table_format/key_codec.h"

namespace columnar {
namespace {

constexpr char kEnd = 0x00;      // end of a list, set or map; a null tuple field
constexpr char kPresent = 0x01;  // an element, entry or non-null tuple field follows

std::string MessageOf(const Status& s) {
  return s.getState() != nullptr ? s.getState() : s.ToString();
}

Status FrozenCorruption(LogicalType type, const char* what) {
  return Status::Corruption(std::string("frozen value of type ") + LogicalTypeName(type) + ": " +
                            what);
}

// Appends value(T) for a non-null element.
Status AppendElement(const Value& element, LogicalType type, const std::string& where,
                     std::string* out) {
  if (element.is_null()) return Status::InvalidArgument(where + " is null");
  if (element.type() != type) {
    return Status::InvalidArgument(where + " has type " + LogicalTypeName(element.type()) +
                                   ", expected " + LogicalTypeName(type));
  }
  if (IsFrozenType(type)) {
    if (!IsCanonicalFrozenValue(type, element.bytes())) {
      return Status::InvalidArgument(where + " is not a canonical " +
                                     std::string(LogicalTypeName(type)) + " value");
    }
    out->append(element.bytes());
    return Status::OK();
  }
  return EncodeKeyComponent(element, type, ClusteringOrder::kAsc, where, out);
}

// Reads value(T) from the front of *in; `element` may be null (check and skip only).
Status ReadElement(Slice* in, LogicalType type, Value* element);

// Walks a frozen value of `type` at the front of *in, checking it is canonical; with
// `elements` non-null, also collects them.
Status ReadFrozen(Slice* in, LogicalType type, FrozenElements* elements) {
  const FrozenType& frozen = FrozenTypeOf(type);
  if (frozen.kind == FrozenKind::kTuple) {
    for (LogicalType field : frozen.elements) {
      if (in->empty()) return FrozenCorruption(type, "truncated tuple");
      const char marker = (*in)[0];
      in->remove_prefix(1);
      Value value;
      if (marker == kPresent) {
        Status s = ReadElement(in, field, elements != nullptr ? &value : nullptr);
        if (!s.ok()) return s;
      } else if (marker != kEnd) {
        return FrozenCorruption(type, "bad tuple field marker");
      }
      if (elements != nullptr) elements->push_back(std::move(value));
    }
    return Status::OK();
  }
  const bool is_map = frozen.kind == FrozenKind::kMap;
  const bool strictly_ascending = frozen.kind != FrozenKind::kList;
  Slice previous_key;
  bool first = true;
  while (true) {
    if (in->empty()) return FrozenCorruption(type, "truncated collection");
    const char marker = (*in)[0];
    in->remove_prefix(1);
    if (marker == kEnd) return Status::OK();
    if (marker != kPresent) return FrozenCorruption(type, "bad element marker");
    const char* key_start = in->data();
    Value key, mapped;
    Status s = ReadElement(in, frozen.elements[0], elements != nullptr ? &key : nullptr);
    if (!s.ok()) return s;
    const Slice key_bytes(key_start, static_cast<size_t>(in->data() - key_start));
    if (strictly_ascending && !first && key_bytes.compare(previous_key) <= 0) {
      return FrozenCorruption(type, is_map ? "map keys out of order or repeated"
                                           : "set elements out of order or repeated");
    }
    previous_key = key_bytes;
    first = false;
    if (is_map) {
      s = ReadElement(in, frozen.elements[1], elements != nullptr ? &mapped : nullptr);
      if (!s.ok()) return s;
    }
    if (elements != nullptr) {
      elements->push_back(std::move(key));
      if (is_map) elements->push_back(std::move(mapped));
    }
  }
}

Status ReadElement(Slice* in, LogicalType type, Value* element) {
  if (!IsFrozenType(type)) return DecodeKeyComponent(in, type, ClusteringOrder::kAsc, element);
  const char* start = in->data();
  Status s = ReadFrozen(in, type, nullptr);
  if (s.ok() && element != nullptr) {
    *element = Value::FromBytes(type, std::string(start, static_cast<size_t>(in->data() - start)));
  }
  return s;
}

// Sorts encoded set elements or map entries by their (key) bytes; keeps the first of equal
// set elements and the last of equal map keys.
void Canonicalize(bool is_map, std::vector<std::pair<std::string, std::string>>* entries) {
  std::stable_sort(entries->begin(), entries->end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<std::string, std::string>> unique;
  for (auto& entry : *entries) {
    if (!unique.empty() && unique.back().first == entry.first) {
      if (is_map) unique.back() = std::move(entry);
      continue;
    }
    unique.push_back(std::move(entry));
  }
  *entries = std::move(unique);
}

std::string Ordinal(size_t index) { return std::to_string(index + 1); }

}  // namespace

Status EncodeFrozenValue(LogicalType type, const FrozenElements& elements, Value* out) {
  if (!IsFrozenType(type)) return Status::InvalidArgument("not a frozen type");
  const FrozenType& frozen = FrozenTypeOf(type);
  std::string bytes;
  if (frozen.kind == FrozenKind::kTuple) {
    if (elements.size() > frozen.elements.size()) {
      return Status::InvalidArgument(std::string(LogicalTypeName(type)) + " has " +
                                     std::to_string(frozen.elements.size()) + " fields, got " +
                                     std::to_string(elements.size()));
    }
    for (size_t i = 0; i < frozen.elements.size(); i++) {
      if (i >= elements.size() || elements[i].is_null()) {
        bytes.push_back(kEnd);
        continue;
      }
      bytes.push_back(kPresent);
      Status s = AppendElement(elements[i], frozen.elements[i], "field " + Ordinal(i), &bytes);
      if (!s.ok()) return s;
    }
    *out = Value::FromBytes(type, std::move(bytes));
    return Status::OK();
  }
  const bool is_map = frozen.kind == FrozenKind::kMap;
  if (is_map && elements.size() % 2 != 0) {
    return Status::InvalidArgument("a map needs key, value pairs");
  }
  const size_t step = is_map ? 2 : 1;
  std::vector<std::pair<std::string, std::string>> entries;
  for (size_t i = 0; i < elements.size(); i += step) {
    std::pair<std::string, std::string> entry;
    const std::string where = (is_map ? "key " : "element ") + Ordinal(i / step);
    Status s = AppendElement(elements[i], frozen.elements[0], where, &entry.first);
    if (s.ok() && is_map) {
      s = AppendElement(elements[i + 1], frozen.elements[1], "value " + Ordinal(i / step),
                        &entry.second);
    }
    if (!s.ok()) return s;
    entries.push_back(std::move(entry));
  }
  if (frozen.kind != FrozenKind::kList) Canonicalize(is_map, &entries);
  for (const auto& [key, mapped] : entries) {
    bytes.push_back(kPresent);
    bytes += key;
    bytes += mapped;
  }
  bytes.push_back(kEnd);
  *out = Value::FromBytes(type, std::move(bytes));
  return Status::OK();
}

Status DecodeFrozenValue(LogicalType type, const Slice& bytes, FrozenElements* elements) {
  if (!IsFrozenType(type)) return Status::InvalidArgument("not a frozen type");
  elements->clear();
  Slice in = bytes;
  Status s = ReadFrozen(&in, type, elements);
  if (s.ok() && !in.empty()) s = FrozenCorruption(type, "trailing bytes");
  return s;
}

bool IsCanonicalFrozenValue(LogicalType type, const Slice& bytes) {
  Slice in = bytes;
  return ReadFrozen(&in, type, nullptr).ok() && in.empty();
}

// ---- literals ----

namespace {

// Recursive descent over the tokens of one literal, guided by the type.
class FrozenLiteralParser {
 public:
  explicit FrozenLiteralParser(std::vector<Token> tokens) : cursor_(std::move(tokens)) {}

  Status ParseValue(LogicalType type, const std::string& where, Value* out) {
    if (!IsFrozenType(type)) return ParseScalar(type, where, out);
    if (cursor_.PeekKeyword("null")) {
      cursor_.Next();
      *out = Value();
      return Status::OK();
    }
    const FrozenType& frozen = FrozenTypeOf(type);
    FrozenElements elements;
    Status s;
    switch (frozen.kind) {
      case FrozenKind::kList:
        s = ParseSequence(type, "[", "]", frozen.elements[0], nullptr, where, &elements);
        break;
      case FrozenKind::kSet:
        s = ParseSequence(type, "{", "}", frozen.elements[0], nullptr, where, &elements);
        break;
      case FrozenKind::kMap:
        s = ParseSequence(type, "{", "}", frozen.elements[0], &frozen.elements[1], where,
                          &elements);
        break;
      case FrozenKind::kTuple:
        s = ParseTuple(type, frozen, where, &elements);
        break;
    }
    if (!s.ok()) return s;
    s = EncodeFrozenValue(type, elements, out);
    return s.ok() ? s : Fail(cursor_.Peek(), where, MessageOf(s));
  }

  bool AtEnd() const { return cursor_.AtEnd(); }
  const Token& Peek() const { return cursor_.Peek(); }

 private:
  Status Fail(const Token& token, const std::string& where, const std::string& message) {
    return Status::InvalidArgument((where.empty() ? "" : where + ": ") + message +
                                   (token.kind == TokenKind::kEnd
                                        ? " (at the end of the literal)"
                                        : " (near " + DescribeToken(token) + ")"));
  }

  static std::string Within(const std::string& where, const std::string& part) {
    return where.empty() ? part : where + ", " + part;
  }

  Status Expect(const char* symbol, LogicalType type, const std::string& where) {
    if (cursor_.ConsumeSymbol(symbol)) return Status::OK();
    return Fail(
        cursor_.Peek(), where,
        std::string("expected '") + symbol + "' in a " + LogicalTypeName(type) + " literal");
  }

  // [e, ...] or {e, ...} or {k: v, ...}; value_type is null for lists and sets.
  Status ParseSequence(LogicalType type, const char* open, const char* close,
                       LogicalType element_type, const LogicalType* value_type,
                       const std::string& where, FrozenElements* elements) {
    Status s = Expect(open, type, where);
    if (!s.ok() || cursor_.ConsumeSymbol(close)) return s;
    for (size_t i = 0;; i++) {
      const std::string part = (value_type != nullptr ? "key " : "element ") + Ordinal(i);
      Value element;
      s = ParseElement(element_type, Within(where, part), /*nullable=*/false, &element);
      if (!s.ok()) return s;
      elements->push_back(std::move(element));
      if (value_type != nullptr) {
        s = Expect(":", type, Within(where, part));
        if (s.ok()) {
          s = ParseElement(*value_type, Within(where, "value " + Ordinal(i)), false, &element);
        }
        if (!s.ok()) return s;
        elements->push_back(std::move(element));
      }
      if (cursor_.ConsumeSymbol(close)) return Status::OK();
      if (!cursor_.ConsumeSymbol(",")) return ExpectedAfter(close, type, where, part);
    }
  }

  Status ExpectedAfter(const char* close, LogicalType type, const std::string& where,
                       const std::string& part) {
    return Fail(cursor_.Peek(), where,
                std::string("expected ',' or '") + close + "' after " + part + " of a " +
                    LogicalTypeName(type) + " literal");
  }

  Status ParseTuple(LogicalType type, const FrozenType& frozen, const std::string& where,
                    FrozenElements* elements) {
    Status s = Expect("(", type, where);
    for (size_t i = 0; s.ok(); i++) {
      if (i >= frozen.elements.size()) {
        return Fail(cursor_.Peek(), where,
                    std::string(LogicalTypeName(type)) + " has only " +
                        std::to_string(frozen.elements.size()) + " fields");
      }
      Value field;
      s = ParseElement(frozen.elements[i], Within(where, "field " + Ordinal(i)), true, &field);
      if (!s.ok()) return s;
      elements->push_back(std::move(field));
      if (cursor_.ConsumeSymbol(")")) return Status::OK();
      if (!cursor_.ConsumeSymbol(","))
        return ExpectedAfter(")", type, where, "field " + Ordinal(i));
    }
    return s;
  }

  Status ParseElement(LogicalType type, const std::string& where, bool nullable, Value* out) {
    const Token token = cursor_.Peek();
    Status s = ParseValue(type, where, out);
    if (s.ok() && out->is_null() && !nullable) {
      return Fail(token, where, "null is not allowed inside a collection");
    }
    return s;
  }

  Status ParseScalar(LogicalType type, const std::string& where, Value* out) {
    const Token token = cursor_.Peek();
    std::string text;
    // The lexer reads "-Infinity" / "-NaN" as '-' and a word.
    if (cursor_.PeekSymbol("-") && cursor_.Peek(1).kind == TokenKind::kIdentifier) {
      cursor_.Next();
      text = "-" + cursor_.Next().text;
    } else if (token.kind == TokenKind::kSymbol || token.kind == TokenKind::kEnd) {
      return Fail(token, where, std::string("expected a ") + LogicalTypeName(type) + " value");
    } else {
      text = TokenLiteralText(cursor_.Next());
    }
    Status s = Value::FromCqlLiteral(type, text, out);
    return s.ok() ? s : Fail(token, where, MessageOf(s));
  }

  TokenCursor cursor_;
};

}  // namespace

Status ParseFrozenLiteral(LogicalType type, const Slice& literal, Value* out) {
  if (!IsFrozenType(type)) return Status::InvalidArgument("not a frozen type");
  std::vector<Token> tokens;
  Status s = TokenizeCql(literal, &tokens);
  if (s.ok()) {
    FrozenLiteralParser parser(std::move(tokens));
    s = parser.ParseValue(type, "", out);
    if (s.ok() && !parser.AtEnd()) {
      s = Status::InvalidArgument("unexpected " + DescribeToken(parser.Peek()) +
                                  " after the end of the value");
    }
  }
  if (s.ok()) return s;
  return Status::InvalidArgument("invalid " + std::string(LogicalTypeName(type)) + " literal " +
                                 literal.ToString() + ": " + MessageOf(s));
}

std::string FormatFrozenValue(const Value& value,
                              const std::function<std::string(const Value&)>& scalar_text) {
  if (value.is_null()) return "null";
  if (!IsFrozenType(value.type())) return scalar_text(value);
  FrozenElements elements;
  if (!DecodeFrozenValue(value.type(), value.bytes(), &elements).ok()) {
    return "<malformed " + std::string(LogicalTypeName(value.type())) + ">";
  }
  const FrozenKind kind = FrozenTypeOf(value.type()).kind;
  const char* open = kind == FrozenKind::kList ? "[" : kind == FrozenKind::kTuple ? "(" : "{";
  const char* close = kind == FrozenKind::kList ? "]" : kind == FrozenKind::kTuple ? ")" : "}";
  std::string out = open;
  for (size_t i = 0; i < elements.size(); i++) {
    if (i > 0) out += kind == FrozenKind::kMap && i % 2 == 1 ? ": " : ", ";
    out += FormatFrozenValue(elements[i], scalar_text);
  }
  return out + close;
}

}  // namespace columnar
