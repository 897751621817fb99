// Chunk: one column's values for one row group, encoded and optionally zstd-compressed.
// Every encoding shares this one envelope, so readers can identify, verify or skip any chunk
// without knowing its encoding.
//
// Byte layout, full header:
//
//   +----------+-------+-------------+---------------+-------------+------------+-------------+
//   | encoding | flags | value_count | stored_length | raw_length? | checksum?  | stored body |
//   | u8       | u8    | varint32    | varint32      | varint32    | fixed32 LE | bytes       |
//   +----------+-------+-------------+---------------+-------------+------------+-------------+
//
//   encoding       Encoding id (encoding.h), below 0x80; never kAuto.
//   flags          bit 0: the column has nulls (body starts with the presence bitmap)
//                  bit 1: the stored body is a zstd frame of the raw body
//                  bit 2: a checksum is present
//                  other bits must be zero.
//   value_count    rows in the chunk, nulls included.
//   stored_length  bytes of the stored body.
//   raw_length     length of the raw body before zstd (only with bit 1).
//   checksum       ComputeChecksum() of the stored body (only with bit 2). Chunks inside a
//                  table file leave it out: the enclosing block's checksum covers them.
//
// Compact header, for chunks whose reader knows the value count (the chunks of a row group:
// it is the group's row count) and that carry no checksum. Three bytes fewer per chunk; a
// 128-row group of 22 columns saves 66 bytes before block compression (12 after it):
//
//   +---------------+---------------+-------------+-------------+
//   | first byte    | stored_length | raw_length? | stored body |
//   | u8            | varint32      | varint32    | bytes       |
//   +---------------+---------------+-------------+-------------+
//
//   first byte     bit 7: 1 (the compact form)
//                  bit 6: the column has nulls
//                  bit 5: the stored body is a zstd frame (raw_length follows)
//                  bits 0-4: the Encoding id
//
//   The first byte has bit 7 set (a full header's encoding byte never has), so both forms
//   are told apart by it; old files hold only full headers. Encoding ids 0..31 fit; a chunk
//   of a higher id, or with a checksum, gets the full header. value_count is the count the
//   reader passes in (ChunkReadOptions::expected_values, SkipChunk's implied_values); a
//   compact chunk read without one is Corruption.
//
//   raw body := [presence bitmap] encoded values
//   presence bitmap: ceil(value_count / 8) bytes, bit i (LSB-first) set = row i present.
//   encoded values: the encoding's body for the non-null values only.
//
// Zstd is kept only when it makes the body smaller.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/encoding.h"
#include "table_format/types.h"

