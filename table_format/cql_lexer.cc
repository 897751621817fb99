#include "table_format/cql_lexer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

namespace columnar {
namespace {

// Cassandra's reserved keywords, lower case, sorted.
constexpr const char* kReservedKeywords[] = {
    "add",      "allow",  "alter",   "and",          "apply",  "asc",      "authorize",
    "batch",    "begin",  "by",      "columnfamily", "create", "delete",   "desc",
    "describe", "drop",   "entries", "execute",      "from",   "full",     "grant",
    "if",       "in",     "index",   "infinity",     "insert", "into",     "keyspace",
    "limit",    "modify", "nan",     "norecursive",  "not",    "null",     "of",
    "on",       "or",     "order",   "primary",      "rename", "revoke",   "schema",
    "select",   "set",    "table",   "to",           "token",  "truncate", "unlogged",
    "update",   "use",    "using",   "where",        "with",
};

constexpr const char* kTwoCharSymbols[] = {"<=", ">=", "!="};
constexpr char kOneCharSymbols[] = "()[]{},;.:=+-*?<>";

bool IsLetter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool IsIdentifierChar(char c) { return IsLetter(c) || IsDigit(c) || c == '_'; }

class Lexer {
 public:
  explicit Lexer(const Slice& input) : in_(input) {}

  Status Run(std::vector<Token>* tokens) {
    tokens->clear();
    while (true) {
      Status s = SkipSpaceAndComments();
      if (!s.ok()) return s;
      Token token = StartToken();
      if (pos_ == in_.size()) {
        tokens->push_back(std::move(token));
        return Status::OK();
      }
      s = LexToken(&token);
      if (!s.ok()) return s;
      tokens->push_back(std::move(token));
    }
  }

 private:
  char At(size_t i) const { return i < in_.size() ? in_[i] : '\0'; }
  bool Remaining(size_t n) const { return in_.size() - pos_ >= n; }

  void Advance(size_t n = 1) {
    for (size_t end = pos_ + n; pos_ < end; pos_++) {
      if (in_[pos_] == '\n') {
        line_++;
        line_start_ = pos_ + 1;
      }
    }
  }

  Token StartToken() const {
    Token token;
    token.offset = pos_;
    token.line = line_;
    token.column = static_cast<int>(pos_ - line_start_) + 1;
    return token;
  }

  Status ErrorHere(const Token& where, const std::string& message) const {
    return Status::InvalidArgument(message + " at line " + std::to_string(where.line) +
                                   ", column " + std::to_string(where.column));
  }

  Status SkipSpaceAndComments() {
    while (pos_ < in_.size()) {
      const char c = in_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        Advance();
      } else if ((c == '-' && At(pos_ + 1) == '-') || (c == '/' && At(pos_ + 1) == '/')) {
        while (pos_ < in_.size() && in_[pos_] != '\n') Advance();
      } else if (c == '/' && At(pos_ + 1) == '*') {
        const Token start = StartToken();
        Advance(2);
        while (pos_ < in_.size() && !(in_[pos_] == '*' && At(pos_ + 1) == '/')) Advance();
        if (pos_ == in_.size()) return ErrorHere(start, "unterminated /* comment");
        Advance(2);
      } else {
        break;
      }
    }
    return Status::OK();
  }

  Status LexToken(Token* token) {
    const char c = in_[pos_];
    if (LooksLikeUuid()) return LexFixed(TokenKind::kUuid, 36, token);
    if (c == '0' && (At(pos_ + 1) == 'x' || At(pos_ + 1) == 'X')) return LexHexBlob(token);
    if (IsDigit(c) || (c == '-' && IsDigit(At(pos_ + 1)))) return LexNumber(token);
    if (IsLetter(c)) return LexIdentifier(token);
    if (c == '"') return LexQuoted('"', TokenKind::kQuotedIdentifier, token);
    if (c == '\'') return LexQuoted('\'', TokenKind::kString, token);
    if (c == '$' && At(pos_ + 1) == '$') return LexDollarString(token);
    return LexSymbol(token);
  }

  // 8-4-4-4-12 hex digits not followed by an identifier character.
  bool LooksLikeUuid() const {
    if (!Remaining(36) || IsIdentifierChar(At(pos_ + 36))) return false;
    for (size_t i = 0; i < 36; i++) {
      const char c = in_[pos_ + i];
      const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash ? c != '-' : !IsHexDigit(c)) return false;
    }
    return true;
  }

