// Fixed expected bytes for every encoding: a small input and the exact body, so any change of
// a stored layout is caught. The comments derive each body from the layout described at the
// top of the encoding's file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "table_format/encoding.h"
#include "table_format/encodings/dictionary.h"
#include "table_format/encodings/hex_digits.h"
#include "table_format/encodings/huffman.h"
#include "table_format/encodings/mixed_radix.h"
#include "table_format/encodings/rice.h"
#include "tests/table_format/column_literal.h"
#include "tests/table_format/hex_bytes.h"

namespace columnar {
namespace {

using testing_util::Column;
using testing_util::Hex;

ColumnVector Strings(std::initializer_list<const char*> values) {
  ColumnVector c(PhysicalType::kBytes);
  for (const char* v : values) c.AppendBytes(v);
  return c;
}

void ExpectBody(Encoding encoding, const ColumnVector& values, const std::string& expected_hex) {
  std::string body;
  ASSERT_TRUE(EncodeValues(encoding, values, &body).ok());
  EXPECT_EQ(Hex(body), expected_hex) << EncodingName(encoding);
  ColumnVector decoded(values.type());
  ASSERT_TRUE(DecodeValues(encoding, values.type(), body, values.size(), &decoded).ok());
  EXPECT_TRUE(decoded.Equals(values));
}

TEST(EncodingFormatTest, Plain) {
  ExpectBody(Encoding::kPlain, Column<int32_t>({1, -1, 256}), "01000000ffffffff00010000");
  // Lengths {2, 0, 1} as PackedInts: reference 0 (varint 00), uniform width 2 (02), packed
  // 2 | 0 << 2 | 1 << 4 = 0x12; then "abc".
  ExpectBody(Encoding::kPlain, Strings({"ab", "", "c"}), "000212616263");
}

TEST(EncodingFormatTest, Rle) {
  // 2 runs; lengths - 1 {2, 0}: reference 00, width 02, packed 02; then the plain run values.
  ExpectBody(Encoding::kRle, Column<int64_t>({7, 7, 7, -1}),
             "020002020700000000000000ffffffffffffffff");
}

TEST(EncodingFormatTest, Dictionary) {
  // 2 entries; entry encoding plain (00) of 4 bytes: lengths {1, 1} (reference zigzag(1) = 02,
  // width 00) + "ab"; codes {1, 0, 1} at 1 bit: 0b101 = 05.
  ExpectBody(Encoding::kDictionary, Strings({"b", "a", "b"}), "0200040200616205");
  // Integer entries {-3, 9} sorted; entry encoding delta (03): first zigzag(-3) = 05, deltas
  // {12}: reference zigzag(12) = 18, width 00. Codes {1, 0, 0, 1} = 0b1001 = 09.
  ExpectBody(Encoding::kDictionary, Column<int32_t>({9, -3, -3, 9}),
             "020303051800"
             "09");
}

TEST(EncodingFormatTest, DictionaryExposesSortedEntriesAndCodes) {
  const ColumnVector values = Strings({"pear", "apple", "pear", "fig"});
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kDictionary, values, &body).ok());
  ColumnVector dictionary;
  std::vector<uint32_t> codes;
  ASSERT_TRUE(DecodeDictionary(PhysicalType::kBytes, body, 4, &dictionary, &codes).ok());
  ASSERT_EQ(dictionary.size(), 3u);
  EXPECT_EQ(dictionary.GetBytes(0).ToString(), "apple");
  EXPECT_EQ(dictionary.GetBytes(1).ToString(), "fig");
  EXPECT_EQ(dictionary.GetBytes(2).ToString(), "pear");
  EXPECT_EQ(codes, (std::vector<uint32_t>{2, 0, 2, 1}));

  const ColumnVector floats = Column<double>({2.5, -0.0, 0.0, -1.0, 2.5});
  body.clear();
  ASSERT_TRUE(EncodeValues(Encoding::kDictionary, floats, &body).ok());
  ASSERT_TRUE(DecodeDictionary(PhysicalType::kFloat64, body, 5, &dictionary, &codes).ok());
  ASSERT_EQ(dictionary.size(), 4u);
  EXPECT_EQ(dictionary.Get<double>(0), -1.0);
  EXPECT_TRUE(std::signbit(dictionary.Get<double>(1)));  // -0.0 before +0.0
  EXPECT_FALSE(std::signbit(dictionary.Get<double>(2)));
  EXPECT_EQ(dictionary.Get<double>(3), 2.5);
  EXPECT_EQ(codes, (std::vector<uint32_t>{3, 1, 2, 0, 3}));
}

