// DecodedRowGroup's search prefixes: the rows NarrowBySearchPrefix leaves around a user key
// must hold the key's lower bound, for keys that share long prefixes, are prefixes of each
// other, hold 0x00 bytes (which the zero-padded words cannot tell from a shorter key) or
// are 8 bytes past the shared part, and for lookups of every key, of keys between and
// around them, and of proper prefixes of the shared bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "table_format/generic_layout.h"
#include "table_format/row_group.h"
#include "table_format/varint.h"

namespace columnar {
namespace {

using namespace std::string_literals;

class AutoSettings : public ColumnWriteSettings {
 public:
  ChunkWriteOptions For(const std::string&, PhysicalType) const override {
    return ChunkWriteOptions();
  }
};

std::unique_ptr<DecodedRowGroup> DecodeGroup(const std::vector<std::string>& keys) {
  std::vector<Entry> entries(keys.size());
  for (size_t i = 0; i < keys.size(); i++) {
    entries[i].user_key = keys[i];
    entries[i].sequence = 7;
    entries[i].value_type = kPutValueType;
    entries[i].value = "v";
  }
  const GenericLayout layout(nullptr);
  AutoSettings settings;
  RowGroupWriteContext context;
  context.settings = &settings;
  std::string bytes;
  EXPECT_TRUE(layout.WriteRowGroup(entries.data(), entries.size(), context, &bytes).ok());
  RowGroupView view;
  EXPECT_TRUE(view.Parse(bytes).ok());
  std::string first_key = keys[0];
  PutFixed64(&first_key, (uint64_t{7} << 8) | kPutValueType);
  std::unique_ptr<DecodedRowGroup> decoded;
  EXPECT_TRUE(layout.DecodeRowGroup(view, first_key, &decoded).ok());
  return decoded;
}

// The first row whose user key is >= `key`, by bytes.
size_t LowerBoundOf(const std::vector<std::string>& keys, const std::string& key) {
  return std::lower_bound(keys.begin(), keys.end(), key) - keys.begin();
}

void CheckEveryLookup(std::vector<std::string> keys, bool tight = false) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  auto group = DecodeGroup(keys);
  ASSERT_NE(group, nullptr);
  group->BuildSearchPrefixes();
  ASSERT_TRUE(group->has_search_prefixes());
  std::vector<std::string> lookups;
  for (const std::string& key : keys) {
    lookups.push_back(key);
    lookups.push_back(key + std::string(1, '\0'));
    lookups.push_back(key + "\xff");
    for (size_t cut = 0; cut < key.size(); cut++) lookups.push_back(key.substr(0, cut));
    if (!key.empty()) {
      std::string above = key;
      above.back() = static_cast<char>(static_cast<uint8_t>(above.back()) + 1);
      lookups.push_back(above);
    }
  }
  lookups.push_back("");
  lookups.push_back(std::string(20, '\xff'));
  for (const std::string& lookup : lookups) {
    size_t begin = 0;
    size_t end = group->row_count();
    group->NarrowBySearchPrefix(lookup, &begin, &end);
    const size_t bound = LowerBoundOf(keys, lookup);
    ASSERT_LE(begin, bound) << testing::PrintToString(lookup);
    ASSERT_GE(end, bound) << testing::PrintToString(lookup);
    // Keys that differ within 8 bytes after the shared ones leave at most one row.
    if (tight) {
      ASSERT_LE(end - begin, 1u) << testing::PrintToString(lookup);
    }
  }
}

TEST(SearchPrefixTest, LookupsFindTheirLowerBound) {
  // db_bench's keys: an 8-byte big-endian number, then "00000000".
  std::vector<std::string> numbers;
  for (uint64_t i = 0; i < 128; i++) {
    std::string key(8, '\0');
    const uint64_t number = 70000 + i * 5;
    for (int b = 0; b < 8; b++) key[b] = static_cast<char>(number >> (56 - 8 * b));
    numbers.push_back(key + "00000000");
  }
  CheckEveryLookup(numbers, true);
  // Prefixes of each other, 0x00 bytes, keys differing only after 8 bytes past the shared part.
  CheckEveryLookup({"user", "user\0"s, "user\0\0"s, "user\0a"s, "user0", "user01234567",
                    "user012345678", "user012345679", "user01234567\xff", "userz"});
  CheckEveryLookup({"a", "b"});
  CheckEveryLookup({"only"});
  std::mt19937_64 rng(5);
  for (int round = 0; round < 20; round++) {
    std::vector<std::string> keys;
    const std::string shared(rng() % 12, 'k');
    for (int i = 0; i < 60; i++) {
      std::string key = shared;
      const size_t extra = rng() % 14;
      for (size_t b = 0; b < extra; b++) key.push_back(static_cast<char>(rng() % 3));
      keys.push_back(key);
    }
    CheckEveryLookup(keys);
  }
}

}  // namespace
}  // namespace columnar
