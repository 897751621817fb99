// Data block: the unit of I/O, outer compression and checksumming of a table file. A block
// holds whole row groups (a group never spans two blocks) up to the block size target, so
// any block decodes on its own. Meta blocks of our own (index, zone maps, ...) use the same
// framing.
//
// Byte layout on disk:
//
//   +---------------------------------------------+-------+------------+
//   | payload                                     | codec | checksum   |
//   |                                             | u8    | fixed32 LE |
//   +---------------------------------------------+-------+------------+
//
//   codec     0 = none: the payload is the raw block.
//             1 = lz4, 2 = zstd, 3 = zstd with the file's trained dictionary: the payload is
//             varint32 raw_length followed by the compressed frame.
//   checksum  ComputeChecksum() of payload + codec byte.
//
// A compressed form is kept only when it saves at least 1/64 of the raw size; otherwise the
// block is stored raw. (BlockBasedTable asks for 1/8, but encoded columns leave zstd less to
// find, and a few percent is still worth a decompression per block.)
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "table_format/byte_buffer.h"
#include "table_format/types.h"
#include "table_format/zstd_codec.h"

namespace columnar {

enum class BlockCodec : uint8_t { kNone = 0, kLz4 = 1, kZstd = 2, kZstdDict = 3 };

inline constexpr size_t kBlockTrailerSize = 5;
inline constexpr uint32_t kMaxBlockRawBytes = 1u << 30;

struct BlockCompressor {
  BlockCodec codec = BlockCodec::kNone;
  int level = 3;
  // Required for kZstdDict.
  const ZstdDictionary* dictionary = nullptr;
};

// Appends the framed (possibly compressed) block to *out.
Status WriteBlock(const Slice& raw, const BlockCompressor& compressor, std::string* out);
// The same into a ByteBuffer, where the compressor writes in place: a std::string grown by the
// codec's bound zeroes it first (2.4% of an access16 flush's instructions for its lz4 blocks).
Status WriteBlock(const Slice& raw, const BlockCompressor& compressor, ByteBuffer* out);

// Checks the trailer of `stored` (payload + trailer) and yields the raw block: a slice of
// `stored` itself when uncompressed, otherwise decompressed into *buffer.
Status ReadBlock(const Slice& stored, const ZstdDictionary* dictionary, bool verify_checksum,
                 std::string* buffer, Slice* raw);
// The same, decompressing into a new *buffer that is not zero-filled first (a point read
// decompresses a whole block to return one row: clearing it first would add a third to the
// cost of the copy).
Status ReadBlock(const Slice& stored, const ZstdDictionary* dictionary, bool verify_checksum,
                 std::unique_ptr<char[]>* buffer, Slice* raw);

// Only verifies the checksum of a stored block.
Status VerifyBlockChecksum(const Slice& stored);

}  // namespace columnar
