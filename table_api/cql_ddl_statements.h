// CQL statements that create, drop and select keyspaces, and drop or empty tables:
//
//   CREATE KEYSPACE [IF NOT EXISTS] ks WITH replication = {'class': 'SimpleStrategy',
//       'replication_factor': n} [AND durable_writes = true | false]
//     (or {'class': 'NetworkTopologyStrategy', 'dc1': n, ...})
//   DROP KEYSPACE [IF EXISTS] ks
//   USE ks
//   DROP TABLE [IF EXISTS] [ks.]t
//   TRUNCATE [TABLE] [ks.]t
//
// Each statement may end with ';'. Replication is validated as Cassandra does (a known
// strategy class and its options; replication factors are non-negative integers, written as
// numbers or strings) and kept in Cassandra's canonical form: the short class name and every
// value as a string. This store is one node: the replication options are stored and shown by
// DESCRIBE, and every table keeps one copy of its rows whatever they say; durable_writes is
// stored too, and every write goes to the write-ahead log whatever it says.
// Keyspace names follow Cassandra: 1 to 48 letters, digits and underscores (quoted or not).
// Errors are InvalidArgument with the line and column of the problem.
#pragma once

#include <map>
#include <string>

#include "table_format/cql_lexer.h"

namespace columnar {

struct KeyspaceDefinition {
  std::string name;
  // "class" -> "SimpleStrategy" | "NetworkTopologyStrategy", and the strategy's options
  // ("replication_factor" or data center names) -> a replication factor in decimal.
  std::map<std::string, std::string> replication;
  bool durable_writes = true;

  // CREATE KEYSPACE name WITH replication = {'class': ..., ...} AND durable_writes = ...;
  // (the class first, then the other options in name order).
  std::string ToCql() const;
};

bool operator==(const KeyspaceDefinition& a, const KeyspaceDefinition& b);

struct CreateKeyspaceStatement {
  bool if_not_exists = false;
  KeyspaceDefinition keyspace;
};

struct DropKeyspaceStatement {
  bool if_exists = false;
  std::string keyspace;
};

struct UseStatement {
  std::string keyspace;
};

struct DropTableStatement {
  bool if_exists = false;
  std::string keyspace;  // empty when the statement names no keyspace
  std::string table;
};

struct TruncateStatement {
  std::string keyspace;
  std::string table;
};

// Cursor forms: `cursor` is at CREATE / DROP / USE / TRUNCATE; on success it is after the
// statement (its ';' is left to the caller).
Status ParseCreateKeyspace(TokenCursor* cursor, CreateKeyspaceStatement* statement);
Status ParseDropKeyspace(TokenCursor* cursor, DropKeyspaceStatement* statement);
Status ParseUse(TokenCursor* cursor, UseStatement* statement);
Status ParseDropTable(TokenCursor* cursor, DropTableStatement* statement);
Status ParseTruncate(TokenCursor* cursor, TruncateStatement* statement);

// A CREATE KEYSPACE statement that makes up the whole input (the form the catalog stores).
Status ParseCreateKeyspace(const Slice& cql, CreateKeyspaceStatement* statement);

}  // namespace columnar
