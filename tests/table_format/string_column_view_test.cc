// StringColumnView (string_column_view.h) against the decoded column: every value (through
// Get and CopyTo), every length, and lower bounds against std::lower_bound,
// for sorted string sets of many shapes in each encoding, in place and decoded; malformed
// chunks are Corruption.
#include "table_format/string_column_view.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/encodings/int_packing.h"

namespace columnar {
namespace {

ColumnVector BytesColumn(const std::vector<std::string>& values) {
  ColumnVector column(PhysicalType::kBytes);
  for (const std::string& v : values) column.AppendBytes(v);
  return column;
}

// A row group's chunk of `values` (compact header: the count is the group's).
std::string ChunkOf(const std::vector<std::string>& values, Encoding encoding,
                    ColumnCompression compression = ColumnCompression::kNone) {
  ChunkWriteOptions options;
  options.encoding = encoding;
  options.compression = compression;
  options.checksum = false;
  options.implied_value_count = true;
  std::string chunk;
  Status s = WriteChunk(BytesColumn(values), options, &chunk);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return chunk;
}

// Sorted (non-decreasing) sets: shared leading bytes, prefixes of each other, duplicates,
// empty strings, 0x00 and 0xff bytes, differences far into long strings.
std::vector<std::vector<std::string>> SortedSets() {
  std::vector<std::vector<std::string>> sets;
  sets.push_back({"a"});
  sets.push_back({""});
  sets.push_back({"", "", "a", "a", "ab", "abc", "abc", "abd", "b"});
  sets.push_back(
      {"key", std::string("key\0", 4), std::string("key\0\0", 5), "key\x01", "key\xff", "kez"});
  std::vector<std::string> numbers;  // db_bench's shape: 8-byte big-endian + filler
  for (uint64_t i = 0; i < 300; i += 1 + i % 7) {
    std::string key(8, '\0');
    for (int b = 0; b < 8; b++) key[b] = static_cast<char>((i * 2654435761u) >> (56 - 8 * b));
    numbers.push_back(key + "00000000");
  }
  std::sort(numbers.begin(), numbers.end());
  sets.push_back(numbers);
  std::mt19937_64 random(7);
  for (int round = 0; round < 20; round++) {
    std::multiset<std::string> sorted;
    const int n = 1 + static_cast<int>(random() % 200);
    const std::string common(random() % 12, static_cast<char>('a' + round % 3));
    for (int i = 0; i < n; i++) {
      std::string v = round % 2 == 0 ? common : "";
      const int length = static_cast<int>(random() % (round % 4 == 0 ? 40 : 6));
      // Few distinct bytes: many shared prefixes and duplicates.
      const char bytes[] = {'\0', '\x01', 'a', 'b', '\xff'};
      for (int b = 0; b < length; b++) v.push_back(bytes[random() % 5]);
      sorted.insert(v);
    }
    sets.emplace_back(sorted.begin(), sorted.end());
  }
  return sets;
}

// Lookups: every value, and variations of each (one byte more or less, a changed last byte,
// prefixes), the empty string and one above every value.
std::vector<std::string> Targets(const std::vector<std::string>& values) {
  std::vector<std::string> targets{"", std::string(50, '\xff')};
  for (const std::string& v : values) {
    targets.push_back(v);
    targets.push_back(v + '\0');
    targets.push_back(v + 'a');
    if (!v.empty()) {
      targets.push_back(v.substr(0, v.size() - 1));
      targets.push_back(v.substr(0, v.size() / 2));
      std::string up = v;
      up.back() = static_cast<char>(static_cast<uint8_t>(up.back()) + 1);
      targets.push_back(up);
      std::string down = v;
      down.back() = static_cast<char>(static_cast<uint8_t>(down.back()) - 1);
      targets.push_back(down);
    }
  }
  return targets;
}

void ExpectViewMatches(const std::vector<std::string>& values, const std::string& chunk,
                       bool in_place) {
  StringColumnView view;
  Status s = view.Open(chunk, static_cast<uint32_t>(values.size()), in_place);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(view.size(), values.size());
  EXPECT_FALSE(view.has_nulls());
  if (!in_place) {
    EXPECT_NE(view.decoded_values(), nullptr);
  }
  std::string buffer;
  // Random order: Get assembles each value on its own.
  std::vector<size_t> order(values.size());
  for (size_t i = 0; i < order.size(); i++) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(3));
  for (size_t row : order) {
    ASSERT_EQ(view.Get(row, &buffer).ToString(), values[row]) << row;
    ASSERT_EQ(view.Length(row), values[row].size()) << row;
  }
  // CopyTo writes the value's bytes and nothing around them.
  for (size_t row : order) {
    std::string placed(values[row].size() + 2, '#');
    view.CopyTo(row, &placed[1]);
    ASSERT_EQ(placed, "#" + values[row] + "#") << row;
  }
  for (const std::string& target : Targets(values)) {
    const size_t expected = std::lower_bound(values.begin(), values.end(), target) - values.begin();
    ASSERT_EQ(view.LowerBound(target), expected) << Slice(target).ToString(true);
  }
}

TEST(StringColumnViewTest, MatchesTheValuesInEveryEncoding) {
  for (const auto& values : SortedSets()) {
    for (Encoding encoding :
         {Encoding::kFrontCoding, Encoding::kPlain, Encoding::kDictionary, Encoding::kAuto}) {
      for (ColumnCompression compression : {ColumnCompression::kNone, ColumnCompression::kZstd}) {
        SCOPED_TRACE(std::string(EncodingName(encoding)) + " " +
                     ColumnCompressionName(compression) + " " + std::to_string(values.size()) +
                     " values");
        const std::string chunk = ChunkOf(values, encoding, compression);
        ExpectViewMatches(values, chunk, true);
        ExpectViewMatches(values, chunk, false);
      }
    }
  }
}

// Plain and front_coding chunks without zstd are read in place; the others, and any chunk
// opened with in_place = false, are decoded.
TEST(StringColumnViewTest, ReadsInPlaceOnlyWhatItCan) {
  const std::vector<std::string> values{"apple", "apricot", "banana"};
  const struct {
    Encoding encoding;
    ColumnCompression compression;
    bool in_place;
  } cases[] = {{Encoding::kFrontCoding, ColumnCompression::kNone, true},
               {Encoding::kPlain, ColumnCompression::kNone, true},
               {Encoding::kDictionary, ColumnCompression::kNone, false}};
  for (const auto& c : cases) {
    StringColumnView view;
    ASSERT_TRUE(view.Open(ChunkOf(values, c.encoding, c.compression), 3).ok());
    EXPECT_EQ(view.decoded_values() == nullptr, c.in_place) << EncodingName(c.encoding);
    ASSERT_TRUE(view.Open(ChunkOf(values, c.encoding, c.compression), 3, false).ok());
    EXPECT_NE(view.decoded_values(), nullptr);
  }
  // A chunk with nulls is decoded, and says so.
  ColumnVector with_null(PhysicalType::kBytes);
  with_null.AppendBytes("a");
  with_null.AppendNull();
  ChunkWriteOptions options;
  options.encoding = Encoding::kFrontCoding;
  options.checksum = false;
  options.implied_value_count = true;
  std::string chunk;
  ASSERT_TRUE(WriteChunk(with_null, options, &chunk).ok());
  StringColumnView view;
  ASSERT_TRUE(view.Open(chunk, 2).ok());
  EXPECT_TRUE(view.has_nulls());
}

// Compact chunk header of a front_coding body: encoding 9, no nulls, no zstd.
std::string FrontCodingChunk(const std::vector<uint32_t>& prefixes,
                             const std::vector<uint32_t>& suffixes, const std::string& bytes) {
  std::string body;
  PackInts(prefixes.data(), prefixes.size(), &body);
  PackInts(suffixes.data(), suffixes.size(), &body);
  body += bytes;
  std::string chunk(1, static_cast<char>(0x80 | static_cast<int>(Encoding::kFrontCoding)));
  chunk.push_back(static_cast<char>(body.size()));  // varint32 stored_length (< 128 here)
  return chunk + body;
}

TEST(StringColumnViewTest, MalformedChunksAreCorruption) {
  StringColumnView view;
  // Well formed: "ab", "abc". The view reads the chunk where it lies: it must outlive it.
  const std::string well_formed = FrontCodingChunk({0, 2}, {2, 1}, "abc");
  ASSERT_TRUE(view.Open(well_formed, 2).ok());
  std::string buffer;
  EXPECT_EQ(view.Get(1, &buffer), Slice("abc"));
  // A prefix longer than the previous string.
  EXPECT_TRUE(view.Open(FrontCodingChunk({0, 3}, {2, 1}, "abc"), 2).IsCorruption());
  // Row 0 sharing a prefix with nothing.
  EXPECT_TRUE(view.Open(FrontCodingChunk({1, 0}, {2, 1}, "abc"), 2).IsCorruption());
  // Suffix lengths beyond the body, and short of it.
  EXPECT_TRUE(view.Open(FrontCodingChunk({0, 2}, {2, 5}, "abc"), 2).IsCorruption());
  EXPECT_TRUE(view.Open(FrontCodingChunk({0, 2}, {1, 1}, "abc"), 2).IsCorruption());
  // A suffix length past 2^32 - 1 in all (two lengths summing beyond 32 bits).
  EXPECT_TRUE(view.Open(FrontCodingChunk({0, 0}, {0xffffffffu, 2}, "abc"), 2).IsCorruption());
  // Truncated anywhere, and a value count other than the group's.
  const std::string good = ChunkOf({"apple", "apricot", "banana"}, Encoding::kFrontCoding);
  for (size_t cut = 0; cut < good.size(); cut++) {
    EXPECT_TRUE(view.Open(Slice(good.data(), cut), 3).IsCorruption()) << cut;
  }
  EXPECT_TRUE(view.Open(good, 4).IsCorruption());
  const std::string plain = ChunkOf({"apple", "apricot", "banana"}, Encoding::kPlain);
  for (size_t cut = 0; cut < plain.size(); cut++) {
    EXPECT_TRUE(view.Open(Slice(plain.data(), cut), 3).IsCorruption()) << cut;
  }
}

}  // namespace
}  // namespace columnar
