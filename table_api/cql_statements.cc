#include "table_api/cql_statements.h"

#include <cctype>
#include <charconv>
#include <set>
#include <utility>

#include "table_format/cql_duration.h"

namespace columnar {
namespace {

Status ParseColumnName(TokenCursor* cursor, std::string* name, Token* token) {
  *token = cursor->Peek();
  return cursor->ExpectName("column name", name);
}

// Identifiers that are values rather than names.
bool IsLiteralWord(const std::string& word) {
  static const std::set<std::string> kWords = {"true", "false", "null", "nan", "infinity"};
  return kWords.count(word) > 0;
}

bool IsOpeningBracket(const TokenCursor& cursor, size_t ahead = 0) {
  return cursor.PeekSymbol("[", ahead) || cursor.PeekSymbol("{", ahead) ||
         cursor.PeekSymbol("(", ahead);
}

bool IsClosingBracket(const TokenCursor& cursor) {
  return cursor.PeekSymbol("]") || cursor.PeekSymbol("}") || cursor.PeekSymbol(")");
}

// A collection or tuple literal ([...], {...}, (...), nested) as one text for
// Value::FromCqlLiteral, which checks it against the column's frozen type; here only the
// brackets are matched.
Status ParseCollectionLiteral(TokenCursor* cursor, CqlLiteral* literal) {
  std::vector<std::string> open;  // the closing symbol of every bracket still open
  literal->text.clear();
  do {
    const Token& token = cursor->Peek();
    if (token.kind == TokenKind::kEnd) {
      return cursor->ErrorAt(literal->token,
                             "collection literal is not closed (expected '" + open.back() + "')");
    }
    if (cursor->PeekSymbol("?")) {
      return cursor->Error("bind markers (?) are not supported: write the values in the statement");
    }
    if (IsOpeningBracket(*cursor)) {
      open.push_back(token.text == "[" ? "]" : token.text == "{" ? "}" : ")");
    } else if (IsClosingBracket(*cursor)) {
      if (token.text != open.back()) {
        return cursor->Error("expected '" + open.back() + "' to close the collection literal");
      }
      open.pop_back();
    }
    literal->text += TokenLiteralText(cursor->Next());
    if (token.kind == TokenKind::kSymbol && (token.text == "," || token.text == ":")) {
      literal->text += " ";
    }
  } while (!open.empty());
  return Status::OK();
}

Status ParseLiteral(TokenCursor* cursor, CqlLiteral* literal) {
  const Token& token = cursor->Peek();
  literal->token = token;
  if (IsOpeningBracket(*cursor)) return ParseCollectionLiteral(cursor, literal);
  if (cursor->PeekSymbol("?")) {
    return cursor->Error("bind markers (?) are not supported: write the values in the statement");
  }
  // The lexer reads "-Infinity" / "-NaN" as '-' and a word.
  if (cursor->PeekSymbol("-") && cursor->Peek(1).kind == TokenKind::kIdentifier &&
      (cursor->Peek(1).text == "infinity" || cursor->Peek(1).text == "nan")) {
    cursor->Next();
    literal->text = "-" + cursor->Next().text;
    return Status::OK();
  }
  switch (token.kind) {
    case TokenKind::kString:
    case TokenKind::kInteger:
    case TokenKind::kFloat:
    case TokenKind::kHexBlob:
    case TokenKind::kUuid:
      literal->text = TokenLiteralText(cursor->Next());
      return Status::OK();
    case TokenKind::kIdentifier:
      if (IsLiteralWord(token.text)) {
        literal->text = cursor->Next().text;
        return Status::OK();
      }
      break;
    default:
      break;
  }
  return cursor->Error("expected a value");
}

Status ParseLiteralList(TokenCursor* cursor, std::vector<CqlLiteral>* literals) {
  Status s = cursor->ExpectSymbol("(");
  while (s.ok()) {
    CqlLiteral literal;
    s = ParseLiteral(cursor, &literal);
    if (!s.ok()) break;
    literals->push_back(std::move(literal));
    if (!cursor->ConsumeSymbol(",")) return cursor->ExpectSymbol(")");
  }
  return s;
}

Status ParseNonNegativeInteger(TokenCursor* cursor, const char* what, int64_t* value) {
  const Token& token = cursor->Peek();
  if (token.kind != TokenKind::kInteger) {
    return cursor->Error(std::string("expected an integer ") + what);
  }
  const char* end = token.text.data() + token.text.size();
  auto [ptr, ec] = std::from_chars(token.text.data(), end, *value);
  if (ec != std::errc() || ptr != end || *value < 0) {
    return cursor->Error(std::string(what) + " must be a non-negative 64-bit integer");
  }
  cursor->Next();
  return Status::OK();
}

// One option of USING ...; `ttl` null: the statement takes TIMESTAMP only (DELETE).
Status ParseUsingOption(TokenCursor* cursor, std::optional<int64_t>* ttl,
                        std::optional<int64_t>* timestamp) {
  const Token token = cursor->Peek();
  int64_t value = 0;
  if (ttl != nullptr && cursor->ConsumeKeyword("ttl")) {
    if (ttl->has_value()) return CqlErrorAt(token, "TTL given twice");
    Status s = ParseNonNegativeInteger(cursor, "TTL", &value);
    if (s.ok()) *ttl = value;
    return s;
  }
  if (cursor->ConsumeKeyword("timestamp")) {
    if (timestamp->has_value()) return CqlErrorAt(token, "TIMESTAMP given twice");
    Status s = ParseNonNegativeInteger(cursor, "TIMESTAMP", &value);
    if (s.ok()) *timestamp = value;
    return s;
  }
  if (ttl == nullptr && cursor->PeekKeyword("ttl")) {
    return cursor->Error("a DELETE takes no TTL (only USING TIMESTAMP)");
  }
  return cursor->Error(ttl != nullptr ? "expected TTL or TIMESTAMP" : "expected TIMESTAMP");
}

// [USING option [AND option]] at the cursor.
Status ParseUsing(TokenCursor* cursor, std::optional<int64_t>* ttl,
                  std::optional<int64_t>* timestamp) {
  if (!cursor->ConsumeKeyword("using")) return Status::OK();
  Status s = ParseUsingOption(cursor, ttl, timestamp);
  if (s.ok() && cursor->ConsumeKeyword("and")) s = ParseUsingOption(cursor, ttl, timestamp);
  return s;
}

Status ParseInsertColumns(TokenCursor* cursor, InsertStatement* insert) {
  Status s = cursor->ExpectSymbol("(");
  while (s.ok()) {
    std::string name;
    Token token;
    s = ParseColumnName(cursor, &name, &token);
    if (!s.ok()) break;
    for (const std::string& seen : insert->columns) {
      if (seen == name) return CqlErrorAt(token, "column '" + name + "' is given twice");
    }
    insert->columns.push_back(std::move(name));
    insert->column_tokens.push_back(std::move(token));
    if (!cursor->ConsumeSymbol(",")) return cursor->ExpectSymbol(")");
  }
  return s;
}

// Lightweight transactions: a condition (IF ...) at the cursor is refused.
Status RefuseConditions(const TokenCursor& cursor, const std::string& statement) {
  if (!cursor.PeekKeyword("if")) return Status::OK();
  return CqlNotSupportedAt(cursor.Peek(),
                           "lightweight transactions (" + statement +
                               ") are not supported: they need a Paxos round between "
                               "replicas, and this store is one node without one");
}

Status ParseInsert(TokenCursor* cursor, InsertStatement* insert) {
  Status s = cursor->ExpectKeyword("insert");
  if (s.ok()) s = cursor->ExpectKeyword("into");
  if (s.ok()) s = ParseQualifiedTableName(cursor, &insert->keyspace, &insert->table);
  if (s.ok()) s = ParseInsertColumns(cursor, insert);
  const Token values_token = cursor->Peek();
  if (s.ok()) s = cursor->ExpectKeyword("values");
  if (s.ok()) s = ParseLiteralList(cursor, &insert->values);
  if (s.ok() && insert->values.size() != insert->columns.size()) {
    return CqlErrorAt(values_token, std::to_string(insert->columns.size()) + " columns but " +
                                        std::to_string(insert->values.size()) + " values");
  }
  if (s.ok()) s = ParseUsing(cursor, &insert->ttl_seconds, &insert->timestamp_micros);
  return s.ok() ? RefuseConditions(*cursor, "INSERT ... IF NOT EXISTS") : s;
}

Status ParseOperator(TokenCursor* cursor, RelationOperator* op) {
  static const std::pair<const char*, RelationOperator> kOperators[] = {
      {"=", RelationOperator::kEqual},
      {"<", RelationOperator::kLess},
      {"<=", RelationOperator::kLessOrEqual},
      {">", RelationOperator::kGreater},
      {">=", RelationOperator::kGreaterOrEqual}};
  for (const auto& [symbol, value] : kOperators) {
    if (cursor->ConsumeSymbol(symbol)) {
      *op = value;
      return Status::OK();
    }
  }
  if (cursor->PeekKeyword("contains")) {
    return CqlNotSupportedAt(cursor->Peek(),
                             "CONTAINS and CONTAINS KEY are not supported: a frozen collection "
                             "is compared as a whole (=, IN, <, >)");
  }
  if (cursor->ConsumeKeyword("in")) {
    *op = RelationOperator::kIn;
    return Status::OK();
  }
  if (cursor->PeekSymbol("!=")) return cursor->Error("!= is not supported");
  return cursor->Error("expected =, <, <=, >, >= or IN");
}

Status ParseRelation(TokenCursor* cursor, CqlRelation* relation) {
  if (cursor->PeekSymbol("(")) {
    return cursor->Error("multi-column relations are not supported: restrict each column alone");
  }
  Status s = ParseColumnName(cursor, &relation->column, &relation->column_token);
  if (s.ok()) s = ParseOperator(cursor, &relation->op);
  if (!s.ok()) return s;
  if (relation->op == RelationOperator::kIn) {
    if (cursor->PeekSymbol("?")) {
      return cursor->Error("bind markers (?) are not supported: write the IN values as (v1, v2)");
    }
    return ParseLiteralList(cursor, &relation->values);
  }
  relation->values.emplace_back();
  return ParseLiteral(cursor, &relation->values.back());
}

Status ParseWhere(TokenCursor* cursor, std::vector<CqlRelation>* where) {
  Status s = cursor->ExpectKeyword("where");
  while (s.ok()) {
    CqlRelation relation;
    s = ParseRelation(cursor, &relation);
    if (!s.ok()) break;
    where->push_back(std::move(relation));
    if (!cursor->ConsumeKeyword("and")) break;
  }
  return s;
}

// floor's width: a duration literal or an integer.
Status ParseBucketWidth(TokenCursor* cursor, CqlBucketWidth* width) {
  width->token = cursor->Peek();
  width->text = width->token.text;
  if (width->token.kind == TokenKind::kDuration) {
    int64_t nanoseconds = 0;
    Status s = ParseFixedDuration(width->text, &nanoseconds);
    if (!s.ok()) return CqlErrorAt(width->token, s.getState());
    width->duration_nanoseconds = nanoseconds;
    cursor->Next();
    return Status::OK();
  }
  if (width->token.kind != TokenKind::kInteger) {
    return cursor->Error("expected a bucket width: a duration such as 1h or an integer");
  }
  Status s = ParseNonNegativeInteger(cursor, "bucket width", &width->integer);
  if (s.ok() && width->integer == 0) s = CqlErrorAt(width->token, "bucket width must be positive");
  return s;
}

// floor(column, width), the cursor on "floor".
Status ParseFloor(TokenCursor* cursor, std::string* column, std::optional<CqlBucketWidth>* width) {
  cursor->Next();
  Status s = cursor->ExpectSymbol("(");
  if (s.ok()) s = cursor->ExpectName("column name", column);
  if (s.ok()) s = cursor->ExpectSymbol(",");
  width->emplace();
  if (s.ok()) s = ParseBucketWidth(cursor, &**width);
  return s.ok() ? cursor->ExpectSymbol(")") : s;
}

CqlSelector::Function SelectorFunction(const TokenCursor& cursor) {
  static const std::pair<const char*, CqlSelector::Function> kFunctions[] = {
      {"writetime", CqlSelector::Function::kWriteTime},
      {"ttl", CqlSelector::Function::kTtl},
      {"count", CqlSelector::Function::kCount},
      {"min", CqlSelector::Function::kMin},
      {"max", CqlSelector::Function::kMax},
      {"sum", CqlSelector::Function::kSum},
      {"avg", CqlSelector::Function::kAvg},
      {"floor", CqlSelector::Function::kFloor}};
  for (const auto& [name, function] : kFunctions) {
    if (cursor.PeekKeyword(name)) return function;
  }
  return CqlSelector::Function::kNone;
}

Status ParseFunctionSelector(TokenCursor* cursor, CqlSelector* selector) {
  selector->function = SelectorFunction(*cursor);
  switch (selector->function) {
    case CqlSelector::Function::kNone:
      return cursor->Error(
          "unsupported function (supported: writetime, ttl, count, min, max, sum, avg, floor)");
    case CqlSelector::Function::kFloor:
      return ParseFloor(cursor, &selector->column, &selector->width);
    case CqlSelector::Function::kCount:
      // count(*) and count(1) count rows.
      if (cursor->PeekSymbol("*", 2) ||
          (cursor->Peek(2).kind == TokenKind::kInteger && cursor->Peek(2).text == "1")) {
        cursor->Next();
        cursor->Next();
        cursor->Next();
        return cursor->ExpectSymbol(")");
      }
      break;
    default:
      break;
  }
  cursor->Next();
  cursor->Next();
  Status s = cursor->ExpectName("column name", &selector->column);
  return s.ok() ? cursor->ExpectSymbol(")") : s;
}

Status ParseSelector(TokenCursor* cursor, CqlSelector* selector) {
  selector->token = cursor->Peek();
  Status s = cursor->PeekSymbol("(", 1) ? ParseFunctionSelector(cursor, selector)
                                        : cursor->ExpectName("column name", &selector->column);
  if (s.ok() && cursor->ConsumeKeyword("as")) s = cursor->ExpectName("alias", &selector->alias);
  return s;
}

Status ParseSelectors(TokenCursor* cursor, std::vector<CqlSelector>* selectors) {
  if (cursor->ConsumeSymbol("*")) return Status::OK();
  while (true) {
    CqlSelector selector;
    Status s = ParseSelector(cursor, &selector);
    if (!s.ok()) return s;
    selectors->push_back(std::move(selector));
    if (!cursor->ConsumeSymbol(",")) return Status::OK();
  }
}

Status ParseGroupBy(TokenCursor* cursor, std::vector<CqlGroupTerm>* group_by) {
  Status s = cursor->ExpectKeyword("by");
  while (s.ok()) {
    CqlGroupTerm term;
    term.token = cursor->Peek();
    if (cursor->PeekKeyword("floor") && cursor->PeekSymbol("(", 1)) {
      s = ParseFloor(cursor, &term.column, &term.floor);
    } else {
      s = ParseColumnName(cursor, &term.column, &term.token);
    }
    if (!s.ok()) break;
    group_by->push_back(std::move(term));
    if (!cursor->ConsumeSymbol(",")) break;
  }
  return s;
}

Status ParseOrderBy(TokenCursor* cursor, std::vector<CqlOrdering>* order_by) {
  Status s = cursor->ExpectKeyword("by");
  while (s.ok()) {
    CqlOrdering ordering;
    s = ParseColumnName(cursor, &ordering.column, &ordering.token);
    if (!s.ok()) break;
    if (cursor->ConsumeKeyword("desc")) {
      ordering.descending = true;
    } else {
      cursor->ConsumeKeyword("asc");
    }
    order_by->push_back(std::move(ordering));
    if (!cursor->ConsumeSymbol(",")) break;
  }
  return s;
}

Status ParseLimit(TokenCursor* cursor, const char* what, std::optional<uint64_t>* limit) {
  int64_t value = 0;
  const Token token = cursor->Peek();
  Status s = ParseNonNegativeInteger(cursor, what, &value);
  if (s.ok() && value == 0) s = CqlErrorAt(token, std::string(what) + " must be positive");
  if (s.ok()) *limit = static_cast<uint64_t>(value);
  return s;
}

Status ParseSelect(TokenCursor* cursor, SelectStatement* select) {
  Status s = cursor->ExpectKeyword("select");
  // JSON and DISTINCT are keywords only where a selector cannot follow (a column named json
  // or distinct is still selected by `SELECT json FROM ...`).
  auto modifier = [&](const char* word) {
    return cursor->PeekKeyword(word) && !cursor->PeekKeyword("from", 1) &&
           !cursor->PeekSymbol(",", 1) && !cursor->PeekKeyword("as", 1);
  };
  if (s.ok() && modifier("json")) {
    cursor->Next();
    select->json = true;
  }
  if (s.ok() && modifier("distinct")) {
    select->distinct_token = cursor->Next();
    select->distinct = true;
  }
  if (s.ok()) s = ParseSelectors(cursor, &select->selectors);
  if (s.ok()) s = cursor->ExpectKeyword("from");
  if (s.ok()) s = ParseQualifiedTableName(cursor, &select->keyspace, &select->table);
  if (s.ok() && cursor->PeekKeyword("where")) s = ParseWhere(cursor, &select->where);
  if (s.ok() && cursor->ConsumeKeyword("group")) s = ParseGroupBy(cursor, &select->group_by);
  if (s.ok() && cursor->ConsumeKeyword("order")) s = ParseOrderBy(cursor, &select->order_by);
  if (s.ok() && cursor->PeekKeyword("per")) {
    select->per_partition_limit_token = cursor->Peek();
    s = cursor->ExpectKeyword("per");
    if (s.ok()) s = cursor->ExpectKeyword("partition");
    if (s.ok()) s = cursor->ExpectKeyword("limit");
    if (s.ok()) s = ParseLimit(cursor, "PER PARTITION LIMIT", &select->per_partition_limit);
  }
  if (s.ok() && cursor->ConsumeKeyword("limit")) s = ParseLimit(cursor, "LIMIT", &select->limit);
  if (s.ok() && cursor->ConsumeKeyword("allow")) {
    s = cursor->ExpectKeyword("filtering");
    select->allow_filtering = s.ok();
  }
  return s;
}

// A column of DELETE's or SET's list: a whole cell (`element_message` refuses c[...] and
// c.field) not named before (`seen`).
Status ParseCellColumn(TokenCursor* cursor, const std::vector<std::string>& seen,
                       const char* element_message, std::string* name, Token* token) {
  Status s = ParseColumnName(cursor, name, token);
  if (!s.ok()) return s;
  if (cursor->PeekSymbol("[") || cursor->PeekSymbol(".")) return cursor->Error(element_message);
  for (const std::string& earlier : seen) {
    if (earlier == *name) return CqlErrorAt(*token, "column '" + *name + "' is given twice");
  }
  return Status::OK();
}

Status ParseDelete(TokenCursor* cursor, DeleteStatement* remove) {
  Status s = cursor->ExpectKeyword("delete");
  // DELETE c1, c2 FROM ...: the cells to delete.
  while (s.ok() && !cursor->PeekKeyword("from")) {
    std::string name;
    Token token;
    s = ParseCellColumn(cursor, remove->columns,
                        "deleting collection elements or fields is not supported (only whole "
                        "cells: DELETE col FROM ...)",
                        &name, &token);
    if (!s.ok()) break;
    remove->columns.push_back(std::move(name));
    remove->column_tokens.push_back(std::move(token));
    if (!cursor->ConsumeSymbol(",")) break;
  }
  if (s.ok()) s = cursor->ExpectKeyword("from");
  if (s.ok()) s = ParseQualifiedTableName(cursor, &remove->keyspace, &remove->table);
  if (s.ok()) s = ParseUsing(cursor, nullptr, &remove->timestamp_micros);
  if (s.ok()) s = ParseWhere(cursor, &remove->where);
  return s.ok() ? RefuseConditions(*cursor, "DELETE ... IF") : s;
}

// UPDATE [ks.]t [USING ...] SET c = literal [, c = literal ...] WHERE relations
Status ParseUpdate(TokenCursor* cursor, UpdateStatement* update) {
  update->token = cursor->Peek();
  Status s = cursor->ExpectKeyword("update");
  if (s.ok()) s = ParseQualifiedTableName(cursor, &update->keyspace, &update->table);
  if (s.ok()) s = ParseUsing(cursor, &update->ttl_seconds, &update->timestamp_micros);
  if (s.ok()) s = cursor->ExpectKeyword("set");
  while (s.ok()) {
    std::string name;
    Token token;
    s = ParseCellColumn(cursor, update->columns,
                        "setting collection elements or fields is not supported (assign whole "
                        "cells: SET col = value)",
                        &name, &token);
    if (!s.ok()) break;
    s = cursor->ExpectSymbol("=");
    if (!s.ok()) break;
    if ((cursor->Peek().kind == TokenKind::kIdentifier ||
         cursor->Peek().kind == TokenKind::kQuotedIdentifier) &&
        (cursor->PeekSymbol("+", 1) || cursor->PeekSymbol("-", 1))) {
      return CqlNotSupportedAt(cursor->Peek(),
                               "SET c = c + n (a counter or collection update) is not supported: "
                               "assign whole values (SET c = literal)");
    }
    CqlLiteral literal;
    s = ParseLiteral(cursor, &literal);
    if (!s.ok()) break;
    if (cursor->PeekSymbol("+") || cursor->PeekSymbol("-")) {
      return CqlNotSupportedAt(cursor->Peek(),
                               "arithmetic in SET (counters, collection appends) is not "
                               "supported: assign a value");
    }
    update->columns.push_back(std::move(name));
    update->column_tokens.push_back(std::move(token));
    update->values.push_back(std::move(literal));
    if (!cursor->ConsumeSymbol(",")) break;
  }
  if (s.ok() && !cursor->PeekKeyword("where")) return cursor->Error("expected WHERE");
  if (s.ok()) s = ParseWhere(cursor, &update->where);
  return s.ok() ? RefuseConditions(*cursor, "UPDATE ... IF") : s;
}

// CREATE / DROP / ALTER of an object this store does not have.
Status RefuseSchemaObject(const TokenCursor& cursor, const std::string& verb) {
  const Token& object = cursor.Peek(1);
  if (object.kind != TokenKind::kIdentifier) {
    return CqlErrorAt(object, "expected KEYSPACE or TABLE after " + verb);
  }
  std::string upper = object.text;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return CqlNotSupportedAt(object,
                           verb + " " + upper + " is not supported (keyspaces and tables only)");
}

template <typename Statement, typename ParseFn>
Status ParseInto(TokenCursor* cursor, CqlStatement* statement, ParseFn parse) {
  Statement parsed;
  Status s = parse(cursor, &parsed);
  if (s.ok()) statement->statement = std::move(parsed);
  return s;
}

// BEGIN [UNLOGGED | LOGGED] BATCH [USING TIMESTAMP t] statement [;] ... APPLY BATCH
Status ParseBatch(TokenCursor* cursor, BatchStatement* batch) {
  batch->token = cursor->Peek();
  Status s = cursor->ExpectKeyword("begin");
  if (s.ok() && cursor->PeekKeyword("counter")) {
    return CqlNotSupportedAt(cursor->Peek(),
                             "COUNTER BATCH is not supported: counter columns are not supported");
  }
  if (s.ok() && !cursor->ConsumeKeyword("unlogged")) cursor->ConsumeKeyword("logged");
  if (s.ok()) s = cursor->ExpectKeyword("batch");
  if (s.ok() && cursor->PeekKeyword("using") && cursor->PeekKeyword("ttl", 1)) {
    return CqlErrorAt(cursor->Peek(1), "a BATCH takes no TTL (give USING TTL on its statements)");
  }
  if (s.ok()) s = ParseUsing(cursor, nullptr, &batch->timestamp_micros);
  while (s.ok() && !cursor->PeekKeyword("apply")) {
    const Token token = cursor->Peek();
    batch->statement_tokens.push_back(token);
    if (cursor->PeekKeyword("insert")) {
      s = ParseInsert(cursor, &batch->statements.emplace_back().emplace<InsertStatement>());
    } else if (cursor->PeekKeyword("update")) {
      s = ParseUpdate(cursor, &batch->statements.emplace_back().emplace<UpdateStatement>());
    } else if (cursor->PeekKeyword("delete")) {
      s = ParseDelete(cursor, &batch->statements.emplace_back().emplace<DeleteStatement>());
    } else if (cursor->AtEnd()) {
      return cursor->Error("a BATCH ends with APPLY BATCH");
    } else {
      return CqlErrorAt(token, "a BATCH holds INSERT, UPDATE and DELETE statements only");
    }
    if (s.ok()) cursor->ConsumeSymbol(";");
  }
  if (s.ok()) s = cursor->ExpectKeyword("apply");
  if (s.ok()) s = cursor->ExpectKeyword("batch");
  if (s.ok() && batch->statements.empty()) {
    return CqlErrorAt(batch->token, "a BATCH needs at least one statement");
  }
  return s;
}

}  // namespace

Status CqlErrorAt(const Token& token, const std::string& message) {
  return Status::InvalidArgument(message + " at line " + std::to_string(token.line) + ", column " +
                                 std::to_string(token.column) + " (near " + DescribeToken(token) +
                                 ")");
}

Status CqlNotSupportedAt(const Token& token, const std::string& message) {
  const Status invalid = CqlErrorAt(token, message);
  return Status::NotSupported(invalid.getState());
}

Status ParseQualifiedTableName(TokenCursor* cursor, std::string* keyspace, std::string* table) {
  keyspace->clear();
  Status s = cursor->ExpectName("table name", table);
  if (s.ok() && cursor->ConsumeSymbol(".")) {
    *keyspace = std::move(*table);
    s = cursor->ExpectName("table name", table);
  }
  return s;
}

Status ParseCqlStatement(TokenCursor* cursor, CqlStatement* statement) {
  Status s;
  if (cursor->PeekKeyword("create") && cursor->PeekKeyword("table", 1)) {
    s = ParseInto<CreateTableStatement>(
        cursor, statement,
        [](TokenCursor* c, CreateTableStatement* st) { return ParseCreateTable(c, st); });
  } else if (cursor->PeekKeyword("create") && cursor->PeekKeyword("keyspace", 1)) {
    s = ParseInto<CreateKeyspaceStatement>(
        cursor, statement,
        [](TokenCursor* c, CreateKeyspaceStatement* st) { return ParseCreateKeyspace(c, st); });
  } else if (cursor->PeekKeyword("alter") && cursor->PeekKeyword("table", 1)) {
    s = ParseInto<AlterTableStatement>(
        cursor, statement,
        [](TokenCursor* c, AlterTableStatement* st) { return ParseAlterTable(c, st); });
  } else if (cursor->PeekKeyword("drop") && cursor->PeekKeyword("table", 1)) {
    s = ParseInto<DropTableStatement>(cursor, statement, ParseDropTable);
  } else if (cursor->PeekKeyword("drop") && cursor->PeekKeyword("keyspace", 1)) {
    s = ParseInto<DropKeyspaceStatement>(cursor, statement, ParseDropKeyspace);
  } else if (cursor->PeekKeyword("create") || cursor->PeekKeyword("alter") ||
             cursor->PeekKeyword("drop")) {
    std::string verb = cursor->Peek().text;
    for (char& c : verb) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return RefuseSchemaObject(*cursor, verb);
  } else if (cursor->PeekKeyword("use")) {
    s = ParseInto<UseStatement>(cursor, statement, ParseUse);
  } else if (cursor->PeekKeyword("truncate")) {
    s = ParseInto<TruncateStatement>(cursor, statement, ParseTruncate);
  } else if (cursor->PeekKeyword("update")) {
    s = ParseInto<UpdateStatement>(cursor, statement, ParseUpdate);
  } else if (cursor->PeekKeyword("begin")) {
    s = ParseInto<BatchStatement>(cursor, statement, ParseBatch);
  } else if (cursor->PeekKeyword("insert")) {
    s = ParseInto<InsertStatement>(cursor, statement, ParseInsert);
  } else if (cursor->PeekKeyword("select")) {
    s = ParseInto<SelectStatement>(cursor, statement, ParseSelect);
  } else if (cursor->PeekKeyword("delete")) {
    s = ParseInto<DeleteStatement>(cursor, statement, ParseDelete);
  } else {
    return cursor->Error(
        "expected CREATE, ALTER, DROP, TRUNCATE, USE, INSERT, UPDATE, SELECT, DELETE or BEGIN "
        "BATCH");
  }
  if (s.ok()) cursor->SkipSemicolon();
  return s;
}

Status ParseCqlStatement(const Slice& cql, CqlStatement* statement) {
  std::vector<Token> tokens;
  Status s = TokenizeCql(cql, &tokens);
  if (!s.ok()) return s;
  TokenCursor cursor(std::move(tokens));
  s = ParseCqlStatement(&cursor, statement);
  if (s.ok() && !cursor.AtEnd()) {
    s = cursor.Error("unexpected text after the end of the statement");
  }
  return s;
}

}  // namespace columnar
