// CQL statements of the Table API and the shell: the schema statements of cql_parser.h plus
// the data statements below, parsed without a schema (literals stay text until they are bound
// to a table's column types, statement_binding.h).
//
//   INSERT INTO [ks.]t (c1, c2, ...) VALUES (v1, v2, ...)
//       [USING TTL n [AND TIMESTAMP t] | USING TIMESTAMP t [AND TTL n]]
//   SELECT [JSON] [DISTINCT] * | selector [AS name] [, selector [AS name] ...] FROM [ks.]t
//       [WHERE relation [AND relation ...]] [GROUP BY term [, term ...]]
//       [ORDER BY c [ASC|DESC] [, c [ASC|DESC] ...]] [PER PARTITION LIMIT n] [LIMIT n]
//       [ALLOW FILTERING]
//   UPDATE [ks.]t [USING TTL n [AND TIMESTAMP t] | USING TIMESTAMP t [AND TTL n]]
//       SET c = literal [, c = literal ...] WHERE relation [AND relation ...]
//   DELETE [c1, c2, ...] FROM [ks.]t [USING TIMESTAMP t] WHERE relation [AND relation ...]
//   BEGIN [UNLOGGED | LOGGED] BATCH [USING TIMESTAMP t]
//       INSERT ... ; UPDATE ... ; DELETE ... ; [...] APPLY BATCH
//   and the keyspace and table statements of cql_ddl_statements.h (CREATE / DROP KEYSPACE,
//   USE, DROP TABLE, TRUNCATE).
//
//   selector := column | WRITETIME(column) | TTL(column) | COUNT(*) | COUNT(1)
//             | COUNT(column) | MIN(column) | MAX(column) | SUM(column) | AVG(column)
//             | FLOOR(column, width)
//   term     := column | FLOOR(column, width)
//   width    := a duration (1h, 30m, 1h30m, 500ms, 1d, 1w) | integer (the column's units)
//   relation := column (= | < | <= | > | >=) literal | column IN (literal [, literal ...])
//   literal  := 'string' | integer | float | NaN | Infinity | -Infinity | -NaN | true | false
//             | null | 0xhex | uuid | collection
//   collection := [literal, ...] | {literal, ...} | {literal: literal, ...} | (literal, ...)
//             (frozen lists, sets, maps and tuples, nested; [] and {} are empty values)
//
// Refused, as NotSupported naming what and where: lightweight transactions (INSERT ... IF NOT
// EXISTS, UPDATE / DELETE ... IF ...: one node has no Paxos round to run them), arithmetic in
// UPDATE's SET (counters, collection appends), BATCH, and the CREATE / DROP / ALTER of objects
// this store does not have (indexes, views, types, functions, roles, ...).
//
// Each statement may end with ';'. TTL is in seconds (0 = never expires), TIMESTAMP in
// microseconds since the epoch: each written cell's write time, which decides, per cell, which
// write wins (the higher; Cassandra's cell semantics, table.h). Bind markers (?) are rejected:
// values are written in the statement. Errors are InvalidArgument with the line and column of
// the problem.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "table_api/cql_ddl_statements.h"
#include "table_format/cql_lexer.h"
#include "table_format/cql_parser.h"

