#include "table_api/cql_ddl_statements.h"

#include <cctype>
#include <set>
#include <utility>
#include <vector>

#include "table_api/cql_statements.h"
#include "table_format/cql_parser.h"

namespace columnar {
namespace {

constexpr size_t kMaxKeyspaceNameLength = 48;  // Cassandra's limit
constexpr char kStrategyPackage[] = "org.apache.cassandra.locator.";

Status ParseIfExists(TokenCursor* cursor, bool* if_exists) {
  *if_exists = false;
  if (!cursor->ConsumeKeyword("if")) return Status::OK();
  *if_exists = true;
  return cursor->ExpectKeyword("exists");
}

Status ParseIfNotExists(TokenCursor* cursor, bool* if_not_exists) {
  *if_not_exists = false;
  if (!cursor->ConsumeKeyword("if")) return Status::OK();
  *if_not_exists = true;
  Status s = cursor->ExpectKeyword("not");
  return s.ok() ? cursor->ExpectKeyword("exists") : s;
}

Status ParseKeyspaceName(TokenCursor* cursor, std::string* name) {
  const Token token = cursor->Peek();
  Status s = cursor->ExpectName("keyspace name", name);
  if (!s.ok()) return s;
  bool valid = !name->empty() && name->size() <= kMaxKeyspaceNameLength;
  for (char c : *name) valid = valid && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!valid) {
    return cursor->ErrorAt(token, "keyspace name '" + *name + "' must be 1 to " +
                                      std::to_string(kMaxKeyspaceNameLength) +
                                      " letters, digits or underscores");
  }
  return Status::OK();
}

// A replication factor: a non-negative integer, written as a number or a string.
Status ReplicationFactor(const TokenCursor& cursor, const CqlOptionTerm& term,
                         const std::string& option, std::string* factor) {
  const Token& token = term.token;
  bool valid = !term.is_map &&
               (token.kind == TokenKind::kInteger || token.kind == TokenKind::kString) &&
               !token.text.empty() && token.text.size() <= 9;
  for (char c : token.text) valid = valid && std::isdigit(static_cast<unsigned char>(c));
  if (!valid) {
    return cursor.ErrorAt(token,
                          "replication factor of '" + option + "' must be a non-negative integer");
  }
  *factor = std::to_string(std::stoi(token.text));  // canonical: no leading zeros
  return Status::OK();
}

// The strategy's short name, or empty when `written` names no strategy this store accepts.
std::string StrategyName(std::string written) {
  if (written.rfind(kStrategyPackage, 0) == 0) written.erase(0, sizeof(kStrategyPackage) - 1);
  return written == "SimpleStrategy" || written == "NetworkTopologyStrategy" ? written : "";
}

// replication = {'class': ..., option: factor, ...}: checked and made canonical.
Status ApplyReplication(const TokenCursor& cursor, const CqlOptionTerm& term,
                        KeyspaceDefinition* keyspace) {
  if (!term.is_map) {
    return cursor.ErrorAt(term.token, "replication must be a map {'class': '...', ...}");
  }
  std::map<std::string, std::string>& replication = keyspace->replication;
  replication.clear();
  const Token* class_token = nullptr;
  std::vector<std::pair<const Token*, std::string>> options;  // other keys, in written order
  for (const auto& [key, value] : term.entries) {
    if (key.is_map || key.token.kind != TokenKind::kString) {
      return cursor.ErrorAt(key.token, "replication keys must be strings");
    }
    const std::string& name = key.token.text;
    if (replication.count(name) > 0 || (name == "class" && class_token != nullptr)) {
      return cursor.ErrorAt(key.token, "replication lists '" + name + "' twice");
    }
    if (name != "class") {
      std::string factor;
      Status s = ReplicationFactor(cursor, value, name, &factor);
      if (!s.ok()) return s;
      replication[name] = factor;
      options.emplace_back(&key.token, name);
      continue;
    }
    if (value.is_map || value.token.kind != TokenKind::kString) {
      return cursor.ErrorAt(value.token, "the replication class must be a string");
    }
    const std::string strategy = StrategyName(value.token.text);
    if (strategy.empty()) {
      return cursor.ErrorAt(value.token,
                            "unknown replication strategy class '" + value.token.text +
                                "' (use 'SimpleStrategy' or 'NetworkTopologyStrategy')");
    }
    class_token = &value.token;
    replication["class"] = strategy;
  }
  if (class_token == nullptr) {
    return cursor.ErrorAt(term.token, "replication needs a 'class'");
  }
  if (replication["class"] == "SimpleStrategy") {
    for (const auto& [token, name] : options) {
      if (name != "replication_factor") {
        return cursor.ErrorAt(*token, "unknown option '" + name +
                                          "' of SimpleStrategy (it takes replication_factor)");
      }
    }
    if (options.empty()) {
      return cursor.ErrorAt(*class_token, "SimpleStrategy needs a 'replication_factor'");
    }
  } else if (options.empty()) {
    return cursor.ErrorAt(*class_token,
                          "NetworkTopologyStrategy needs a replication factor for at least one "
                          "data center ('dc1': n)");
  }
  return Status::OK();
}

Status ApplyDurableWrites(const TokenCursor& cursor, const CqlOptionTerm& term,
                          KeyspaceDefinition* keyspace) {
  const Token& token = term.token;
  const bool literal =
      !term.is_map && (token.kind == TokenKind::kIdentifier || token.kind == TokenKind::kString);
  std::string text = literal ? token.text : "";
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (text != "true" && text != "false") {
    return cursor.ErrorAt(token, "durable_writes must be true or false");
  }
  keyspace->durable_writes = text == "true";
  return Status::OK();
}

// WITH option = term [AND option = term ...] of CREATE KEYSPACE.
Status ParseKeyspaceOptions(TokenCursor* cursor, KeyspaceDefinition* keyspace) {
  std::set<std::string> seen;
  do {
    const Token name_token = cursor->Peek();
    std::string name;
    CqlOptionTerm term;
    Status s = cursor->ExpectName("keyspace option name", &name);
    if (s.ok() && !seen.insert(name).second) {
      s = cursor->ErrorAt(name_token, "option '" + name + "' given twice");
    }
    if (s.ok()) s = cursor->ExpectSymbol("=");
    if (s.ok()) s = ParseCqlOptionTerm(cursor, &term);
    if (!s.ok()) return s;
    if (name == "replication") {
      s = ApplyReplication(*cursor, term, keyspace);
    } else if (name == "durable_writes") {
      s = ApplyDurableWrites(*cursor, term, keyspace);
    } else {
      s = cursor->ErrorAt(name_token, "unknown keyspace option '" + name +
                                          "' (supported: replication, durable_writes)");
    }
    if (!s.ok()) return s;
  } while (cursor->ConsumeKeyword("and"));
  if (seen.count("replication") == 0) {
    return cursor->Error("CREATE KEYSPACE needs WITH replication = {'class': ...}");
  }
  return Status::OK();
}

}  // namespace