TEST(EncodingFormatTest, Delta) {
  // First zigzag(100) = 200 = varint c8 01; deltas {5, 5, -6}: reference zigzag(-6) = 0b,
  // width BitWidth(11) = 4, packed {11, 11, 0} = bb 00.
  ExpectBody(Encoding::kDelta, Column<int32_t>({100, 105, 110, 104}), "c8010b04bb00");
}

TEST(EncodingFormatTest, DeltaOfDelta) {
  // First zigzag(10) = 14, first delta zigzag(10) = 14, dods {0, 0, 0}: reference 00, width 00.
  ExpectBody(Encoding::kDeltaOfDelta, Column<int64_t>({10, 20, 30, 40, 50}), "14140000");
}

TEST(EncodingFormatTest, For) {
  // Reference zigzag(1000) = 2000 = varint d0 0f, width 2, packed {0, 3, 1} = 0b010100 = 1c.
  ExpectBody(Encoding::kFor, Column<int32_t>({1000, 1003, 1001}), "d00f021c");
}

TEST(EncodingFormatTest, Gorilla) {
  // First value 1.0; then '0' (same value); then 2.0: x = 0x7ff0000000000000, a new window
  // '1' '1', lead 1 (6 bits), length 11 (7 bits), then the 11 bits 0x7ff. LSB-first:
  // 0 1 1 | 100000 | 1101000 | 11111111111 -> 0e 16 ff 07.
  ExpectBody(Encoding::kGorilla, Column<double>({1.0, 1.0, 2.0}), "000000000000f03f0e16ff07");
}

TEST(EncodingFormatTest, Alp) {
  // e = 18, f = 16 (the largest pair giving the integers 150, 225, 300): 12 10; one exception
  // (-0.0): 0100; base 150 as i64; width 8; packed {0, 75, 150, 150} (the exception slot
  // takes its neighbour's integer); position 3; raw -0.0.
  ExpectBody(Encoding::kAlp, Column<double>({1.5, 2.25, 3.0, -0.0}),
             "1210"
             "0100"
             "9600000000000000"
             "08"
             "004b9696"
             "0300"
             "0000000000000080");
  // float: e = 10, f = 8, integers {50, 25, 1275}: base 25 as i32, width 11, packed
  // 25 | 0 << 11 | 1250 << 22 in 5 bytes.
  ExpectBody(Encoding::kAlp, Column<float>({0.5f, 0.25f, 12.75f}),
             "0a08"
             "0000"
             "19000000"
             "0b"
             "1900803801");
}

TEST(EncodingFormatTest, AlpRd) {
  ExpectBody(Encoding::kAlpRd,
             Column<double>({3.141592653589793, 2.718281828459045, 1.4142135623730951}),
             // Cut at 16 left bits (right width 48 = 0x30); 3 entries, sorted: 3ff6 4005 4009;
             // no exceptions; codes {2, 1, 0} at 2 bits = 06; then the 48-bit right parts.
             "3003"
             "f63f05400940"
             "0000"
             "06"
             "182d4454fb21"
             "6957148b0abf"
             "cd3b7f669ea0");
}

TEST(EncodingFormatTest, FloatDelta) {
  // Images of 1.0f, 1.0f + 1ulp, 1.0f: 0x3f800000, 0x3f800001, 0x3f800000. First image as a
  // zigzag varint of 0x3f800000 (0x7f000000 = 80 80 80 f8 07); deltas {1, -1}: reference
  // zigzag(-1) = 01, width 2, packed {2, 0} = 02.
  ExpectBody(Encoding::kFloatDelta, Column<float>({1.0f, std::nextafter(1.0f, 2.0f), 1.0f}),
             "808080f807010202");
}

TEST(EncodingFormatTest, FrontCoding) {
  // Prefixes {0, 3, 4}: reference 00, width 3 (03), packed 0 | 3 << 3 | 4 << 6 = 0x118 = 18 01.
  // Suffixes {3, 2, 0}: reference 00, width 2 (02), packed 3 | 2 << 2 = 0b ... = 0b.
  // Then "abc" "dx" "".
  ExpectBody(Encoding::kFrontCoding, Strings({"abc", "abcdx", "abcd"}), "0003180100020b6162636478");
}

