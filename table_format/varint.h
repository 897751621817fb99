// Little-endian fixed-width integers, LEB128 varints and zigzag mapping: the byte-level
// vocabulary of every on-disk structure. Decoders take a Slice* and advance it; they return
// false (never read past the end) on truncated or overlong input.
//
// RocksDB's internal util/coding.h has functions of the same names taking rocksdb::Slice*;
// where both are visible (plugin/), argument-dependent lookup makes unqualified calls
// ambiguous, so code there calls these as columnar::GetVarint32 etc.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "table_format/types.h"

namespace columnar {

inline void PutFixed16(std::string* dst, uint16_t v) {
  char buf[2] = {static_cast<char>(v), static_cast<char>(v >> 8)};
  dst->append(buf, 2);
}

inline void PutFixed32(std::string* dst, uint32_t v) {
  char buf[4];
  std::memcpy(buf, &v, 4);  // the format is little-endian; so is every supported target
  dst->append(buf, 4);
}

inline void PutFixed64(std::string* dst, uint64_t v) {
  char buf[8];
  std::memcpy(buf, &v, 8);
  dst->append(buf, 8);
}

inline uint16_t DecodeFixed16(const char* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

inline uint32_t DecodeFixed32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

inline uint64_t DecodeFixed64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline void EncodeFixed32(char* p, uint32_t v) { std::memcpy(p, &v, 4); }
inline void EncodeFixed64(char* p, uint64_t v) { std::memcpy(p, &v, 8); }

inline bool GetFixed8(Slice* in, uint8_t* v) {
  if (in->size() < 1) return false;
  *v = static_cast<uint8_t>((*in)[0]);
  in->remove_prefix(1);
  return true;
}

inline bool GetFixed16(Slice* in, uint16_t* v) {
  if (in->size() < 2) return false;
  *v = DecodeFixed16(in->data());
  in->remove_prefix(2);
  return true;
}

inline bool GetFixed32(Slice* in, uint32_t* v) {
  if (in->size() < 4) return false;
  *v = DecodeFixed32(in->data());
  in->remove_prefix(4);
  return true;
}

inline bool GetFixed64(Slice* in, uint64_t* v) {
  if (in->size() < 8) return false;
  *v = DecodeFixed64(in->data());
  in->remove_prefix(8);
  return true;
}

inline constexpr int kMaxVarint64Bytes = 10;

inline char* EncodeVarint64(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

inline void PutVarint64(std::string* dst, uint64_t v) {
  char buf[kMaxVarint64Bytes];
  dst->append(buf, EncodeVarint64(buf, v) - buf);
}

inline void PutVarint32(std::string* dst, uint32_t v) { PutVarint64(dst, v); }

// Bytes of v's varint: one per started group of 7 significant bits (v = 0 takes one byte).
inline int VarintLength(uint64_t v) {
  const int bits = 64 - __builtin_clzll(v | 1);
  return (bits + 6) / 7;
}

// A varint of 2 to 8 bytes from the 8 bytes at p (little-endian load), in a few word operations
// instead of a loop per byte; false when no byte of the 8 ends the varint (9 or 10 bytes, left
// to the loop). *len gets its byte count.
__attribute__((always_inline)) inline bool DecodeVarintFromWord(const uint8_t* p, uint64_t* v,
                                                                int* len) {
  uint64_t word;
  std::memcpy(&word, p, 8);
  const uint64_t ends = ~word & 0x8080808080808080ull;  // the high bit clear: a last byte
  if (ends == 0) return false;
  *len = (__builtin_ctzll(ends) >> 3) + 1;
  word &= ends ^ (ends - 1);  // the varint's bytes only: bits up to its last byte's high bit
  // Pack the 7-bit groups: pairs into 14 bits, fours into 28, all eight into 56.
  word = (word & 0x007f007f007f007full) | ((word & 0x7f007f007f007f00ull) >> 1);
  word = (word & 0x00003fff00003fffull) | ((word & 0x3fff00003fff0000ull) >> 2);
  word = (word & 0x000000000fffffffull) | ((word & 0x0fffffff00000000ull) >> 4);
  *v = word;
  return true;
}

// GetVarint64's byte-at-a-time loop: short input, and varints of 9 or 10 bytes. Out of line,
// while GetVarint64's fast paths are always inlined (row headers decode three varints a row).
__attribute__((noinline)) inline bool GetVarint64Loop(Slice* in, uint64_t* v) {
  const auto* p = reinterpret_cast<const uint8_t*>(in->data());
  const size_t n = in->size();
  uint64_t result = 0;
  for (size_t i = 0; i < n && i < static_cast<size_t>(kMaxVarint64Bytes); i++) {
    const uint64_t byte = p[i];
    if (i == kMaxVarint64Bytes - 1 && byte > 1) return false;  // more than 64 bits
    result |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) {
      *v = result;
      in->remove_prefix(i + 1);
      return true;
    }
  }
  return false;
}

__attribute__((always_inline)) inline bool GetVarint64(Slice* in, uint64_t* v) {
  const auto* p = reinterpret_cast<const uint8_t*>(in->data());
  const size_t n = in->size();
  if (n > 0 && p[0] < 0x80) {  // one byte: lengths, counts, versions
    *v = p[0];
    in->remove_prefix(1);
    return true;
  }
  int len;
  if (n >= 8 && DecodeVarintFromWord(p, v, &len)) {
    in->remove_prefix(static_cast<size_t>(len));
    return true;
  }
  return GetVarint64Loop(in, v);
}

// GetVarint64 accepting only the shortest form (what PutVarint64 writes): a varint is minimal
// when it is one byte or its last byte is not zero (a zero last byte adds no bits). On a
// non-minimal varint *in has been advanced past it.
__attribute__((always_inline)) inline bool GetCanonicalVarint64(Slice* in, uint64_t* v) {
  const char* start = in->data();
  if (!columnar::GetVarint64(in, v)) return false;
  const size_t len = static_cast<size_t>(in->data() - start);
  return len == 1 || start[len - 1] != 0;
}

inline bool GetVarint32(Slice* in, uint32_t* v) {
  uint64_t wide;
  Slice saved = *in;
  if (!columnar::GetVarint64(in, &wide) || wide > UINT32_MAX) {
    *in = saved;
    return false;
  }
  *v = static_cast<uint32_t>(wide);
  return true;
}

// Length-prefixed byte string: varint32 length, bytes.
inline void PutLengthPrefixed(std::string* dst, const Slice& s) {
  PutVarint32(dst, static_cast<uint32_t>(s.size()));
  dst->append(s.data(), s.size());
}

inline bool GetLengthPrefixed(Slice* in, Slice* out) {
  uint32_t len;
  Slice saved = *in;
  if (!columnar::GetVarint32(in, &len) || in->size() < len) {
    *in = saved;
    return false;
  }
  *out = Slice(in->data(), len);
  in->remove_prefix(len);
  return true;
}

inline constexpr uint64_t ZigZagEncode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

inline constexpr int64_t ZigZagDecode(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

}  // namespace columnar
