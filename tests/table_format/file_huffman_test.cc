// file_huffman (table_format/encodings/file_huffman.h): fixed bytes of a table entry and a
// body, round trips of integer columns and of file-dictionary code streams through chunks and
// the dictionary block, escapes, and damaged input.
#include "table_format/encodings/file_huffman.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/file_dictionary.h"
#include "tests/table_format/hex_bytes.h"

namespace columnar {
namespace {

using testing_util::Hex;

ColumnVector Ints32(const std::vector<int32_t>& values) {
  ColumnVector out(PhysicalType::kInt32);
  for (int32_t v : values) out.Append<int32_t>(v);
  return out;
}

// {200: 6, 404: 1, 500: 1}, escape weight 1: lengths 200:1, escape:2, 404:3, 500:3.
FileHuffmanTable StatusTable() {
  FileHuffmanTable table;
  EXPECT_TRUE(FileHuffmanTable::Build({{404, 1}, {200, 6}, {500, 1}}, 0, &table));
  return table;
}

ColumnVector Entries(const std::vector<std::string>& values) {
  ColumnVector out(PhysicalType::kBytes);
  for (const std::string& v : values) out.AppendBytes(v);
  return out;
}

TEST(FileHuffmanTest, FixedBytes) {
  const FileHuffmanTable table = StatusTable();
  // kind 1, k 4, zigzag(200) = 400, gaps 203, 95, 0 (the escape 501), nibbles (1,3) (3,2).
  EXPECT_EQ(Hex(table.Serialize()), "01049003cb015f003123");
  std::string body;
  table.Encode(3, Ints32({200, 200, 404, 7, 500}), &body);
  // table code 3; codes 0 0 110 10(escape) 111 LSB-first: 0xac 0x03; escape zigzag(7) = 14.
  EXPECT_EQ(Hex(body), "03ac030e");

  const ColumnVector entries = Entries({"GET", "POST", table.Serialize()});
  ColumnVector decoded(PhysicalType::kInt32);
  ASSERT_TRUE(DecodeFileHuffmanBody(body, 5, entries, PhysicalType::kInt32, &decoded).ok());
  ASSERT_EQ(decoded.size(), 5u);
  const std::vector<int32_t> expected = {200, 200, 404, 7, 500};
  for (size_t i = 0; i < expected.size(); i++) EXPECT_EQ(decoded.Get<int32_t>(i), expected[i]);
}

TEST(FileHuffmanTest, Int64EscapesAtTheTypesEdges) {
  FileHuffmanTable table;
  ASSERT_TRUE(FileHuffmanTable::Build({{-5, 10}, {0, 3}}, 2, &table));
  ColumnVector values(PhysicalType::kInt64);
  for (int64_t v : {int64_t{-5}, int64_t{0}, INT64_MIN, INT64_MAX, int64_t{1}, int64_t{-5}}) {
    values.Append<int64_t>(v);
  }
  std::string body;
  table.Encode(1, values, &body);
  ColumnVector decoded(PhysicalType::kInt64);
  ASSERT_TRUE(DecodeFileHuffmanBody(body, values.size(), Entries({table.Serialize()}),
                                    PhysicalType::kInt64, &decoded)
                  .ok());
  for (size_t i = 0; i < values.size(); i++) {
    EXPECT_EQ(decoded.Get<int64_t>(i), values.Get<int64_t>(i)) << i;
  }
  FileHuffmanTable none;
  EXPECT_FALSE(FileHuffmanTable::Build({}, 5, &none));
  EXPECT_FALSE(FileHuffmanTable::Build({{INT64_MAX, 1}}, 0, &none)) << "no room for the escape";
}

TEST(FileHuffmanTest, DamagedInputIsCorruption) {
  const FileHuffmanTable table = StatusTable();
  const ColumnVector entries = Entries({"GET", table.Serialize()});
  std::string body;
  table.Encode(2, Ints32({200, 200, 404, 7, 500}), &body);
  auto decode = [&](const std::string& b, size_t count, const ColumnVector& e,
                    PhysicalType type = PhysicalType::kInt32) {
    ColumnVector out(type);
    return DecodeFileHuffmanBody(b, count, e, type, &out);
  };
  ASSERT_TRUE(decode(body, 5, entries).ok());
  EXPECT_TRUE(decode(body + std::string(1, '\0'), 5, entries).IsCorruption()) << "trailing";
  EXPECT_TRUE(decode(body.substr(0, body.size() - 1), 5, entries).IsCorruption()) << "escape";
  EXPECT_TRUE(decode(body, 1 << 20, entries).IsCorruption()) << "count beyond the body";
  std::string code0 = body;
  code0[0] = 0;
  EXPECT_TRUE(decode(code0, 5, entries).IsCorruption()) << "table code 0";
  std::string code9 = body;
  code9[0] = 9;
  EXPECT_TRUE(decode(code9, 5, entries).IsCorruption()) << "table code beyond the entries";
  std::string not_table = body;
  not_table[0] = 1;
  EXPECT_TRUE(decode(not_table, 5, entries).IsCorruption()) << "entry GET is no table";
  std::string padding = body;
  padding[2] = static_cast<char>(padding[2] | 0x80);
  EXPECT_TRUE(decode(padding, 5, entries).IsCorruption()) << "padding bit set";
  // A table whose real symbol does not fit int32.
  FileHuffmanTable wide;
  ASSERT_TRUE(FileHuffmanTable::Build({{int64_t{1} << 40, 3}}, 0, &wide));
  std::string wide_body;
  wide.Encode(
      1,
      [] {
        ColumnVector v(PhysicalType::kInt64);
        v.Append<int64_t>(int64_t{1} << 40);
        return v;
      }(),
      &wide_body);
  EXPECT_TRUE(decode(wide_body, 1, Entries({wide.Serialize()}), PhysicalType::kInt64).ok());
  EXPECT_TRUE(decode(wide_body, 1, Entries({wide.Serialize()})).IsCorruption()) << "int32";
  // Damaged table entries.
  const std::string entry = table.Serialize();
  for (size_t len = 0; len < entry.size(); len++) {
    EXPECT_TRUE(decode(body, 5, Entries({"GET", entry.substr(0, len)})).IsCorruption()) << len;
  }
  EXPECT_TRUE(decode(body, 5, Entries({"GET", entry + "x"})).IsCorruption()) << "entry trailing";
  std::string kind = entry;
  kind[0] = 2;
  EXPECT_TRUE(decode(body, 5, Entries({"GET", kind})).IsCorruption()) << "kind";
  std::string oversubscribed = entry;
  oversubscribed[entry.size() - 2] = 0x11;  // lengths 1, 1, 3, 2
  EXPECT_TRUE(decode(body, 5, Entries({"GET", oversubscribed})).IsCorruption());
  // Every truncation and every bit flip: an error or some values, never a crash.
  for (size_t len = 0; len < body.size(); len++) {
    EXPECT_FALSE(decode(body.substr(0, len), 5, entries).ok()) << len;
  }
  for (size_t bit = 0; bit < body.size() * 8; bit++) {
    std::string flipped = body;
    flipped[bit / 8] = static_cast<char>(flipped[bit / 8] ^ (1 << (bit % 8)));
    (void)decode(flipped, 5, entries);
  }
}

// Statuses (int32, nulls now and then, rare values the first tables lack) written as chunks of
// a file with dictionaries, read back through the dictionary block.
TEST(FileHuffmanTest, IntegerChunksRoundTripThroughTheDictionaryBlock) {
  std::mt19937_64 rng(11);
  FileDictionaryWriters writers;
  std::vector<std::string> chunks;
  std::vector<ColumnVector> columns;
  for (int c = 0; c < 80; c++) {
    ColumnVector values(PhysicalType::kInt32);
    for (int i = 0; i < 128; i++) {
      const uint64_t r = rng() % 100;
      if (r < 3) {
        values.AppendNull();
      } else if (r < 88) {
        values.Append<int32_t>(200);
      } else if (r < 95) {
        values.Append<int32_t>(304);
      } else if (r < 99) {
        values.Append<int32_t>(404);
      } else {
        values.Append<int32_t>(-static_cast<int32_t>(rng() % 100000));  // mostly new: escaped
      }
    }
    ChunkWriteOptions options;
    options.file_dictionary = writers.For("status");
    std::string chunk;
    ASSERT_TRUE(WriteChunk(values, options, &chunk).ok());
    chunks.push_back(std::move(chunk));
    columns.push_back(std::move(values));
  }
  std::string block;
  ASSERT_TRUE(writers.Finish(ChunkWriteOptions(), &block).ok());
  FileDictionarySet dictionaries;
  ASSERT_TRUE(FileDictionarySet::Decode(block, &dictionaries).ok());
  const ColumnVector* entries = dictionaries.Find("status");
  ASSERT_NE(entries, nullptr);
  EXPECT_EQ(entries->size(), 2u) << "tables after 16 and 64 chunks";
  size_t with_table = 0;
  for (size_t c = 0; c < chunks.size(); c++) {
    SCOPED_TRACE("chunk " + std::to_string(c));
    ChunkHeader header;
    ASSERT_TRUE(ParseChunkHeader(chunks[c], &header).ok());
    if (c < 16) {
      EXPECT_NE(header.encoding, Encoding::kFileHuffman) << "no table yet";
    }
    with_table += header.encoding == Encoding::kFileHuffman ? 1 : 0;
    ChunkReadOptions options;
    options.file_dictionary = entries;
    Slice in(chunks[c]);
    ColumnVector decoded;
    ASSERT_TRUE(ReadChunk(&in, PhysicalType::kInt32, &decoded, options).ok());
    EXPECT_TRUE(in.empty());
    ASSERT_EQ(decoded.size(), columns[c].size());
    for (size_t i = 0; i < decoded.size(); i++) {
      ASSERT_EQ(decoded.IsNull(i), columns[c].IsNull(i)) << i;
      if (!decoded.IsNull(i)) {
        ASSERT_EQ(decoded.Get<int32_t>(i), columns[c].Get<int32_t>(i)) << i;
      }
    }
    // Rows of a chunk (point reads) go through the whole chunk.
    ColumnVector rows;
    ASSERT_TRUE(ReadChunkRows(chunks[c], PhysicalType::kInt32, 5, 9, &rows, options).ok());
    ASSERT_EQ(rows.size(), 4u);
    if (header.encoding == Encoding::kFileHuffman) {
      Slice again(chunks[c]);
      ColumnVector ignored;
      EXPECT_TRUE(
          ReadChunk(&again, PhysicalType::kInt32, &ignored, ChunkReadOptions()).IsCorruption())
          << "a file_huffman chunk needs the file's dictionary";
    }
  }
  EXPECT_GE(with_table, 60u);
}

// A table no chunk uses is never written: values spread over 2^31 keep their local encoding,
// and the file has no dictionary at all (a table used to be written anyway, 124 bytes a file
// of metrics).
TEST(FileHuffmanTest, UnusedTablesAreNotWritten) {
  std::mt19937_64 rng(3);
  FileDictionaryWriters writers;
  for (int c = 0; c < 80; c++) {
    ColumnVector values(PhysicalType::kInt32);
    for (int i = 0; i < 128; i++) values.Append<int32_t>(static_cast<int32_t>(rng() >> 33));
    ChunkWriteOptions options;
    options.file_dictionary = writers.For("write_time");
    std::string chunk;
    Encoding encoding;
    ASSERT_TRUE(WriteChunk(values, options, &chunk, &encoding).ok());
    EXPECT_NE(encoding, Encoding::kFileHuffman);
  }
  EXPECT_TRUE(writers.empty());
  std::string block;
  ASSERT_TRUE(writers.Finish(ChunkWriteOptions(), &block).ok());
  EXPECT_EQ(Hex(block), "00");
}

// File-dictionary codes of a low-cardinality string column use the table too. New values
// recur now and then, so that chunks admit entries while they use a table not yet written
// (it then follows the entries they admit).
TEST(FileHuffmanTest, FileDictionaryCodesUseTheTable) {
  static const char* const kMethods[] = {"GET", "POST", "PUT", "DELETE", "PATCH"};
  std::mt19937_64 rng(5);
  FileDictionaryWriters writers;
  std::vector<std::string> chunks;
  std::vector<ColumnVector> columns;
  for (int c = 0; c < 40; c++) {
    ColumnVector values(PhysicalType::kBytes);
    for (int i = 0; i < 126; i++) {
      const uint64_t r = rng() % 100;
      values.AppendBytes(kMethods[r < 70 ? 0 : r < 90 ? 1 : r < 95 ? 2 : r < 98 ? 3 : 4]);
    }
    // A new value in every chunk, admitted by the next one: every chunk admits an entry.
    values.AppendBytes("NEW" + std::to_string(c));
    values.AppendBytes("NEW" + std::to_string(c > 0 ? c - 1 : 0));
    ChunkWriteOptions options;
    options.file_dictionary = writers.For("method");
    std::string chunk;
    ASSERT_TRUE(WriteChunk(values, options, &chunk).ok());
    chunks.push_back(std::move(chunk));
    columns.push_back(std::move(values));
  }
  std::string block;
  ASSERT_TRUE(writers.Finish(ChunkWriteOptions(), &block).ok());
  FileDictionarySet dictionaries;
  ASSERT_TRUE(FileDictionarySet::Decode(block, &dictionaries).ok());
  const ColumnVector* entries = dictionaries.Find("method");
  ASSERT_NE(entries, nullptr);
  size_t with_table = 0;
  for (size_t c = 0; c < chunks.size(); c++) {
    ChunkHeader header;
    ASSERT_TRUE(ParseChunkHeader(chunks[c], &header).ok());
    // The body of a file_dictionary chunk starts with its codes' encoding.
    if (header.encoding == Encoding::kFileDictionary &&
        static_cast<Encoding>(chunks[c][header.header_size]) == Encoding::kFileHuffman) {
      with_table++;
      EXPECT_LE(header.stored_length, 40u) << "about 23 bytes of codes and the new value, no table";
    }
    ChunkReadOptions options;
    options.file_dictionary = entries;
    Slice in(chunks[c]);
    ColumnVector decoded;
    ASSERT_TRUE(ReadChunk(&in, PhysicalType::kBytes, &decoded, options).ok());
    for (size_t i = 0; i < decoded.size(); i++) {
      ASSERT_EQ(decoded.GetBytes(i), columns[c].GetBytes(i)) << c << " " << i;
    }
  }
  EXPECT_GE(with_table, 20u);
  // The table entries (kind byte 1) are those the chunks used: at most two (after 16 and 64
  // counted chunks), each after the value entries admitted before or with its first use.
  size_t tables = 0;
  for (size_t e = 0; e < entries->size(); e++) tables += entries->GetBytes(e)[0] == 1 ? 1 : 0;
  EXPECT_EQ(tables, 1u);
}

}  // namespace
}  // namespace columnar
