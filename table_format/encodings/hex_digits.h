// Lower-case hex digit tests shared by the hex encoding and the auto chooser's analysis.
// Table-driven: hex ids are random, so branching on the digit class mispredicts half the time.
#pragma once

#include <array>
#include <cstdint>

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

// For each byte, its two lower-case hex digits as they lie in memory (high nibble's digit
// first, on a little-endian target).
inline constexpr std::array<uint16_t, 256> kHexDigitPairs = [] {
  constexpr char kDigits[] = "0123456789abcdef";
  std::array<uint16_t, 256> table{};
  for (int b = 0; b < 256; b++) {
    table[b] = static_cast<uint16_t>(static_cast<uint8_t>(kDigits[b >> 4]) |
                                     static_cast<uint8_t>(kDigits[b & 15]) << 8);
  }
  return table;
}();
inline const uint16_t* HexDigitPairs() { return kHexDigitPairs.data(); }

// 0..15 for '0'-'9' and 'a'-'f', kNotHexDigit for any other byte.
inline uint8_t HexDigitValue(uint8_t c) { return kHexDigitValues[c]; }

// True for an even-length string of lower-case hex digits (the empty string included).
inline bool IsLowerHexString(const Slice& s) {
  if (s.size() % 2 != 0) return false;
  uint8_t any_bad = 0;
  for (size_t i = 0; i < s.size(); i++) any_bad |= HexDigitValue(static_cast<uint8_t>(s[i]));
  return (any_bad & kNotHexDigit) == 0;
}

}  // namespace columnar
