// Predicate pushdown over one row group of a typed-layout file: decide from the zone maps
// whether the group can be skipped without reading it, evaluate the predicate on the decoded
// predicate columns only (dictionary chunks once per dictionary entry), then build the rows
// the scan needs -- passing rows with their projected columns, placeholders for failing row
// versions that must still shadow older ones -- following the rule in pushdown.h.
#pragma once

#include <memory>
#include <optional>

#include "filter/zone_map_set.h"
#include "plugin/pushdown.h"
#include "plugin/zone_map_collector.h"
#include "table_format/row_group.h"
#include "table_format/typed_layout.h"

namespace columnar {

// True when the whole group can be skipped: every row is a typed Put with sequence number 0
// (`skippable`: the zone map entry's flag, and no global sequence number), and its zone maps
// prove that no row matches or that every row has expired.
bool RowGroupRuledOut(const ScanSpec& spec, bool skippable, const ZoneMapSet& zone_maps);

// The clock reading (seconds) from which every row of a group with these zone maps has
// expired; INT64_MAX when some row never expires.
int64_t ExpiredFrom(const ZoneMapSet& zone_maps);

struct FilteredRowGroupInput {
  const RowGroupView* view = nullptr;
  const TypedLayout* layout = nullptr;
  Slice first_internal_key;
  const ZoneMapSet* zone_maps = nullptr;  // optional
  std::optional<uint64_t> global_sequence;
};

// Evaluates `spec` (which must have a predicate) over the group and builds its surviving
// entries; counts what it did in spec.counters.
Status DecodeFilteredRowGroup(const ScanSpec& spec, const FilteredRowGroupInput& input,
                              std::unique_ptr<DecodedRowGroup>* out);

// A group with no rows (every entry filtered out).
std::unique_ptr<DecodedRowGroup> NewEmptyRowGroup();

}  // namespace columnar
