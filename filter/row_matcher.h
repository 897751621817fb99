// The row evaluator: a bound predicate applied to one row of Values, cell by cell with
// CompareValues. It is the reference the vectorised evaluator is tested against, and the
// filter the Table API applies after RocksDB's merge.
#pragma once

#include "filter/bound_predicate.h"
#include "table_format/value.h"

namespace columnar {

// `row` is indexed by column id (row_codec.h); a column beyond its end is null.
bool Matches(const BoundPredicate& predicate, const Row& row);

}  // namespace columnar