TEST(EncodingFormatTest, Hex) {
  // Half lengths {2, 0, 1}: reference 00, width 2, packed 0x12; digits 0a ff 9c.
  ExpectBody(Encoding::kHex, Strings({"0aff", "", "9c"}), "0002120aff9c");
}

TEST(EncodingFormatTest, Template) {
  // Templates {"/u/\0d", "/u/\0d"}: one run, so constant (0d), body length 06, then length 05
  // and the template 2f 75 2f 00 64. One parameter stream (01): {12, 7} as int64 with auto,
  // delta_of_delta (04), length 02: first zigzag(12) = 18, first difference zigzag(-5) = 09.
  ExpectBody(Encoding::kTemplate, Strings({"/u/12", "/u/7"}), "0d06052f752f00640104021809");
  // A hex slot of 8 digits: template "a." 00 78 08. The stream {0x3f2a9c1b, 0xf} goes to for
  // (0a), length 0a: reference zigzag(15) = 1e, width 30 (1e), then 0x3f2a9c0c and 0 at 30
  // bits: 0c 9c 2a 3f 00 00 00 00.
  ExpectBody(Encoding::kTemplate, Strings({"a.3f2a9c1b", "a.0000000f"}),
             "0d0605612e007808010a0a1e1e0c9c2a3f00000000");
  // A literal NUL is escaped: templates "\0\0/\0d" (constant: 0d, 06, length 05, then
  // 00 00 2f 00 64); the stream {1, 22} as delta_of_delta: first 02, difference zigzag(21) 2a.
  ColumnVector with_nul(PhysicalType::kBytes);
  with_nul.AppendBytes(std::string("\0/1", 3));
  with_nul.AppendBytes(std::string("\0/22", 4));
  ExpectBody(Encoding::kTemplate, with_nul, "0d060500002f0064010402022a");
  std::string body;
  EXPECT_TRUE(EncodeValues(Encoding::kTemplate, Strings({"no", "digits", "007"}), &body)
                  .IsInvalidArgument());
}

TEST(EncodingFormatTest, TemplateDigitSuffixes) {
  // Zero-padded digits after a letter: template "u" 00 7a 07 (a decimal slot of exactly 7
  // digits), constant-coded: 0d, body length 05, template length 04, 75 00 7a 07. One stream
  // (01): {312345, 42} as delta_of_delta (04), length 06: first zigzag(312345) = 624690
  // (b2 90 26), first difference zigzag(-312303) = 624605 (dd 8f 26).
  ExpectBody(Encoding::kTemplate, Strings({"u0312345", "u0000042"}),
             "0d050475007a0701"
             "0406b29026dd8f26");
  // Digits without a leading zero after letters: a plain decimal slot, "INV" 00 64; the
  // stream {2024001, 2024001} as constant (0d), length 04: zigzag(2024001) = 82 89 f7 01.
  ExpectBody(Encoding::kTemplate, Strings({"INV2024001", "INV2024001"}),
             "0d0605494e56006401"
             "0d048289f701");
}

TEST(EncodingFormatTest, RleNested) {
  // 2 runs; lengths - 1 {2, 0}: reference 00, width 02, packed 02; then the run values
  // {7, -1} in their own encoding (auto): delta_of_delta (04), first zigzag(7) = 0e, first
  // difference zigzag(-8) = 0f.
  ExpectBody(Encoding::kRleNested, Column<int64_t>({7, 7, 7, -1}), "02000202040e0f");
  // Hex run values: two ids over 2 rows each: 02 runs, lengths - 1 {1, 1}: reference
  // zigzag(1) = 02, width 00; then the run values {"0aff", "9c"} in their own encoding: hex
  // (0b), half lengths {2, 1}: reference 02, width 01, packed 01; digits 0a ff 9c.
  ExpectBody(Encoding::kRleNested, Strings({"0aff", "0aff", "9c", "9c"}), "0202000b0201010aff9c");
  std::string body;
  EXPECT_TRUE(
      EncodeValues(Encoding::kRleNested, Column<int32_t>({1, 2}), &body).IsInvalidArgument());
}

