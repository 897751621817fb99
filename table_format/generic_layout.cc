#include "table_format/generic_layout.h"

#include <algorithm>
#include <cstring>

#include "table_format/layout_columns.h"
#include "table_format/string_column_view.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr uint32_t kKeySuffixSlot = kFirstLayoutSlot;
constexpr uint32_t kValueSlot = kFirstLayoutSlot + 1;

class GenericRowGroup : public DecodedRowGroup {
 public:
  GenericRowGroup(std::string keys, std::vector<uint32_t> key_offsets, ColumnVector values,
                  bool has_values)
      : values_(std::move(values)), has_values_(has_values) {
    keys_ = std::move(keys);
    key_offsets_ = std::move(key_offsets);
  }

  Slice value(size_t row) const override { return has_values_ ? values_.GetBytes(row) : Slice(); }
  size_t MemoryUsage() const override {
    return DecodedRowGroup::MemoryUsage() + values_.MemoryUsage();
  }

 private:
  ColumnVector values_;
  bool has_values_;
};

// The user-key columns of a group: every row's partition and key suffix, the suffixes read in
// place for a point read (StringColumnView); trailers are read from the view on request.
// Reset for another group keeps every buffer (DecodeKeys reuses a thread's keys).
struct GenericGroupKeys : GroupKeys {
  void Reset(const RowGroupView& group) {
    view = &group;
    partitions.clear();
    shared_partition = Slice();
    first_trailer = 0;
    read_trailers_begin = 0;
    read_trailers.clear();
  }
  size_t row_count() const override { return suffixes.size(); }
  Slice Partition(size_t row) const {
    return partitions.empty() ? shared_partition : partitions[row];
  }
  Slice UserKey(size_t row) const override {
    const Slice partition = Partition(row);
    if (partition.empty()) return suffixes.Get(row, &key_buffer);
    key_buffer.resize(partition.size() + suffixes.Length(row));
    std::memcpy(&key_buffer[0], partition.data(), partition.size());
    suffixes.CopyTo(row, &key_buffer[partition.size()]);
    return Slice(key_buffer);
  }
  bool BytewiseLowerBound(const Slice& user_key, size_t* row) const override {
    if (!partitions.empty()) return false;  // partitions change inside the group
    // Every row starts with the shared partition: target against it, then the suffixes.
    const Slice partition = shared_partition;
    const int order =
        Slice(user_key.data(), std::min(user_key.size(), partition.size())).compare(partition);
    if (order < 0) {
      *row = 0;
    } else if (order > 0) {
      *row = row_count();
    } else {
      *row = suffixes.LowerBound(
          Slice(user_key.data() + partition.size(), user_key.size() - partition.size()));
    }
    return true;
  }
  Status Trailers(size_t begin, size_t end, const uint64_t** out) const override {
    // The rows read last are kept: a point read reads its rows' trailers to find them, then
    // DecodeRows asks for (some of) the same rows.
    if (begin < end && begin >= read_trailers_begin &&
        end <= read_trailers_begin + read_trailers.size()) {
      *out = read_trailers.data() + (begin - read_trailers_begin);
      return Status::OK();
    }
    read_trailers_begin = begin;
    Status s = DecodeTrailerRange(*view, begin, end, &read_trailers);
    if (!s.ok()) read_trailers.clear();
    *out = read_trailers.data();
    return s;
  }

  const RowGroupView* view = nullptr;
  ColumnVector changes;  // the partition column, which `partitions` point into
  // Every row's partition; empty when the group has no partition column (all rows share
  // shared_partition, row 0's from the index).
  std::vector<Slice> partitions;
  Slice shared_partition;
  StringColumnView suffixes;
  uint64_t first_trailer = 0;      // row 0's, from the index
  mutable std::string key_buffer;  // UserKey's
  mutable size_t read_trailers_begin = 0;
  mutable std::vector<uint64_t> read_trailers;
};