std::string KeyspaceDefinition::ToCql() const {
  std::string map;
  const auto strategy = replication.find("class");
  if (strategy != replication.end()) map = "'class': " + QuoteCqlString(strategy->second);
  for (const auto& [option, value] : replication) {
    if (option == "class") continue;
    map += (map.empty() ? "" : ", ") + QuoteCqlString(option) + ": " + QuoteCqlString(value);
  }
  return "CREATE KEYSPACE " + CqlIdentifier(name) + " WITH replication = {" + map +
         "} AND durable_writes = " + (durable_writes ? "true" : "false") + ";";
}

bool operator==(const KeyspaceDefinition& a, const KeyspaceDefinition& b) {
  return a.name == b.name && a.replication == b.replication && a.durable_writes == b.durable_writes;
}

Status ParseCreateKeyspace(TokenCursor* cursor, CreateKeyspaceStatement* statement) {
  *statement = CreateKeyspaceStatement();
  Status s = cursor->ExpectKeyword("create");
  if (s.ok()) s = cursor->ExpectKeyword("keyspace");
  if (s.ok()) s = ParseIfNotExists(cursor, &statement->if_not_exists);
  if (s.ok()) s = ParseKeyspaceName(cursor, &statement->keyspace.name);
  if (s.ok()) s = cursor->ExpectKeyword("with");
  return s.ok() ? ParseKeyspaceOptions(cursor, &statement->keyspace) : s;
}

Status ParseDropKeyspace(TokenCursor* cursor, DropKeyspaceStatement* statement) {
  *statement = DropKeyspaceStatement();
  Status s = cursor->ExpectKeyword("drop");
  if (s.ok()) s = cursor->ExpectKeyword("keyspace");
  if (s.ok()) s = ParseIfExists(cursor, &statement->if_exists);
  return s.ok() ? cursor->ExpectName("keyspace name", &statement->keyspace) : s;
}

Status ParseUse(TokenCursor* cursor, UseStatement* statement) {
  Status s = cursor->ExpectKeyword("use");
  return s.ok() ? cursor->ExpectName("keyspace name", &statement->keyspace) : s;
}

Status ParseDropTable(TokenCursor* cursor, DropTableStatement* statement) {
  *statement = DropTableStatement();
  Status s = cursor->ExpectKeyword("drop");
  if (s.ok()) s = cursor->ExpectKeyword("table");
  if (s.ok()) s = ParseIfExists(cursor, &statement->if_exists);
  return s.ok() ? ParseQualifiedTableName(cursor, &statement->keyspace, &statement->table) : s;
}

Status ParseTruncate(TokenCursor* cursor, TruncateStatement* statement) {
  *statement = TruncateStatement();
  Status s = cursor->ExpectKeyword("truncate");
  if (s.ok()) cursor->ConsumeKeyword("table");
  return s.ok() ? ParseQualifiedTableName(cursor, &statement->keyspace, &statement->table) : s;
}

Status ParseCreateKeyspace(const Slice& cql, CreateKeyspaceStatement* statement) {
  std::vector<Token> tokens;
  Status s = TokenizeCql(cql, &tokens);
  if (!s.ok()) return s;
  TokenCursor cursor(std::move(tokens));
  s = ParseCreateKeyspace(&cursor, statement);
  return s.ok() ? cursor.ExpectEndOfStatement() : s;
}

}  // namespace columnar