TEST(EncodingFormatTest, MixedRadix) {
  // Minimum 3, span 2: radix 3 (40 values a group) takes one byte for the digits, and so does
  // radix 6, so the encoder widens the bounds to the rounder minimum 0 (00), span 5 (05):
  // 3 + 5 x 6 + 4 x 36 = 177 in BitWidth(6^3 - 1) = 8 bits: b1.
  ExpectBody(Encoding::kMixedRadix, Column<int32_t>({3, 5, 4}), "0005b1");
  // Minimum 0, span 100000; radix 100001 holds 3 values a group in 50 bits and 1 in 17: 67
  // bits, 9 bytes. Radix 200000 takes 53 + 18 = 71 bits, still 9 bytes, so the maximum
  // becomes 199999 (bf 9a 0c): 100000 + 0 x R + 50000 x R^2 = 2000000000100000, then the
  // last value 7 alone from bit 53.
  ExpectBody(Encoding::kMixedRadix, Column<int64_t>({100000, 0, 50000, 7}),
             "00bf9a0ca0868e49fd1ae70000");
  // Radix 6 in 8 bits: rounding either bound (span 9, 10 bits; span 7, 9 bits) would cost a
  // byte, so the bounds stay: 0 + 1 x 6 + 5 x 36 = 186 (ba).
  ExpectBody(Encoding::kMixedRadix, Column<int64_t>({0, 1, 5}), "0005ba");
  // Equal values: no digits.
  ExpectBody(Encoding::kMixedRadix, Column<int64_t>({-5, -5}), "0900");
}

