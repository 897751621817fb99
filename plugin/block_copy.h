// BlockCopy: the stored form of a compaction input's data block, written as it is when an
// output block is made of exactly that block's row groups, all copied verbatim.
//
// A block's raw bytes are its groups' bytes; copied whole and in order, an input block's groups
// make the same raw block in the output. Compressed the way the input file compressed its
// blocks (same codec and level, and the same zstd dictionary or none), its stored form
// (data_block.h: payload, codec byte, checksum; nothing in it depends on where it lies) is then the
// input's stored block, and compressing it again (12-14% of the instructions of a compaction
// copying every group) is not needed. The stored block is taken only after its checksum is verified
// and its raw bytes are compared with the output block's.
//
// Output blocks line up with input blocks again after new rows (a partition's new points shift
// every later block boundary, and no input block would line up again): where a copyable input
// block starts, an output block holding at least half a block closes (ClosesBefore); a shorter
// one stays open through that input block, past block_size, and closes where it ends
// (StaysOpenToInputBlockEnd), at most half a block over. Closing every open block there instead
// left a short block at each partition's new points (a metrics load: 4,930 blocks for the 4,648
// of a full encode, 0.2% larger files); never closing one lost every block copy after new rows.
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "rocksdb/slice.h"

namespace columnar {

class ColumnarTableReader;
class ZstdDictionary;
struct RawBlock;

class BlockCopy {
 public:
  // `compression_name` / `compression_options`: the output file's table properties, options
  // not empty (input files of other ones, or without options, are never copied from).
  // `dictionary`: the zstd dictionary the output compresses its blocks with (null: none; else
  // it must outlive this), which an input file's must equal byte for byte: a stored block
  // decompresses only with the dictionary it was compressed with.
  BlockCopy(std::string compression_name, std::string compression_options,
            const ZstdDictionary* dictionary = nullptr);

  // Whether `group` of `reader` is the first group of an input block whose stored form this
  // file could take.
  bool StartsCopyableBlock(const ColumnarTableReader& reader, size_t group) const;

  // Whether the output block, `open_bytes` long (of `block_size` wanted), closes before `group`
  // of `reader`, to be copied verbatim next.
  bool ClosesBefore(const ColumnarTableReader& reader, size_t group, size_t open_bytes,
                    size_t block_size) const;

  // After `group` of `reader` was copied verbatim (its iterator's block `held`, may be null)
  // into an output block now `open_bytes` long, at least `block_size`: whether the block stays
  // open to end where the group's input block ends, the next one then copyable as stored.
  bool StaysOpenToInputBlockEnd(const ColumnarTableReader& reader, size_t group,
                                const RawBlock* held, size_t open_bytes, size_t block_size) const;

  // After a group was appended, at `group_start`, to the output block `block` (its bytes so
  // far): `reader` and `group` when it was copied verbatim from that input group while its
  // iterator held it (`held`: that iterator's block pin, may be null); reader null for any
  // other group.
  void OnGroupWritten(const ColumnarTableReader* reader, size_t group, const RawBlock* held,
                      size_t group_start, const rocksdb::Slice& block);

  // At the output block's close: true with the input's stored block in *stored when `raw` is
  // exactly an input block followed whole. Starts the next output block afresh either way.
  bool TakeStored(const rocksdb::Slice& raw, std::string* stored);

  uint64_t copied_blocks() const { return copied_blocks_; }

 private:
  bool CompressedAlike(const ColumnarTableReader& reader) const;
  bool SameDictionaryAs(const ColumnarTableReader& reader) const;
  void Reset();

  const std::string compression_name_;
  const std::string compression_options_;
  const ZstdDictionary* const dictionary_;
  // The last input file whose dictionary was compared, and the answer (a file's groups are
  // offered one after another: the dictionaries, up to max_dict_bytes, are compared once).
  mutable std::array<char, 16> compared_file_{};
  mutable bool compared_any_ = false;
  mutable bool compared_same_ = false;
  // The input block the output block follows (reader null: none): its reader (compared only;
  // valid while its groups are held), its ordinal, the next group expected, and the stored
  // bytes once complete.
  const ColumnarTableReader* reader_ = nullptr;
  uint32_t ordinal_ = 0;
  size_t next_group_ = 0;
  bool complete_ = false;
  size_t complete_size_ = 0;
  std::string stored_;
  uint64_t copied_blocks_ = 0;
};

}  // namespace columnar
