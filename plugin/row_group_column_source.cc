#include "plugin/row_group_column_source.h"

#include "table_format/chunk.h"

namespace columnar {

RowGroupColumnSource::RowGroupColumnSource(const RowGroupView& view, const TypedLayout& layout,
                                           const Slice& first_user_key,
                                           const BoundPredicate& predicate)
    : view_(view), layout_(layout), first_user_key_(first_user_key) {
  CollectTypes(predicate);
}

void RowGroupColumnSource::CollectTypes(const BoundPredicate& node) {
  if (node.is_leaf()) {
    types_[node.column_id] = node.physical_type;
    return;
  }
  for (const BoundPredicate& child : node.children) CollectTypes(child);
}

Status RowGroupColumnSource::Fetch(uint32_t column_id, ColumnData* data) {
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
  if (column != nullptr && column->role == ColumnRole::kClustering &&
      layout_.ColumnSlot(column_id, &slot, &type) && !view_.HasSlot(slot)) {
    // Not in its slot: all null, or stored against the group's first key.
    Status s = layout_.ClusteringColumnValues(view_, first_user_key_, column_id, &decoded.values);
    if (s.ok()) *data = ColumnData::Plain(&decoded.values);
    return s;
  }
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
    *data = ColumnData::Dictionary(&decoded.dictionary, decoded.codes.data(), decoded.codes.size(),
                                   decoded.presence);
    return Status::OK();
  }
  if (!s.IsNotSupported()) return s;
  s = view_.DecodeSlot(slot, type, &decoded.values, false, layout_.FileDictionaryOf(column_id));
  if (s.ok()) *data = ColumnData::Plain(&decoded.values);
  return s;
}

}  // namespace columnar
