// RowGroupColumnSource: the predicate columns of one typed-layout row group, decoded on the
// evaluator's demand (filter/column_source.h): dictionary chunks as dictionary + codes, others
// as plain values. Partition key columns, which the file stores once per partition, are
// decoded from the rows' partitions. A regular column the group (or the file's schema) does not
// store reads as all null: the rows have no value for it. A key column whose value some row of
// the group does not have (a key that is not a key of the schema) is unavailable: the evaluator
// keeps every row as a possible match, never dropping a row on a predicate it cannot evaluate.
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
  // `first_user_key`: the user key of the group's first row (it holds the first partition).
  RowGroupColumnSource(const RowGroupView& view, const TypedLayout& layout,
                       const Slice& first_user_key, const BoundPredicate& predicate);

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
  const Slice first_user_key_;
  std::map<uint32_t, PhysicalType> types_;
  std::map<uint32_t, Decoded> columns_;
};

}  // namespace columnar
