// Binds a Predicate to a TableSchema: resolves column names (partition key, clustering and
// regular columns that are live) to ids and checks every literal against its column's type.
//
// Literal typing: a literal must have its column's logical type, with these exceptions,
// which convert it exactly:
//   int literal   -> bigint column (widened)
//   text literal  -> ascii column (when every byte is ASCII)
//   ascii literal -> text column
// Null literals are rejected (CQL has no `x = null`: use IS NULL). Errors are
// InvalidArgument naming the column and both types.
#pragma once

#include "filter/bound_predicate.h"
#include "filter/predicate.h"
#include "table_format/schema.h"
#include "table_format/types.h"

namespace columnar {

// Deeper predicates are rejected, keeping the recursive evaluators' stack use bounded.
inline constexpr int kMaxPredicateDepth = 64;

Status Bind(const TableSchema& schema, const Predicate& predicate, BoundPredicate* bound);

}  // namespace columnar
