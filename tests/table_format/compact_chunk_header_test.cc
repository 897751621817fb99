// Compact chunk headers (chunk.h): chunks whose value count the reader knows (those of a row
// group) store one header byte for the encoding and flags and no count. Fixed bytes, round
// trips, the readers' checks, and row groups holding either header form.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/encoding.h"
#include "table_format/encodings/template.h"
#include "table_format/row_group.h"
#include "table_format/varint.h"
#include "tests/table_format/hex_bytes.h"

namespace columnar {
namespace {

using testing_util::Hex;

ColumnVector Ints(std::initializer_list<int32_t> values) {
  ColumnVector out(PhysicalType::kInt32);
  for (int32_t v : values) out.Append<int32_t>(v);
  return out;
}

ChunkWriteOptions Compact(Encoding encoding) {
  ChunkWriteOptions options;
  options.encoding = encoding;
  options.checksum = false;
  options.implied_value_count = true;
  return options;
}

TEST(CompactChunkHeaderTest, FixedBytes) {
  // plain (00) without nulls: 0x80 | 00 = 80, stored length 08, then 1 and 2 as int32 LE.
  std::string chunk;
  ASSERT_TRUE(WriteChunk(Ints({1, 2}), Compact(Encoding::kPlain), &chunk).ok());
  EXPECT_EQ(Hex(chunk), "80080100000002000000");
  // The same chunk with the full header: encoding 00, flags 00, count 02, length 08.
  ChunkWriteOptions full = Compact(Encoding::kPlain);
  full.implied_value_count = false;
  chunk.clear();
  ASSERT_TRUE(WriteChunk(Ints({1, 2}), full, &chunk).ok());
  EXPECT_EQ(Hex(chunk),
            "0000020801000000"
            "02000000");
  // With a null: 0x80 | 0x40 (nulls) | 00 = c0, length 05: bitmap 01, then 7 as int32.
  ColumnVector with_null = Ints({7});
  with_null.AppendNull();
  chunk.clear();
  ASSERT_TRUE(WriteChunk(with_null, Compact(Encoding::kPlain), &chunk).ok());
  EXPECT_EQ(Hex(chunk), "c0050107000000");
  // constant (0d = 13): 8d, length 01, zigzag varint 5 = 0a.
  chunk.clear();
  ASSERT_TRUE(WriteChunk(Ints({5, 5, 5}), Compact(Encoding::kConstant), &chunk).ok());
  EXPECT_EQ(Hex(chunk), "8d010a");
  // A checksum keeps the full header (the compact form has no room for it).
  ChunkWriteOptions checksummed = Compact(Encoding::kConstant);
  checksummed.checksum = true;
  chunk.clear();
  ASSERT_TRUE(WriteChunk(Ints({5, 5, 5}), checksummed, &chunk).ok());
  EXPECT_EQ(chunk.substr(0, 3), std::string("\x0d\x04\x03", 3));
}

TEST(CompactChunkHeaderTest, ZstdRoundTripAndHeaderFields) {
  ColumnVector values(PhysicalType::kInt64);
  for (int i = 0; i < 1000; i++) {
    if (i % 7 == 3) {
      values.AppendNull();
    } else {
      values.Append<int64_t>(i % 10);
    }
  }
  ChunkWriteOptions options = Compact(Encoding::kPlain);
  options.compression = ColumnCompression::kZstd;
  std::string chunk;
  ASSERT_TRUE(WriteChunk(values, options, &chunk).ok());
  // 0x80 | nulls 0x40 | zstd 0x20 | plain 00.
  EXPECT_EQ(static_cast<uint8_t>(chunk[0]), 0xe0);
  ChunkHeader header;
  ASSERT_TRUE(ParseChunkHeader(chunk, &header, 1000).ok());
  EXPECT_TRUE(header.has_nulls);
  EXPECT_TRUE(header.compressed);
  EXPECT_FALSE(header.has_checksum);
  EXPECT_EQ(header.value_count, 1000u);
  EXPECT_EQ(header.encoding, Encoding::kPlain);
  chunk += "tail";
  Slice input(chunk);
  ColumnVector out;
  ChunkReadOptions read;
  read.expected_values = 1000;
  ASSERT_TRUE(ReadChunk(&input, PhysicalType::kInt64, &out, read).ok());
  EXPECT_TRUE(out.Equals(values));
  EXPECT_EQ(input.ToString(), "tail");
  Slice skip(chunk);
  ASSERT_TRUE(SkipChunk(&skip, nullptr, 1000).ok());
  EXPECT_EQ(skip.ToString(), "tail");
}

TEST(CompactChunkHeaderTest, ReadersNeedTheCount) {
  std::string chunk;
  ASSERT_TRUE(WriteChunk(Ints({1, 2}), Compact(Encoding::kPlain), &chunk).ok());
  ChunkHeader header;
  EXPECT_TRUE(ParseChunkHeader(chunk, &header).IsCorruption());
  Slice input(chunk);
  EXPECT_TRUE(SkipChunk(&input).IsCorruption());
  ColumnVector out;
  input = Slice(chunk);
  EXPECT_TRUE(ReadChunk(&input, PhysicalType::kInt32, &out).IsCorruption());
  // A count that does not fit the body is caught by the decoder.
  ChunkReadOptions read;
  read.expected_values = 3;
  input = Slice(chunk);
  EXPECT_TRUE(ReadChunk(&input, PhysicalType::kInt32, &out, read).IsCorruption());
  // A full header must agree with the count it is read with.
  ChunkWriteOptions full = Compact(Encoding::kPlain);
  full.implied_value_count = false;
  std::string legacy;
  ASSERT_TRUE(WriteChunk(Ints({1, 2}), full, &legacy).ok());
  EXPECT_TRUE(ParseChunkHeader(legacy, &header, 3).IsCorruption());
  EXPECT_TRUE(ParseChunkHeader(legacy, &header, 2).ok());
}

TEST(CompactChunkHeaderTest, TruncationAndDamageNeverCrash) {
  ColumnVector values(PhysicalType::kInt64);
  for (int i = 0; i < 300; i++) values.Append<int64_t>(i * 37 % 101);
  for (bool zstd : {false, true}) {
    ChunkWriteOptions options = Compact(Encoding::kAuto);
    options.compression = zstd ? ColumnCompression::kZstd : ColumnCompression::kNone;
    std::string chunk;
    ASSERT_TRUE(WriteChunk(values, options, &chunk).ok());
    ChunkReadOptions read;
    read.expected_values = 300;
    for (size_t len = 0; len < chunk.size(); len++) {
      std::string cut = chunk.substr(0, len);
      Slice input(cut);
      ColumnVector out;
      EXPECT_FALSE(ReadChunk(&input, PhysicalType::kInt64, &out, read).ok()) << len;
    }
    for (size_t i = 0; i < chunk.size(); i++) {
      for (uint8_t flip : {0x01, 0x20, 0x40, 0x80}) {
        std::string damaged = chunk;
        damaged[i] = static_cast<char>(damaged[i] ^ flip);
        Slice input(damaged);
        ColumnVector out;
        Status s = ReadChunk(&input, PhysicalType::kInt64, &out, read);
        if (s.ok()) {
          EXPECT_EQ(out.size(), 300u);
        }
      }
    }
  }
}

// A row group of two slots, written by hand with the given chunk header form.
std::string HandMadeGroup(bool compact) {
  ChunkWriteOptions options = Compact(Encoding::kPlain);
  options.implied_value_count = compact;
  std::string out;
  PutVarint32(&out, 2);  // rows
  PutVarint32(&out, 0);  // first partition length
  PutVarint32(&out, 2);  // slots
  PutVarint32(&out, 4);  // slot 4
  PutVarint32(&out, 0);  // slot 5
  EXPECT_TRUE(WriteChunk(Ints({1, 2}), options, &out).ok());
  EXPECT_TRUE(WriteChunk(Ints({3, 4}), options, &out).ok());
  return out;
}

TEST(CompactChunkHeaderTest, RowGroupsReadBothForms) {
  for (bool compact : {false, true}) {
    SCOPED_TRACE(compact);
    const std::string bytes = HandMadeGroup(compact);
    RowGroupView view;
    ASSERT_TRUE(view.Parse(bytes).ok());
    EXPECT_EQ(view.size(), bytes.size());
    ColumnVector out;
    ASSERT_TRUE(view.DecodeSlot(5, PhysicalType::kInt32, &out, false).ok());
    EXPECT_TRUE(out.Equals(Ints({3, 4})));
  }
  // The writer uses the compact form: 2 bytes a chunk fewer than the full form here (flags
  // and the one-byte count; 3 from 128 rows on).
  RowGroupWriter writer;
  writer.Begin(2, 0);
  ChunkWriteOptions options;
  options.encoding = Encoding::kPlain;
  options.checksum = false;
  ASSERT_TRUE(writer.AddColumn(4, "a", Ints({1, 2}), options).ok());
  ASSERT_TRUE(writer.AddColumn(5, "b", Ints({3, 4}), options).ok());
  std::string written;
  writer.Finish(&written);
  EXPECT_EQ(Hex(written), Hex(HandMadeGroup(true)));
  EXPECT_EQ(written.size() + 4, HandMadeGroup(false).size());
  // A row group whose full-header chunk disagrees with the row count is refused.
  std::string wrong = HandMadeGroup(false);
  wrong[0] = 3;
  RowGroupView view;
  EXPECT_TRUE(view.Parse(wrong).IsCorruption());
}

}  // namespace
}  // namespace columnar

