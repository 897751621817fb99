// Corrupt, truncated and forged input for every decoder: each must return an error or a
// result, never crash, read out of bounds or allocate from a forged size (run under
// ASan+UBSan). Targeted cases check that specific violations are reported as Corruption
// naming the encoding.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "table_format/bit_packing.h"
#include "table_format/encoding.h"
#include "table_format/encodings/dictionary.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/varint.h"
#include "tests/table_format/encoding_test_util.h"

namespace columnar {
namespace {

using testing_util::AllStoredEncodings;
using testing_util::AllTypes;
using testing_util::DatasetsFor;

// Decodes from an exactly sized heap copy, so any over-read is an ASan error.
Status DecodeCopy(Encoding encoding, PhysicalType type, const std::string& body, size_t count,
                  ColumnVector* out) {
  std::vector<char> exact(body.begin(), body.end());
  return DecodeValues(encoding, type, Slice(exact.data(), exact.size()), count, out);
}

struct Sample {
  Encoding encoding;
  PhysicalType type;
  std::string name;
  size_t count;
  std::string body;
};

// Valid bodies of every encoding x type, over a few shapes and sizes.
std::vector<Sample> ValidBodies() {
  std::vector<Sample> samples;
  for (Encoding encoding : AllStoredEncodings()) {
    for (PhysicalType type : AllTypes()) {
      if (!EncodingSupports(encoding, type)) continue;
      for (size_t n : {1, 2, 33, 1030}) {
        for (auto& dataset : DatasetsFor(type, n, 4242 + n)) {
          if (dataset.name == "one_long") continue;  // 100 KB: too slow to truncate everywhere
          std::string body;
          if (!EncodeValues(encoding, dataset.values, &body).ok()) continue;
          samples.push_back({encoding, type, dataset.name, n, std::move(body)});
        }
      }
    }
  }
  return samples;
}

std::string Describe(const Sample& s) {
  return std::string(EncodingName(s.encoding)) + " " + PhysicalTypeName(s.type) + " " + s.name +
         " n=" + std::to_string(s.count);
}

TEST(EncodingCorruptionTest, EveryTruncationFailsCleanly) {
  for (const Sample& s : ValidBodies()) {
    SCOPED_TRACE(Describe(s));
    // Every length for short bodies; for long ones, every length near both ends and a
    // stride in between.
    for (size_t len = 0; len < s.body.size(); len++) {
      if (s.body.size() > 256 && len > 64 && len + 64 < s.body.size() && len % 37 != 0) continue;
      ColumnVector out(s.type);
      Status st = DecodeCopy(s.encoding, s.type, s.body.substr(0, len), s.count, &out);
      ASSERT_FALSE(st.ok()) << "truncated to " << len << " of " << s.body.size();
      ASSERT_TRUE(st.IsCorruption()) << st.ToString();
      ASSERT_NE(st.ToString().find(EncodingName(s.encoding)), std::string::npos) << st.ToString();
    }
  }
}

TEST(EncodingCorruptionTest, TrailingBytesAreRejected) {
  for (const Sample& s : ValidBodies()) {
    SCOPED_TRACE(Describe(s));
    ColumnVector out(s.type);
    EXPECT_TRUE(DecodeCopy(s.encoding, s.type, s.body + '\0', s.count, &out).IsCorruption());
  }
}

TEST(EncodingCorruptionTest, RandomByteFlipsNeverCrash) {
  std::mt19937_64 rng(99);
  size_t decoded_ok = 0;
  size_t rejected = 0;
  for (const Sample& s : ValidBodies()) {
    if (s.body.empty()) continue;
    SCOPED_TRACE(Describe(s));
    for (int round = 0; round < 24; round++) {
      std::string damaged = s.body;
      const int flips = 1 + static_cast<int>(rng() % 3);
      for (int k = 0; k < flips; k++) {
        damaged[rng() % damaged.size()] ^= static_cast<char>(1 + rng() % 255);
      }
      ColumnVector out(s.type);
      Status st = DecodeCopy(s.encoding, s.type, damaged, s.count, &out);
      if (st.ok()) {
        ASSERT_EQ(out.size(), s.count);
        decoded_ok++;
      } else {
        ASSERT_TRUE(st.IsCorruption()) << st.ToString();
        rejected++;
      }
    }
  }
  EXPECT_GT(rejected, 0u);
  EXPECT_GT(decoded_ok, 0u);  // some flips only change values
}

TEST(EncodingCorruptionTest, ForgedCountsNeverCrash) {
  for (const Sample& s : ValidBodies()) {
    if (s.count != 33) continue;
    SCOPED_TRACE(Describe(s));
    for (size_t count : {size_t{0}, size_t{1}, size_t{32}, size_t{34}, size_t{66}, size_t{1000},
                         size_t{1} << 20}) {
      ColumnVector out(s.type);
      Status st = DecodeCopy(s.encoding, s.type, s.body, count, &out);
      if (st.ok()) {
        ASSERT_EQ(out.size(), count);
      } else {
        ASSERT_TRUE(st.IsCorruption()) << st.ToString();
      }
    }
    ColumnVector out(s.type);
    EXPECT_TRUE(DecodeCopy(s.encoding, s.type, s.body, kMaxEncodedValues + 1, &out).IsCorruption());
  }
}

// Bodies built by hand around one violation each.
void ExpectCorrupt(Encoding encoding, PhysicalType type, const std::string& body, size_t count,
                   const char* why) {
  ColumnVector out(type);
  Status st = DecodeCopy(encoding, type, body, count, &out);
  EXPECT_TRUE(st.IsCorruption()) << EncodingName(encoding) << ": " << why << ": " << st.ToString();
  EXPECT_NE(st.ToString().find(EncodingName(encoding)), std::string::npos) << st.ToString();
}

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

TEST(EncodingCorruptionTest, TargetedViolations) {
  const PhysicalType i64 = PhysicalType::kInt64;
  const PhysicalType i32 = PhysicalType::kInt32;
  const PhysicalType f64 = PhysicalType::kFloat64;
  const PhysicalType f32 = PhysicalType::kFloat32;
  const PhysicalType bytes = PhysicalType::kBytes;
  // PackedInts: width 65 for int64, width 33 for int32, unknown layout byte, int32 reference
  // out of range.
  ExpectCorrupt(Encoding::kFor, i64, Bytes({0x00, 65}) + std::string(9, '\0'), 1, "width 65");
  ExpectCorrupt(Encoding::kFor, i32, Bytes({0x00, 33}) + std::string(5, '\0'), 1, "width 33");
  ExpectCorrupt(Encoding::kFor, i64, Bytes({0x00, 0x80}), 1, "bad layout");
  {
    std::string body;
    PutVarint64(&body, ZigZagEncode(int64_t{1} << 40));
    body.push_back(0);
    ExpectCorrupt(Encoding::kFor, i32, body, 1, "reference beyond int32");
    ExpectCorrupt(Encoding::kDelta, i32, body, 1, "first value beyond int32");
  }
  // Per-miniblock widths, one of them too large.
  ExpectCorrupt(Encoding::kFor, i64, Bytes({0x00, 0xff, 70}) + std::string(600, '\0'), 5,
                "miniblock width 70");
  // rle: more runs than values; run lengths not adding up.
  ExpectCorrupt(Encoding::kRle, i64, Bytes({0x05, 0x00, 0x00}), 2, "runs > count");
  {
    std::string body = Bytes({0x02});
    const uint32_t lengths_minus_one[] = {0, 0};  // 2 values, but count is 3
    PackInts(lengths_minus_one, 2, &body);
    body.append(16, '\0');
    ExpectCorrupt(Encoding::kRle, i64, body, 3, "run lengths sum");
  }
  // dictionary: code >= entries; unsorted entries; recursive entry encoding.
  {
    ColumnVector entries(i64);
    entries.Append<int64_t>(1);
    entries.Append<int64_t>(2);
    entries.Append<int64_t>(3);
    std::string plain;
    ASSERT_TRUE(EncodeValues(Encoding::kPlain, entries, &plain).ok());
    std::string body = Bytes({0x03, 0x00});
    PutVarint64(&body, plain.size());
    body += plain;
    body += Bytes({0x0f});  // codes {3, 0, 0, 0} at 2 bits: 3 is out of range
    ExpectCorrupt(Encoding::kDictionary, i64, body, 4, "code out of range");

    ColumnVector unsorted(i64);
    unsorted.Append<int64_t>(2);
    unsorted.Append<int64_t>(1);
    plain.clear();
    ASSERT_TRUE(EncodeValues(Encoding::kPlain, unsorted, &plain).ok());
    body = Bytes({0x02, 0x00});
    PutVarint64(&body, plain.size());
    body += plain + Bytes({0x02});
    ExpectCorrupt(Encoding::kDictionary, i64, body, 2, "unsorted entries");
    body[1] = static_cast<char>(Encoding::kDictionary);
    ExpectCorrupt(Encoding::kDictionary, i64, body, 2, "nested dictionary");
  }
  // gorilla: '10' before any window; window wider than the value.
  ExpectCorrupt(Encoding::kGorilla, f64, std::string(8, '\0') + Bytes({0x01}), 2,
                "window reuse before set");
  ExpectCorrupt(Encoding::kGorilla, f32,
                std::string(4, '\0') + Bytes({0x07 | (31 << 3), 0xff, 0xff}), 2,
                "lead + length > 32");
  // alp: exponent > 18; factor > exponent; exception position >= vector length; positions
  // not increasing; frame out of range.
  {
    auto vector = [](int e, int f, int exceptions, int64_t base, int width) {
      std::string v = Bytes({e, f});
      PutFixed16(&v, static_cast<uint16_t>(exceptions));
      PutFixed64(&v, static_cast<uint64_t>(base));
      v.push_back(static_cast<char>(width));
      return v;
    };
    ExpectCorrupt(Encoding::kAlp, f64, vector(19, 0, 0, 0, 0), 1, "e > 18");
    ExpectCorrupt(Encoding::kAlp, f64, vector(3, 4, 0, 0, 0), 1, "f > e");
    ExpectCorrupt(Encoding::kAlp, f64, vector(0, 0, 0, int64_t{1} << 52, 0), 1, "base range");
    ExpectCorrupt(Encoding::kAlp, f64, vector(0, 0, 0, 0, 54) + std::string(7, '\0'), 1,
                  "width 54");
    std::string one_exception = vector(0, 0, 1, 0, 0);
    PutFixed16(&one_exception, 1);  // position 1 in a vector of 1
    one_exception.append(8, '\0');
    ExpectCorrupt(Encoding::kAlp, f64, one_exception, 1, "position >= length");
    std::string repeated = vector(0, 0, 2, 0, 0);
    PutFixed16(&repeated, 1);
    PutFixed16(&repeated, 1);
    repeated.append(16, '\0');
    ExpectCorrupt(Encoding::kAlp, f64, repeated, 3, "positions not increasing");
    std::string float_vector = Bytes({0, 0, 0, 0});
    PutFixed32(&float_vector, 1u << 23);  // base beyond 2^22
    float_vector.push_back(0);
    ExpectCorrupt(Encoding::kAlp, f32, float_vector, 1, "float base range");
  }
  // alp_rd: cut leaving 17 left bits; zero entries; code >= entries; exception too wide.
  ExpectCorrupt(Encoding::kAlpRd, f64, Bytes({47, 1, 0, 0}), 1, "17 left bits");
  ExpectCorrupt(Encoding::kAlpRd, f64, Bytes({48, 0}), 1, "no entries");
  ExpectCorrupt(Encoding::kAlpRd, f64, Bytes({48, 9}) + std::string(18, '\0'), 1, "9 entries");
  {
    std::string body = Bytes({60, 3, 1, 0, 2, 0, 3, 0});  // 4 left bits, entries {1, 2, 3}
    body += Bytes({0, 0});                                // no exceptions
    body += Bytes({0x03});                                // code 3 (2 bits)
    body += std::string(8, '\0');                         // the 60-bit right part
    ExpectCorrupt(Encoding::kAlpRd, f64, body, 1, "code out of range");
    body = Bytes({60, 1, 16, 0});  // entry 16 needs 5 bits
    body += Bytes({0, 0}) + std::string(8, '\0');
    ExpectCorrupt(Encoding::kAlpRd, f64, body, 1, "entry too wide");
  }
  // front_coding: a prefix longer than the previous string.
  {
    std::string body;
    const uint32_t prefixes[] = {0, 5};
    const uint32_t suffixes[] = {2, 0};
    PackInts(prefixes, 2, &body);
    PackInts(suffixes, 2, &body);
    body += "ab";
    ExpectCorrupt(Encoding::kFrontCoding, bytes, body, 2, "prefix too long");
  }
  // hex: half lengths disagreeing with the digits.
  {
    std::string body;
    const uint32_t halves[] = {3};
    PackInts(halves, 1, &body);
    body += Bytes({0xab, 0xcd});
    ExpectCorrupt(Encoding::kHex, bytes, body, 1, "lengths vs digits");
  }
  // Byte strings expanding past the decoded-size cap from a tiny body.
  {
    ColumnVector one(bytes);
    one.AppendBytes(std::string(1 << 20, 'x'));
    std::string body;
    ASSERT_TRUE(EncodeValues(Encoding::kDictionary, one, &body).ok());
    ExpectCorrupt(Encoding::kDictionary, bytes, body, 2000, "expansion cap");
  }
  // The wrong type for an encoding and an unknown id.
  ExpectCorrupt(Encoding::kHex, i64, "", 0, "hex of int64");
  ColumnVector out(i64);
  EXPECT_TRUE(DecodeValues(static_cast<Encoding>(77), i64, "", 0, &out).IsCorruption());
}

TEST(EncodingCorruptionTest, RiceDeltaViolations) {
  const PhysicalType i32 = PhysicalType::kInt32;
  const Encoding rice = Encoding::kRiceDelta;
  // Each body: the first value 00, then one block holding one difference.
  ExpectCorrupt(rice, i32, Bytes({0x00, 0x1f, 0, 0, 0, 0, 0}), 2, "k 31 leaves no room for f");
  ExpectCorrupt(rice, i32, Bytes({0x00, 0xbf}), 2, "flat quotients in a constant block");
  ExpectCorrupt(rice, i32, Bytes({0x00, 0x40, 0x80}), 2, "truncated center");
  ExpectCorrupt(rice, i32, Bytes({0x00, 0x05}), 2, "truncated fields");
  ExpectCorrupt(rice, i32, Bytes({0x00, 0x00, 0x00, 0x00, 0x00, 0x01}), 2, "code of 24");
  ExpectCorrupt(rice, i32, Bytes({0x00, 0x00, 0x00, 0x00}), 2, "unterminated code");
  ExpectCorrupt(rice, i32, Bytes({0x00, 0x00, 0x03}), 2, "padding bit set");
  // An escaped code (16 zero bits, a one) without its varint, and with one too wide for int32.
  ExpectCorrupt(rice, i32, Bytes({0x00, 0x00, 0x00, 0x00, 0x01}), 2, "missing escape");
  std::string wide = Bytes({0x00, 0x00, 0x00, 0x00, 0x01});
  PutVarint64(&wide, uint64_t{1} << 32);
  ExpectCorrupt(rice, i32, wide, 2, "difference beyond 32 bits");
  ExpectCorrupt(rice, PhysicalType::kFloat32, Bytes({0x00, 0x00}), 1, "truncated first float");
  ExpectCorrupt(rice, i32, Bytes({0x00}), 2, "no block for the second value");
  ExpectCorrupt(rice, i32, Bytes({0x00, 0x00, 0x01, 0x00}), 2, "trailing byte");
}

TEST(EncodingCorruptionTest, ConstantViolations) {
  const Encoding constant = Encoding::kConstant;
  ExpectCorrupt(constant, PhysicalType::kFloat32, Bytes({0, 0, 0x80, 0x3f, 0}), 3, "5-byte float");
  ExpectCorrupt(constant, PhysicalType::kInt64, Bytes({0x02, 0x00}), 3, "varint and a byte");
  ExpectCorrupt(constant, PhysicalType::kInt32, Bytes({0x80}), 3, "truncated varint");
  std::string beyond_int32;
  PutVarint64(&beyond_int32, ZigZagEncode(int64_t{1} << 40));
  ExpectCorrupt(constant, PhysicalType::kInt32, beyond_int32, 3, "value beyond int32");
  ExpectCorrupt(constant, PhysicalType::kBytes, Bytes({0x05, 'a', 'b', 'c'}), 3,
                "length 5, 3 bytes");
  ExpectCorrupt(constant, PhysicalType::kInt64, Bytes({0x02}), 0, "a value for no rows");
  std::string big;
  PutVarint64(&big, 1 << 20);
  big.append(1 << 20, 'x');
  ExpectCorrupt(constant, PhysicalType::kBytes, big, 2000, "expansion cap");
}

// A template body around hand-made templates (constant-coded, so every row has `tmpl`) and
// the given parameter streams (each plain int64 values).
std::string TemplateBody(const std::string& tmpl, const std::vector<std::vector<int64_t>>& streams,
                         Encoding template_encoding = Encoding::kConstant) {
  std::string constant;
  PutVarint64(&constant, tmpl.size());
  constant += tmpl;
  std::string body = Bytes({static_cast<int>(template_encoding)});
  PutVarint64(&body, constant.size());
  body += constant;
  PutVarint64(&body, streams.size());
  for (const std::vector<int64_t>& stream : streams) {
    body.push_back(static_cast<char>(Encoding::kPlain));
    PutVarint64(&body, stream.size() * 8);
    for (int64_t v : stream) PutFixed64(&body, static_cast<uint64_t>(v));
  }
  return body;
}

TEST(EncodingCorruptionTest, TemplateViolations) {
  const Encoding tmpl = Encoding::kTemplate;
  const PhysicalType bytes = PhysicalType::kBytes;
  const std::string dec("a\0d", 3);
  // The well-formed body decodes; every violation below changes one thing.
  {
    ColumnVector out(bytes);
    ASSERT_TRUE(DecodeCopy(tmpl, bytes, TemplateBody(dec, {{42, 7}}), 2, &out).ok());
    EXPECT_EQ(out.GetBytes(0), Slice("a42"));
    EXPECT_EQ(out.GetBytes(1), Slice("a7"));
  }
  ExpectCorrupt(tmpl, bytes, TemplateBody(dec, {}), 2, "no stream for the slot");
  ExpectCorrupt(tmpl, bytes, TemplateBody(dec, {{1, 2}, {3, 4}}), 2, "a stream too many");
  ExpectCorrupt(tmpl, bytes, TemplateBody(dec, {{1}}), 2, "stream shorter than its rows");
  ExpectCorrupt(tmpl, bytes, TemplateBody(dec, {{1, 2}}) + "x", 2, "trailing byte");
  ExpectCorrupt(tmpl, bytes, TemplateBody(std::string("a\0", 2), {}), 2, "truncated escape");
  ExpectCorrupt(tmpl, bytes, TemplateBody(std::string("a\0q", 3), {}), 2, "unknown escape");
  ExpectCorrupt(tmpl, bytes, TemplateBody(std::string("\0x", 2), {}), 2, "hex slot without width");
  ExpectCorrupt(tmpl, bytes, TemplateBody(std::string("\0x\x11", 3), {{1, 1}}), 2,
                "hex slot of 17 digits");
  ExpectCorrupt(tmpl, bytes, TemplateBody(std::string("\0x\x02", 3), {{0x100, 1}}), 2,
                "hex parameter wider than its slot");
  {
    // A padded decimal slot of 3 digits keeps its leading zeros.
    ColumnVector out(bytes);
    ASSERT_TRUE(
        DecodeCopy(tmpl, bytes, TemplateBody(std::string("u\0z\x03", 4), {{42, 999}}), 2, &out)
            .ok());
    EXPECT_EQ(out.GetBytes(0), Slice("u042"));
    EXPECT_EQ(out.GetBytes(1), Slice("u999"));
  }
  ExpectCorrupt(tmpl, bytes, TemplateBody(std::string("\0z", 2), {}), 2,
                "padded slot without width");
  ExpectCorrupt(tmpl, bytes, TemplateBody(std::string("\0z\x01", 3), {{1, 1}}), 2,
                "padded slot of 1 digit");
  ExpectCorrupt(tmpl, bytes, TemplateBody(std::string("\0z\x14", 3), {{1, 1}}), 2,
                "padded slot of 20 digits");
  ExpectCorrupt(tmpl, bytes, TemplateBody(std::string("\0z\x03", 3), {{1000, 1}}), 2,
                "padded parameter wider than its slot");
  ExpectCorrupt(tmpl, bytes, TemplateBody(std::string("\0z\x13", 3), {{-1, 1}}), 2,
                "padded parameter >= 10^19");
  ExpectCorrupt(tmpl, bytes, TemplateBody(dec, {{-1, 1}}), 2, "decimal parameter >= 10^19");
  std::string many;
  for (int k = 0; k < 17; k++) many += std::string("\0d", 2);
  ExpectCorrupt(tmpl, bytes, TemplateBody(many, std::vector<std::vector<int64_t>>(17, {1, 1})), 2,
                "17 slots");
  ExpectCorrupt(tmpl, bytes, TemplateBody(dec, {{1, 2}}, Encoding::kTemplate), 2,
                "templates encoded as templates");
  ExpectCorrupt(tmpl, bytes, TemplateBody(dec, {{1, 2}}, Encoding::kFileDictionary), 2,
                "file dictionary templates without the dictionary");
  ExpectCorrupt(tmpl, bytes, Bytes({0x00}), 2, "no template body length");
}

TEST(EncodingCorruptionTest, RleNestedViolations) {
  const Encoding runs = Encoding::kRleNested;
  const PhysicalType i64 = PhysicalType::kInt64;
  // 1 run of 2 values (lengths - 1 {1}: 00 01 01), then the run value.
  const std::string lengths = Bytes({0x01, 0x00, 0x01, 0x01});
  std::string one_value;
  PutFixed64(&one_value, 42);
  {
    ColumnVector out(i64);
    ASSERT_TRUE(DecodeCopy(runs, i64, lengths + Bytes({0x00}) + one_value, 2, &out).ok());
    EXPECT_EQ(out.Get<int64_t>(1), 42);
  }
  ExpectCorrupt(runs, i64, lengths, 2, "no run value encoding");
  ExpectCorrupt(runs, i64, lengths + Bytes({0x11}) + one_value, 2, "nested rle_nested");
  ExpectCorrupt(runs, i64, lengths + Bytes({0x0e}) + one_value, 2, "nested file_dictionary");
  ExpectCorrupt(runs, i64, lengths + Bytes({0x00}) + one_value + "x", 2, "trailing byte");
  ExpectCorrupt(runs, i64, lengths + Bytes({0x00}) + one_value, 3, "lengths do not add up");
  ExpectCorrupt(runs, i64, Bytes({0x05, 0x00, 0x00}), 2, "runs > count");
}

TEST(EncodingCorruptionTest, MixedRadixViolations) {
  const Encoding radix = Encoding::kMixedRadix;
  const PhysicalType i32 = PhysicalType::kInt32;
  const PhysicalType i64 = PhysicalType::kInt64;
  // Minimum 0, span 2 (radix 3): a group of 3 values in 5 bits; 27 is not a 3-digit number.
  ExpectCorrupt(radix, i32, Bytes({0x00, 0x02, 27}), 3, "group number beyond its digits");
  ExpectCorrupt(radix, i32, Bytes({0x00, 0x02, 0x2f}), 3, "padding bit set");
  ExpectCorrupt(radix, i32, Bytes({0x00, 0x02, 0x0f, 0x00}), 3, "trailing byte");
  ExpectCorrupt(radix, i32, Bytes({0x00, 0x02}), 3, "no digits");
  ExpectCorrupt(radix, i32, Bytes({0x00, 0x02}), 0, "a span for no values");
  ExpectCorrupt(radix, i64, Bytes({0x00, 0x00, 0x00}), 3, "equal values with digits");
  // Minimum INT32_MAX - 1 with span 2 would reach past INT32_MAX.
  std::string beyond;
  PutVarint64(&beyond, ZigZagEncode(int64_t{INT32_MAX} - 1));
  beyond += Bytes({0x02, 0x00});
  ExpectCorrupt(radix, i32, beyond, 1, "span beyond the type");
  // A forged count far beyond the digits the body holds.
  ExpectCorrupt(radix, i64, Bytes({0x00, 0x02, 0x00}), 1 << 20, "count beyond the body");
}

TEST(EncodingCorruptionTest, HuffmanViolations) {
  const Encoding huffman = Encoding::kHuffman;
  const PhysicalType i32 = PhysicalType::kInt32;
  const PhysicalType i64 = PhysicalType::kInt64;
  // The valid body of EncodingFormatTest.Huffman: {200, 200, 200, 404, 200, 500}.
  const std::string symbols = Bytes({0x03, 0x90, 0x03, 0xcb, 0x01, 0x5f});
  const std::string valid = symbols + Bytes({0x21, 0x02, 0xc8});
  ColumnVector decoded(i32);
  ASSERT_TRUE(DecodeValues(huffman, i32, valid, 6, &decoded).ok());
  ExpectCorrupt(huffman, i32, valid + Bytes({0x00}), 6, "trailing byte");
  ExpectCorrupt(huffman, i32, valid, 2, "more symbols than values");
  ExpectCorrupt(huffman, i32, valid, 7, "one value short");
  ExpectCorrupt(huffman, i32, Bytes({0x00}), 6, "no symbols for values");
  ExpectCorrupt(huffman, i32, Bytes({0x01, 0x01, 0x01, 0x00}), 0, "symbols for no values");
  ExpectCorrupt(huffman, i32, symbols + Bytes({0x20, 0x02, 0xc8}), 6, "zero code length");
  ExpectCorrupt(huffman, i32, symbols + Bytes({0x21, 0x12, 0xc8}), 6, "pad nibble set");
  // Lengths {1, 1, 2}: two 1-bit codes already fill the code space. Eight 1-bit codes use the
  // stream exactly, so only the Kraft check can refuse it.
  ExpectCorrupt(huffman, i32, symbols + Bytes({0x11, 0x02, 0xc8}), 8, "over-subscribed");
  // Lengths {1, 2, 3} leave 111 unassigned; rows 0, 0, then 111.
  ExpectCorrupt(huffman, i32, symbols + Bytes({0x21, 0x03, 0x1c}), 3, "code of no value");
  ExpectCorrupt(huffman, i64, Bytes({0x01, 0x01, 0x01, 0x02}), 1, "padding bit set");
  ExpectCorrupt(huffman, i64, Bytes({0x01, 0x01, 0x01}), 1, "no codes");
  ExpectCorrupt(huffman, i64, Bytes({0x01, 0x01, 0x01, 0x00}), 1 << 20, "count beyond body");
  // Two values from INT32_MAX - 1 with gap 1 would pass INT32_MAX.
  std::string beyond = Bytes({0x02});
  PutVarint64(&beyond, ZigZagEncode(int64_t{INT32_MAX} - 1));
  beyond += Bytes({0x01, 0x11, 0x02});
  ExpectCorrupt(huffman, i32, beyond, 2, "value beyond the type");
  // Every truncation of the valid body.
  for (size_t len = 0; len < valid.size(); len++) {
    ExpectCorrupt(huffman, i32, valid.substr(0, len), 6, "truncated");
  }
}

TEST(EncodingCorruptionTest, RiceViolations) {
  const Encoding rice = Encoding::kRice;
  const PhysicalType i32 = PhysicalType::kInt32;
  // The valid body of EncodingFormatTest.Rice: {5, 7, 6, 20}.
  const std::string valid = Bytes({0x0a, 0x02, 0xe9, 0x70});
  ColumnVector decoded(i32);
  ASSERT_TRUE(DecodeValues(rice, i32, valid, 4, &decoded).ok());
  ExpectCorrupt(rice, i32, valid + Bytes({0x00}), 4, "trailing byte");
  ExpectCorrupt(rice, i32, Bytes({0x0a, 0x02, 0xe9, 0xf0}), 4, "padding bit set");
  ExpectCorrupt(rice, i32, valid, 5, "one value short");
  ExpectCorrupt(rice, i32, valid, 0, "bytes for no values");
  ExpectCorrupt(rice, i32, Bytes({0x0a, 0x20, 0xe9, 0x70}), 4, "k = 32 for int32");
  ExpectCorrupt(rice, i32, Bytes({0x0a}), 4, "no parameters");
  ExpectCorrupt(rice, i32, Bytes({0x0a, 0x02}), 4, "no codes");
  ExpectCorrupt(rice, i32, valid, 1 << 20, "count beyond the body");
  // 16 zero bits, then an escaped q = 15, which the unary form holds.
  ExpectCorrupt(rice, i32, Bytes({0x00, 0x00, 0x00, 0x00, 0x0f, 0x00, 0x00, 0x00}), 1,
                "escaped small quotient");
  // Reference INT32_MAX - 1 plus an offset of 2 passes INT32_MAX (k = 2: 1, then low bits 10).
  std::string beyond;
  PutVarint64(&beyond, ZigZagEncode(int64_t{INT32_MAX} - 1));
  beyond += Bytes({0x02, 0x05});
  ExpectCorrupt(rice, i32, beyond, 1, "value beyond the type");
  for (size_t len = 0; len < valid.size(); len++) {
    ExpectCorrupt(rice, i32, valid.substr(0, len), 4, "truncated");
  }
}

TEST(EncodingCorruptionTest, DictionaryDecoderRejectsWhatTheValueDecoderRejects) {
  ColumnVector values(PhysicalType::kInt32);
  for (int i = 0; i < 100; i++) values.Append<int32_t>(i % 7);
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kDictionary, values, &body).ok());
  ColumnVector dictionary;
  std::vector<uint32_t> codes;
  for (size_t len = 0; len < body.size(); len++) {
    std::vector<char> exact(body.begin(), body.begin() + len);
    EXPECT_TRUE(
        DecodeDictionary(PhysicalType::kInt32, Slice(exact.data(), len), 100, &dictionary, &codes)
            .IsCorruption());
  }
  ASSERT_TRUE(DecodeDictionary(PhysicalType::kInt32, body, 100, &dictionary, &codes).ok());
  ASSERT_EQ(dictionary.size(), 7u);
  for (int i = 0; i < 100; i++) EXPECT_EQ(dictionary.Get<int32_t>(codes[i]), i % 7);
}

}  // namespace
}  // namespace columnar
