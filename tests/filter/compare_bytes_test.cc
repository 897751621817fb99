// CompareBytes (filter/datum.h): bytewise order, the first 16 bytes compared as two words, the
// rest by memcmp. Checked against std::string's compare over strings built to meet every case:
// equal and unequal words (the first, later ones, the tail), strings shorter than a word, one a
// prefix of the other, bytes with the high bit set (unsigned order) and zero bytes.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "filter/datum.h"

namespace columnar {
namespace {

int Sign(int x) { return (x > 0) - (x < 0); }

TEST(CompareBytesTest, OrdersAsStdStringCompare) {
  // Few distinct bytes, after one of a few shared prefixes of 0 to 16 bytes: pairs share their
  // first words and differ in several bytes of a later one, where only a word compared in
  // big-endian order gives the bytes' order.
  const std::string alphabet("\x00\x01\x7f\x80\xfe\xff", 6);
  std::mt19937_64 rng(7);
  const auto random_bytes = [&](size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = alphabet[rng() % alphabet.size()];
    return s;
  };
  const std::string prefixes[] = {"", random_bytes(8), random_bytes(13), random_bytes(16)};
  std::vector<std::string> strings = {"", "a", "abcdefgh", "abcdefghi", "abcdefgi", "abcdefg"};
  for (int i = 0; i < 400; i++) {
    std::string s = prefixes[rng() % 4] + random_bytes(rng() % 24);
    strings.push_back(s);
    // The same with one byte changed, in any of its words or its tail.
    if (!s.empty()) {
      s[rng() % s.size()] = alphabet[rng() % alphabet.size()];
      strings.push_back(s);
    }
  }
  for (const std::string& a : strings) {
    for (const std::string& b : strings) {
      ASSERT_EQ(Sign(CompareBytes(Slice(a), Slice(b))), Sign(a.compare(b)))
          << testing::PrintToString(a) << " vs " << testing::PrintToString(b);
    }
  }
}

}  // namespace
}  // namespace columnar
