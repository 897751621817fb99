// Row-range decoding for point reads (DecodeValueRange, ReadChunkRows,
// RowGroupView::DecodeSlotRows): every encoding x type x dataset x length, each range equal to
// the same rows of a whole decode; chunks with nulls and column compression; damaged bodies
// give Corruption, never a read outside the body.
#include <gtest/gtest.h>

#include <string>

#include "table_format/chunk.h"
#include "table_format/encoding.h"
#include "table_format/row_group.h"
#include "tests/table_format/encoding_test_util.h"

namespace columnar {
namespace {

using testing_util::AllStoredEncodings;
using testing_util::AllTypes;
using testing_util::DatasetsFor;

// The ranges a test reads of n values: empty ones, single rows at both ends and inside, runs
// across miniblock (32) and group boundaries, and everything.
std::vector<std::pair<size_t, size_t>> RangesOf(size_t n) {
  std::vector<std::pair<size_t, size_t>> ranges = {{0, 0}, {n, n}, {0, n}};
  for (size_t row :
       {size_t{0}, size_t{1}, size_t{2}, size_t{31}, size_t{32}, size_t{33}, n / 2, n - 1}) {
    if (row < n) ranges.emplace_back(row, row + 1);
    if (row + 5 <= n) ranges.emplace_back(row, row + 5);
  }
  return ranges;
}

// Rows [begin, end) of `all`.
ColumnVector Slice_(const ColumnVector& all, size_t begin, size_t end) {
  ColumnVector out(all.type());
  for (size_t row = begin; row < end; row++) out.AppendFrom(all, row);
  return out;
}

class ValueRangeTest : public ::testing::TestWithParam<Encoding> {};

TEST_P(ValueRangeTest, EveryRangeEqualsTheWholeDecode) {
  const Encoding encoding = GetParam();
  int tested = 0;
  for (PhysicalType type : AllTypes()) {
    if (!EncodingSupports(encoding, type)) continue;
    for (size_t n : {size_t{1}, size_t{3}, size_t{33}, size_t{128}, size_t{1025}}) {
      for (auto& dataset : DatasetsFor(type, n, 2000 + n)) {
        std::string body;
        if (!EncodeValues(encoding, dataset.values, &body).ok()) continue;  // refused
        for (const auto& [begin, end] : RangesOf(n)) {
          SCOPED_TRACE(std::string(EncodingName(encoding)) + " " + PhysicalTypeName(type) + " " +
                       dataset.name + " n=" + std::to_string(n) + " rows " + std::to_string(begin) +
                       ".." + std::to_string(end));
          ColumnVector range(type);
          const Status s = DecodeValueRange(encoding, type, body, n, begin, end, &range);
          ASSERT_TRUE(s.ok()) << s.ToString();
          ASSERT_TRUE(range.Equals(Slice_(dataset.values, begin, end)));
          tested++;
        }
      }
    }
  }
  EXPECT_GT(tested, 0);
}

INSTANTIATE_TEST_SUITE_P(AllEncodings, ValueRangeTest, ::testing::ValuesIn(AllStoredEncodings()),
                         [](const ::testing::TestParamInfo<Encoding>& info) {
                           return std::string(EncodingName(info.param));
                         });

TEST(ValueRangeTest, RangeOutsideTheValuesIsRefused) {
  ColumnVector values(PhysicalType::kInt64);
  for (int64_t v : {5, 9, 7}) values.Append<int64_t>(v);
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kMixedRadix, values, &body).ok());
  ColumnVector out(PhysicalType::kInt64);
  EXPECT_TRUE(DecodeValueRange(Encoding::kMixedRadix, PhysicalType::kInt64, body, 3, 2, 4, &out)
                  .IsInvalidArgument());
  EXPECT_TRUE(DecodeValueRange(Encoding::kMixedRadix, PhysicalType::kInt64, body, 3, 2, 1, &out)
                  .IsInvalidArgument());
}

