// CompareBytes (filter/datum.h): bytewise order, the first 8 bytes compared as one word, the rest
// by memcmp. Checked against std::string's compare over strings built to meet every case: equal
// and unequal first words, strings shorter than a word, one a prefix of the other, bytes with
// the high bit set (unsigned order) and zero bytes.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "filter/datum.h"

namespace columnar {
namespace {

int Sign(int x) { return (x > 0) - (x < 0); }

TEST(CompareBytesTest, OrdersAsStdStringCompare) {
  // Few distinct bytes, so that strings often share prefixes of every length.
  const std::string alphabet("\x00\x01\x7f\x80\xfe\xff", 6);
  std::mt19937_64 rng(7);
  std::vector<std::string> strings = {"", "a", "abcdefgh", "abcdefghi", "abcdefgi", "abcdefg"};
  for (int i = 0; i < 400; i++) {
    std::string s(rng() % 20, '\0');
    for (char& c : s) c = alphabet[rng() % alphabet.size()];
    strings.push_back(s);
    // The same with one byte changed, at a position inside or past the first word.
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
