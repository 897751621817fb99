#include "plugin/oversized_values.h"

#include <algorithm>
#include <utility>

#include "table_format/varint.h"

namespace columnar {

namespace {

// A decoded group whose listed rows take their values from outside it.
class GroupWithOversizedValues : public DecodedRowGroup {
 public:
  GroupWithOversizedValues(std::unique_ptr<DecodedRowGroup> inner,
                           std::vector<std::pair<uint32_t, std::string>> values)
      : inner_(std::move(inner)), values_(std::move(values)) {
    // The keys are the inner group's (a copy: DecodedRowGroup keeps them in its base part).
    key_offsets_.reserve(inner_->row_count() + 1);
    key_offsets_.push_back(0);
    for (size_t row = 0; row < inner_->row_count(); row++) {
      const Slice key = inner_->internal_key(row);
      keys_.append(key.data(), key.size());
      key_offsets_.push_back(static_cast<uint32_t>(keys_.size()));
    }
  }

  Slice value(size_t row) const override {
    const auto it = std::lower_bound(
        values_.begin(), values_.end(), row,
        [](const std::pair<uint32_t, std::string>& entry, size_t r) { return entry.first < r; });
    if (it != values_.end() && it->first == row) return Slice(it->second);
    return inner_->value(row);
  }

  size_t MemoryUsage() const override {
    size_t bytes = DecodedRowGroup::MemoryUsage() + inner_->MemoryUsage();
    for (const auto& entry : values_) bytes += sizeof(entry) + entry.second.capacity();
    return bytes;
  }

 private:
  std::unique_ptr<DecodedRowGroup> inner_;
  std::vector<std::pair<uint32_t, std::string>> values_;
};

}  // namespace

void EncodeOversizedValues(const std::vector<OversizedValue>& values, std::string* out) {
  PutVarint32(out, static_cast<uint32_t>(values.size()));
  for (const OversizedValue& v : values) {
    PutVarint32(out, v.group);
    PutVarint32(out, v.row);
    PutVarint64(out, v.offset);
    PutVarint64(out, v.size);
    PutFixed32(out, v.checksum);
  }
}

Status DecodeOversizedValues(const Slice& encoded, uint64_t data_end, size_t groups,
                             uint32_t rows_per_group, std::vector<OversizedValue>* out) {
  out->clear();
  Slice in = encoded;
  uint32_t count;
  // An entry takes at least 8 bytes: no count the property cannot hold is believed.
  if (!columnar::GetVarint32(&in, &count) || count > in.size() / 8) {
    return Status::Corruption("oversized values: bad count");
  }
  out->reserve(count);
  for (uint32_t i = 0; i < count; i++) {
    OversizedValue v;
    if (!columnar::GetVarint32(&in, &v.group) || !columnar::GetVarint32(&in, &v.row) ||
        !columnar::GetVarint64(&in, &v.offset) || !columnar::GetVarint64(&in, &v.size) ||
        !columnar::GetFixed32(&in, &v.checksum)) {
      return Status::Corruption("oversized values: truncated");
    }
    if (v.group >= groups || v.row >= rows_per_group) {
      return Status::Corruption("oversized values: row outside the file's groups");
    }
    if (v.size == 0 || v.offset > data_end || v.size > data_end - v.offset) {
      return Status::Corruption("oversized values: value outside the file");
    }
    if (!out->empty() &&
        std::make_pair(out->back().group, out->back().row) >= std::make_pair(v.group, v.row)) {
      return Status::Corruption("oversized values: entries out of order");
    }
    out->push_back(v);
  }
  if (!in.empty()) return Status::Corruption("oversized values: trailing bytes");
  return Status::OK();
}

Status WithOversizedValues(std::unique_ptr<DecodedRowGroup> group,
                           std::vector<std::pair<uint32_t, std::string>> values,
                           std::unique_ptr<DecodedRowGroup>* out) {
  for (const auto& entry : values) {
    if (entry.first >= group->row_count() || !group->value(entry.first).empty()) {
      return Status::Corruption("oversized values: the row does not refer to one");
    }
  }
  out->reset(new GroupWithOversizedValues(std::move(group), std::move(values)));
  return Status::OK();
}

}  // namespace columnar
