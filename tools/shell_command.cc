#include "tools/shell_command.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <utility>
#include <vector>

#include "tools/shell_tokens.h"

namespace columnar {

namespace {

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// [ks.]name as the Table API names tables.
Status ParseTableName(TokenCursor* cursor, std::string* name) {
  Status s = cursor->ExpectName("table name", name);
  if (!s.ok() || !cursor->ConsumeSymbol(".")) return s;
  std::string table;
  s = cursor->ExpectName("table name", &table);
  *name += "." + table;
  return s;
}

Status ParseDescribe(TokenCursor* cursor, ShellCommand* command) {
  if (cursor->ConsumeKeyword("tables")) {
    command->kind = ShellCommand::Kind::kDescribeTables;
    return Status::OK();
  }
  if (cursor->ConsumeKeyword("keyspaces")) {
    command->kind = ShellCommand::Kind::kDescribeKeyspaces;
    return Status::OK();
  }
  if (cursor->ConsumeKeyword("keyspace")) {
    command->kind = ShellCommand::Kind::kDescribeKeyspace;
    if (cursor->AtEnd() || cursor->PeekSymbol(";")) return Status::OK();
    return cursor->ExpectName("keyspace name", &command->keyspace);
  }
  if (!cursor->ConsumeKeyword("table")) {
    return cursor->Error("expected TABLES, TABLE name, KEYSPACES or KEYSPACE [name]");
  }
  command->kind = ShellCommand::Kind::kDescribeTable;
  return ParseTableName(cursor, &command->table);
}

// CONSISTENCY [level]: cqlsh's levels; accepted and ignored on one node.
Status ParseConsistency(TokenCursor* cursor, ShellCommand* command) {
  static const char* const kLevels[] = {"any",    "one",          "two",          "three",
                                        "quorum", "all",          "local_quorum", "each_quorum",
                                        "serial", "local_serial", "local_one"};
  command->kind = ShellCommand::Kind::kConsistency;
  if (cursor->AtEnd() || cursor->PeekSymbol(";")) return Status::OK();
  for (const char* level : kLevels) {
    if (cursor->ConsumeKeyword(level)) {
      for (const char* c = level; *c != '\0'; c++) {
        command->consistency += static_cast<char>(std::toupper(static_cast<unsigned char>(*c)));
      }
      return Status::OK();
    }
  }
  return cursor->Error(
      "unknown consistency level (ANY, ONE, TWO, THREE, QUORUM, ALL, LOCAL_QUORUM, "
      "EACH_QUORUM, SERIAL, LOCAL_SERIAL, LOCAL_ONE)");
}

Status ParseTracing(TokenCursor* cursor, ShellCommand* command) {
  command->kind = ShellCommand::Kind::kTracing;
  if (cursor->ConsumeKeyword("on")) {
    command->tracing = true;
  } else if (!cursor->ConsumeKeyword("off")) {
    return cursor->Error("expected ON or OFF");
  }
  return Status::OK();
}

// EXPAND [ON | OFF] and PAGING [ON | OFF | n].
Status ParseSwitch(TokenCursor* cursor, ShellCommand::Kind kind, ShellCommand* command) {
  command->kind = kind;
  if (cursor->AtEnd() || cursor->PeekSymbol(";")) return Status::OK();
  if (cursor->ConsumeKeyword("on")) {
    command->switch_on = true;
  } else if (cursor->ConsumeKeyword("off")) {
    command->switch_on = false;
  } else if (kind == ShellCommand::Kind::kPaging && cursor->Peek().kind == TokenKind::kInteger) {
    const Token& size = cursor->Next();
    errno = 0;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(size.text.c_str(), &end, 10);
    if (errno != 0 || *end != '\0' || value == 0 || value > 1000000) {
      return cursor->ErrorAt(size, "the page size must be 1 to 1000000");
    }
    command->switch_on = true;
    command->page_size = value;
  } else {
    return cursor->Error(kind == ShellCommand::Kind::kPaging ? "expected ON, OFF or a page size"
                                                             : "expected ON or OFF");
  }
  return Status::OK();
}

// FLUSH / COMPACT: an optional table name.
Status ParseOptionalTable(TokenCursor* cursor, ShellCommand::Kind kind, ShellCommand* command) {
  command->kind = kind;
  if (cursor->AtEnd() || cursor->PeekSymbol(";")) return Status::OK();
  return ParseTableName(cursor, &command->table);
}

Status ParseSource(TokenCursor* cursor, ShellCommand* command) {
  command->kind = ShellCommand::Kind::kSource;
  if (cursor->Peek().kind != TokenKind::kString) {
    return cursor->Error("expected the file name as a quoted string");
  }
  command->path = cursor->Next().text;
  return Status::OK();
}

// COPY [ks.]t [(c1, ...)] TO 'file' [WITH FORMAT = 'parquet' | 'csv' [AND COMPRESSION = '...']]
// COPY [ks.]t [(c1, ...)] FROM 'file' [WITH HEADER = true | false]
Status ParseCopyOptions(TokenCursor* cursor, ShellCommand* command) {
  do {
    std::string option;
    Status s = cursor->ExpectName("option name", &option);
    if (s.ok()) s = cursor->ExpectSymbol("=");
    if (!s.ok()) return s;
    const TokenKind kind = cursor->Peek().kind;
    if (kind != TokenKind::kString && kind != TokenKind::kIdentifier) {
      return cursor->Error("expected a value");
    }
    const Token value = cursor->Next();
    const std::string lower = Lower(option);
    const std::string lower_value = Lower(value.text);
    if (lower == "header" && (lower_value == "true" || lower_value == "false")) {
      command->header = lower_value == "true";
    } else if (!command->copy_from && lower == "format") {
      command->format = lower_value;
    } else if (!command->copy_from && lower == "compression") {
      command->compression = value.text;
    } else {
      return cursor->ErrorAt(value,
                             "unknown COPY option " + option + " = " + value.text +
                                 (command->copy_from ? " (FROM: HEADER = true | false)"
                                                     : " (TO: FORMAT, COMPRESSION, HEADER)"));
    }
  } while (cursor->ConsumeKeyword("and"));
  return Status::OK();
}

Status ParseCopy(TokenCursor* cursor, ShellCommand* command) {
  command->kind = ShellCommand::Kind::kCopy;
  Status s = ParseTableName(cursor, &command->table);
  if (s.ok() && cursor->ConsumeSymbol("(")) {
    do {
      command->columns.emplace_back();
      s = cursor->ExpectName("column name", &command->columns.back());
    } while (s.ok() && cursor->ConsumeSymbol(","));
    if (s.ok()) s = cursor->ExpectSymbol(")");
  }
  if (!s.ok()) return s;
  command->copy_from = cursor->ConsumeKeyword("from");
  if (!command->copy_from && !cursor->ConsumeKeyword("to"))
    return cursor->Error("expected TO or FROM");
  if (cursor->Peek().kind != TokenKind::kString) {
    return cursor->Error("expected the file name as a quoted string");
  }
  command->path = cursor->Next().text;
  if (cursor->ConsumeKeyword("with")) s = ParseCopyOptions(cursor, command);
  if (!s.ok() || command->copy_from) return s;
  auto ends_with = [&](const char* suffix) {
    const std::string ext(suffix);
    return command->path.size() >= ext.size() &&
           command->path.compare(command->path.size() - ext.size(), ext.size(), ext) == 0;
  };
  if (command->format.empty()) {
    command->format = ends_with(".parquet") ? "parquet" : ends_with(".csv") ? "csv" : "";
  }
  if (command->format != "parquet" && command->format != "csv") {
    return cursor->Error("COPY needs FORMAT = 'parquet' or 'csv' (or a .parquet / .csv file)");
  }
  if (command->format == "parquet" && command->header.has_value()) {
    return cursor->Error("HEADER applies to CSV files only");
  }
  return Status::OK();
}

Status ParseCommandBody(TokenCursor* cursor, ShellCommand* command) {
  if (cursor->ConsumeKeyword("help")) {
    command->kind = ShellCommand::Kind::kHelp;
    return Status::OK();
  }
  if (cursor->ConsumeKeyword("describe") || cursor->ConsumeKeyword("desc")) {
    return ParseDescribe(cursor, command);
  }
  if (cursor->ConsumeKeyword("tracing")) return ParseTracing(cursor, command);
  if (cursor->ConsumeKeyword("consistency")) return ParseConsistency(cursor, command);
  if (cursor->ConsumeKeyword("expand")) {
    return ParseSwitch(cursor, ShellCommand::Kind::kExpand, command);
  }
  if (cursor->ConsumeKeyword("paging")) {
    return ParseSwitch(cursor, ShellCommand::Kind::kPaging, command);
  }
  if (cursor->ConsumeKeyword("flush")) {
    return ParseOptionalTable(cursor, ShellCommand::Kind::kFlush, command);
  }
  if (cursor->ConsumeKeyword("compact")) {
    return ParseOptionalTable(cursor, ShellCommand::Kind::kCompact, command);
  }
  if (cursor->ConsumeKeyword("source")) return ParseSource(cursor, command);
  if (cursor->ConsumeKeyword("copy")) return ParseCopy(cursor, command);
  if (cursor->ConsumeKeyword("exit") || cursor->ConsumeKeyword("quit")) {
    command->kind = ShellCommand::Kind::kExit;
    return Status::OK();
  }
  return cursor->Error("expected a shell command");
}

}  // namespace

bool IsShellCommandWord(const std::string& lower_word) {
  static const char* const kWords[] = {"help",   "describe", "desc",  "tracing", "consistency",
                                       "expand", "paging",   "flush", "compact", "source",
                                       "copy",   "exit",     "quit"};
  for (const char* word : kWords) {
    if (lower_word == word) return true;
  }
  return false;
}

Status ParseShellCommand(const ShellInput& input, ShellCommand* command) {
  std::vector<Token> tokens;
  Status s = TokenizeShellInput(input, &tokens);
  if (!s.ok()) return s;
  TokenCursor cursor(std::move(tokens));
  *command = ShellCommand();
  s = ParseCommandBody(&cursor, command);
  return s.ok() ? cursor.ExpectEndOfStatement() : s;
}

}  // namespace columnar