// Write-time jitter (uniform over 0..99,999): the stored bounds are 0 and 99,999 whatever the
// chunk's own minimum and maximum, at no cost in size, so they repeat from chunk to chunk.
TEST(EncodingFormatTest, MixedRadixRoundsTheBoundsAtNoCost) {
  std::mt19937_64 rng(3);
  for (int chunk = 0; chunk < 20; chunk++) {
    ColumnVector jitter(PhysicalType::kInt64);
    int64_t lo = INT64_MAX;
    int64_t hi = INT64_MIN;
    for (int i = 0; i < 128; i++) {
      const auto v = static_cast<int64_t>(rng() % 100000);
      jitter.Append<int64_t>(v);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    std::string body;
    ASSERT_TRUE(EncodeValues(Encoding::kMixedRadix, jitter, &body).ok());
    EXPECT_EQ(Hex(body.substr(0, 4)), "009f8d06");  // reference 0, span 99,999
    EXPECT_LE(body.size(), MixedRadixSize(lo, static_cast<uint64_t>(hi - lo), 128));
    ColumnVector decoded(PhysicalType::kInt64);
    ASSERT_TRUE(
        DecodeValues(Encoding::kMixedRadix, PhysicalType::kInt64, body, 128, &decoded).ok());
    for (size_t i = 0; i < 128; i++) EXPECT_EQ(decoded.Get<int64_t>(i), jitter.Get<int64_t>(i));
  }
  // Near the type's limits the bounds stay within it: the minimum floors to 2^31 - 8 (zigzag
  // f0 ff ff ff 0f), span 7 (radix 8, two values in 6 bits as radix 2's in 2: one byte);
  // the maximum cannot grow. Digits 6 + 7 x 8 = 62 (3e).
  ExpectBody(Encoding::kMixedRadix, Column<int32_t>({INT32_MAX - 1, INT32_MAX}), "f0ffffff0f073e");
}

// The group size and bits decide the byte layout: pinned against plain repeated
// multiplication, for small radices (long groups), powers of two and their neighbours, and
// radices near 2^32 and 2^64.
TEST(EncodingFormatTest, MixedRadixGroupsMatchRepeatedMultiplication) {
  using U128 = unsigned __int128;
  const U128 two_to_64 = U128{1} << 64;
  auto reference_group = [&](uint64_t radix) {
    int k = 1;
    U128 power = radix;
    while (power * radix <= two_to_64) {
      power *= radix;
      k++;
    }
    return k;
  };
  auto reference_bits = [](uint64_t radix, int m) {
    U128 power = 1;
    for (int i = 0; i < m; i++) power *= radix;
    const U128 max = power - 1;
    int bits = 0;
    while ((max >> bits) != 0) bits++;
    return bits;
  };
  std::vector<uint64_t> radices;
  for (uint64_t r = 2; r <= 300; r++) radices.push_back(r);
  for (int b = 2; b < 64; b++) {
    for (int64_t d : {-1, 0, 1}) radices.push_back((uint64_t{1} << b) + static_cast<uint64_t>(d));
  }
  for (uint64_t r :
       {uint64_t{99999}, uint64_t{100000}, uint64_t{4294967291}, UINT64_MAX - 1, UINT64_MAX}) {
    radices.push_back(r);
  }
  for (uint64_t radix : radices) {
    SCOPED_TRACE(radix);
    const int k = MixedRadixGroup(radix);
    ASSERT_EQ(k, reference_group(radix));
    for (int m = 1; m <= k; m++) EXPECT_EQ(MixedRadixGroupBits(radix, m), reference_bits(radix, m));
  }
}

TEST(EncodingFormatTest, Huffman) {
  // Three distinct values 200 x4, 404, 500: 03; the smallest zigzag(200) = 90 03, then the
  // gaps minus one 203 (cb 01) and 95 (5f). Huffman lengths {1, 2, 2}: nibbles 21, 02.
  // Canonical codes 200 = 0, 404 = 10, 500 = 11; rows 0 0 0 10 0 11, first bits first,
  // LSB-first: bits 0,0,0,1,0,0,1,1 = c8.
  ExpectBody(Encoding::kHuffman, Column<int32_t>({200, 200, 200, 404, 200, 500}),
             "039003cb015f2102c8");
  // One distinct value: its 1-bit code 0 per row.
  ExpectBody(Encoding::kHuffman, Column<int64_t>({-1, -1}), "01010100");
  ExpectBody(Encoding::kHuffman, Column<int64_t>({}), "00");
  // More distinct values than a body may hold: refused (the chunk layer falls back).
  ColumnVector distinct(PhysicalType::kInt32);
  for (int i = 0; i <= static_cast<int>(kMaxHuffmanSymbols); i++) distinct.Append<int32_t>(i);
  std::string body;
  EXPECT_TRUE(EncodeValues(Encoding::kHuffman, distinct, &body).IsInvalidArgument());
}

TEST(EncodingFormatTest, Rice) {
  // Minimum 5 (zigzag 0a); offsets {0, 2, 1, 15} cost 22, 16, 15, 17 bits with k = 0..3: k = 2
  // (02). Codes (unary quotient, its one bit, then the low k bits, LSB-first): 1 00 | 1 01 |
  // 1 10 | 0001 11 = bits 1001011 1 0000111: e9 70.
  ExpectBody(Encoding::kRice, Column<int32_t>({5, 7, 6, 20}), "0a02e970");
  ExpectBody(Encoding::kRice, Column<int64_t>({}), "");
  // An escaped quotient: 16 zero bits, then q = 16 in 32 bits (k = 0): the value 16.
  ColumnVector decoded(PhysicalType::kInt32);
  ASSERT_TRUE(DecodeValues(Encoding::kRice, PhysicalType::kInt32,
                           std::string("\0\0\0\0\x10\0\0\0", 8), 1, &decoded)
                  .ok());
  ASSERT_EQ(decoded.size(), 1u);
  EXPECT_EQ(decoded.Get<int32_t>(0), 16);
  // A long tail is escaped by the encoder too, and the chooser's size is exact.
  ColumnVector tail(PhysicalType::kInt64);
  for (int i = 0; i < 127; i++) tail.Append<int64_t>(i % 3);
  tail.Append<int64_t>(int64_t{1} << 40);
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kRice, tail, &body).ok());
  EXPECT_EQ(body.size(), RiceSize(reinterpret_cast<const uint64_t*>(tail.data<int64_t>()), 128));
  ColumnVector back(PhysicalType::kInt64);
  ASSERT_TRUE(DecodeValues(Encoding::kRice, PhysicalType::kInt64, body, 128, &back).ok());
  EXPECT_EQ(back.Get<int64_t>(127), int64_t{1} << 40);
}

