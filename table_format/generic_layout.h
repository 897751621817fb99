// GenericLayout: the row layout for column families without a table schema. Any key and value
// round-trip byte for byte.
//
// Partitions come from the column family's prefix extractor when it has one (keys outside its
// domain form their own partition); otherwise a row group's partition is the longest prefix
// shared by all its keys, which captures whatever key structure the application has.
//
// Columns (after the shared slots 0-2 of layout_columns.h):
//   slot 3  key_suffix  bytes  the user key without its partition prefix.
//   slot 4  value       bytes  the value; absent when every value is empty (e.g. deletions).
#pragma once

#include <rocksdb/slice_transform.h>

#include <memory>

#include "table_format/row_layout.h"

namespace columnar {

class GenericLayout : public RowLayout {
 public:
  // `prefix_extractor` may be null.
  explicit GenericLayout(std::shared_ptr<const rocksdb::SliceTransform> prefix_extractor);

  static constexpr uint32_t kId = 0;
  const char* Name() const override { return "generic"; }
  uint32_t Id() const override { return kId; }
  bool PartitionOf(const Slice& user_key, Slice* partition) const override;
  Status WriteRowGroup(const Entry* entries, size_t count, const RowGroupWriteContext& context,
                       std::string* out) const override;
  Status DecodeRowGroup(const RowGroupView& view, const Slice& first_internal_key,
                        std::unique_ptr<DecodedRowGroup>* out) const override;
  Status DecodeKeys(const RowGroupView& view, const Slice& first_internal_key,
                    std::unique_ptr<GroupKeys>* out) const override;
  Status DecodeRows(const RowGroupView& view, const GroupKeys& keys, size_t begin, size_t end,
                    std::unique_ptr<DecodedRowGroup>* out) const override;

 private:
  // DecodeKeys, with the key suffixes read in place (a point read) or decoded whole.
  Status DecodeGroupKeys(const RowGroupView& view, const Slice& first_internal_key, bool in_place,
                         std::unique_ptr<GroupKeys>* out) const;
  // Bytes of the key forming its partition: the extractor's prefix, or the whole key.
  size_t PartitionLength(const Slice& user_key) const;

  std::shared_ptr<const rocksdb::SliceTransform> prefix_extractor_;
};

}  // namespace columnar
