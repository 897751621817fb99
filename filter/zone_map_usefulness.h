// Whether a column's row-group zone maps can ever rule a group out, judged from a sample of
// its groups' maps. Zone maps cost tens of bytes per column and row group (two 16-byte bounds
// for a string), which is wasted on columns whose every group spans nearly the whole range of
// the column: unique random ids, hashes, near-uniform values. A writer leaves such columns
// out of its zone maps; readers already treat a missing map as "may match" (prune.h).
//
// The judgement: every value is mapped onto [0, 1] within the sample's overall [min, max]
// (fixed-width values by their order key, byte strings by the 8 bytes after the prefix the
// overall bounds share). The share of that range a group's [min, max] covers is the chance
// that an equality predicate on a value drawn like the column's cannot exclude the group; a
// column whose mean coverage is at least `max_mean_coverage` is not worth its zone maps.
// Value sets (exact for few distinct values), groups that are all null or never null while
// others hold nulls, and groups with few rows keep a column's maps.
#pragma once

#include <vector>

#include "filter/zone_map.h"

namespace columnar {

struct ZoneMapUsefulnessOptions {
  // Mean share of the sampled range covered by a group's bounds at which zone maps stop
  // being worth keeping: with 0.95, fewer than 1 in 20 groups could be excluded.
  double max_mean_coverage = 0.95;
};

// `groups`: one column's zone maps over consecutive row groups (all of the same type). True
// when they can exclude groups often enough to be kept; true for an empty sample.
bool ZoneMapsCanPrune(const std::vector<const ZoneMap*>& groups,
                      const ZoneMapUsefulnessOptions& options = ZoneMapUsefulnessOptions());

}  // namespace columnar
