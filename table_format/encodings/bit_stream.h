// Bit streams shared by the serial encodings (gorilla's XOR stream, rice_delta's unary
// quotients): bits are appended LSB-first within each byte, and the last byte is padded with
// zero bits.
#pragma once

#include <cassert>
#include <cstdint>
#include <string>

#include "table_format/types.h"

namespace columnar {

class BitWriter {
 public:
  explicit BitWriter(std::string* out) : out_(out) {}
  // Continues the stream in the last byte of *out, whose low `used_bits` (0..7) bits are taken
  // (its other bits are dropped); with 0 it starts a new byte.
  BitWriter(std::string* out, int used_bits) : out_(out) {
    if (used_bits > 0) {
      acc_ = static_cast<uint8_t>(out_->back()) & ((1u << used_bits) - 1);
      pending_ = used_bits;
      out_->pop_back();
    }
  }
  // Appends the low `count` (0..64) bits of `bits`. The bits reach *out eight bytes at a time
  // (and the rest at Finish), so *out holds the stream only after Finish.
  void Write(uint64_t bits, int count) {
    if (count == 0) return;
    if (count < 64) bits &= (uint64_t{1} << count) - 1;
    acc_ |= static_cast<unsigned __int128>(bits) << pending_;
    pending_ += count;
    if (pending_ >= 64) {
      char bytes[8];
      for (int k = 0; k < 8; k++)
        bytes[k] = static_cast<char>(static_cast<uint8_t>(acc_ >> (8 * k)));
      out_->append(bytes, 8);
      acc_ >>= 64;
      pending_ -= 64;
    }
  }
  // Writes the bits still held, the last byte padded with zero bits.
  void Finish() {
    while (pending_ > 0) {
      out_->push_back(static_cast<char>(static_cast<uint8_t>(acc_)));
      acc_ >>= 8;
      pending_ -= 8;
    }
    acc_ = 0;
    pending_ = 0;
  }

 private:
  std::string* out_;
  unsigned __int128 acc_ = 0;
  int pending_ = 0;
};

// BitWriter for streams of short codes (Huffman's, at most 32 bits each) of a known count:
// room for every bit is made in *out up front, and whole 32-bit words are stored straight into
// it (BitWriter appends to the string every 64 bits, which cost a fifth of encoding a chunk's
// file-dictionary codes). Writes the same bytes as BitWriter.
class ShortCodeWriter {
 public:
  // `max_bits`: at least the sum of every count written before Finish.
  ShortCodeWriter(std::string* out, size_t max_bits) : out_(out) {
    const size_t start = out->size();
    out->resize(start + (max_bits + 7) / 8 + sizeof(uint32_t));
    dst_ = reinterpret_cast<uint8_t*>(&(*out)[start]);
    end_ = reinterpret_cast<uint8_t*>(&(*out)[0]) + out->size();
  }
  // Appends the `count` (0..32) bits of `bits` (whose other bits are zero).
  void Write(uint32_t bits, int count) {
    assert(count <= 32 && (count == 32 || (bits >> count) == 0));
    acc_ |= uint64_t{bits} << pending_;  // pending_ < 32: the word never overflows
    pending_ += count;
    if (pending_ >= 32) {
      assert(dst_ + 4 <= end_);  // more bits than announced
      const uint32_t word = static_cast<uint32_t>(acc_);
      for (int k = 0; k < 4; k++) dst_[k] = static_cast<uint8_t>(word >> (8 * k));
      dst_ += 4;
      acc_ >>= 32;
      pending_ -= 32;
    }
  }
  // Writes the bits still held, the last byte padded with zero bits, and drops the unused room.
  void Finish() {
    assert(dst_ + (pending_ + 7) / 8 <= end_);
    for (; pending_ > 0; pending_ -= 8, acc_ >>= 8) *dst_++ = static_cast<uint8_t>(acc_);
    out_->resize(static_cast<size_t>(reinterpret_cast<char*>(dst_) - out_->data()));
  }

 private:
  std::string* out_;
  uint8_t* dst_;
  uint8_t* end_;  // of the room made (for debug checks)
  uint64_t acc_ = 0;
  int pending_ = 0;
};

class BitReader {
 public:
  explicit BitReader(const Slice& in)
      : p_(reinterpret_cast<const uint8_t*>(in.data())), end_(p_ + in.size()) {}
  // Reads `count` (0..64) bits; false when the stream is too short.
  bool Read(int count, uint64_t* bits) {
    while (pending_ < count) {
      if (p_ == end_) return false;
      acc_ |= static_cast<unsigned __int128>(*p_++) << pending_;
      pending_ += 8;
    }
    *bits = count == 64 ? static_cast<uint64_t>(acc_)
                        : static_cast<uint64_t>(acc_) & ((uint64_t{1} << count) - 1);
    acc_ >>= count;
    pending_ -= count;
    return true;
  }
  // True when every byte was used and the padding bits are zero.
  bool AtCleanEnd() const { return p_ == end_ && pending_ < 8 && acc_ == 0; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  unsigned __int128 acc_ = 0;
  int pending_ = 0;
};

// `count` (0..64) bits at bit `bit_offset` of `in` (LSB-first, as BitWriter wrote them): one
// value of a stream read in place; false past the end of `in`.
inline bool ReadBitsAt(const Slice& in, uint64_t bit_offset, int count, uint64_t* bits) {
  if (bit_offset + static_cast<uint64_t>(count) > static_cast<uint64_t>(in.size()) * 8) {
    return false;
  }
  BitReader reader(Slice(in.data() + bit_offset / 8, in.size() - bit_offset / 8));
  uint64_t skipped;
  return reader.Read(static_cast<int>(bit_offset % 8), &skipped) && reader.Read(count, bits);
}

}  // namespace columnar