namespace columnar {

enum class ColumnCompression : uint8_t { kNone = 0, kZstd = 1 };

const char* ColumnCompressionName(ColumnCompression compression);
bool ParseColumnCompressionName(const std::string& name, ColumnCompression* compression);

// Upper bounds that keep a forged header from causing huge allocations.
inline constexpr uint32_t kMaxChunkValues = 1u << 24;
inline constexpr uint32_t kMaxChunkRawBytes = 1u << 30;

class EncodingMemo;
class FileDictionaryWriter;

struct ChunkWriteOptions {
  Encoding encoding = Encoding::kAuto;
  ColumnCompression compression = ColumnCompression::kNone;
  int zstd_level = 3;
  bool checksum = true;
  // Byte-string and integer columns of a table file: the file's dictionary of the column. The
  // chunk uses it (encoding file_dictionary; integers: file_huffman, a Huffman table among its
  // entries) when that beats its best local encoding.
  FileDictionaryWriter* file_dictionary = nullptr;
  // Auto-encoded columns of a table file: the column's remembered choice (encoding_memo.h),
  // which lets most chunks skip the chooser. Null: every chunk runs the chooser.
  EncodingMemo* memo = nullptr;
  // Write the compact header (see above) when the chunk allows it: its value count is known
  // to every reader from elsewhere (the row group's row count). Ignored with a checksum.
  bool implied_value_count = false;
  // A key column every point read searches: auto leaves out encodings slow to decode for a
  // lookup (EncodeWithBestEncoding).
  bool searched = false;
  // A chunk of a file that compaction soon rewrites (a flush's output): auto leaves out
  // template (EncodeWithBestEncoding), whose analysis is the chooser's costliest. Files that
  // stay get template when it wins, since compaction writes them with short_lived false.
  bool short_lived = false;
  // A column left to auto is written constant when every value is the same (a tag over a row
  // group) and plain otherwise, without the chooser: ShortLivedColumnSettings asks for it for
  // the byte-string and floating-point columns of flushed files whose blocks lz4 compresses
  // (column_settings.h says why).
  bool constant_or_plain = false;
  // A value every reader of the chunk knows without it (the row group's zone-map minimum of
  // the column; its bit pattern, zero-extended). A rice_delta chunk holding a value with this
  // bit pattern is written rice_delta_anchored: that value's position instead of the first
  // value (encodings/rice_delta.cc). Readers must pass the same ChunkReadOptions::anchor.
  bool has_anchor = false;
  uint64_t anchor = 0;
};

struct ChunkHeader {
  Encoding encoding = Encoding::kPlain;
  bool has_nulls = false;
  bool compressed = false;
  bool has_checksum = false;
  uint32_t value_count = 0;
  uint32_t stored_length = 0;
  uint32_t raw_length = 0;  // == stored_length when not compressed
  uint32_t checksum = 0;
  size_t header_size = 0;
  size_t total_size() const { return header_size + stored_length; }
};

// Encodes `values` and appends the chunk to *out. *chosen (optional) receives the encoding.
Status WriteChunk(const ColumnVector& values, const ChunkWriteOptions& options, std::string* out,
                  Encoding* chosen = nullptr);

// Parses the header at the start of `input` and checks the declared lengths fit in it.
// `implied_values`: the value count of a compact header (0: unknown, compact headers are
// Corruption); a full header must declare the same count when it is non-zero.
Status ParseChunkHeader(const Slice& input, ChunkHeader* header, uint32_t implied_values = 0);

struct ChunkReadOptions {
  bool verify_checksum = true;
  // When non-zero the chunk must hold exactly this many values (and a compact header, which
  // does not store its count, holds this many).
  uint32_t expected_values = 0;
  // The entries of the file's dictionary of the column, for chunks encoded file_dictionary or
  // file_huffman.
  const ColumnVector* file_dictionary = nullptr;
  // The rows whose values the caller reads (bit i of LSB-first 64-bit words = row i); null
  // means all. Byte strings of other rows may be left empty where that saves copying them
  // (file_dictionary chunks); nulls stay exact.
  const uint64_t* wanted_rows = nullptr;
  // The anchor the chunk was written with (ChunkWriteOptions::anchor), for rice_delta_anchored
  // chunks; null when the reader has none (such a chunk is then Corruption).
  const uint64_t* anchor = nullptr;
};

// Decodes the chunk at the start of *input into *out (replacing its contents and type) and
// advances *input past it.
Status ReadChunk(Slice* input, PhysicalType type, ColumnVector* out,
                 const ChunkReadOptions& options = ChunkReadOptions());

// Decodes only rows [begin, end) of the chunk at `input` into *out (end - begin values,
// replacing its contents and type), for point reads that return a row or two of a group.
// Chunks without nulls of an encoding with direct access (DecodeValueRange: plain,
// mixed_radix) decode only the range; other chunks are decoded whole and the range copied.
// InvalidArgument when the range is not within the chunk's values.
Status ReadChunkRows(const Slice& input, PhysicalType type, uint32_t begin, uint32_t end,
                     ColumnVector* out, const ChunkReadOptions& options = ChunkReadOptions());
// Reads a dictionary-encoded chunk without materialising its values: the dictionary (distinct
// values, sorted; encodings/dictionary.h), one code per present row, and the presence bitmap
// (ceil(value_count / 8) bytes, bit i set = row i present; empty when the chunk has no
// nulls). NotSupported (input unchanged) when the chunk uses another encoding.
Status ReadChunkDictionary(Slice* input, PhysicalType type, const ChunkReadOptions& options,
                           ColumnVector* dictionary, std::vector<uint32_t>* codes,
                           std::string* presence);

// Advances *input past one chunk without decoding it. `implied_values`: as ParseChunkHeader.
Status SkipChunk(Slice* input, ChunkHeader* header = nullptr, uint32_t implied_values = 0);

}  // namespace columnar
