// Row group index: where every row group of a table file lives and which key it starts with,
// so Get and Seek decode exactly one group. Stored as one framed block (data_block.h) whose raw
// content is itself columnar:
//
//   +-------------+-----------------+--------------------------------------------------------+
//   | block_count | row_group_count | chunks (chunk.h), in this order:                       |
//   | varint32    | varint32        |  1. block offsets        int64  x block_count          |
//   |             |                 |  2. block stored sizes   int64  x block_count          |
//   |             |                 |  3. row groups per block int32  x block_count          |
//   |             |                 |  4. offset in raw block  int32  x row_group_count      |
//   |             |                 |  5. first user key       bytes  x row_group_count      |
//   |             |                 |  6. first key trailer    int64  x row_group_count      |
//   +-------------+-----------------+--------------------------------------------------------+
//
// The first key of a group is the full internal key of its first row (user key, then
// RocksDB's 8-byte trailer: sequence << 8 | value type). Sorted user keys front-code to a few
// bytes each, so repeated partition keys cost almost nothing here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/types.h"

namespace columnar {

class RowGroupIndexBuilder {
 public:
  // Records a row group of the currently open block.
  void AddRowGroup(const Slice& first_user_key, uint64_t first_trailer, uint32_t offset_in_block);
  // Closes the open block (it must hold at least one row group); returns its ordinal.
  uint32_t CloseBlock();
  // Where block `ordinal` was written (may come later than CloseBlock when blocks are held
  // back, e.g. while a compression dictionary is trained).
  void SetBlockHandle(uint32_t ordinal, uint64_t offset, uint64_t stored_size);

  size_t num_row_groups() const { return offsets_in_block_.size(); }
  size_t num_blocks() const { return rows_groups_per_block_.size(); }
  bool open_block_empty() const { return open_block_groups_ == 0; }
  // Rough encoded size so far, for file size estimates.
  size_t EstimatedSize() const { return first_keys_bytes_ / 3 + num_row_groups() * 6; }

  // Encodes the raw index content (to be framed with WriteBlock).
  Status Finish(std::string* out) const;

 private:
  std::vector<int64_t> block_offsets_;
  std::vector<int64_t> block_sizes_;
  std::vector<int32_t> rows_groups_per_block_;
  std::vector<int32_t> offsets_in_block_;
  std::vector<std::string> first_user_keys_;
  std::vector<int64_t> first_trailers_;
  uint32_t open_block_groups_ = 0;
  size_t first_keys_bytes_ = 0;
};

// The decoded index, held in memory by a table reader.
class RowGroupIndex {
 public:
  // `max_groups`: the most row groups the file can hold (each holds an entry and takes a byte of
  // the file), which bounds what a forged count makes the decoder allocate. The index's own
  // size is no bound: the columns of many small groups can take less than a byte a group.
  Status Decode(const Slice& raw, uint64_t max_groups);

  size_t num_row_groups() const { return group_block_.size(); }
  size_t num_blocks() const { return block_offsets_.size(); }

  uint32_t block_of(size_t group) const { return group_block_[group]; }
  uint64_t block_offset(uint32_t block) const { return block_offsets_[block]; }
  uint64_t block_size(uint32_t block) const { return block_sizes_[block]; }
  uint32_t offset_in_block(size_t group) const { return offsets_in_block_[group]; }
  // End of the group inside its raw block, or 0 when it runs to the end of the block.
  uint32_t end_in_block(size_t group) const;
  // First internal key (user key + 8-byte trailer) of a group.
  Slice first_key(size_t group) const {
    return Slice(keys_.data() + key_offsets_[group], key_offsets_[group + 1] - key_offsets_[group]);
  }
  // First row group of a block.
  size_t first_group_of_block(uint32_t block) const { return block_first_group_[block]; }

  size_t MemoryUsage() const;

 private:
  std::vector<uint64_t> block_offsets_;
  std::vector<uint64_t> block_sizes_;
  std::vector<uint32_t> block_first_group_;
  std::vector<uint32_t> group_block_;
  std::vector<uint32_t> offsets_in_block_;
  std::string keys_;
  std::vector<uint32_t> key_offsets_;
};

}  // namespace columnar
