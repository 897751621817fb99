// A CQL session: runs statements on a Database with a current keyspace, as a Cassandra client
// connection does. USE ks sets it (the keyspace must exist, created or implicit); unqualified
// table names then mean tables of that keyspace, in every statement (CREATE TABLE t creates
// ks.t). Without a current keyspace, names resolve as Database::Execute resolves them.
//
// Why a session and not a Database setting: a service shares one Database between its client
// connections, and each connection has its own current keyspace (as in Cassandra); a
// database-wide default would let one client's USE change what another client's statements
// mean. A session is cheap: keep one per connection. It is not thread-safe (one thread at a
// time); the Database it runs on is.
//
//   CqlSession session(db);
//   s = session.Execute("CREATE KEYSPACE metrics WITH replication = "
//                       "{'class': 'SimpleStrategy', 'replication_factor': 1}", nullptr);
//   s = session.Execute("USE metrics", nullptr);
//   s = session.Execute("SELECT * FROM v2metrics5 WHERE ...", &rows);
#pragma once

#include <string>

#include "table_api/cql_statements.h"
#include "table_api/database.h"

namespace columnar {

class CqlSession {
 public:
  // `keyspace`: the current keyspace to start with (empty: none; not checked).
  explicit CqlSession(Database* db, std::string keyspace = "")
      : db_(db), keyspace_(std::move(keyspace)) {}

  // Runs one statement (Database::Execute, and USE).
  Status Execute(const std::string& cql, ResultSet* result);
  Status Execute(CqlStatement statement, ResultSet* result);

  // USE: NotFound when the keyspace does not exist (it is left as it was).
  Status Use(const std::string& keyspace);
  // Empty when there is none.
  const std::string& keyspace() const { return keyspace_; }

  // Gives the unqualified table names of `statement` the current keyspace (none without one).
  Status Qualify(CqlStatement* statement) const;
  // The table named "t" or "ks.t", "t" resolved as in statements.
  Status GetTable(const std::string& name, Table** table) const;

 private:
  Database* const db_;
  std::string keyspace_;
};

}  // namespace columnar