namespace columnar {

// A literal: its text in Value::FromCqlLiteral form (strings quoted; "-Infinity" and "-NaN"
// joined) and its first token, for error positions.
struct CqlLiteral {
  std::string text;
  Token token;
};

enum class RelationOperator : uint8_t {
  kEqual,
  kLess,
  kLessOrEqual,
  kGreater,
  kGreaterOrEqual,
  kIn
};

struct CqlRelation {
  std::string column;
  Token column_token;
  RelationOperator op = RelationOperator::kEqual;
  std::vector<CqlLiteral> values;  // one, or the IN list
};

// The width of a time bucket, floor(column, width): a duration literal (1h, 15m, 1d) or a
// plain integer in the column's own units.
struct CqlBucketWidth {
  std::optional<int64_t> duration_nanoseconds;  // a duration literal
  int64_t integer = 0;                          // otherwise
  std::string text;                             // as written, for names and errors
  Token token;
};

struct CqlSelector {
  enum class Function : uint8_t { kNone, kWriteTime, kTtl, kCount, kMin, kMax, kSum, kAvg, kFloor };
  Function function = Function::kNone;
  std::string column;                   // empty for count(*) and count(1)
  std::optional<CqlBucketWidth> width;  // kFloor
  std::string alias;                    // AS alias; empty without one
  Token token;
};

// A GROUP BY term: a primary key column, or floor(column, width) as the last term.
struct CqlGroupTerm {
  std::string column;
  std::optional<CqlBucketWidth> floor;
  Token token;
};

struct CqlOrdering {
  std::string column;
  Token token;
  bool descending = false;
};

struct InsertStatement {
  std::string keyspace;  // empty when not given
  std::string table;
  std::vector<std::string> columns;
  std::vector<Token> column_tokens;
  std::vector<CqlLiteral> values;
  std::optional<int64_t> ttl_seconds;
  std::optional<int64_t> timestamp_micros;
};

struct SelectStatement {
  std::string keyspace;
  std::string table;
  std::vector<CqlSelector> selectors;  // empty for *
  std::vector<CqlRelation> where;
  std::vector<CqlGroupTerm> group_by;
  std::vector<CqlOrdering> order_by;
  std::optional<uint64_t> per_partition_limit;
  Token per_partition_limit_token;  // PER, for errors
  std::optional<uint64_t> limit;
  bool allow_filtering = false;
  bool json = false;      // SELECT JSON: one "[json]" text column, an object per row
  bool distinct = false;  // SELECT DISTINCT: the partition key columns, once per partition
  Token distinct_token;   // for errors about DISTINCT
};

struct UpdateStatement {
  std::string keyspace;
  std::string table;
  std::vector<std::string> columns;  // SET column = value, in the written order
  std::vector<Token> column_tokens;
  std::vector<CqlLiteral> values;
  std::optional<int64_t> ttl_seconds;
  std::optional<int64_t> timestamp_micros;
  std::vector<CqlRelation> where;
  Token token;  // UPDATE
};

struct DeleteStatement {
  std::string keyspace;
  std::string table;
  std::vector<std::string> columns;  // DELETE c1, c2 FROM: the cells; empty: rows
  std::vector<Token> column_tokens;
  std::optional<int64_t> timestamp_micros;
  std::vector<CqlRelation> where;
};

// A statement of a BATCH.
using BatchedStatement = std::variant<InsertStatement, UpdateStatement, DeleteStatement>;

struct BatchStatement {
  std::vector<BatchedStatement> statements;
  std::vector<Token> statement_tokens;      // the first token of each, for errors
  std::optional<int64_t> timestamp_micros;  // USING TIMESTAMP of the batch
  Token token;                              // BEGIN
};

struct CqlStatement {
  std::variant<CreateTableStatement, AlterTableStatement, InsertStatement, SelectStatement,
               DeleteStatement, CreateKeyspaceStatement, DropKeyspaceStatement, UseStatement,
               DropTableStatement, TruncateStatement, UpdateStatement, BatchStatement>
      statement;
};

// Parses one statement that makes up the whole input.
Status ParseCqlStatement(const Slice& cql, CqlStatement* statement);
// Parses the statement at the cursor; on success the cursor is after it and its ';'.
Status ParseCqlStatement(TokenCursor* cursor, CqlStatement* statement);

// "message at line L, column C (near <token>)", as InvalidArgument.
Status CqlErrorAt(const Token& token, const std::string& message);
// The same message, as NotSupported: valid CQL this store does not run.
Status CqlNotSupportedAt(const Token& token, const std::string& message);

// [ks.]name at the cursor; *keyspace is empty when the name is not qualified.
Status ParseQualifiedTableName(TokenCursor* cursor, std::string* keyspace, std::string* table);

}  // namespace columnar
