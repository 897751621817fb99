#include "table_format/cql_parser.h"

#include <charconv>
#include <set>
#include <utility>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/encoding.h"

namespace columnar {
namespace {

std::string StatusMessage(const Status& s) {
  return s.getState() != nullptr ? s.getState() : s.ToString();
}

using OptionTerm = CqlOptionTerm;

// A name with the token it came from (for error positions).
struct NamedToken {
  std::string name;
  Token token;
};

// The options of a WITH clause.
struct WithClause {
  TableAlteration options;  // only the option fields are used
  std::vector<std::pair<NamedToken, ClusteringOrder>> clustering_order;
};

Status ParseName(TokenCursor* cursor, const char* what, NamedToken* named) {
  named->token = cursor->Peek();
  return cursor->ExpectName(what, &named->name);
}

Status ParseTableName(TokenCursor* cursor, std::string* keyspace, std::string* table) {
  keyspace->clear();
  Status s = cursor->ExpectName("table name", table);
  if (s.ok() && cursor->ConsumeSymbol(".")) {
    *keyspace = std::move(*table);
    s = cursor->ExpectName("table name", table);
  }
  return s;
}

// `depth`: the maps enclosing this term plus one. Bounded (kMaxCqlTermNesting), so this
// parser, CanonicalTermText and OptionTerm's destructor recurse a bounded number of times.
Status ParseTerm(TokenCursor* cursor, int depth, OptionTerm* term) {
  term->token = cursor->Peek();
  if (cursor->PeekSymbol("{") && depth > kMaxCqlTermNesting) {
    return cursor->Error("option value nested deeper than " + std::to_string(kMaxCqlTermNesting) +
                         " maps");
  }
  if (cursor->ConsumeSymbol("{")) {
    term->is_map = true;
    if (cursor->ConsumeSymbol("}")) return Status::OK();
    do {
      OptionTerm key, value;
      Status s = ParseTerm(cursor, depth + 1, &key);
      if (s.ok()) s = cursor->ExpectSymbol(":");
      if (s.ok()) s = ParseTerm(cursor, depth + 1, &value);
      if (!s.ok()) return s;
      term->entries.emplace_back(std::move(key), std::move(value));
    } while (cursor->ConsumeSymbol(","));
    return cursor->ExpectSymbol("}");
  }
  switch (term->token.kind) {
    case TokenKind::kString:
    case TokenKind::kInteger:
    case TokenKind::kFloat:
    case TokenKind::kHexBlob:
    case TokenKind::kUuid:
    case TokenKind::kIdentifier:
      cursor->Next();
      return Status::OK();
    default:
      return cursor->Error("expected an option value (string, number, identifier or map)");
  }
}

std::string CanonicalTermText(const OptionTerm& term) {
  if (!term.is_map) return TokenLiteralText(term.token);
  std::string out = "{";
  for (const auto& [key, value] : term.entries) {
    if (out.size() > 1) out += ", ";
    out += CanonicalTermText(key) + ": " + CanonicalTermText(value);
  }
  return out + "}";
}

// A map of string keys to string values accepted by `accept_value`.
template <typename AcceptValue>
Status TermToStringMap(const TokenCursor& cursor, const std::string& option, const OptionTerm& term,
                       AcceptValue accept_value, std::map<std::string, std::string>* out) {
  if (!term.is_map) {
    return cursor.ErrorAt(term.token, option + " must be a map {'column': 'value', ...}");
  }
  out->clear();
  for (const auto& [key, value] : term.entries) {
    if (key.is_map || key.token.kind != TokenKind::kString || value.is_map ||
        value.token.kind != TokenKind::kString) {
      return cursor.ErrorAt(key.token, option + " entries must be 'string': 'string'");
    }
    Status s = accept_value(value.token);
    if (!s.ok()) return s;
    if (!out->emplace(key.token.text, value.token.text).second) {
      return cursor.ErrorAt(key.token, option + " lists '" + key.token.text + "' twice");
    }
  }
  return Status::OK();
}

Status ApplyOption(const TokenCursor& cursor, const NamedToken& name, const OptionTerm& term,
                   TableAlteration* options) {
  if (name.name == "column_encodings") {
    auto accept = [&](const Token& value) {
      Encoding encoding;
      if (ParseEncodingName(value.text, &encoding)) return Status::OK();
      return cursor.ErrorAt(value, "unknown encoding '" + value.text + "'");
    };
    options->column_encodings.emplace();
    return TermToStringMap(cursor, name.name, term, accept, &*options->column_encodings);
  }
  if (name.name == "column_compression") {
    auto accept = [&](const Token& value) {
      ColumnCompression compression;
      if (ParseColumnCompressionName(value.text, &compression)) return Status::OK();
      return cursor.ErrorAt(value, "column compression must be 'none' or 'zstd'");
    };
    options->column_compression.emplace();
    return TermToStringMap(cursor, name.name, term, accept, &*options->column_compression);
  }
  if (name.name == "default_time_to_live") {
    int64_t seconds = -1;
    const std::string& text = term.token.text;
    const bool is_integer =
        !term.is_map && term.token.kind == TokenKind::kInteger &&
        std::from_chars(text.data(), text.data() + text.size(), seconds).ec == std::errc();
    if (!is_integer || seconds < 0 || seconds > kMaxTimeToLiveSeconds) {
      return cursor.ErrorAt(term.token, "default_time_to_live must be an integer between 0 and " +
                                            std::to_string(kMaxTimeToLiveSeconds));
    }
    options->default_time_to_live = seconds;
    return Status::OK();
  }
  if (name.name == "gc_grace_seconds") {
    int64_t seconds = 0;
    if (term.is_map || term.token.kind != TokenKind::kInteger ||
        !ParseGcGraceSeconds(term.token.text, &seconds)) {
      return cursor.ErrorAt(term.token, "gc_grace_seconds must be an integer between 0 and " +
                                            std::to_string(kMaxGcGraceSeconds));
    }
  }
  options->other_options[name.name] = CanonicalTermText(term);
  return Status::OK();
}

Status ParseClusteringOrder(TokenCursor* cursor, WithClause* clause) {
  Status s = cursor->ExpectKeyword("order");
  if (s.ok()) s = cursor->ExpectKeyword("by");
  if (s.ok()) s = cursor->ExpectSymbol("(");
  if (!s.ok()) return s;
  do {
    NamedToken column;
    s = ParseName(cursor, "clustering column name", &column);
    if (!s.ok()) return s;
    ClusteringOrder order = ClusteringOrder::kAsc;
    if (cursor->ConsumeKeyword("desc")) {
      order = ClusteringOrder::kDesc;
    } else if (!cursor->ConsumeKeyword("asc")) {
      return cursor->Error("expected ASC or DESC");
    }
    clause->clustering_order.emplace_back(std::move(column), order);
  } while (cursor->ConsumeSymbol(","));
  return cursor->ExpectSymbol(")");
}

// After WITH: option (AND option)*.
Status ParseWithClause(TokenCursor* cursor, bool allow_clustering_order, WithClause* clause) {
  std::set<std::string> seen;
  do {
    const Token start = cursor->Peek();
    if (cursor->ConsumeKeyword("clustering")) {
      if (!allow_clustering_order) {
        return cursor->ErrorAt(start, "CLUSTERING ORDER cannot be changed by ALTER TABLE");
      }
      if (!seen.insert("clustering").second) {
        return cursor->ErrorAt(start, "CLUSTERING ORDER given twice");
      }
      Status s = ParseClusteringOrder(cursor, clause);
      if (!s.ok()) return s;
      continue;
    }
    if (cursor->PeekKeyword("compact")) {
      return cursor->Error("COMPACT STORAGE is not supported");
    }
    NamedToken name;
    OptionTerm term;
    Status s = ParseName(cursor, "table option name", &name);
    if (s.ok() && !seen.insert(name.name).second) {
      s = cursor->ErrorAt(name.token, "option '" + name.name + "' given twice");
    }
    if (s.ok()) s = cursor->ExpectSymbol("=");
    if (s.ok()) s = ParseTerm(cursor, 1, &term);
    if (s.ok()) s = ApplyOption(*cursor, name, term, &clause->options);
    if (!s.ok()) return s;
  } while (cursor->ConsumeKeyword("and"));
  return Status::OK();
}

Status ParseNameList(TokenCursor* cursor, const char* what, std::vector<NamedToken>* names) {
  do {
    NamedToken name;
    Status s = ParseName(cursor, what, &name);
    if (!s.ok()) return s;
    names->push_back(std::move(name));
  } while (cursor->ConsumeSymbol(","));
  return Status::OK();
}

// PRIMARY KEY ( p | (p1, ...) [, c1, ...] ), after PRIMARY KEY.
Status ParsePrimaryKeyClause(TokenCursor* cursor, std::vector<NamedToken>* partition,
                             std::vector<NamedToken>* clustering) {
  Status s = cursor->ExpectSymbol("(");
  if (!s.ok()) return s;
  if (cursor->ConsumeSymbol("(")) {
    s = ParseNameList(cursor, "partition key column name", partition);
    if (s.ok()) s = cursor->ExpectSymbol(")");
  } else {
    partition->emplace_back();
    s = ParseName(cursor, "partition key column name", &partition->back());
  }
  if (s.ok() && cursor->ConsumeSymbol(",")) {
    s = ParseNameList(cursor, "clustering column name", clustering);
  }
  return s.ok() ? cursor->ExpectSymbol(")") : s;
}

// Column definition and table-level checks that can point at a token.
struct CreateTableParts {
  std::string keyspace;
  std::string table;
  std::vector<std::pair<NamedToken, LogicalType>> columns;
  bool has_primary_key = false;
  std::vector<NamedToken> partition;
  std::vector<NamedToken> clustering;
  WithClause with;
};

// PRIMARY KEY, once per table, either inline or as a clause; `start` is its first token.
Status ClaimPrimaryKey(const TokenCursor& cursor, const Token& start, CreateTableParts* parts) {
  if (parts->has_primary_key) return cursor.ErrorAt(start, "PRIMARY KEY defined twice");
  parts->has_primary_key = true;
  return Status::OK();
}

// One element of the column list: a column definition or a PRIMARY KEY clause.
Status ParseTableElement(TokenCursor* cursor, CreateTableParts* parts) {
  const Token start = cursor->Peek();
  if (cursor->ConsumeKeyword("primary")) {
    Status s = ClaimPrimaryKey(*cursor, start, parts);
    if (s.ok()) s = cursor->ExpectKeyword("key");
    return s.ok() ? ParsePrimaryKeyClause(cursor, &parts->partition, &parts->clustering) : s;
  }
  NamedToken column;
  LogicalType type;
  Status s = ParseName(cursor, "column name or PRIMARY KEY", &column);
  if (s.ok()) s = ParseCqlType(cursor, &type);
  if (!s.ok()) return s;
  if (cursor->PeekKeyword("static")) return cursor->Error("static columns are not supported");
  const Token key_start = cursor->Peek();
  if (cursor->ConsumeKeyword("primary")) {
    s = ClaimPrimaryKey(*cursor, key_start, parts);
    if (s.ok()) s = cursor->ExpectKeyword("key");
    if (!s.ok()) return s;
    parts->partition.push_back(column);
  }
  parts->columns.emplace_back(std::move(column), type);
  return Status::OK();
}

Status ParseColumnDefinitions(TokenCursor* cursor, CreateTableParts* parts) {
  Status s = cursor->ExpectSymbol("(");
  if (!s.ok()) return s;
  do {
    s = ParseTableElement(cursor, parts);
    if (!s.ok()) return s;
  } while (cursor->ConsumeSymbol(","));
  if (!parts->has_primary_key) return cursor->Error("missing PRIMARY KEY definition");
  return cursor->ExpectSymbol(")");
}

Status CheckCreateTableNames(const TokenCursor& cursor, const CreateTableParts& parts) {
  std::set<std::string> defined, keyed;
  for (const auto& [column, type] : parts.columns) {
    if (!defined.insert(column.name).second) {
      return cursor.ErrorAt(column.token, "column '" + column.name + "' defined twice");
    }
  }
  for (const std::vector<NamedToken>* key : {&parts.partition, &parts.clustering}) {
    for (const NamedToken& column : *key) {
      if (defined.count(column.name) == 0) {
        return cursor.ErrorAt(column.token,
                              "PRIMARY KEY names undefined column '" + column.name + "'");
      }
      if (!keyed.insert(column.name).second) {
        return cursor.ErrorAt(column.token,
                              "column '" + column.name + "' appears twice in the PRIMARY KEY");
      }
    }
  }
  const auto& order = parts.with.clustering_order;
  for (size_t i = 0; i < order.size(); i++) {
    if (i >= parts.clustering.size() || order[i].first.name != parts.clustering[i].name) {
      return cursor.ErrorAt(order[i].first.token,
                            "CLUSTERING ORDER must list the clustering columns in key order; '" +
                                order[i].first.name + "' is out of place");
    }
  }
  return Status::OK();
}

Status BuildCreatedSchema(const CreateTableParts& parts, TableSchema* schema) {
  TableSchemaBuilder builder(parts.keyspace, parts.table);
  for (const auto& [column, type] : parts.columns) builder.AddColumn(column.name, type);
  std::vector<std::string> partition;
  for (const NamedToken& column : parts.partition) partition.push_back(column.name);
  builder.SetPartitionKey(std::move(partition));
  for (size_t i = 0; i < parts.clustering.size(); i++) {
    const auto& order = parts.with.clustering_order;
    builder.AddClusteringColumn(parts.clustering[i].name,
                                i < order.size() ? order[i].second : ClusteringOrder::kAsc);
  }
  const TableAlteration& with = parts.with.options;
  TableOptions options;
  if (with.column_encodings) options.column_encodings = *with.column_encodings;
  if (with.column_compression) options.column_compression = *with.column_compression;
  if (with.default_time_to_live) options.default_time_to_live = *with.default_time_to_live;
  options.other = with.other_options;
  builder.SetOptions(std::move(options));
  Status s = builder.Build(schema);
  if (!s.ok()) return Status::InvalidArgument("CREATE TABLE " + parts.table, StatusMessage(s));
  return s;
}

// ADD col type | ADD (col type, ...) after ALTER TABLE name.
Status ParseAddedColumns(TokenCursor* cursor, TableAlteration* alteration) {
  const bool parenthesized = cursor->ConsumeSymbol("(");
  do {
    std::string name;
    LogicalType type;
    Status s = cursor->ExpectName("column name", &name);
    if (s.ok()) s = ParseCqlType(cursor, &type);
    if (!s.ok()) return s;
    alteration->added_columns.emplace_back(std::move(name), type);
  } while (parenthesized && cursor->ConsumeSymbol(","));
  return parenthesized ? cursor->ExpectSymbol(")") : Status::OK();
}

// DROP col | DROP (col, ...) after ALTER TABLE name.
Status ParseDroppedColumns(TokenCursor* cursor, TableAlteration* alteration) {
  const bool parenthesized = cursor->ConsumeSymbol("(");
  std::vector<NamedToken> names;
  Status s;
  if (parenthesized) {
    s = ParseNameList(cursor, "column name", &names);
    if (s.ok()) s = cursor->ExpectSymbol(")");
  } else {
    names.emplace_back();
    s = ParseName(cursor, "column name", &names.back());
  }
  std::set<std::string> seen;
  for (size_t i = 0; s.ok() && i < names.size(); i++) {
    if (!seen.insert(names[i].name).second) {
      s = cursor->ErrorAt(names[i].token, "column '" + names[i].name + "' listed twice");
    }
    alteration->dropped_columns.push_back(names[i].name);
  }
  return s;
}

Status ParseAlterChange(TokenCursor* cursor, TableAlteration* alteration) {
  if (cursor->ConsumeKeyword("add")) return ParseAddedColumns(cursor, alteration);
  if (cursor->ConsumeKeyword("drop")) return ParseDroppedColumns(cursor, alteration);
  if (cursor->ConsumeKeyword("with")) {
    WithClause clause;
    Status s = ParseWithClause(cursor, /*allow_clustering_order=*/false, &clause);
    if (s.ok()) *alteration = std::move(clause.options);
    return s;
  }
  return cursor->Error("expected ADD, DROP or WITH");
}

template <typename Statement, typename ParseFn>
Status ParseWholeInput(const Slice& cql, Statement* statement, ParseFn parse) {
  std::vector<Token> tokens;
  Status s = TokenizeCql(cql, &tokens);
  if (!s.ok()) return s;
  TokenCursor cursor(std::move(tokens));
  s = parse(&cursor, statement);
  if (s.ok() && !cursor.AtEnd()) {
    s = cursor.Error("unexpected text after the end of the statement");
  }
  return s;
}

}  // namespace

Status ParseCqlOptionTerm(TokenCursor* cursor, CqlOptionTerm* term) {
  return ParseTerm(cursor, /*depth=*/1, term);
}

Status ParseCreateTable(TokenCursor* cursor, CreateTableStatement* statement) {
  CreateTableParts parts;
  Status s = cursor->ExpectKeyword("create");
  if (s.ok()) s = cursor->ExpectKeyword("table");
  if (!s.ok()) return s;
  statement->if_not_exists = false;
  if (cursor->ConsumeKeyword("if")) {
    s = cursor->ExpectKeyword("not");
    if (s.ok()) s = cursor->ExpectKeyword("exists");
    statement->if_not_exists = true;
  }
  if (s.ok()) s = ParseTableName(cursor, &parts.keyspace, &parts.table);
  if (s.ok()) s = ParseColumnDefinitions(cursor, &parts);
  if (s.ok() && cursor->ConsumeKeyword("with")) {
    s = ParseWithClause(cursor, /*allow_clustering_order=*/true, &parts.with);
  }
  if (!s.ok()) return s;
  cursor->SkipSemicolon();
  s = CheckCreateTableNames(*cursor, parts);
  return s.ok() ? BuildCreatedSchema(parts, &statement->schema) : s;
}

Status ParseAlterTable(TokenCursor* cursor, AlterTableStatement* statement) {
  Status s = cursor->ExpectKeyword("alter");
  if (s.ok()) s = cursor->ExpectKeyword("table");
  if (s.ok()) s = ParseTableName(cursor, &statement->keyspace, &statement->table);
  statement->alteration = TableAlteration();
  if (s.ok()) s = ParseAlterChange(cursor, &statement->alteration);
  if (s.ok()) cursor->SkipSemicolon();
  return s;
}

Status ParseCreateTable(const Slice& cql, CreateTableStatement* statement) {
  return ParseWholeInput(cql, statement, [](TokenCursor* c, CreateTableStatement* st) {
    return ParseCreateTable(c, st);
  });
}

Status ParseAlterTable(const Slice& cql, AlterTableStatement* statement) {
  return ParseWholeInput(cql, statement, [](TokenCursor* c, AlterTableStatement* st) {
    return ParseAlterTable(c, st);
  });
}

Status ApplyAlterTable(const Slice& cql, const TableSchema& current, TableSchema* altered) {
  AlterTableStatement statement;
  Status s = ParseAlterTable(cql, &statement);
  if (!s.ok()) return s;
  if (statement.table != current.table() ||
      (!statement.keyspace.empty() && statement.keyspace != current.keyspace())) {
    const std::string named =
        statement.keyspace.empty() ? statement.table : statement.keyspace + "." + statement.table;
    return Status::InvalidArgument("ALTER TABLE names " + named + ", not " +
                                   current.QualifiedName());
  }
  s = current.Alter(statement.alteration, altered);
  if (!s.ok()) {
    return Status::InvalidArgument("ALTER TABLE " + current.QualifiedName(), StatusMessage(s));
  }
  return s;
}

}  // namespace columnar