// Lays out the internal keys of rows [begin, end) in one buffer sized up front (appending
// them piece by piece cost about a tenth of decoding a group): each row's partition, its
// suffix and its trailer.
void AssembleKeys(const GenericGroupKeys& keys, size_t begin, size_t end, const uint64_t* trailers,
                  std::vector<uint32_t>* key_offsets, std::string* key_bytes) {
  size_t total = 0;
  for (size_t row = begin; row < end; row++) {
    total += keys.Partition(row).size() + keys.suffixes.Length(row) + 8;
    (*key_offsets)[row - begin + 1] = static_cast<uint32_t>(total);
  }
  key_bytes->resize(total);
  char* dst = &(*key_bytes)[0];
  for (size_t row = begin; row < end; row++) {
    const Slice partition = keys.Partition(row);
    if (!partition.empty()) std::memcpy(dst, partition.data(), partition.size());
    dst += partition.size();
    const size_t suffix_size =
        (*key_offsets)[row - begin + 1] - (*key_offsets)[row - begin] - partition.size() - 8;
    keys.suffixes.CopyTo(row, dst);
    dst += suffix_size;
    EncodeFixed64(dst, trailers[row - begin]);
    dst += 8;
  }
}

size_t CommonPrefixLength(const Slice& a, const Slice& b) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < n && a[i] == b[i]) i++;
  return i;
}

}  // namespace

GenericLayout::GenericLayout(std::shared_ptr<const rocksdb::SliceTransform> prefix_extractor)
    : prefix_extractor_(std::move(prefix_extractor)) {}

bool GenericLayout::PartitionOf(const Slice& user_key, Slice* partition) const {
  if (prefix_extractor_ == nullptr || !prefix_extractor_->InDomain(user_key)) return false;
  *partition = prefix_extractor_->Transform(user_key);
  return true;
}

size_t GenericLayout::PartitionLength(const Slice& user_key) const {
  if (prefix_extractor_ == nullptr || !prefix_extractor_->InDomain(user_key)) {
    return user_key.size();
  }
  return prefix_extractor_->Transform(user_key).size();
}

Status GenericLayout::WriteRowGroup(const Entry* entries, size_t count,
                                    const RowGroupWriteContext& context, std::string* out) const {
  const ColumnWriteSettings& settings = *context.settings;
  std::vector<uint32_t> partition_lengths(count);
  if (prefix_extractor_ != nullptr) {
    for (size_t i = 0; i < count; i++) {
      partition_lengths[i] = static_cast<uint32_t>(PartitionLength(entries[i].user_key));
    }
  } else {
    // Any comparator may order the keys, so compare each with the first.
    size_t shared = entries[0].user_key.size();
    for (size_t i = 1; i < count && shared > 0; i++) {
      shared = std::min(shared, CommonPrefixLength(entries[0].user_key, entries[i].user_key));
    }
    partition_lengths.assign(count, static_cast<uint32_t>(shared));
  }

  RowGroupWriter writer;
  writer.Begin(static_cast<uint32_t>(count), partition_lengths[0], context.stats, context.memos);
  Status s = WritePartitionColumn(entries, count, partition_lengths, settings, &writer);
  if (s.ok()) s = WriteTrailerColumns(entries, count, settings, &writer);
  if (!s.ok()) return s;

  ColumnVector suffixes(PhysicalType::kBytes);
  ColumnVector values(PhysicalType::kBytes);
  suffixes.Reserve(count);
  values.Reserve(count);
  bool any_value = false;
  for (size_t i = 0; i < count; i++) {
    Slice suffix = entries[i].user_key;
    suffix.remove_prefix(partition_lengths[i]);
    suffixes.AppendBytes(suffix);
    values.AppendBytes(entries[i].value);
    any_value |= !entries[i].value.empty();
  }
  // Every point read searches the key suffixes (GroupKeys): an encoding slow to decode for
  // a lookup is left out of auto's choice.
  ChunkWriteOptions suffix_options = settings.For("key_suffix", PhysicalType::kBytes);
  suffix_options.searched = true;
  s = writer.AddColumn(kKeySuffixSlot, "key_suffix", suffixes, suffix_options);
  if (s.ok() && any_value) {
    s = writer.AddColumn(kValueSlot, "value", values, settings.For("value", PhysicalType::kBytes));
  }
  if (s.ok()) writer.Finish(out);
  return s;
}

