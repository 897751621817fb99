// Pruning: what a bound predicate can match in a run of rows, judged from the zone maps of
// its columns alone (a row group's, or a file's merged column statistics).
//
// Guarantees, relied on by readers to skip work:
//   kNoRowMatches  no row of the run satisfies the predicate;
//   kAllRowsMatch  every row does;
//   kMaybe         anything else, including columns without a zone map.
// Leaves are judged from null counts and bounds (inexact bounds only ever widen the range),
// or exactly from a value set; a subtree on one column with a value set is judged exactly as a
// whole; AND and OR combine their children's verdicts.
#pragma once

#include "filter/bound_predicate.h"
#include "filter/zone_map_set.h"

namespace columnar {

enum class PruneResult : uint8_t { kNoRowMatches, kAllRowsMatch, kMaybe };

const char* PruneResultName(PruneResult result);

PruneResult Prune(const BoundPredicate& predicate, const ZoneMapSet& zone_maps);

// One leaf against the zone map of its column.
PruneResult PruneLeaf(const BoundPredicate& leaf, const ZoneMap& zone_map);

}  // namespace columnar
