// Row group: up to rows_per_group consecutive entries of a table file, stored column by column
// (PAX). Which columns exist is decided by a RowLayout; a row group only knows numbered column
// slots, and stores a chunk (chunk.h) for each slot that has any data.
//
// Byte layout:
//
//   +-----------+------------------------+------------+----------------------+--------------+
//   | row_count | first_partition_length | slot_count | slot ids             | chunks       |
//   | varint32  | varint32               | varint32   | varint32 x slot_count| slot order   |
//   +-----------+------------------------+------------+----------------------+--------------+
//
//   row_count               rows in the group (1 to kMaxRowGroupRows); every chunk holds exactly
//                           this many values.
//   first_partition_length  bytes of the first row's user key that form its partition. The
//                           partition key itself is not repeated here: the row group index
//                           holds the group's first key, so a partition key is stored once per
//                           partition, not once per row group.
//   slot ids                ascending; the first is absolute, each next one is stored as the
//                           difference to its predecessor minus one.
//   chunks                  one per listed slot, in the same order. A slot that is absent
//                           means "every row has the layout's default" (for example: no
//                           partition changes inside the group, or no nulls to record).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/column_stats.h"
#include "table_format/column_vector.h"
#include "table_format/encoding_memo.h"
#include "table_format/types.h"

namespace columnar {

inline constexpr uint32_t kMaxRowGroupSlots = 1u << 16;
// The most rows a group may hold (the largest rows_per_group a table file may be written with).
// A header claiming more is refused before anything is decoded: with absent slots or constant
// chunks a few bytes could otherwise ask for millions of decoded rows.
inline constexpr uint32_t kMaxRowGroupRows = 1u << 20;

class RowGroupWriter {
 public:
  // Starts a group of `row_count` rows, discarding anything unfinished. Chunk sizes and
  // encodings are recorded in `stats` when given.
  // Chunks of auto-encoded columns reuse the encodings remembered in `memos` (one per slot,
  // encoding_memo.h) when given.
  void Begin(uint32_t row_count, uint32_t first_partition_length, ColumnStats* stats = nullptr,
             EncodingMemos* memos = nullptr);
  // Adds the chunk of `slot` (a column called `name`); slots must be added in increasing
  // order, each with row_count values.
  Status AddColumn(uint32_t slot, const std::string& name, const ColumnVector& values,
                   const ChunkWriteOptions& options);
  // Appends the finished group to *out.
  void Finish(std::string* out);

  // Encoded bytes of the chunks added so far (for size-based cuts and statistics).
  size_t chunk_bytes() const { return chunks_.size(); }

 private:
  uint32_t row_count_ = 0;
  uint32_t first_partition_length_ = 0;
  ColumnStats* stats_ = nullptr;
  EncodingMemos* memos_ = nullptr;
  std::vector<uint32_t> slots_;
  std::string chunks_;
};

// A parsed row group: header fields and where each slot's chunk is. Cheap to build (chunk
// headers are parsed, bodies are not decoded). `bytes` must outlive the view.
class RowGroupView {
 public:
  Status Parse(const Slice& bytes);

  uint32_t row_count() const { return row_count_; }
  uint32_t first_partition_length() const { return first_partition_length_; }
  // The slots that have a chunk, ascending: slot(0) to slot(slot_count() - 1).
  size_t slot_count() const { return slots_.size(); }
  uint32_t slot(size_t i) const { return slots_[i].slot; }
  // A copy of the slot ids, in order.
  std::vector<uint32_t> slots() const;
  bool HasSlot(uint32_t slot) const;
  // The encoded chunk of `slot`, empty when absent.
  Slice ChunkOf(uint32_t slot) const;
  // Decodes `slot` into *out (type `type`); an absent slot gives Status::NotFound.
  // `file_dictionary`: the file's dictionary of the column, for chunks that use it.
  // `wanted_rows`: ChunkReadOptions::wanted_rows.
  Status DecodeSlot(uint32_t slot, PhysicalType type, ColumnVector* out,
                    bool verify_checksum = true, const ColumnVector* file_dictionary = nullptr,
                    const uint64_t* wanted_rows = nullptr) const;
  // Decodes rows [begin, end) of `slot` only (ReadChunkRows): the rows a point read returns.
  Status DecodeSlotRows(uint32_t slot, PhysicalType type, uint32_t begin, uint32_t end,
                        ColumnVector* out, bool verify_checksum = true) const;
  // Total encoded size of the group.
  size_t size() const { return size_; }
  // The group's encoded bytes (header and chunks), as parsed.
  Slice bytes() const { return Slice(data_, size_); }

  // Slots whose chunks are anchored (rice_delta_anchored, chunk.h): they decode only once
  // SetAnchor has given them the value they were written against. Ascending by slot.
  size_t anchored_count() const { return anchors_.size(); }
  uint32_t anchored_slot(size_t i) const { return anchors_[i].slot; }
  // The anchor of `slot` (ChunkReadOptions::anchor), for DecodeSlot and DecodeSlotRows.
  void SetAnchor(uint32_t slot, uint64_t anchor);

 private:
  struct SlotChunk {
    uint32_t slot;
    Slice chunk;
  };
  const SlotChunk* Find(uint32_t slot) const;
  const uint64_t* AnchorOf(uint32_t slot) const;

  uint32_t row_count_ = 0;
  uint32_t first_partition_length_ = 0;
  // One vector, not one per field: a view is parsed for every group a read enters.
  std::vector<SlotChunk> slots_;
  struct Anchor {
    uint32_t slot;
    bool set;       // SetAnchor was called; `bits` is meaningless before
    uint64_t bits;  // the anchor's bit pattern, zero-extended
  };
  std::vector<Anchor> anchors_;
  const char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace columnar