  Status LexFixed(TokenKind kind, size_t length, Token* token) {
    token->kind = kind;
    token->text.assign(in_.data() + pos_, length);
    Advance(length);
    return Status::OK();
  }

  Status LexHexBlob(Token* token) {
    size_t end = pos_ + 2;
    while (end < in_.size() && IsHexDigit(in_[end])) end++;
    if (end < in_.size() && IsIdentifierChar(in_[end])) {
      return ErrorHere(*token, "malformed hex blob");
    }
    return LexFixed(TokenKind::kHexBlob, end - pos_, token);
  }

  Status LexNumber(Token* token) {
    size_t end = pos_ + (in_[pos_] == '-');
    auto digits = [&]() {
      const size_t start = end;
      while (end < in_.size() && IsDigit(in_[end])) end++;
      return end > start;
    };
    digits();
    bool is_float = false;
    if (At(end) == '.' && IsDigit(At(end + 1))) {
      end++;
      digits();
      is_float = true;
    }
    if (At(end) == 'e' || At(end) == 'E') {
      end++;
      if (At(end) == '+' || At(end) == '-') end++;
      if (!digits()) return ErrorHere(*token, "malformed number exponent");
      is_float = true;
    }
    if (!is_float && IsLetter(At(end))) return LexDuration(end, token);
    if (end < in_.size() && IsIdentifierChar(in_[end])) {
      return ErrorHere(*token, "malformed number");
    }
    return LexFixed(is_float ? TokenKind::kFloat : TokenKind::kInteger, end - pos_, token);
  }

  // Digits then letters, repeated (1h30m): the parts of a duration literal, lower-cased; which
  // units are valid is the parser's business (cql_duration.h).
  Status LexDuration(size_t end, Token* token) {
    while (IsLetter(At(end))) {
      while (IsLetter(At(end))) end++;
      while (IsDigit(At(end))) end++;
    }
    if (end < in_.size() && IsIdentifierChar(in_[end])) {
      return ErrorHere(*token, "malformed duration");
    }
    LexFixed(TokenKind::kDuration, end - pos_, token);
    std::transform(token->text.begin(), token->text.end(), token->text.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return Status::OK();
  }

  Status LexIdentifier(Token* token) {
    size_t end = pos_;
    while (end < in_.size() && IsIdentifierChar(in_[end])) end++;
    LexFixed(TokenKind::kIdentifier, end - pos_, token);
    std::transform(token->text.begin(), token->text.end(), token->text.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return Status::OK();
  }

  // '...' or "..." with the quote doubled inside.
  Status LexQuoted(char quote, TokenKind kind, Token* token) {
    token->kind = kind;
    Advance();
    while (true) {
      if (pos_ == in_.size()) {
        return ErrorHere(*token, kind == TokenKind::kString ? "unterminated string literal"
                                                            : "unterminated quoted identifier");
      }
      const char c = in_[pos_];
      Advance();
      if (c != quote) {
        token->text.push_back(c);
      } else if (At(pos_) == quote) {
        token->text.push_back(quote);
        Advance();
      } else {
        break;
      }
    }
    if (kind == TokenKind::kQuotedIdentifier && token->text.empty()) {
      return ErrorHere(*token, "empty quoted identifier");
    }
    return Status::OK();
  }

  Status LexDollarString(Token* token) {
    token->kind = TokenKind::kString;
    Advance(2);
    while (pos_ < in_.size() && !(in_[pos_] == '$' && At(pos_ + 1) == '$')) {
      token->text.push_back(in_[pos_]);
      Advance();
    }
    if (pos_ == in_.size()) return ErrorHere(*token, "unterminated $$ string literal");
    Advance(2);
    return Status::OK();
  }

  Status LexSymbol(Token* token) {
    for (const char* symbol : kTwoCharSymbols) {
      if (Remaining(2) && in_[pos_] == symbol[0] && in_[pos_ + 1] == symbol[1]) {
        return LexFixed(TokenKind::kSymbol, 2, token);
      }
    }
    const char c = in_[pos_];
    if (c != '\0' && std::strchr(kOneCharSymbols, c) != nullptr) {
      return LexFixed(TokenKind::kSymbol, 1, token);
    }
    const auto byte = static_cast<unsigned char>(c);
    char shown[16];
    if (std::isprint(byte)) {
      std::snprintf(shown, sizeof(shown), "'%c'", c);
    } else {
      std::snprintf(shown, sizeof(shown), "byte 0x%02x", byte);
    }
    return ErrorHere(*token, std::string("unexpected character ") + shown);
  }

  Slice in_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
};

}  // namespace

const char* TokenKindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kIdentifier:
      return "identifier";
    case TokenKind::kQuotedIdentifier:
      return "quoted identifier";
    case TokenKind::kString:
      return "string";
    case TokenKind::kInteger:
      return "integer";
    case TokenKind::kFloat:
      return "float";
    case TokenKind::kHexBlob:
      return "blob";
    case TokenKind::kUuid:
      return "uuid";
    case TokenKind::kDuration:
      return "duration";
    case TokenKind::kSymbol:
      return "symbol";
  }
  return "token";
}

