#include "plugin/filtered_row_group.h"

#include "filter/prune.h"
#include "plugin/row_group_column_source.h"

namespace columnar {

namespace {

class EmptyRowGroup : public DecodedRowGroup {
 public:
  Slice value(size_t /*row*/) const override { return Slice(); }
};

bool AllExpired(const ZoneMapSet& zone_maps, int64_t now_seconds) {
  return now_seconds != INT64_MIN && ExpiredFrom(zone_maps) <= now_seconds;
}

}  // namespace

int64_t ExpiredFrom(const ZoneMapSet& zone_maps) {
  const ZoneMap* expiry = zone_maps.Find(kExpiryZoneMapColumn);
  const bool every_row_expires =
      expiry != nullptr && expiry->row_count > 0 && expiry->null_count == 0 && expiry->has_max;
  return every_row_expires ? static_cast<int64_t>(expiry->max.bits) : INT64_MAX;
}

std::unique_ptr<DecodedRowGroup> NewEmptyRowGroup() { return std::make_unique<EmptyRowGroup>(); }

bool RowGroupRuledOut(const ScanSpec& spec, bool skippable, const ZoneMapSet& zone_maps) {
  if (!skippable) return false;
  return AllExpired(zone_maps, spec.now_seconds) ||
         (spec.predicate != nullptr &&
          Prune(*spec.predicate, zone_maps) == PruneResult::kNoRowMatches);
}

Status DecodeFilteredRowGroup(const ScanSpec& spec, const FilteredRowGroupInput& input,
                              std::unique_ptr<DecodedRowGroup>* out) {
  const RowGroupView& view = *input.view;
  if (input.first_internal_key.size() < 8) return Status::Corruption("row group: short first key");
  const Slice first_user_key(input.first_internal_key.data(), input.first_internal_key.size() - 8);
  RowGroupColumnSource source(view, *input.layout, first_user_key, *spec.predicate);
  EvaluationResult evaluation;
  Status s = spec.evaluator->Evaluate(view.row_count(), &source, &evaluation, input.zone_maps);
  if (!s.ok()) return s;

  TypedLayout::RowSelection selection;
  selection.passing = evaluation.selection.words();
  selection.keep_columns = spec.keep_columns;
  selection.now_seconds = spec.now_seconds;
  selection.global_sequence = input.global_sequence;
  selection.placeholder = FilteredRowPlaceholder();
  TypedLayout::SelectionCounts counts;
  s = input.layout->DecodeSelected(view, input.first_internal_key, selection, out, &counts);
  if (!s.ok()) return s;
  PushdownCounters& counters = *spec.counters;
  (counts.built > 0 ? counters.row_groups_with_match : counters.row_groups_without_match)++;
  counters.rows_built += counts.built;
  counters.placeholders += counts.placeholders;
  counters.rows_dropped += counts.dropped;
  return Status::OK();
}

}  // namespace columnar
