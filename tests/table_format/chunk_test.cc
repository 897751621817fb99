// Chunks: every encoding request x type round-trips through WriteChunk / ReadChunk with nulls,
// zstd on and off, checksums on and off; damaged chunks are rejected.
#include "table_format/chunk.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "table_format/encoding_memo.h"
#include "tests/table_format/encoding_test_util.h"

namespace columnar {
namespace {

using testing_util::AllStoredEncodings;
using testing_util::AllTypes;
using testing_util::DatasetsFor;

// `values` with rows turned into nulls by `pattern`: 0 none, 1 every third, 2 all but one,
// 3 all.
ColumnVector WithNulls(const ColumnVector& values, int pattern) {
  ColumnVector out(values.type());
  for (size_t i = 0; i < values.size(); i++) {
    const bool null = pattern == 1   ? i % 3 == 1
                      : pattern == 2 ? i != values.size() / 2
                                     : pattern == 3;
    if (null) {
      out.AppendNull();
    } else {
      out.AppendFrom(values, i);
    }
  }
  return out;
}

std::vector<Encoding> Requests() {
  std::vector<Encoding> requests = AllStoredEncodings();
  requests.push_back(Encoding::kAuto);
  return requests;
}

TEST(ChunkTest, EveryRequestTypeNullPatternAndOption) {
  size_t chunks = 0;
  for (Encoding request : Requests()) {
    for (PhysicalType type : AllTypes()) {
      for (size_t n : {0, 1, 129, 1500}) {
        for (auto& dataset : DatasetsFor(type, n, 7 * n + 1)) {
          if (dataset.name == "one_long" && n > 129) continue;  // keep the test fast
          for (int nulls = 0; nulls < 4; nulls++) {
            const ColumnVector values = WithNulls(dataset.values, nulls);
            for (int option = 0; option < 4; option++) {
              SCOPED_TRACE(std::string(EncodingName(request)) + " " + PhysicalTypeName(type) + " " +
                           dataset.name + " n=" + std::to_string(n) +
                           " nulls=" + std::to_string(nulls) + " option=" + std::to_string(option));
              ChunkWriteOptions options;
              options.encoding = request;
              options.compression =
                  option & 1 ? ColumnCompression::kZstd : ColumnCompression::kNone;
              options.checksum = (option & 2) != 0;
              std::string file = "head";
              Encoding chosen = Encoding::kAuto;
              ASSERT_TRUE(WriteChunk(values, options, &file, &chosen).ok());
              ASSERT_NE(chosen, Encoding::kAuto);
              ASSERT_TRUE(EncodingSupports(chosen, type));
              if (request != Encoding::kAuto && request != Encoding::kAlp &&
                  EncodingSupports(request, type) && !testing_util::MayRefuse(request)) {
                ASSERT_EQ(chosen, request);
              }
              file += "tail";
              Slice input(file.data() + 4, file.size() - 4);
              ColumnVector decoded(PhysicalType::kInt32);
              Status s = ReadChunk(&input, type, &decoded);
              ASSERT_TRUE(s.ok()) << s.ToString();
              ASSERT_TRUE(decoded.Equals(values));
              ASSERT_EQ(input.ToString(), "tail");

              Slice skip(file.data() + 4, file.size() - 4);
              ChunkHeader header;
              ASSERT_TRUE(SkipChunk(&skip, &header).ok());
              ASSERT_EQ(skip.ToString(), "tail");
              ASSERT_EQ(header.encoding, chosen);
              ASSERT_EQ(header.value_count, values.size());
              chunks++;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(chunks, 10000u);
}

ColumnVector SomeInts(size_t n) {
  ColumnVector values(PhysicalType::kInt64);
  for (size_t i = 0; i < n; i++) {
    if (i % 5 == 2) {
      values.AppendNull();
    } else {
      values.Append<int64_t>(static_cast<int64_t>(i * i));
    }
  }
  return values;
}

TEST(ChunkTest, DamageIsDetected) {
  const ColumnVector values = SomeInts(300);
  for (bool zstd : {false, true}) {
    ChunkWriteOptions options;
    options.compression = zstd ? ColumnCompression::kZstd : ColumnCompression::kNone;
    options.checksum = true;
    std::string chunk;
    ASSERT_TRUE(WriteChunk(values, options, &chunk).ok());
    ChunkHeader header;
    ASSERT_TRUE(ParseChunkHeader(chunk, &header).ok());
    // Any flipped body byte fails the checksum.
    for (size_t i = header.header_size; i < chunk.size(); i++) {
      std::string damaged = chunk;
      damaged[i] ^= 0x20;
      Slice input(damaged);
      ColumnVector out;
      EXPECT_TRUE(ReadChunk(&input, PhysicalType::kInt64, &out).IsCorruption()) << i;
    }
    // Every truncation fails.
    for (size_t len = 0; len < chunk.size(); len++) {
      std::vector<char> exact(chunk.begin(), chunk.begin() + len);
      Slice input(exact.data(), len);
      ColumnVector out;
      EXPECT_FALSE(ReadChunk(&input, PhysicalType::kInt64, &out).ok()) << len;
    }
    // A row count other than the row group's.
    Slice input(chunk);
    ColumnVector out;
    ChunkReadOptions read_options;
    read_options.expected_values = 299;
    EXPECT_TRUE(ReadChunk(&input, PhysicalType::kInt64, &out, read_options).IsCorruption());
    // The wrong physical type for the stored encoding.
    input = Slice(chunk);
    EXPECT_TRUE(ReadChunk(&input, PhysicalType::kBytes, &out).IsCorruption());
  }
}

TEST(ChunkTest, RandomDamageWithoutChecksumNeverCrashes) {
  std::mt19937_64 rng(5);
  for (Encoding request : Requests()) {
    for (PhysicalType type : AllTypes()) {
      for (auto& dataset : DatasetsFor(type, 200, 3)) {
        if (dataset.name == "one_long") continue;
        const ColumnVector values = WithNulls(dataset.values, 1);
        ChunkWriteOptions options;
        options.encoding = request;
        options.checksum = false;
        options.compression = rng() % 2 ? ColumnCompression::kZstd : ColumnCompression::kNone;
        std::string chunk;
        ASSERT_TRUE(WriteChunk(values, options, &chunk).ok());
        for (int round = 0; round < 8; round++) {
          std::string damaged = chunk;
          damaged[rng() % damaged.size()] ^= static_cast<char>(1 + rng() % 255);
          std::vector<char> exact(damaged.begin(), damaged.end());
          Slice input(exact.data(), exact.size());
          ColumnVector out;
          // A damaged header may still describe a decodable chunk (another row count with a
          // width-0 body, say): either outcome is fine, as long as it is not a crash.
          Status s = ReadChunk(&input, type, &out);
          EXPECT_TRUE(s.ok() || s.IsCorruption()) << s.ToString();
        }
      }
    }
  }
}

TEST(ChunkTest, RequestedHexOnNonHexStoresPlain) {
  ColumnVector values(PhysicalType::kBytes);
  values.AppendBytes("0af1");
  values.AppendNull();
  values.AppendBytes("Not-Hex");
  ChunkWriteOptions options;
  options.encoding = Encoding::kHex;
  std::string chunk;
  Encoding chosen;
  ASSERT_TRUE(WriteChunk(values, options, &chunk, &chosen).ok());
  EXPECT_EQ(chosen, Encoding::kPlain);
  Slice input(chunk);
  ColumnVector out;
  ASSERT_TRUE(ReadChunk(&input, PhysicalType::kBytes, &out).ok());
  EXPECT_TRUE(out.Equals(values));
}

// Short-lived chunks (flushes' files) leave template out of auto's candidates, with or without
// a memo; a requested template is still written, and both read back the same.
TEST(ChunkTest, ShortLivedChunksLeaveTemplateOutOfAuto) {
  ColumnVector values(PhysicalType::kBytes);
  for (int i = 0; i < 128; i++) {
    values.AppendBytes("GET /api/v1/users/" + std::to_string(i * 7 % 1000) + "/orders/" +
                       std::to_string(i * 31 % 977) + " HTTP/1.1");
  }
  for (const bool short_lived : {false, true}) {
    for (const bool with_memo : {false, true}) {
      EncodingMemo memo;
      ChunkWriteOptions options;
      options.short_lived = short_lived;
      if (with_memo) options.memo = &memo;
      std::string chunk;
      Encoding chosen;
      ASSERT_TRUE(WriteChunk(values, options, &chunk, &chosen).ok());
      EXPECT_EQ(chosen == Encoding::kTemplate, !short_lived) << short_lived << with_memo;
      Slice input(chunk);
      ColumnVector out;
      ASSERT_TRUE(ReadChunk(&input, PhysicalType::kBytes, &out).ok());
      EXPECT_TRUE(out.Equals(values));
    }
    ChunkWriteOptions requested;
    requested.short_lived = short_lived;
    requested.encoding = Encoding::kTemplate;
    std::string chunk;
    Encoding chosen;
    ASSERT_TRUE(WriteChunk(values, requested, &chunk, &chosen).ok());
    EXPECT_EQ(chosen, Encoding::kTemplate) << short_lived;
  }
}

}  // namespace
}  // namespace columnar
