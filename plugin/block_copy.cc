#include "plugin/block_copy.h"

#include <utility>

#include "plugin/columnar_table_reader.h"
#include "table_format/zstd_codec.h"

namespace columnar {

namespace {

// One past the last group of input block `ordinal`.
size_t EndGroupOfBlock(const RowGroupIndex& index, uint32_t ordinal) {
  return ordinal + 1 < index.num_blocks() ? index.first_group_of_block(ordinal + 1)
                                          : index.num_row_groups();
}

}  // namespace

BlockCopy::BlockCopy(std::string compression_name, std::string compression_options,
                     const ZstdDictionary* dictionary)
    : compression_name_(std::move(compression_name)),
      compression_options_(std::move(compression_options)),
      dictionary_(dictionary) {}

bool BlockCopy::CompressedAlike(const ColumnarTableReader& reader) const {
  const auto& properties = reader.GetTableProperties();
  return properties != nullptr && properties->compression_name == compression_name_ &&
         properties->compression_options == compression_options_ && SameDictionaryAs(reader);
}

bool BlockCopy::SameDictionaryAs(const ColumnarTableReader& reader) const {
  const ZstdDictionary* theirs = reader.compression_dictionary();
  if (dictionary_ == nullptr || theirs == nullptr) return dictionary_ == theirs;
  if (!compared_any_ || compared_file_ != reader.file_id()) {
    compared_any_ = true;
    compared_file_ = reader.file_id();
    compared_same_ = theirs->raw() == dictionary_->raw();
  }
  return compared_same_;
}

bool BlockCopy::StartsCopyableBlock(const ColumnarTableReader& reader, size_t group) const {
  const RowGroupIndex& index = reader.index();
  return group < index.num_row_groups() &&
         index.first_group_of_block(index.block_of(group)) == group && CompressedAlike(reader);
}

bool BlockCopy::ClosesBefore(const ColumnarTableReader& reader, size_t group, size_t open_bytes,
                             size_t block_size) const {
  return open_bytes > 0 && open_bytes >= block_size / 2 && StartsCopyableBlock(reader, group);
}

bool BlockCopy::StaysOpenToInputBlockEnd(const ColumnarTableReader& reader, size_t group,
                                         const RawBlock* held, size_t open_bytes,
                                         size_t block_size) const {
  const RowGroupIndex& index = reader.index();
  // The input block's raw size is known only from the block its iterator holds; its last group
  // ends the output block where it ends anyway, and after the file's last block no block of
  // this file follows to be copied.
  if (group >= index.num_row_groups() || !reader.HoldsBlockOf(held, group)) return false;
  const uint32_t group_end = index.end_in_block(group);
  if (group_end == 0 || group_end > held->size || index.block_of(group) + 1 >= index.num_blocks()) {
    return false;
  }
  return open_bytes + (held->size - group_end) <= block_size + block_size / 2 &&
         CompressedAlike(reader);
}

void BlockCopy::OnGroupWritten(const ColumnarTableReader* reader, size_t group,
                               const RawBlock* held, size_t group_start,
                               const rocksdb::Slice& block) {
  if (reader == nullptr || group >= reader->index().num_row_groups()) {
    Reset();  // a group encoded here: this output block is no input block
    return;
  }
  const RowGroupIndex& index = reader->index();
  if (group_start == 0) {
    Reset();
    if (!StartsCopyableBlock(*reader, group)) return;
    reader_ = reader;
    ordinal_ = index.block_of(group);
  } else if (reader != reader_ || complete_ || group != next_group_ ||
             index.block_of(group) != ordinal_) {
    Reset();
    return;
  }
  next_group_ = group + 1;
  if (next_group_ < EndGroupOfBlock(index, ordinal_)) return;
  // The input block's last group: its stored form, if it is these raw bytes.
  if (!reader->StoredBlockHolding(ordinal_, block, held, &stored_)) {
    Reset();
    return;
  }
  complete_ = true;
  complete_size_ = block.size();
}

bool BlockCopy::TakeStored(const rocksdb::Slice& raw, std::string* stored) {
  const bool taken = complete_ && raw.size() == complete_size_;
  if (taken) {
    stored->swap(stored_);
    copied_blocks_++;
  }
  Reset();
  return taken;
}

void BlockCopy::Reset() {
  complete_ = false;
  reader_ = nullptr;
  stored_.clear();
}

}  // namespace columnar
