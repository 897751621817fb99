#include "table_format/generic_layout.h"

#include <algorithm>

#include "table_format/layout_columns.h"
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
  s = writer.AddColumn(kKeySuffixSlot, "key_suffix", suffixes,
                       settings.For("key_suffix", PhysicalType::kBytes));
  if (s.ok() && any_value) {
    s = writer.AddColumn(kValueSlot, "value", values, settings.For("value", PhysicalType::kBytes));
  }
  if (s.ok()) writer.Finish(out);
  return s;
}

Status GenericLayout::DecodeRowGroup(const RowGroupView& view, const Slice& first_internal_key,
                                     std::unique_ptr<DecodedRowGroup>* out) const {
  if (first_internal_key.size() < 8) return Status::Corruption("row group: short first key");
  const Slice first_user_key(first_internal_key.data(), first_internal_key.size() - 8);
  const uint32_t rows = view.row_count();

  ColumnVector changes;
  std::vector<Slice> partitions;
  std::vector<uint64_t> trailers;
  ColumnVector suffixes;
  Status s = DecodePartitions(view, first_user_key, &changes, &partitions);
  if (s.ok()) s = DecodeTrailers(view, &trailers);
  if (s.ok()) s = view.DecodeSlot(kKeySuffixSlot, PhysicalType::kBytes, &suffixes, false);
  if (!s.ok()) return s;
  if (suffixes.has_nulls()) return Status::Corruption("row group: null key suffix");

  ColumnVector values(PhysicalType::kBytes);
  const bool has_values = view.HasSlot(kValueSlot);
  if (has_values) {
    s = view.DecodeSlot(kValueSlot, PhysicalType::kBytes, &values, false);
    if (!s.ok()) return s;
    if (values.has_nulls()) return Status::Corruption("row group: null value");
  }

  std::string keys;
  keys.reserve(suffixes.bytes_data().size() + rows * (8 + partitions[0].size()));
  std::vector<uint32_t> key_offsets;
  key_offsets.reserve(rows + 1);
  key_offsets.push_back(0);
  for (uint32_t i = 0; i < rows; i++) {
    keys.append(partitions[i].data(), partitions[i].size());
    const Slice suffix = suffixes.GetBytes(i);
    keys.append(suffix.data(), suffix.size());
    PutFixed64(&keys, trailers[i]);
    key_offsets.push_back(static_cast<uint32_t>(keys.size()));
  }
  if (Slice(keys.data(), key_offsets[1]) != first_internal_key) {
    return Status::Corruption("row group: first key differs from the index");
  }
  out->reset(
      new GenericRowGroup(std::move(keys), std::move(key_offsets), std::move(values), has_values));
  return Status::OK();
}

}  // namespace columnar
