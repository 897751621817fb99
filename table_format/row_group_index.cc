#include "table_format/row_group_index.h"

#include "table_format/column_vector.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

template <typename T>
ColumnVector ToColumn(const std::vector<T>& values) {
  ColumnVector column(PhysicalTypeOf<T>::value);
  column.ResizeFixed(values.size());
  if (!values.empty())
    std::memcpy(column.mutable_data<T>(), values.data(), values.size() * sizeof(T));
  return column;
}

Status ReadColumn(Slice* in, PhysicalType type, uint32_t expected, ColumnVector* out) {
  // The length is checked before decoding: a chunk header of a few bytes may claim 16M values.
  ChunkHeader header;
  Status s = ParseChunkHeader(*in, &header);
  if (s.ok() && header.value_count != expected) {
    return Status::Corruption("index: column length mismatch");
  }
  ChunkReadOptions options;
  options.verify_checksum = false;  // the enclosing block is checksummed
  if (s.ok()) s = ReadChunk(in, type, out, options);
  if (s.ok() && out->size() != expected) return Status::Corruption("index: column length mismatch");
  if (s.ok() && out->has_nulls()) return Status::Corruption("index: unexpected nulls");
  return s;
}

}  // namespace

void RowGroupIndexBuilder::AddRowGroup(const Slice& first_user_key, uint64_t first_trailer,
                                       uint32_t offset_in_block) {
  offsets_in_block_.push_back(static_cast<int32_t>(offset_in_block));
  first_user_keys_.emplace_back(first_user_key.data(), first_user_key.size());
  first_trailers_.push_back(static_cast<int64_t>(first_trailer));
  first_keys_bytes_ += first_user_key.size();
  open_block_groups_++;
}

uint32_t RowGroupIndexBuilder::CloseBlock() {
  rows_groups_per_block_.push_back(static_cast<int32_t>(open_block_groups_));
  block_offsets_.push_back(0);
  block_sizes_.push_back(0);
  open_block_groups_ = 0;
  return static_cast<uint32_t>(rows_groups_per_block_.size() - 1);
}

void RowGroupIndexBuilder::SetBlockHandle(uint32_t ordinal, uint64_t offset, uint64_t stored_size) {
  block_offsets_[ordinal] = static_cast<int64_t>(offset);
  block_sizes_[ordinal] = static_cast<int64_t>(stored_size);
}

Status RowGroupIndexBuilder::Finish(std::string* out) const {
  PutVarint32(out, static_cast<uint32_t>(block_offsets_.size()));
  PutVarint32(out, static_cast<uint32_t>(offsets_in_block_.size()));
  ChunkWriteOptions options;
  options.checksum = false;  // the enclosing block is checksummed
  ColumnVector keys(PhysicalType::kBytes);
  for (const std::string& key : first_user_keys_) keys.AppendBytes(key);
  const ColumnVector columns[] = {ToColumn(block_offsets_),
                                  ToColumn(block_sizes_),
                                  ToColumn(rows_groups_per_block_),
                                  ToColumn(offsets_in_block_),
                                  keys,
                                  ToColumn(first_trailers_)};
  for (const ColumnVector& column : columns) {
    Status s = WriteChunk(column, options, out);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

uint32_t RowGroupIndex::end_in_block(size_t group) const {
  if (group + 1 < group_block_.size() && group_block_[group + 1] == group_block_[group]) {
    return offsets_in_block_[group + 1];
  }
  return 0;
}

Status RowGroupIndex::Decode(const Slice& raw, uint64_t max_groups) {
  Slice in = raw;
  uint32_t blocks;
  uint32_t groups;
  if (!GetVarint32(&in, &blocks) || !GetVarint32(&in, &groups)) {
    return Status::Corruption("index: truncated header");
  }
  if (blocks > groups || groups > max_groups || (groups > 0 && blocks == 0)) {
    return Status::Corruption("index: implausible counts");
  }
  ColumnVector offsets, sizes, per_block, in_block, keys, trailers;
  Status s = ReadColumn(&in, PhysicalType::kInt64, blocks, &offsets);
  if (s.ok()) s = ReadColumn(&in, PhysicalType::kInt64, blocks, &sizes);
  if (s.ok()) s = ReadColumn(&in, PhysicalType::kInt32, blocks, &per_block);
  if (s.ok()) s = ReadColumn(&in, PhysicalType::kInt32, groups, &in_block);
  if (s.ok()) s = ReadColumn(&in, PhysicalType::kBytes, groups, &keys);
  if (s.ok()) s = ReadColumn(&in, PhysicalType::kInt64, groups, &trailers);
  if (!s.ok()) return s;
  if (!in.empty()) return Status::Corruption("index: trailing bytes");

  block_offsets_.assign(blocks, 0);
  block_sizes_.assign(blocks, 0);
  block_first_group_.assign(blocks, 0);
  group_block_.clear();
  group_block_.reserve(groups);
  for (uint32_t b = 0; b < blocks; b++) {
    const int64_t offset = offsets.Get<int64_t>(b);
    const int64_t size = sizes.Get<int64_t>(b);
    const int32_t count = per_block.Get<int32_t>(b);
    if (offset < 0 || size <= 0 || count <= 0 ||
        group_block_.size() + static_cast<size_t>(count) > groups) {
      return Status::Corruption("index: bad block entry");
    }
    block_offsets_[b] = static_cast<uint64_t>(offset);
    block_sizes_[b] = static_cast<uint64_t>(size);
    block_first_group_[b] = static_cast<uint32_t>(group_block_.size());
    group_block_.insert(group_block_.end(), static_cast<size_t>(count), b);
  }
  if (group_block_.size() != groups) return Status::Corruption("index: row group count mismatch");

  offsets_in_block_.resize(groups);
  keys_.clear();
  // Every key once, with its 8-byte trailer: grown key by key, the string was reallocated and
  // copied into fresh memory as it grew.
  keys_.reserve(keys.bytes_data().size() + 8 * static_cast<size_t>(groups));
  key_offsets_.assign(1, 0);
  key_offsets_.reserve(groups + 1);
  for (uint32_t g = 0; g < groups; g++) {
    const int32_t offset = in_block.Get<int32_t>(g);
    const bool first_of_block = g == 0 || group_block_[g - 1] != group_block_[g];
    if (offset < 0 || (first_of_block && offset != 0) ||
        (!first_of_block && offset <= static_cast<int32_t>(offsets_in_block_[g - 1]))) {
      return Status::Corruption("index: bad row group offset");
    }
    offsets_in_block_[g] = static_cast<uint32_t>(offset);
    const Slice user_key = keys.GetBytes(g);
    keys_.append(user_key.data(), user_key.size());
    PutFixed64(&keys_, static_cast<uint64_t>(trailers.Get<int64_t>(g)));
    key_offsets_.push_back(static_cast<uint32_t>(keys_.size()));
  }
  return Status::OK();
}

size_t RowGroupIndex::MemoryUsage() const {
  return block_offsets_.capacity() * 8 + block_sizes_.capacity() * 8 +
         block_first_group_.capacity() * 4 + group_block_.capacity() * 4 +
         offsets_in_block_.capacity() * 4 + keys_.capacity() + key_offsets_.capacity() * 4;
}

}  // namespace columnar