TEST(EncodingFormatTest, RiceDelta) {
  // First zigzag(100) = c8 01. Differences {5, 5, -6, 0}: their mean (1) is not worth a
  // center, so z = zigzag(d) = {10, 10, 11, 0}. k = 2 with flat quotients costs 16 bits (plain
  // Rice codes 18): header 02 | 80. Fields of 4 bits, min(z >> 2, 3) << 2 | (z & 3) =
  // {10, 10, 11, 0}: aa 0b. No field's top bits are 3, so no unary codes and no escapes.
  ExpectBody(Encoding::kRiceDelta, Column<int32_t>({100, 105, 110, 104, 104}), "c80182aa0b");
  // A field overflowing: differences {2, -2, 2, -2, 2, -2, 2, 6}, z = {4, 3, 4, 3, 4, 3, 4,
  // 12}. k = 1, flat (28 bits): header 81. Fields of 3 bits {4, 3, 4, 3, 4, 3, 4, 6} (the
  // last, 12 >> 1 = 6, holds min(6, 3) = 3 above its low bit 0): 1c c7 d1. The last field
  // overflows with e = 6 - 3: three zero bits and a one from bit 24: 08.
  ExpectBody(Encoding::kRiceDelta, Column<int32_t>({100, 102, 100, 102, 100, 102, 100, 102, 108}),
             "c801811cc7d108");
  // Floats: the first value's raw bits (1.0f: 00 00 80 3f), then the images' differences
  // {1, -1, 0}, z = {2, 1, 0}: k = 0 with unary quotients (6 bits): header 00, no field bits,
  // codes 001 01 1 = 0b110100 = 34.
  ExpectBody(Encoding::kRiceDelta, Column<float>({1.0f, std::nextafter(1.0f, 2.0f), 1.0f, 1.0f}),
             "0000803f0034");
  // A constant block: first zigzag(50) = 64, header 3f (constant) | 40 (center), center
  // zigzag(-10) = 13.
  ExpectBody(Encoding::kRiceDelta, Column<int64_t>({50, 40, 30, 20}), "647f13");
  // An escape: differences {0 x 7, 2^20}, z = {0 x 7, 2^21}: k = 0, unary (48 bits): header
  // 00; codes: seven ones, then the escape (16 zeros and a one) = 7f 00 80; its varint
  // 2^21 - 16 = f0 ff 7f.
  ExpectBody(Encoding::kRiceDelta, Column<int32_t>({0, 0, 0, 0, 0, 0, 0, 0, 1 << 20}),
             "00007f0080f0ff7f");
}

TEST(EncodingFormatTest, Constant) {
  // zigzag(2592000) = 5184000 as a varint.
  ExpectBody(Encoding::kConstant, Column<int64_t>({2592000, 2592000, 2592000}), "80b4bc02");
  ExpectBody(Encoding::kConstant, Column<double>({3.25, 3.25}), "0000000000000a40");
  // Length 3, then "abc".
  ExpectBody(Encoding::kConstant, Strings({"abc", "abc", "abc"}), "03616263");
  std::string body;
  EXPECT_TRUE(
      EncodeValues(Encoding::kConstant, Column<int32_t>({1, 2}), &body).IsInvalidArgument());
}

// The word-at-a-time hex digit checks and packing agree with the per-byte table.
TEST(EncodingFormatTest, HexDigitWordsMatchTheTable) {
  for (int position = 0; position < 8; position++) {
    for (int b = 0; b < 256; b++) {
      char bytes[8];
      std::memset(bytes, 'a', 8);
      bytes[position] = static_cast<char>(b);
      uint64_t word;
      std::memcpy(&word, bytes, 8);
      ASSERT_EQ(AllLowerHexDigits(word), HexDigitValue(static_cast<uint8_t>(b)) < 16)
          << position << " " << b;
    }
  }
  static const char kDigits[] = "0123456789abcdef";
  for (int k = 0; k < 1000; k++) {
    char digits[8];
    for (int i = 0; i < 8; i++) digits[i] = kDigits[(k * 7 + i * 13 + k / 16) % 16];
    uint64_t word;
    std::memcpy(&word, digits, 8);
    const uint32_t packed = PackHexDigits(word);
    for (int i = 0; i < 4; i++) {
      const auto byte = static_cast<uint8_t>(packed >> (8 * i));
      ASSERT_EQ(byte, HexDigitValue(digits[2 * i]) << 4 | HexDigitValue(digits[2 * i + 1]));
    }
    ASSERT_EQ(UnpackHexDigits(packed), word);
  }
  for (uint32_t b = 0; b < 256; b++) {
    const uint64_t two = UnpackHexDigits(b);
    EXPECT_EQ(static_cast<char>(two), kDigits[b >> 4]);
    EXPECT_EQ(static_cast<char>(two >> 8), kDigits[b & 15]);
  }
}

}  // namespace
}  // namespace columnar
