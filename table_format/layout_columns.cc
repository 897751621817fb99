#include "table_format/layout_columns.h"

namespace columnar {

Status WritePartitionColumn(const Entry* entries, size_t count,
                            const std::vector<uint32_t>& partition_lengths,
                            const ColumnWriteSettings& settings, RowGroupWriter* writer) {
  const auto partition = [&](size_t i) {
    return Slice(entries[i].user_key.data(), partition_lengths[i]);
  };
  // Most groups lie in one partition: look for a change before building the column.
  size_t first_change = 1;
  while (first_change < count && partition(first_change) == partition(first_change - 1)) {
    first_change++;
  }
  if (first_change == count) return Status::OK();
  ColumnVector changes(PhysicalType::kBytes);
  changes.AppendNulls(first_change);
  for (size_t i = first_change; i < count; i++) {
    if (partition(i) == partition(i - 1)) {
      changes.AppendNull();
    } else {
      changes.AppendBytes(partition(i));
    }
  }
  // Point reads decode the partitions with the key columns (a searched column).
  ChunkWriteOptions options = settings.For(kPartitionColumn, PhysicalType::kBytes);
  options.searched = true;
  return writer->AddColumn(kPartitionSlot, kPartitionColumn, changes, options);
}

Status WriteTrailerColumns(const Entry* entries, size_t count, const ColumnWriteSettings& settings,
                           RowGroupWriter* writer) {
  bool any_sequence = false;
  bool any_non_put = false;
  for (size_t i = 0; i < count; i++) {
    any_sequence |= entries[i].sequence != 0;
    any_non_put |= entries[i].value_type != kPutValueType;
  }
  if (any_sequence) {
    ColumnVector sequences(PhysicalType::kInt64);
    sequences.Reserve(count);
    for (size_t i = 0; i < count; i++) {
      sequences.Append<int64_t>(static_cast<int64_t>(entries[i].sequence));
    }
    Status s = writer->AddColumn(kSequenceSlot, kSequenceColumn, sequences,
                                 settings.For(kSequenceColumn, PhysicalType::kInt64));
    if (!s.ok()) return s;
  }
  if (any_non_put) {
    ColumnVector types(PhysicalType::kInt32);
    types.Reserve(count);
    for (size_t i = 0; i < count; i++) types.Append<int32_t>(entries[i].value_type);
    return writer->AddColumn(kValueTypeSlot, kValueTypeColumn, types,
                             settings.For(kValueTypeColumn, PhysicalType::kInt32));
  }
  return Status::OK();
}

namespace {

// Row 0's partition (a prefix of the group's first user key) into *first, and slot 0 into
// *changes when the group has it (*has_changes).
Status DecodePartitionChanges(const RowGroupView& view, const Slice& first_user_key,
                              ColumnVector* changes, Slice* first, bool* has_changes) {
  if (view.first_partition_length() > first_user_key.size()) {
    return Status::Corruption("row group: partition longer than the first key");
  }
  *first = Slice(first_user_key.data(), view.first_partition_length());
  *has_changes = view.HasSlot(kPartitionSlot);
  if (!*has_changes) return Status::OK();
  Status s = view.DecodeSlot(kPartitionSlot, PhysicalType::kBytes, changes, false);
  if (!s.ok()) return s;
  if (view.row_count() > 0 && !changes->IsNull(0)) {
    return Status::Corruption("row group: first row changes partition");
  }
  return Status::OK();
}

}  // namespace

Status DecodePartitions(const RowGroupView& view, const Slice& first_user_key,
                        ColumnVector* changes, std::vector<Slice>* partitions) {
  Slice first;
  bool has_changes = false;
  Status s = DecodePartitionChanges(view, first_user_key, changes, &first, &has_changes);
  if (!s.ok()) return s;
  const uint32_t rows = view.row_count();
  partitions->assign(rows, first);
  if (!has_changes) return Status::OK();
  for (uint32_t i = 1; i < rows; i++) {
    (*partitions)[i] = changes->IsNull(i) ? (*partitions)[i - 1] : changes->GetBytes(i);
  }
  return Status::OK();
}

Status DecodeLastPartition(const RowGroupView& view, const Slice& first_user_key,
                           ColumnVector* changes, Slice* last) {
  bool has_changes = false;
  Status s = DecodePartitionChanges(view, first_user_key, changes, last, &has_changes);
  if (!s.ok() || !has_changes) return s;
  for (uint32_t i = view.row_count(); i-- > 1;) {
    if (!changes->IsNull(i)) {
      *last = changes->GetBytes(i);
      break;
    }
  }
  return Status::OK();
}

Status DecodeTrailerRange(const RowGroupView& view, size_t begin, size_t end,
                          std::vector<uint64_t>* trailers) {
  if (begin > end || end > view.row_count()) {
    return Status::InvalidArgument("row group: row range outside the group");
  }
  const size_t rows = end - begin;
  trailers->assign(rows, PackTrailer(0, kPutValueType));
  ColumnVector column;
  if (view.HasSlot(kSequenceSlot)) {
    Status s =
        view.DecodeSlotRows(kSequenceSlot, PhysicalType::kInt64, static_cast<uint32_t>(begin),
                            static_cast<uint32_t>(end), &column, false);
    if (!s.ok()) return s;
    if (column.has_nulls()) return Status::Corruption("row group: null sequence number");
    const int64_t* sequences = column.data<int64_t>();
    for (size_t i = 0; i < rows; i++) {
      if (sequences[i] < 0 || static_cast<uint64_t>(sequences[i]) >= (uint64_t{1} << 56)) {
        return Status::Corruption("row group: sequence number out of range");
      }
      (*trailers)[i] = PackTrailer(static_cast<uint64_t>(sequences[i]), kPutValueType);
    }
  }
  if (view.HasSlot(kValueTypeSlot)) {
    Status s =
        view.DecodeSlotRows(kValueTypeSlot, PhysicalType::kInt32, static_cast<uint32_t>(begin),
                            static_cast<uint32_t>(end), &column, false);
    if (!s.ok()) return s;
    if (column.has_nulls()) return Status::Corruption("row group: null value type");
    const int32_t* types = column.data<int32_t>();
    for (size_t i = 0; i < rows; i++) {
      if (types[i] < 0 || types[i] > 0x7f) return Status::Corruption("row group: bad value type");
      (*trailers)[i] = ((*trailers)[i] & ~uint64_t{0xff}) | static_cast<uint64_t>(types[i]);
    }
  }
  return Status::OK();
}

}  // namespace columnar
