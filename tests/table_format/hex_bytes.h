// Bytes as lowercase hex without separators, for fixed-bytes expectations of on-disk layouts.
#pragma once

#include <string>

namespace columnar {
namespace testing_util {

inline std::string Hex(const std::string& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

}  // namespace testing_util
}  // namespace columnar
