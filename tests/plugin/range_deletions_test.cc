// The range deletion block's codec (plugin/range_deletions.h) on damaged input: a start key
// whose type byte is not a RocksDB value type is Corruption. (Found by file_parts_fuzzer: the
// decoder handed such keys to rocksdb::ParseInternalKey, whose assert on the type byte is live
// in Debian's librocksdb build, and the process aborted.)
#include "plugin/range_deletions.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "table_format/varint.h"

namespace columnar {
namespace {

std::string StartKey(const std::string& user_key, uint64_t sequence, uint8_t type) {
  std::string key = user_key;
  PutFixed64(&key, (sequence << 8) | type);
  return key;
}

TEST(RangeDeletionsTest, RoundTrips) {
  const std::vector<RangeDeletion> deletions = {
      {StartKey("apple", 7, rocksdb::kTypeRangeDeletion), "banana"},
      {StartKey("kiwi", 9, rocksdb::kTypeRangeDeletion), "lime"}};
  std::string raw;
  EncodeRangeDeletions(deletions, &raw);
  std::vector<RangeDeletion> decoded;
  ASSERT_TRUE(DecodeRangeDeletions(raw, &decoded).ok());
  EXPECT_EQ(decoded, deletions);
}

TEST(RangeDeletionsTest, StartKeyWithAnUnknownTypeByteIsCorruption) {
  for (uint8_t type : {uint8_t{0x96}, uint8_t{0xff}, uint8_t{0x40}, uint8_t{0x1}}) {
    std::string raw;
    EncodeRangeDeletions({{StartKey("apple", 7, rocksdb::kTypeRangeDeletion), "banana"},
                          {StartKey("kiwi", 9, type), "lime"}},
                         &raw);
    std::vector<RangeDeletion> decoded;
    EXPECT_TRUE(DecodeRangeDeletions(raw, &decoded).IsCorruption()) << int{type};
  }
}

TEST(RangeDeletionsTest, FuzzerReproducerIsCorruption) {
  // file_parts_fuzzer's crash input (its first byte, the part selector, removed).
  const std::string raw(
      "\x02\x0d"
      "apple\x0f\x07\x00\x00\x00\x00\x00\x00\x06"
      "banana\x0c\x8d\x96\x88\xc2\x96\xf0\xf6\xff\x00\x00\x00\x00\x04lime",
      41);
  std::vector<RangeDeletion> decoded;
  EXPECT_TRUE(DecodeRangeDeletions(raw, &decoded).IsCorruption());
}

TEST(RangeDeletionsTest, ShortStartKeyIsCorruption) {
  std::string raw;
  EncodeRangeDeletions({{"short", "end"}}, &raw);
  std::vector<RangeDeletion> decoded;
  EXPECT_TRUE(DecodeRangeDeletions(raw, &decoded).IsCorruption());
}

}  // namespace
}  // namespace columnar
