// CQL schema statements: CREATE TABLE and ALTER TABLE.
//
//   CREATE TABLE [IF NOT EXISTS] [ks.]name (
//       col type [PRIMARY KEY], ...,
//       [PRIMARY KEY (p | (p1, p2, ...) [, c1, c2, ...])]
//   ) [WITH option [AND option ...]];
//   option := CLUSTERING ORDER BY (c1 ASC|DESC, ...) | name = term
//   term   := 'string' | number | true | false | identifier | { term : term, ... }
//
//   ALTER TABLE [ks.]name ADD col type | ADD (c1 t1, c2 t2, ...)
//                       | DROP col | DROP (c1, c2, ...)
//                       | WITH name = term [AND name = term ...];
//
// Types: boolean, int, bigint, float, double, timestamp, date, text (varchar), ascii, blob,
// uuid. Collections (set, list, map, also frozen<...>), tuples and counter are refused with a
// message naming the type, why, and the alternative. Typed options: column_encodings (map
// column -> encoding name), column_compression (map column or 'default' -> 'none' | 'zstd'),
// default_time_to_live (integer seconds).
// Every other option is kept as the canonical CQL text of its term (strings re-quoted,
// maps as {'k': 'v', ...} in the written order) and printed back by ToCql().
// CLUSTERING ORDER BY lists the clustering columns in key order (a prefix; the rest are
// ASC). Errors are InvalidArgument with the line, column and token of the problem.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "table_format/cql_lexer.h"
#include "table_format/schema.h"
#include "table_format/types.h"

namespace columnar {

// Option terms nested deeper than this (maps in maps) are InvalidArgument: the term parser
// and printer recurse once per level, and untrusted statements must not exhaust the stack.
inline constexpr int kMaxCqlTermNesting = 32;

// An option value of a WITH clause: one literal token, or a map of terms.
struct CqlOptionTerm {
  Token token;  // the literal, or the '{' of a map
  bool is_map = false;
  std::vector<std::pair<CqlOptionTerm, CqlOptionTerm>> entries;
};

struct CreateTableStatement {
  bool if_not_exists = false;
  TableSchema schema;
};

struct AlterTableStatement {
  std::string keyspace;  // empty when the statement names no keyspace
  std::string table;
  TableAlteration alteration;
};

// Parses one statement that makes up the whole input (an optional trailing ';').
Status ParseCreateTable(const Slice& cql, CreateTableStatement* statement);
Status ParseAlterTable(const Slice& cql, AlterTableStatement* statement);

// Cursor forms for multi-statement parsers: `cursor` is at CREATE / ALTER; on success it is
// after the statement and its optional ';'.
Status ParseCreateTable(TokenCursor* cursor, CreateTableStatement* statement);
Status ParseAlterTable(TokenCursor* cursor, AlterTableStatement* statement);

// Parses an ALTER TABLE naming `current` (keyspace optional) and applies it.
Status ApplyAlterTable(const Slice& cql, const TableSchema& current, TableSchema* altered);

// Parses a CQL column type at the cursor (cql_type_parser.cc): a scalar type,
// frozen<list<T>>, frozen<set<T>>, frozen<map<K, V>>, tuple<T, ...> or frozen<tuple<T, ...>>,
// where the elements are scalar types or collections and tuples (frozen, written with or
// without frozen<>). Non-frozen collections (list<int> as a column type), counter and other
// parameterized types are refused with a message naming the type, why, and its position.
Status ParseCqlType(TokenCursor* cursor, LogicalType* type);
// The same for a whole string holding one type name (schemas store "frozen<list<int>>").
Status ParseCqlTypeName(const std::string& text, LogicalType* type);

// Parses an option value (the term after `name =` in a WITH clause) at the cursor, for the
// WITH clauses of other statements (CREATE KEYSPACE).
Status ParseCqlOptionTerm(TokenCursor* cursor, CqlOptionTerm* term);

}  // namespace columnar