// Every truncation of the bodies of the encodings with direct access (for: PackedInts read
// by range): each range either
// decodes (the bytes it needs are there) or fails with Corruption.
TEST(ValueRangeTest, TruncatedDirectAccessBodiesFailCleanly) {
  for (Encoding encoding : {Encoding::kPlain, Encoding::kMixedRadix, Encoding::kFor}) {
    for (PhysicalType type : AllTypes()) {
      if (!EncodingSupports(encoding, type)) continue;
      for (auto& dataset : DatasetsFor(type, 100, 77)) {
        std::string body;
        ASSERT_TRUE(EncodeValues(encoding, dataset.values, &body).ok());
        for (size_t cut = 0; cut < body.size(); cut++) {
          const std::string truncated = body.substr(0, cut);
          for (const auto& [begin, end] : RangesOf(100)) {
            ColumnVector out(type);
            const Status s = DecodeValueRange(encoding, type, truncated, 100, begin, end, &out);
            if (s.ok()) {
              ASSERT_TRUE(out.Equals(Slice_(dataset.values, begin, end)))
                  << EncodingName(encoding) << " " << dataset.name << " cut " << cut;
            } else {
              ASSERT_TRUE(s.IsCorruption()) << s.ToString();
            }
          }
        }
      }
    }
  }
}

// A mixed_radix group number at or above R^m is damage the whole decode refuses; so does a
// range read of that group.
TEST(ValueRangeTest, MixedRadixGroupNumberBeyondItsDigitsIsCorruption) {
  ColumnVector values(PhysicalType::kInt64);
  for (int64_t v : {0, 1, 5}) values.Append<int64_t>(v);  // radix 6, one group of 3 digits
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kMixedRadix, values, &body).ok());
  // Header: reference 0 (1 byte), span 5 (1 byte); then 8 bits of 0 + 1*6 + 5*36 = 186. 216
  // (6^3) would need the same 8 bits.
  ASSERT_EQ(body.size(), 3u);
  body[2] = static_cast<char>(216);
  ColumnVector whole(PhysicalType::kInt64);
  EXPECT_TRUE(
      DecodeValues(Encoding::kMixedRadix, PhysicalType::kInt64, body, 3, &whole).IsCorruption());
  ColumnVector one(PhysicalType::kInt64);
  EXPECT_TRUE(DecodeValueRange(Encoding::kMixedRadix, PhysicalType::kInt64, body, 3, 1, 2, &one)
                  .IsCorruption());
}

// Chunks: with and without nulls, column zstd and checksums, through the row group's slot.
TEST(ValueRangeTest, ChunkRowsEqualTheWholeChunk) {
  for (Encoding encoding : {Encoding::kPlain, Encoding::kMixedRadix, Encoding::kFrontCoding,
                            Encoding::kDictionary, Encoding::kFor}) {
    for (PhysicalType type : {PhysicalType::kInt64, PhysicalType::kBytes}) {
      if (!EncodingSupports(encoding, type)) continue;
      for (bool nulls : {false, true}) {
        for (ColumnCompression compression : {ColumnCompression::kNone, ColumnCompression::kZstd}) {
          SCOPED_TRACE(std::string(EncodingName(encoding)) + " " + PhysicalTypeName(type) +
                       (nulls ? " nulls" : "") +
                       (compression == ColumnCompression::kZstd ? " zstd" : ""));
          ColumnVector values(type);
          for (size_t row = 0; row < 128; row++) {
            if (nulls && row % 5 == 1) {
              values.AppendNull();
            } else if (type == PhysicalType::kBytes) {
              values.AppendBytes("key" + std::to_string(1000 + row * 7) +
                                 std::string(row % 40, 'x'));
            } else {
              values.Append<int64_t>(static_cast<int64_t>(row * 7919 % 1000));
            }
          }
          ChunkWriteOptions write;
          write.encoding = encoding;
          write.compression = compression;
          RowGroupWriter writer;
          writer.Begin(128, 0);
          ASSERT_TRUE(writer.AddColumn(4, "column", values, write).ok());
          std::string group;
          writer.Finish(&group);
          RowGroupView view;
          ASSERT_TRUE(view.Parse(group).ok());
          for (const auto& [begin, end] : RangesOf(128)) {
            ColumnVector range;
            const Status s = view.DecodeSlotRows(4, type, static_cast<uint32_t>(begin),
                                                 static_cast<uint32_t>(end), &range);
            ASSERT_TRUE(s.ok()) << s.ToString();
            ASSERT_TRUE(range.Equals(Slice_(values, begin, end))) << begin << ".." << end;
          }
          ColumnVector out;
          EXPECT_TRUE(view.DecodeSlotRows(4, type, 100, 129, &out).IsInvalidArgument());
          EXPECT_TRUE(view.DecodeSlotRows(3, type, 0, 1, &out).IsNotFound());
        }
      }
    }
  }
}

}  // namespace
}  // namespace columnar