namespace columnar {
namespace {

// Template chunks read with wanted_rows: wanted rows come back exact, nulls stay nulls, and
// rows nobody reads are left empty (their strings are not built).
TEST(TemplateWantedRowsTest, WantedRowsAreExactAndNullsStayNulls) {
  for (bool with_nulls : {false, true}) {
    SCOPED_TRACE(with_nulls);
    ColumnVector values(PhysicalType::kBytes);
    for (int i = 0; i < 128; i++) {
      if (with_nulls && i % 5 == 1) {
        values.AppendNull();
      } else if (i % 3 == 0) {
        values.AppendBytes("/static/app." + std::to_string(i % 4) + ".js");
      } else {
        values.AppendBytes("/api/v1/users/" + std::to_string(100000 + i * 7919));
      }
    }
    ChunkWriteOptions options;
    options.encoding = Encoding::kTemplate;
    options.checksum = false;
    std::string chunk;
    ASSERT_TRUE(WriteChunk(values, options, &chunk).ok());
    std::vector<uint64_t> wanted(2, 0);
    for (int i = 0; i < 128; i += 7) wanted[i / 64] |= uint64_t{1} << (i % 64);
    Slice in(chunk);
    ChunkReadOptions read;
    read.wanted_rows = wanted.data();
    ColumnVector decoded;
    ASSERT_TRUE(ReadChunk(&in, PhysicalType::kBytes, &decoded, read).ok());
    ASSERT_EQ(decoded.size(), values.size());
    size_t left_empty = 0;
    for (size_t i = 0; i < values.size(); i++) {
      ASSERT_EQ(decoded.IsNull(i), values.IsNull(i)) << i;
      if (values.IsNull(i)) continue;
      if ((wanted[i / 64] >> (i % 64)) & 1) {
        ASSERT_EQ(decoded.GetBytes(i), values.GetBytes(i)) << i;
      } else {
        left_empty += decoded.GetBytes(i).empty() ? 1 : 0;
      }
    }
    EXPECT_GT(left_empty, 60u) << "rows nobody reads are not built";
    // Without wanted rows, everything.
    in = Slice(chunk);
    ASSERT_TRUE(ReadChunk(&in, PhysicalType::kBytes, &decoded).ok());
    EXPECT_TRUE(decoded.Equals(values));
  }
}

// A template first met in a row nobody reads and then in a wanted row is parsed again with its
// literals; literals with escaped bytes and several slots, between other templates' pieces.
TEST(TemplateWantedRowsTest, TemplateFirstUnreadThenWantedIsBuiltExactly) {
  ColumnVector values(PhysicalType::kBytes);
  values.AppendBytes(std::string("k\0v=12;id=7;end", 16));  // unread
  values.AppendBytes("no digits here");
  values.AppendBytes(std::string("k\0v=99;id=3;end", 16));  // same template, wanted
  values.AppendBytes("/x/0042/y");
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kTemplate, values, &body).ok());
  std::vector<uint64_t> wanted = {0b1110};
  ColumnVector out(PhysicalType::kBytes);
  ASSERT_TRUE(DecodeTemplateBody(body, values.size(), nullptr, &out, wanted.data()).ok());
  ASSERT_EQ(out.size(), values.size());
  EXPECT_EQ(out.GetBytes(0), Slice());
  for (size_t row = 1; row < values.size(); row++) {
    EXPECT_EQ(out.GetBytes(row), values.GetBytes(row)) << row;
  }
}

// A damaged template in a row nobody reads is still Corruption.
TEST(TemplateWantedRowsTest, UnreadRowsTemplatesAreStillChecked) {
  ColumnVector values(PhysicalType::kBytes);
  values.AppendBytes("a-1");
  values.AppendBytes("b-2");
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kTemplate, values, &body).ok());
  const size_t escape = body.find(std::string("b-\0d", 4));
  ASSERT_NE(escape, std::string::npos) << Hex(body);
  body[escape + 3] = 'q';  // an unknown escape in the second row's template
  std::vector<uint64_t> first_only = {1};
  ColumnVector out(PhysicalType::kBytes);
  EXPECT_TRUE(DecodeTemplateBody(body, 2, nullptr, &out, first_only.data()).IsCorruption());
}

}  // namespace
}  // namespace columnar
