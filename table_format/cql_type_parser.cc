// CQL column types (ParseCqlType, ParseCqlTypeName in cql_parser.h):
//
//   column_type := scalar | frozen '<' collection_or_tuple '>' | tuple_type
//   element     := scalar | frozen '<' collection_or_tuple '>' | collection_or_tuple
//   collection_or_tuple := list '<' element '>' | set '<' element '>'
//                        | map '<' element ',' element '>' | tuple_type
//   tuple_type  := tuple '<' element (',' element)* '>'
//
// Inside a frozen type every collection is frozen, as in Cassandra, so frozen<> is optional
// there. A collection as a column type without frozen<> is refused: its elements would have to
// be added and removed one by one, while a cell holds one value here.
#include <string>
#include <vector>

#include "table_format/cql_parser.h"
#include "table_format/frozen_type.h"

namespace columnar {
namespace {

// The type at the cursor as written, e.g. "map<text, frozen<list<int>>>" (up to the '>' that
// closes its first '<', or the end of the input).
std::string WrittenTypeText(const TokenCursor& cursor) {
  std::string text = cursor.Peek().text;
  if (!cursor.PeekSymbol("<", 1)) return text;
  int depth = 0;
  for (size_t ahead = 1; cursor.Peek(ahead).kind != TokenKind::kEnd; ahead++) {
    const Token& token = cursor.Peek(ahead);
    text += token.kind == TokenKind::kString ? QuoteCqlString(token.text) : token.text;
    if (cursor.PeekSymbol(",", ahead)) text += " ";
    if (cursor.PeekSymbol("<", ahead)) depth++;
    if (cursor.PeekSymbol(">", ahead) && --depth == 0) break;
  }
  return text;
}

const char kCounterMessage[] =
    "counter columns are not supported: a counter is changed by UPDATE ... SET c = c + n, "
    "a read-modify-write this store does not run (use a bigint written by INSERT)";

const char kScalarNames[] =
    "boolean, int, bigint, float, double, timestamp, date, text, varchar, ascii, blob, uuid";

bool IsCollectionName(const std::string& name) {
  return name == "list" || name == "set" || name == "map";
}

class TypeParser {
 public:
  explicit TypeParser(TokenCursor* cursor) : cursor_(cursor) {}

  Status ParseColumnType(LogicalType* type) {
    const Token& token = cursor_->Peek();
    if (token.kind != TokenKind::kIdentifier) return cursor_->Error("expected a column type");
    const std::string name = token.text;
    if (name == "counter") return cursor_->Error(kCounterMessage);
    if (IsCollectionName(name) && cursor_->PeekSymbol("<", 1)) {
      const std::string written = WrittenTypeText(*cursor_);
      return cursor_->Error("non-frozen collection type " + written +
                            " is not supported (a cell holds one value here, so its elements "
                            "cannot be added or removed one by one); the alternative is frozen<" +
                            written +
                            ">: the whole collection is one value, written and "
                            "replaced at once");
    }
    return ParseElement(/*depth=*/0, type);
  }

 private:
  // Any type allowed inside a frozen type (and, through ParseColumnType, as a column type).
  Status ParseElement(int depth, LogicalType* type) {
    const Token start = cursor_->Peek();
    if (start.kind != TokenKind::kIdentifier) return cursor_->Error("expected a type");
    const std::string& name = start.text;
    if (name == "counter") {
      return cursor_->Error("counter cannot be an element of a collection or tuple");
    }
    const bool parameterized = cursor_->PeekSymbol("<", 1);
    if (!parameterized) {
      if (name == "frozen" || name == "tuple" || IsCollectionName(name)) {
        return cursor_->ErrorAt(cursor_->Peek(1), "expected '<' after " + name);
      }
      if (!ParseLogicalTypeName(name, type)) {
        return cursor_->Error("unsupported column type '" + name + "' (supported: " + kScalarNames +
                              ", frozen<list<T>>, frozen<set<T>>, frozen<map<K, V>>, "
                              "tuple<T, ...>)");
      }
      cursor_->Next();
      return Status::OK();
    }
    if (depth >= kMaxFrozenTypeDepth) {
      return cursor_->Error("frozen types nest at most " + std::to_string(kMaxFrozenTypeDepth) +
                            " levels deep");
    }
    if (name == "frozen") {
      cursor_->Next();
      cursor_->Next();  // <
      const Token inner = cursor_->Peek();
      if (inner.kind != TokenKind::kIdentifier ||
          !(IsCollectionName(inner.text) || inner.text == "tuple")) {
        return cursor_->Error("frozen<...> applies to collections (list, set, map) and tuples");
      }
      Status s = ParseElement(depth, type);
      return s.ok() ? cursor_->ExpectSymbol(">") : s;
    }
    FrozenKind kind;
    if (name == "list") {
      kind = FrozenKind::kList;
    } else if (name == "set") {
      kind = FrozenKind::kSet;
    } else if (name == "map") {
      kind = FrozenKind::kMap;
    } else if (name == "tuple") {
      kind = FrozenKind::kTuple;
    } else {
      return cursor_->Error("parameterized type " + WrittenTypeText(*cursor_) +
                            " is not supported");
    }
    cursor_->Next();
    cursor_->Next();  // <
    std::vector<LogicalType> elements;
    do {
      LogicalType element;
      Status s = ParseElement(depth + 1, &element);
      if (!s.ok()) return s;
      elements.push_back(element);
    } while (cursor_->ConsumeSymbol(","));
    const size_t expected = kind == FrozenKind::kMap ? 2 : 1;
    if (kind != FrozenKind::kTuple && elements.size() != expected) {
      return cursor_->ErrorAt(start, name + " takes " + std::to_string(expected) +
                                         (expected == 1 ? " element type" : " element types") +
                                         ", got " + std::to_string(elements.size()));
    }
    Status s = cursor_->ExpectSymbol(">");
    if (!s.ok()) return s;
    s = InternFrozenType(kind, elements, type);
    return s.ok() ? s : cursor_->ErrorAt(start, s.getState() != nullptr ? s.getState() : "");
  }

  TokenCursor* cursor_;
};

}  // namespace

Status ParseCqlType(TokenCursor* cursor, LogicalType* type) {
  return TypeParser(cursor).ParseColumnType(type);
}

Status ParseCqlTypeName(const std::string& text, LogicalType* type) {
  if (ParseLogicalTypeName(text, type)) return Status::OK();
  std::vector<Token> tokens;
  Status s = TokenizeCql(text, &tokens);
  if (!s.ok()) return s;
  TokenCursor cursor(std::move(tokens));
  s = ParseCqlType(&cursor, type);
  if (s.ok() && !cursor.AtEnd()) s = cursor.Error("unexpected text after the type");
  return s;
}

}  // namespace columnar
