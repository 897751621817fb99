// Lower-case hex digit tests shared by the hex encoding and the auto chooser's analysis.
// Table-driven: hex ids are random, so branching on the digit class mispredicts half the time.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "table_format/types.h"

namespace columnar {

inline constexpr uint8_t kNotHexDigit = 16;

inline constexpr std::array<uint8_t, 256> kHexDigitValues = [] {
  std::array<uint8_t, 256> table{};
  for (int c = 0; c < 256; c++) {
    table[c] = c >= '0' && c <= '9'   ? static_cast<uint8_t>(c - '0')
               : c >= 'a' && c <= 'f' ? static_cast<uint8_t>(c - 'a' + 10)
                                      : kNotHexDigit;
  }
  return table;
}();

// 0..15 for '0'-'9' and 'a'-'f', kNotHexDigit for any other byte.
inline uint8_t HexDigitValue(uint8_t c) { return kHexDigitValues[c]; }

// 8 bytes (a little-endian word) that are all lower-case hex digits, checked at once: a
// byte b is in [lo, hi] when b + 0x80 - lo has its high bit set and b + 0x7f - hi has not
// (no carry crosses bytes below 0x80).
inline bool AllLowerHexDigits(uint64_t x) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  auto in_range = [x](uint64_t lo, uint64_t hi) {
    return (x + kOnes * (0x80 - lo)) & ~(x + kOnes * (0x7f - hi)) & kHigh;
  };
  return (x & kHigh) == 0 && (in_range('0', '9') | in_range('a', 'f')) == kHigh;
}

// True when all n bytes at p are lower-case hex digits.
inline bool AllLowerHexDigits(const char* p, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    if (!AllLowerHexDigits(word)) return false;
  }
  uint8_t any_bad = 0;
  for (; i < n; i++) any_bad |= HexDigitValue(static_cast<uint8_t>(p[i]));
  return (any_bad & kNotHexDigit) == 0;
}

// True for an even-length string of lower-case hex digits (the empty string included).
inline bool IsLowerHexString(const Slice& s) {
  return s.size() % 2 == 0 && AllLowerHexDigits(s.data(), s.size());
}

// The 8 lower-case hex digits (a little-endian word) of 4 bytes, the inverse of
// PackHexDigits: each byte's nibbles are spread to two bytes, high nibble first, and a nibble
// n becomes '0' + n, plus 'a' - '0' - 10 when n > 9 (n + 0x76 then has its high bit set).
inline constexpr uint64_t UnpackHexDigits(uint32_t bytes) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  uint64_t spread = bytes;
  spread = (spread | spread << 16) & 0x0000ffff0000ffffULL;
  spread = (spread | spread << 8) & 0x00ff00ff00ff00ffULL;
  const uint64_t nibbles =
      ((spread >> 4) & 0x000f000f000f000fULL) | ((spread & 0x000f000f000f000fULL) << 8);
  const uint64_t letters = ((nibbles + kOnes * 0x76) >> 7) & kOnes;
  return nibbles + kOnes * '0' + letters * ('a' - '0' - 10);
}

// For each byte, its two lower-case hex digits as they lie in memory (high nibble's digit
// first, on a little-endian target), from UnpackHexDigits: the decoder stores one pair per
// byte, which measured faster than unpacking words.
inline constexpr std::array<uint16_t, 256> kHexDigitPairs = [] {
  std::array<uint16_t, 256> table{};
  for (int b = 0; b < 256; b++) table[b] = static_cast<uint16_t>(UnpackHexDigits(b));
  return table;
}();

// The 4 bytes of 8 lower-case hex digits (a little-endian word), two digits a byte with the
// first in the high nibble: each digit's value is its low nibble, plus 9 for a letter (bit 6),
// then neighbouring nibbles are paired and the pairs gathered.
inline uint32_t PackHexDigits(uint64_t x) {
  const uint64_t nibbles = (x & 0x0f0f0f0f0f0f0f0fULL) + ((x >> 6) & 0x0101010101010101ULL) * 9;
  uint64_t pairs = ((nibbles << 4) | (nibbles >> 8)) & 0x00ff00ff00ff00ffULL;
  pairs = (pairs | (pairs >> 8)) & 0x0000ffff0000ffffULL;
  return static_cast<uint32_t>(pairs | (pairs >> 16));
}

}  // namespace columnar