Status GenericLayout::DecodeRowGroup(const RowGroupView& view, const Slice& first_internal_key,
                                     std::unique_ptr<DecodedRowGroup>* out) const {
  std::unique_ptr<GroupKeys> keys;
  // Every row is read: the suffixes are decoded whole.
  Status s = DecodeGroupKeys(view, first_internal_key, false, &keys);
  if (!s.ok()) return s;
  return DecodeRows(view, *keys, 0, keys->row_count(), out);
}

Status GenericLayout::DecodeKeys(const RowGroupView& view, const Slice& first_internal_key,
                                 std::unique_ptr<GroupKeys>* out) const {
  return DecodeGroupKeys(view, first_internal_key, true, out);
}

Status GenericLayout::DecodeGroupKeys(const RowGroupView& view, const Slice& first_internal_key,
                                      bool in_place, std::unique_ptr<GroupKeys>* out) const {
  if (first_internal_key.size() < 8) return Status::Corruption("row group: short first key");
  if (view.row_count() == 0) return Status::Corruption("row group: no rows");
  const Slice first_user_key(first_internal_key.data(), first_internal_key.size() - 8);
  // Decoded in place: the partitions point into `changes`. A thread's earlier keys are reused.
  auto* keys = dynamic_cast<GenericGroupKeys*>(out->get());
  if (keys == nullptr) {
    keys = new GenericGroupKeys();
    out->reset(keys);
  }
  keys->Reset(view);
  Status s;
  if (view.HasSlot(kPartitionSlot)) {
    s = DecodePartitions(view, first_user_key, &keys->changes, &keys->partitions);
  } else if (view.first_partition_length() > first_user_key.size()) {
    s = Status::Corruption("row group: partition longer than the first key");
  } else {
    keys->shared_partition = Slice(first_user_key.data(), view.first_partition_length());
  }
  if (!s.ok()) return s;
  const Slice suffix_chunk = view.ChunkOf(kKeySuffixSlot);
  if (suffix_chunk.empty()) return Status::NotFound("row group: slot absent");
  s = keys->suffixes.Open(suffix_chunk, view.row_count(), in_place);
  if (!s.ok()) return s;
  if (keys->suffixes.has_nulls()) return Status::Corruption("row group: null key suffix");
  // The first trailer is checked when row 0 is decoded (DecodeRows): a point read elsewhere
  // in the group reads no trailer of row 0.
  if (keys->UserKey(0) != first_user_key) {
    return Status::Corruption("row group: first key differs from the index");
  }
  keys->first_trailer = DecodeFixed64(first_internal_key.data() + first_user_key.size());
  return Status::OK();
}

Status GenericLayout::DecodeRows(const RowGroupView& view, const GroupKeys& group_keys,
                                 size_t begin, size_t end,
                                 std::unique_ptr<DecodedRowGroup>* out) const {
  // `group_keys` came from DecodeKeys above.
  const auto& keys = static_cast<const GenericGroupKeys&>(group_keys);
  if (begin > end || end > keys.row_count()) {
    return Status::InvalidArgument("row group: row range outside the group");
  }
  // (A point read has just read the trailers of, usually, these rows: Trailers keeps them.)
  const uint64_t* trailers = nullptr;
  Status s = keys.Trailers(begin, end, &trailers);
  if (!s.ok()) return s;
  if (begin == 0 && end > 0 && trailers[0] != keys.first_trailer) {
    return Status::Corruption("row group: first key differs from the index");
  }
  ColumnVector values(PhysicalType::kBytes);
  const bool has_values = view.HasSlot(kValueSlot);
  if (has_values) {
    s = view.DecodeSlotRows(kValueSlot, PhysicalType::kBytes, static_cast<uint32_t>(begin),
                            static_cast<uint32_t>(end), &values, false);
    if (!s.ok()) return s;
    if (values.has_nulls()) return Status::Corruption("row group: null value");
  }
  std::vector<uint32_t> key_offsets(end - begin + 1);
  std::string key_bytes;
  AssembleKeys(keys, begin, end, trailers, &key_offsets, &key_bytes);
  out->reset(new GenericRowGroup(std::move(key_bytes), std::move(key_offsets), std::move(values),
                                 has_values));
  return Status::OK();
}

}  // namespace columnar
