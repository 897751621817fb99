// huffman: integers with few distinct values of skewed frequencies, each stored as its
// canonical Huffman code instead of bit-packing's fixed width. HTTP statuses (200 in 88% of
// the rows: 0.94 bits of information, 4 bits bit-packed) and the codes of file dictionaries
// whose one entry fills most rows (an empty referrer, GET, HTTP/2) are the cases it is for.
// Takes int32 and int64.
//
// Byte layout (n values, n from the chunk header):
//
//   symbols  varint32        k, the distinct values: 0 when n = 0, else
//                            1 <= k <= min(n, kMaxHuffmanSymbols)
//   values   zigzag varint   the smallest value (signed, at the type's width), then k - 1
//            varint64 each   gaps: each next larger value minus its predecessor minus one
//   lengths  ceil(k/2) bytes the code length of each value in that order, 4 bits each (low
//                            nibble first), 1..kMaxHuffmanCodeLength; the pad nibble of an odd
//                            k is zero
//   codes    bit stream      (LSB-first, bit_stream.h) every value's code in row order, the
//                            code's first (most significant) bit first; the last byte is
//                            padded with zero bits
//
// Codes are canonical: ordered by (length, value), the first is all zeros and each next one
// is its predecessor plus one, shifted left by the growth in length. Lengths must satisfy
// Kraft's inequality (sum of 2^-length <= 1); a bit pattern no value has is Corruption. A
// single distinct value has the 1-bit code 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "table_format/types.h"

namespace columnar {

// Most distinct values a body may hold; the encoder refuses columns with more.
inline constexpr size_t kMaxHuffmanSymbols = 4096;
// Longest code (fits a nibble); longer Huffman codes are avoided by flattening the counts.
inline constexpr int kMaxHuffmanCodeLength = 15;

// Exact body size for `n` integers (their bit patterns at U's width), or 0 when the encoder
// would refuse them (more than kMaxHuffmanSymbols distinct values).
template <typename U>
size_t HuffmanSize(const U* bits, size_t n);

// The parts of a body shared with file_huffman (file_huffman.h, whose table is the "symbols",
// "values" and "lengths" above, kept once per file).

// Code lengths for `counts` (each >= 1), none longer than kMaxHuffmanCodeLength; the lengths
// depend on the counts only.
std::vector<int> HuffmanCodeLengths(std::vector<uint64_t> counts);

// A code table: the distinct values ascending (read as signed at the type's width, held
// sign-extended) and their code lengths.
struct HuffmanTable {
  std::vector<int64_t> symbols;
  std::vector<int> lengths;

  // Appends "symbols", "values" and "lengths" (k >= 1).
  void Append(std::string* out) const;
  size_t AppendedSize() const;
  // Each symbol's code as it goes into the LSB-first stream (its bits reversed).
  std::vector<uint32_t> StreamCodes() const;
  // Parses a table of 1..max_symbols values that fit in `bits` (32 or 64) bits, with lengths
  // that satisfy Kraft's inequality; Corruption (naming `encoding`) otherwise.
  static Status Parse(Slice* in, int bits, size_t max_symbols, const char* encoding,
                      HuffmanTable* out);
};

// Canonical decoding of a parsed table's codes.
class HuffmanDecoder {
 public:
  // Codes of up to this many bits are decoded in one step with a lookup table.
  static constexpr int kLookupBits = 10;

  // `with_lookup`: build the lookup table (2 KiB), worth it when the decoder serves many
  // chunks (file_huffman's tables); without it codes are decoded bit by bit.
  explicit HuffmanDecoder(const HuffmanTable& table, bool with_lookup = false);
  // The symbol index of the code starting at bit *pos of `stream` (total_bits long), *pos
  // moved past it; false when the stream ends first or the bits are no value's code.
  bool Next(const uint8_t* stream, size_t total_bits, size_t* pos, uint32_t* index) const {
    if (!lookup_.empty()) {
      const uint16_t entry = lookup_[Peek(stream, total_bits, *pos)];
      const int length = entry & 15;
      if (length != 0 && *pos + length <= total_bits) {
        *index = entry >> 4;
        *pos += length;
        return true;
      }
    }
    return NextBitByBit(stream, total_bits, pos, index);
  }

 private:
  // The kLookupBits bits from `pos` (zeros past the end), the first in bit 0.
  static uint32_t Peek(const uint8_t* stream, size_t total_bits, size_t pos) {
    const size_t byte = pos >> 3;
    const size_t bytes = total_bits >> 3;
    uint32_t window = 0;
    if (byte + 4 <= bytes) {
      std::memcpy(&window, stream + byte, 4);  // little-endian: the first byte lowest
      return (window >> (pos & 7)) & ((1u << kLookupBits) - 1);
    }
    for (size_t b = 0; b < 3 && byte + b < bytes; b++)
      window |= uint32_t{stream[byte + b]} << (8 * b);
    return (window >> (pos & 7)) & ((1u << kLookupBits) - 1);
  }
  bool NextBitByBit(const uint8_t* stream, size_t total_bits, size_t* pos, uint32_t* index) const;

  std::vector<uint32_t> canonical_;  // symbol indices ordered by (length, value)
  int counts_[kMaxHuffmanCodeLength + 1] = {};
  int max_length_ = 0;
  // By the next kLookupBits bits: symbol index << 4 | code length; 0 for a longer code.
  std::vector<uint16_t> lookup_;
};

}  // namespace columnar
