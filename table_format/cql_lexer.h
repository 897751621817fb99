// CQL lexer and token cursor, shared by the schema statements (cql_parser.h) and any other
// CQL-subset parser (INSERT / SELECT / DELETE in the shell).
//
// Tokens:
//   identifier         letter (letter | digit | _)*, case-insensitive: text is lower-cased
//   quoted identifier  "..." with "" for a quote; case kept; may not be empty
//   string             '...' with '' for a quote, or $$...$$; text is the unescaped content
//   integer / float    -?digits[.digits][(e|E)[+|-]digits] (float when it has . or e)
//   hex blob           0x hexdigits
//   duration           (digits letters)+, e.g. 1h30m, lower-cased (cql_duration.h)
//   uuid               8-4-4-4-12 hex digits
//   symbol             ( ) [ ] { } , ; . : = + - * ? < > <= >= !=
// Whitespace and comments (-- and // to the end of the line, /* ... */) separate tokens.
// Errors name the line and column (1-based) of the offending character.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "table_format/types.h"

namespace columnar {

enum class TokenKind : uint8_t {
  kEnd,
  kIdentifier,
  kQuotedIdentifier,
  kString,
  kInteger,
  kFloat,
  kHexBlob,
  kUuid,
  kDuration,
  kSymbol,
};

const char* TokenKindName(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  size_t offset = 0;  // byte offset of the token's first character in the input
  int line = 1;
  int column = 1;
};

// Splits `input` into tokens; the last one is always kEnd.
Status TokenizeCql(const Slice& input, std::vector<Token>* tokens);

// The token as a CQL literal for Value::FromCqlLiteral (strings re-quoted).
std::string TokenLiteralText(const Token& token);

// Cassandra's reserved keywords (lower case); they must be quoted to be used as names.
bool IsReservedCqlKeyword(const std::string& lower_word);
// 'text' with quotes doubled.
std::string QuoteCqlString(const std::string& text);
// The name as written in CQL: bare when it lexes back to itself (lower-case identifier, not
// reserved), otherwise "quoted".
std::string CqlIdentifier(const std::string& name);

// Walks a token vector with the checks every statement parser needs.
class TokenCursor {
 public:
  explicit TokenCursor(std::vector<Token> tokens);

  const Token& Peek(size_t ahead = 0) const;
  const Token& Next();
  bool AtEnd() const { return Peek().kind == TokenKind::kEnd; }

  // Keywords are unquoted identifiers; `word` is lower case.
  bool PeekKeyword(const char* word, size_t ahead = 0) const;
  bool ConsumeKeyword(const char* word);
  Status ExpectKeyword(const char* word);

  bool PeekSymbol(const char* symbol, size_t ahead = 0) const;
  bool ConsumeSymbol(const char* symbol);
  Status ExpectSymbol(const char* symbol);

  // A name (unquoted and not reserved, or quoted); `what` names it in errors ("column name").
  Status ExpectName(const char* what, std::string* name);

  // Consumes an optional ';'.
  void SkipSemicolon() { ConsumeSymbol(";"); }
  // Optional ';', then the end of the input.
  Status ExpectEndOfStatement();

  // InvalidArgument: "<message> at line L, column C (near <token>)".
  Status ErrorAt(const Token& token, const std::string& message) const;
  Status Error(const std::string& message) const { return ErrorAt(Peek(), message); }

 private:
  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

// How a token is shown in error messages: 'text' with its kind, or "end of input".
std::string DescribeToken(const Token& token);

}  // namespace columnar
