// The columns every RowLayout shares: where partitions change inside a row group, and the
// internal-key trailer split into sequence number and value type. Kept in one place so the
// generic and typed layouts encode keys and trailers identically.
//
// Slots (row_group.h) 0..2 are reserved for these; layouts number their own columns from
// kFirstLayoutSlot on.
//
//   slot 0  partition  bytes, nullable. Null for a row whose partition is the same as the
//                      previous row's; the partition key for a row that starts a new one.
//                      Row 0's partition comes from the index (see row_group.h), so the slot
//                      is absent whenever the whole group lies in one partition.
//   slot 1  sequence   int64. Absent when every row has sequence number 0 (the usual state
//                      after a bottommost compaction).
//   slot 2  value type int32. Absent when every row is a Put.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/entry.h"
#include "table_format/row_group.h"
#include "table_format/row_layout.h"

namespace columnar {

inline constexpr uint32_t kPartitionSlot = 0;
inline constexpr uint32_t kSequenceSlot = 1;
inline constexpr uint32_t kValueTypeSlot = 2;
inline constexpr uint32_t kFirstLayoutSlot = 3;
// The names the shared slots' chunks go by (column settings, column statistics).
inline constexpr const char* kPartitionColumn = "partition";
inline constexpr const char* kSequenceColumn = "sequence";
inline constexpr const char* kValueTypeColumn = "value_type";

inline uint64_t PackTrailer(uint64_t sequence, uint8_t value_type) {
  return (sequence << 8) | value_type;
}

// Writes slot 0 given each row's partition length. Begin() must have been called with
// partition_lengths[0].
Status WritePartitionColumn(const Entry* entries, size_t count,
                            const std::vector<uint32_t>& partition_lengths,
                            const ColumnWriteSettings& settings, RowGroupWriter* writer);

// Writes slots 1 and 2 (each only when it differs from its default).
Status WriteTrailerColumns(const Entry* entries, size_t count, const ColumnWriteSettings& settings,
                           RowGroupWriter* writer);

// The partition key of every row, reconstructed from slot 0 and the group's first key.
// Slices point into `view`'s bytes or `first_user_key`.
Status DecodePartitions(const RowGroupView& view, const Slice& first_user_key,
                        ColumnVector* changes, std::vector<Slice>* partitions);

// The partition key of the group's last row, from slot 0 alone (no key is assembled): what a
// reader needs to know whether the next group begins another partition. *last points into
// `first_user_key` or *changes.
Status DecodeLastPartition(const RowGroupView& view, const Slice& first_user_key,
                           ColumnVector* changes, Slice* last);

// The trailers (sequence << 8 | type) of rows [begin, end), decoding no other rows where the
// columns' encodings allow (RowGroupView::DecodeSlotRows).
Status DecodeTrailerRange(const RowGroupView& view, size_t begin, size_t end,
                          std::vector<uint64_t>* trailers);

// Every row's trailer.
inline Status DecodeTrailers(const RowGroupView& view, std::vector<uint64_t>* trailers) {
  return DecodeTrailerRange(view, 0, view.row_count(), trailers);
}

}  // namespace columnar
