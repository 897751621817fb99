#include "plugin/filtered_row_group.h"

#include <map>

#include "filter/prune.h"
#include "table_format/chunk.h"

namespace columnar {

namespace {

class EmptyRowGroup : public DecodedRowGroup {
 public:
  Slice value(size_t /*row*/) const override { return Slice(); }
};

// The predicate columns of one row group, decoded on the evaluator's demand: dictionary
// chunks as dictionary + codes, others as plain values. Partition key columns, which the file
// stores once per partition, are decoded from the rows' partitions. A regular column the group
// (or the file's schema) does not store reads as all null: the rows have no value for it. A
// key column whose value some row of the group does not have (a key that is not a key of the
// schema) is unavailable: the evaluator keeps every row as a possible match, never dropping a
// row on a predicate it cannot evaluate.
class RowGroupColumnSource : public ColumnSource {
 public:
  RowGroupColumnSource(const RowGroupView& view, const TypedLayout& layout,
                       const Slice& first_user_key, const BoundPredicate& predicate)
      : view_(view), layout_(layout), first_user_key_(first_user_key) {
    CollectTypes(predicate);
  }

  Status Fetch(uint32_t column_id, ColumnData* data) override {
    Decoded& decoded = columns_[column_id];
    const ColumnDef* column = layout_.schema().ColumnById(column_id);
    if (column != nullptr && column->role == ColumnRole::kPartitionKey) {
      bool known = false;
      Status s =
          layout_.PartitionColumnValues(view_, first_user_key_, column_id, &decoded.values, &known);
      if (!s.ok()) return s;
      *data = known ? ColumnData::Plain(&decoded.values) : ColumnData();
      return Status::OK();
    }
    if (column != nullptr && column->role == ColumnRole::kClustering &&
        !layout_.ClusteringKnown(view_)) {
      *data = ColumnData();  // unavailable
      return Status::OK();
    }
    uint32_t slot;
    PhysicalType type = types_.count(column_id) ? types_[column_id] : PhysicalType::kInt64;
    if (!layout_.ColumnSlot(column_id, &slot, &type) || !view_.HasSlot(slot)) {
      decoded.values.Reset(type);
      for (uint32_t i = 0; i < view_.row_count(); i++) decoded.values.AppendNull();
      *data = ColumnData::Plain(&decoded.values);
      return Status::OK();
    }
    Slice chunk = view_.ChunkOf(slot);
    ChunkReadOptions options;
    options.verify_checksum = false;  // the block is checksummed
    options.expected_values = view_.row_count();
    Status s = ReadChunkDictionary(&chunk, type, options, &decoded.dictionary, &decoded.codes,
                                   &decoded.presence);
    if (s.ok()) {
      *data = ColumnData::Dictionary(&decoded.dictionary, decoded.codes.data(),
                                     decoded.codes.size(), decoded.presence);
      return Status::OK();
    }
    if (!s.IsNotSupported()) return s;
    s = view_.DecodeSlot(slot, type, &decoded.values, false, layout_.FileDictionaryOf(column_id));
    if (s.ok()) *data = ColumnData::Plain(&decoded.values);
    return s;
  }

 private:
  struct Decoded {
    ColumnVector values;
    ColumnVector dictionary;
    std::vector<uint32_t> codes;
    std::string presence;
  };

  void CollectTypes(const BoundPredicate& node) {
    if (node.is_leaf()) {
      types_[node.column_id] = node.physical_type;
      return;
    }
    for (const BoundPredicate& child : node.children) CollectTypes(child);
  }

  const RowGroupView& view_;
  const TypedLayout& layout_;
  const Slice first_user_key_;
  std::map<uint32_t, PhysicalType> types_;
  std::map<uint32_t, Decoded> columns_;
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