Status TokenizeCql(const Slice& input, std::vector<Token>* tokens) {
  return Lexer(input).Run(tokens);
}

std::string TokenLiteralText(const Token& token) {
  return token.kind == TokenKind::kString ? QuoteCqlString(token.text) : token.text;
}

bool IsReservedCqlKeyword(const std::string& lower_word) {
  return std::binary_search(std::begin(kReservedKeywords), std::end(kReservedKeywords), lower_word,
                            [](const std::string& a, const std::string& b) { return a < b; });
}

std::string QuoteCqlString(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  out.push_back('\'');
  return out;
}

std::string CqlIdentifier(const std::string& name) {
  bool bare = !name.empty() && std::islower(static_cast<unsigned char>(name[0])) &&
              !IsReservedCqlKeyword(name);
  for (char c : name) {
    bare = bare && (std::islower(static_cast<unsigned char>(c)) || IsDigit(c) || c == '_');
  }
  if (bare) return name;
  std::string out = "\"";
  for (char c : name) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  out.push_back('"');
  return out;
}

std::string DescribeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kString:
      return "string " + QuoteCqlString(token.text);
    case TokenKind::kQuotedIdentifier:
      return "\"" + token.text + "\"";
    default:
      return "'" + token.text + "'";
  }
}

TokenCursor::TokenCursor(std::vector<Token> tokens) : tokens_(std::move(tokens)) {
  if (tokens_.empty() || tokens_.back().kind != TokenKind::kEnd) tokens_.emplace_back();
}

const Token& TokenCursor::Peek(size_t ahead) const {
  return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
}

const Token& TokenCursor::Next() {
  const Token& token = Peek();
  if (pos_ + 1 < tokens_.size()) pos_++;
  return token;
}

bool TokenCursor::PeekKeyword(const char* word, size_t ahead) const {
  const Token& token = Peek(ahead);
  return token.kind == TokenKind::kIdentifier && token.text == word;
}

bool TokenCursor::ConsumeKeyword(const char* word) {
  if (!PeekKeyword(word)) return false;
  Next();
  return true;
}

Status TokenCursor::ExpectKeyword(const char* word) {
  if (ConsumeKeyword(word)) return Status::OK();
  std::string upper(word);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return Error("expected " + upper);
}

bool TokenCursor::PeekSymbol(const char* symbol, size_t ahead) const {
  const Token& token = Peek(ahead);
  return token.kind == TokenKind::kSymbol && token.text == symbol;
}

bool TokenCursor::ConsumeSymbol(const char* symbol) {
  if (!PeekSymbol(symbol)) return false;
  Next();
  return true;
}

Status TokenCursor::ExpectSymbol(const char* symbol) {
  if (ConsumeSymbol(symbol)) return Status::OK();
  return Error(std::string("expected '") + symbol + "'");
}

Status TokenCursor::ExpectName(const char* what, std::string* name) {
  const Token& token = Peek();
  if (token.kind == TokenKind::kQuotedIdentifier) {
    *name = Next().text;
    return Status::OK();
  }
  if (token.kind != TokenKind::kIdentifier) return Error(std::string("expected ") + what);
  if (IsReservedCqlKeyword(token.text)) {
    return Error(std::string("expected ") + what + ", got reserved keyword '" + token.text +
                 "' (quote it to use it as a name)");
  }
  *name = Next().text;
  return Status::OK();
}

Status TokenCursor::ExpectEndOfStatement() {
  SkipSemicolon();
  if (!AtEnd()) return Error("unexpected text after the end of the statement");
  return Status::OK();
}

Status TokenCursor::ErrorAt(const Token& token, const std::string& message) const {
  return Status::InvalidArgument(message + " at line " + std::to_string(token.line) + ", column " +
                                 std::to_string(token.column) + " (near " + DescribeToken(token) +
                                 ")");
}

}  // namespace columnar
