// Lower-case hex digit tests shared by the hex encoding and the auto chooser's analysis.
#pragma once

#include <cstdint>

#include "table_format/types.h"

namespace columnar {

// 0..15 for '0'-'9' and 'a'-'f', 16 for any other byte.
inline uint8_t HexDigitValue(uint8_t c) {
  if (c >= '0' && c <= '9') return static_cast<uint8_t>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<uint8_t>(c - 'a' + 10);
  return 16;
}

// True for an even-length string of lower-case hex digits (the empty string included).
inline bool IsLowerHexString(const Slice& s) {
  if (s.size() % 2 != 0) return false;
  for (size_t i = 0; i < s.size(); i++) {
    if (HexDigitValue(static_cast<uint8_t>(s[i])) > 15) return false;
  }
  return true;
}

}  // namespace columnar
