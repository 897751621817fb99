// rice_delta_anchored (encoding 21): rice_delta with the first value replaced by the position of
// a value the reader holds (the row group's zone-map minimum). Fixed bytes of the body and of
// the chunk, round trips with special floats and nulls, and every way a reader can get it wrong:
// no anchor, a position outside the values, truncations.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/encoding.h"
#include "table_format/encodings/rice_delta.h"
#include "tests/table_format/column_literal.h"
#include "tests/table_format/hex_bytes.h"

namespace columnar {
namespace {

using testing_util::Column;
using testing_util::Hex;

uint64_t BitsOfFloat(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

uint64_t BitsOfDouble(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return bits;
}

// The anchored body, checked against `expected_hex` and decoded back with the anchor.
void ExpectAnchoredBody(const ColumnVector& values, uint64_t anchor,
                        const std::string& expected_hex) {
  std::string body;
  ASSERT_TRUE(EncodeRiceDeltaAnchored(values, anchor, &body));
  EXPECT_EQ(Hex(body), expected_hex);
  ColumnVector decoded(values.type());
  ASSERT_TRUE(DecodeRiceDeltaAnchored(values.type(), body, values.size(), anchor, &decoded).ok());
  EXPECT_TRUE(decoded.Equals(values));
}

TEST(RiceDeltaAnchoredTest, BodyBytes) {
  // rice_delta's body of these values is "c80182aa0b" (encoding_format_test): the first value
  // zigzag(100) = c8 01, then the block 82 aa 0b of the differences {5, 5, -6, 0}. Anchored at
  // the minimum 100, at position 0: 00, then the same block.
  ExpectAnchoredBody(Column<int32_t>({100, 105, 110, 104, 104}), 100, "0082aa0b");
  // Anchored at 104, first found at position 3.
  ExpectAnchoredBody(Column<int32_t>({100, 105, 110, 104, 104}), 104, "0382aa0b");
  // Floats: rice_delta's "0000803f0034" without the first value's 4 bytes: the minimum 1.0f
  // at position 0, then the block 00 34 of the image differences {1, -1, 0}.
  ExpectAnchoredBody(Column<float>({1.0f, std::nextafter(1.0f, 2.0f), 1.0f, 1.0f}),
                     BitsOfFloat(1.0f), "000034");
  // A constant block (header 7f, center zigzag(-10) = 13), anchored at the last value 20.
  ExpectAnchoredBody(Column<int64_t>({50, 40, 30, 20}), 20, "037f13");
  // A single value: its position, no blocks.
  ExpectAnchoredBody(Column<double>({-2.5}), BitsOfDouble(-2.5), "00");
}

TEST(RiceDeltaAnchoredTest, RoundTripsRandomWalksAndSpecialFloats) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> step(0, 0.1);
  for (int trial = 0; trial < 50; trial++) {
    ColumnVector walk(PhysicalType::kFloat32);
    float value = 10 + trial;
    const size_t n = 1 + rng() % 300;  // more than one block of differences, too
    for (size_t i = 0; i < n; i++) {
      walk.Append<float>(value);
      value = static_cast<float>(value + step(rng));
    }
    const uint64_t anchor = BitsOfFloat(walk.Get<float>(rng() % n));
    std::string body;
    ASSERT_TRUE(EncodeRiceDeltaAnchored(walk, anchor, &body));
    ColumnVector decoded(PhysicalType::kFloat32);
    ASSERT_TRUE(DecodeRiceDeltaAnchored(PhysicalType::kFloat32, body, n, anchor, &decoded).ok());
    EXPECT_TRUE(decoded.Equals(walk)) << trial;
  }
  // Bit exact: -0.0 and +0.0, NaN payloads, infinities, the extremes of the type.
  double nan_payload;
  const uint64_t nan_bits = 0xfff8000000000005ull;  // a negative quiet NaN with a payload
  std::memcpy(&nan_payload, &nan_bits, 8);
  const ColumnVector specials =
      Column<double>({0.0, -0.0, nan_payload, -std::numeric_limits<double>::infinity(),
                      std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(),
                      std::numeric_limits<double>::denorm_min(), 1.5});
  for (size_t at = 0; at < specials.size(); at++) {
    const uint64_t anchor = BitsOfDouble(specials.Get<double>(at));
    std::string body;
    ASSERT_TRUE(EncodeRiceDeltaAnchored(specials, anchor, &body));
    ColumnVector decoded(PhysicalType::kFloat64);
    ASSERT_TRUE(
        DecodeRiceDeltaAnchored(PhysicalType::kFloat64, body, specials.size(), anchor, &decoded)
            .ok());
    EXPECT_TRUE(decoded.Equals(specials)) << at;
  }
}

TEST(RiceDeltaAnchoredTest, OnlyAnAnchorAmongTheValues) {
  std::string body;
  // +0.0 is not -0.0: anchors are bit patterns.
  EXPECT_FALSE(EncodeRiceDeltaAnchored(Column<float>({-0.0f, 1.0f}), BitsOfFloat(0.0f), &body));
  EXPECT_FALSE(EncodeRiceDeltaAnchored(Column<int32_t>({1, 2, 3}), 4, &body));
  // An int32 anchor is zero-extended: -1 is 0xffffffff, not 0xffffffffffffffff.
  EXPECT_FALSE(EncodeRiceDeltaAnchored(Column<int32_t>({-1, 2}), ~uint64_t{0}, &body));
  EXPECT_TRUE(body.empty());
  EXPECT_TRUE(EncodeRiceDeltaAnchored(Column<int32_t>({-1, 2}), 0xffffffffu, &body));
  // Nothing to anchor: no values, or nulls (the chunk layer passes the present values only).
  EXPECT_FALSE(EncodeRiceDeltaAnchored(ColumnVector(PhysicalType::kInt64), 0, &body));
  // Not an encoding of its own for the auto chooser, nor for EncodeValues / DecodeValues.
  for (Encoding candidate : CandidateEncodings(Encoding::kAuto, PhysicalType::kFloat32)) {
    EXPECT_NE(candidate, Encoding::kRiceDeltaAnchored);
  }
  std::string refused;
  EXPECT_TRUE(EncodeValues(Encoding::kRiceDeltaAnchored, Column<int32_t>({1}), &refused)
                  .IsInvalidArgument());
  ColumnVector out(PhysicalType::kInt32);
  EXPECT_TRUE(DecodeValues(Encoding::kRiceDeltaAnchored, PhysicalType::kInt32, "\x00", 1, &out)
                  .IsCorruption());
}

TEST(RiceDeltaAnchoredTest, RefusesBadBodies) {
  const ColumnVector values = Column<int32_t>({100, 105, 110, 104, 104});
  std::string body;
  ASSERT_TRUE(EncodeRiceDeltaAnchored(values, 104, &body));
  // Every truncation, and a trailing byte.
  for (size_t cut = 0; cut < body.size(); cut++) {
    ColumnVector out(PhysicalType::kInt32);
    EXPECT_TRUE(
        DecodeRiceDeltaAnchored(PhysicalType::kInt32, body.substr(0, cut), values.size(), 104, &out)
            .IsCorruption())
        << cut;
  }
  ColumnVector out(PhysicalType::kInt32);
  EXPECT_TRUE(DecodeRiceDeltaAnchored(PhysicalType::kInt32, body + "x", values.size(), 104, &out)
                  .IsCorruption());
  // A position at or past the count.
  std::string far = body;
  far[0] = 5;
  out.Reset(PhysicalType::kInt32);
  EXPECT_TRUE(
      DecodeRiceDeltaAnchored(PhysicalType::kInt32, far, values.size(), 104, &out).IsCorruption());
  // Byte strings have no bit patterns to anchor.
  ColumnVector strings(PhysicalType::kBytes);
  EXPECT_TRUE(DecodeRiceDeltaAnchored(PhysicalType::kBytes, body, 5, 104, &strings).IsCorruption());
}

// The chunk layer writes the anchored form for a rice_delta chunk given an anchor, and reads it
// only with one.
TEST(RiceDeltaAnchoredTest, ChunkBytesAndAnchorRequired) {
  ColumnVector values(PhysicalType::kInt32);
  for (int32_t v : {100, 105, 110, 104, 104}) values.Append<int32_t>(v);
  values.AppendNull();
  ChunkWriteOptions write;
  write.encoding = Encoding::kRiceDelta;
  write.checksum = false;
  write.implied_value_count = true;
  write.has_anchor = true;
  write.anchor = 100;
  std::string chunk;
  Encoding chosen;
  ASSERT_TRUE(WriteChunk(values, write, &chunk, &chosen).ok());
  EXPECT_EQ(chosen, Encoding::kRiceDeltaAnchored);
  // Compact header 80 | 40 (nulls) | 21 = d5, stored length 5: the presence bitmap 1f, then
  // the anchored body.
  EXPECT_EQ(Hex(chunk), "d5051f0082aa0b");

  ChunkReadOptions read;
  read.expected_values = 6;
  ColumnVector out;
  Slice in(chunk);
  Status s = ReadChunk(&in, PhysicalType::kInt32, &out, read);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_TRUE(ReadChunkRows(chunk, PhysicalType::kInt32, 1, 3, &out, read).IsCorruption());

  const uint64_t anchor = 100;
  read.anchor = &anchor;
  in = Slice(chunk);
  ASSERT_TRUE(ReadChunk(&in, PhysicalType::kInt32, &out, read).ok());
  EXPECT_TRUE(in.empty());
  EXPECT_TRUE(out.Equals(values));
  ASSERT_TRUE(ReadChunkRows(chunk, PhysicalType::kInt32, 1, 3, &out, read).ok());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out.Get<int32_t>(0), 105);
  EXPECT_EQ(out.Get<int32_t>(1), 110);

  // No value with the anchor's bits, or an encoding other than rice_delta: not anchored.
  write.anchor = 101;
  chunk.clear();
  ASSERT_TRUE(WriteChunk(values, write, &chunk, &chosen).ok());
  EXPECT_EQ(chosen, Encoding::kRiceDelta);
  write.anchor = 100;
  write.encoding = Encoding::kPlain;
  chunk.clear();
  ASSERT_TRUE(WriteChunk(values, write, &chunk, &chosen).ok());
  EXPECT_EQ(chosen, Encoding::kPlain);
}

}  // namespace
}  // namespace columnar
