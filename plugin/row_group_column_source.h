// RowGroupColumnSource: the predicate columns of one typed-layout row group, decoded on the
// evaluator's demand (filter/column_source.h): dictionary chunks as dictionary + codes, others
// as plain values; a column the group (or the file's schema) does not store reads as all null.
// Shared by predicate pushdown inside the reader (filtered_row_group.h) and the columnar scan
// path (column_scan.h), so both evaluate a predicate on a group the same way.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "filter/bound_predicate.h"
#include "filter/column_source.h"
#include "table_format/row_group.h"
#include "table_format/typed_layout.h"

namespace columnar {

class RowGroupColumnSource : public ColumnSource {
 public:
  RowGroupColumnSource(const RowGroupView& view, const TypedLayout& layout,
                       const BoundPredicate& predicate);

  // Serves `column_id` from `values` (one per row of the group, kept alive by the caller)
  // instead of the group's chunks: how the scan path supplies partition key columns, which
  // row groups do not store per row.
  void Provide(uint32_t column_id, const ColumnVector* values) { provided_[column_id] = values; }

  Status Fetch(uint32_t column_id, ColumnData* data) override;

 private:
  struct Decoded {
    ColumnVector values;
    ColumnVector dictionary;
    std::vector<uint32_t> codes;
    std::string presence;
  };

  void CollectTypes(const BoundPredicate& node);

  const RowGroupView& view_;
  const TypedLayout& layout_;
  std::map<uint32_t, PhysicalType> types_;
  std::map<uint32_t, Decoded> columns_;
  std::map<uint32_t, const ColumnVector*> provided_;
};

}  // namespace columnar
