// The Parquet page indexes (ColumnIndex, OffsetIndex) and the delta encodings of byte arrays,
// byte for byte, and how a column chunk cuts its pages and chooses its value encoding. What
// real readers make of them is tests/export/ (DuckDB reads the data, hyparquet the indexes).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include "table_api/parquet/delta_byte_array.h"
#include "table_api/parquet/parquet_writer.h"
#include "table_api/parquet/thrift_compact.h"
#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

using parquet::ChunkPageIndex;
using parquet::ColumnChunkWriter;
using parquet::ColumnMetaData;
using parquet::ColumnSpec;
using parquet::ValueEncoding;

std::string Int32Bytes(int32_t v) {
  std::string out(4, '\0');
  for (int b = 0; b < 4; b++) out[b] = static_cast<char>((static_cast<uint32_t>(v) >> (8 * b)));
  return out;
}

TEST(ParquetPageIndexTest, ColumnIndexBytes) {
  parquet::ColumnIndex index;
  index.null_pages = {false, true};
  index.min_values = {"a", ""};
  index.max_values = {"b", ""};
  index.boundary_order = parquet::BoundaryOrder::kAscending;
  index.null_counts = {0, 3};
  std::string out;
  parquet::SerializeColumnIndex(index, &out);
  EXPECT_EQ(out, test::BytesOf({0x19, 0x21, 0x02, 0x01,  // 1 null_pages: list<bool> false, true
                                0x19, 0x28, 0x01, 'a',  0x00,  // 2 min_values: "a", ""
                                0x19, 0x28, 0x01, 'b',  0x00,  // 3 max_values: "b", ""
                                0x15, 0x02,                    // 4 boundary_order: ASCENDING
                                0x19, 0x26, 0x00, 0x06,        // 5 null_counts: list<i64> 0, 3
                                0x00}));
}

TEST(ParquetPageIndexTest, OffsetIndexBytes) {
  parquet::OffsetIndex index;
  index.page_locations = {{4, 30, 0}, {34, 300, 2}};
  std::string out;
  parquet::SerializeOffsetIndex(index, &out);
  EXPECT_EQ(out,
            test::BytesOf({0x19, 0x2C,                                // 1 page_locations: 2 structs
                           0x16, 0x08, 0x15, 0x3C, 0x16, 0x00, 0x00,  // offset 4, size 30, row 0
                           0x16, 0x44, 0x15, 0xD8, 0x04, 0x16, 0x04, 0x00,  // 34, 300, row 2
                           0x00}));
}

TEST(ParquetDeltaByteArrayTest, SpecificationExamples) {
  // DELTA_LENGTH_BYTE_ARRAY: lengths 5 5 6 6 (first 5, deltas 0 1 0: min 0, width 1), then
  // the bytes.
  std::string out;
  parquet::AppendDeltaLengthByteArray({"Hello", "World", "Foobar", "ABCDEF"}, &out);
  EXPECT_EQ(out, test::BytesOf({0x80, 0x01, 0x04, 0x04, 0x0A, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02,
                                0x00, 0x00, 0x00}) +
                     "HelloWorldFoobarABCDEF");

  // DELTA_BYTE_ARRAY: prefix lengths 0 2 0 3 (deltas 2 -2 3: min -2, 4 0 5 at width 3), then
  // the suffixes "axis" "le" "babble" "yhood" as DELTA_LENGTH_BYTE_ARRAY (lengths 4 2 6 5:
  // deltas -2 4 -1, min -2, 0 6 1 at width 3).
  out.clear();
  parquet::AppendDeltaByteArray({"axis", "axle", "babble", "babyhood"}, &out);
  const std::string padding(10, '\0');
  EXPECT_EQ(
      out,
      test::BytesOf({0x80, 0x01, 0x04, 0x04, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00, 0x44, 0x01}) +
          padding +
          test::BytesOf({0x80, 0x01, 0x04, 0x04, 0x08, 0x03, 0x03, 0x00, 0x00, 0x00, 0x70, 0x00}) +
          padding + "axislebabbleyhood");

  // No values: a header only.
  out.clear();
  parquet::AppendDeltaByteArray({}, &out);
  EXPECT_EQ(out, test::BytesOf({0x80, 0x01, 0x04, 0x00, 0x00, 0x80, 0x01, 0x04, 0x00, 0x00}));
}

// Flushes `values` through a ColumnChunkWriter at file offset 4.
std::string FlushChunk(const ColumnSpec& column, const parquet::ChunkOptions& options,
                       const std::vector<Value>& values, ColumnMetaData* metadata,
                       ChunkPageIndex* page_index, ValueEncoding* encoding = nullptr) {
  ColumnChunkWriter writer(column, options);
  for (const Value& v : values) writer.Append(v);
  std::string out;
  const Status s = writer.Flush(4, &out, metadata, page_index);
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (encoding != nullptr) *encoding = writer.last_encoding();
  return out;
}

parquet::ChunkOptions Uncompressed() {
  parquet::ChunkOptions options;
  options.compression = parquet::Compression::kNone;
  return options;
}

TEST(ParquetPageIndexTest, PagesAreCutByRowsAndIndexed) {
  // Optional int column, 2 rows a page: [1, 2] [null, null] [5, 3] [4].
  parquet::ChunkOptions options = Uncompressed();
  options.page_rows = 2;
  options.dictionary = false;
  options.delta = false;
  ColumnMetaData metadata;
  ChunkPageIndex index;
  const std::string chunk = FlushChunk(
      {"v", LogicalType::kInt, false, false}, options,
      {Value::Int(1), Value::Int(2), Value(), Value(), Value::Int(5), Value::Int(3), Value::Int(4)},
      &metadata, &index);
  const auto& pages = index.offset_index.page_locations;
  ASSERT_EQ(pages.size(), 4u);
  EXPECT_EQ(pages[0].offset, 4);
  EXPECT_EQ(metadata.data_page_offset, 4);
  int64_t next = 4;
  const int64_t first_rows[] = {0, 2, 4, 6};
  for (size_t p = 0; p < pages.size(); p++) {
    EXPECT_EQ(pages[p].offset, next);
    EXPECT_EQ(pages[p].first_row_index, first_rows[p]);
    next += pages[p].compressed_page_size;
  }
  EXPECT_EQ(next - 4, static_cast<int64_t>(chunk.size()));  // the pages tile the chunk
  ASSERT_TRUE(index.column_index.has_value());
  const parquet::ColumnIndex& column = *index.column_index;
  EXPECT_EQ(column.null_pages, (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(column.null_counts, (std::vector<int64_t>{0, 2, 0, 0}));
  EXPECT_EQ(column.min_values,
            (std::vector<std::string>{Int32Bytes(1), "", Int32Bytes(3), Int32Bytes(4)}));
  EXPECT_EQ(column.max_values,
            (std::vector<std::string>{Int32Bytes(2), "", Int32Bytes(5), Int32Bytes(4)}));
  // Mins 1 3 4 ascend, maxes 2 5 4 do not.
  EXPECT_EQ(column.boundary_order, parquet::BoundaryOrder::kUnordered);
}

TEST(ParquetPageIndexTest, BoundaryOrderAndPagesWithoutMinMax) {
  parquet::ChunkOptions options = Uncompressed();
  options.page_rows = 2;
  ColumnMetaData metadata;
  ChunkPageIndex index;
  std::vector<Value> ascending, descending;
  for (int i = 0; i < 6; i++) {
    ascending.push_back(Value::BigInt(i));
    descending.push_back(Value::BigInt(-i));
  }
  FlushChunk({"v", LogicalType::kBigInt, true, false}, options, ascending, &metadata, &index);
  ASSERT_TRUE(index.column_index.has_value());
  EXPECT_EQ(index.column_index->boundary_order, parquet::BoundaryOrder::kAscending);
  FlushChunk({"v", LogicalType::kBigInt, true, false}, options, descending, &metadata, &index);
  ASSERT_TRUE(index.column_index.has_value());
  EXPECT_EQ(index.column_index->boundary_order, parquet::BoundaryOrder::kDescending);

  // A page of only NaNs has no min / max: no column index for the chunk, the offset index
  // stays.
  FlushChunk({"d", LogicalType::kDouble, false, false}, options,
             {Value::Double(1), Value::Double(2), Value::Double(std::nan("")),
              Value::Double(std::nan(""))},
             &metadata, &index);
  EXPECT_FALSE(index.column_index.has_value());
  EXPECT_EQ(index.offset_index.page_locations.size(), 2u);
}

TEST(ParquetPageIndexTest, PagesAreCutByBytes) {
  // 10-byte strings are 14 PLAIN bytes: a 30-byte page ends after its third value.
  parquet::ChunkOptions options = Uncompressed();
  options.page_bytes = 30;
  std::vector<Value> values;
  for (int i = 0; i < 8; i++) values.push_back(Value::Text("value-" + std::to_string(1000 + i)));
  ColumnMetaData metadata;
  ChunkPageIndex index;
  FlushChunk({"t", LogicalType::kText, true, false}, options, values, &metadata, &index);
  std::vector<int64_t> first_rows;
  for (const auto& page : index.offset_index.page_locations) {
    first_rows.push_back(page.first_row_index);
  }
  EXPECT_EQ(first_rows, (std::vector<int64_t>{0, 3, 6}));
  ASSERT_TRUE(index.column_index.has_value());
  EXPECT_EQ(index.column_index->min_values,
            (std::vector<std::string>{"value-1000", "value-1003", "value-1006"}));
  EXPECT_EQ(index.column_index->boundary_order, parquet::BoundaryOrder::kAscending);
}

TEST(ParquetEncodingChoiceTest, EachChunkTakesTheSmallestEncoding) {
  parquet::ChunkOptions options = Uncompressed();
  ColumnMetaData metadata;
  ChunkPageIndex index;
  ValueEncoding encoding;
  const ColumnSpec text{"t", LogicalType::kText, true, false};

  // Sorted strings sharing long prefixes: front coding.
  std::vector<Value> paths;
  for (int i = 0; i < 200; i++) {
    paths.push_back(Value::Text("/api/v1/customers/" + std::to_string(100000 + i) + "/orders"));
  }
  FlushChunk(text, options, paths, &metadata, &index, &encoding);
  EXPECT_EQ(encoding, ValueEncoding::kDeltaByteArray);
  EXPECT_EQ(metadata.encodings.back(), parquet::Encoding::kDeltaByteArray);

  // Distinct strings without common prefixes: the lengths as deltas beat 4 bytes each.
  std::vector<Value> unique;
  for (int i = 0; i < 200; i++) {
    std::string s(8, 'a');
    for (int b = 0; b < 8; b++) s[b] = static_cast<char>('a' + (i * 7 + b * 13) % 26);
    unique.push_back(Value::Text(std::to_string(i % 10) + s));
  }
  FlushChunk(text, options, unique, &metadata, &index, &encoding);
  EXPECT_EQ(encoding, ValueEncoding::kDeltaLengthByteArray);

  // Few distinct values: a dictionary.
  std::vector<Value> repeated;
  for (int i = 0; i < 200; i++) repeated.push_back(Value::Text(i % 3 ? "GET" : "POST"));
  FlushChunk(text, options, repeated, &metadata, &index, &encoding);
  EXPECT_EQ(encoding, ValueEncoding::kDictionary);
  ASSERT_TRUE(metadata.dictionary_page_offset.has_value());

  // Delta encodings off: plain for the paths.
  options.delta = false;
  options.dictionary = false;
  FlushChunk(text, options, paths, &metadata, &index, &encoding);
  EXPECT_EQ(encoding, ValueEncoding::kPlain);
  EXPECT_EQ(metadata.encodings,
            (std::vector<parquet::Encoding>{parquet::Encoding::kPlain, parquet::Encoding::kRle}));
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void AppendZigZagVarint(int64_t value, std::string* out) {
  uint64_t v = (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

TEST(ParquetPageIndexTest, FileHoldsTheIndexesAfterTheRowGroupAndTheFooterPointsAtThem) {
  TempDir dir("parquet-page-index");
  const std::string path = dir.path() + "/t.parquet";
  const ColumnSpec column{"k", LogicalType::kInt, true, false};
  parquet::ParquetWriterOptions options;
  options.chunk = Uncompressed();
  options.chunk.page_rows = 3;
  std::vector<Value> values;
  for (int i = 0; i < 7; i++) values.push_back(Value::Int(i * 10));

  // The chunk as the file writer will write it (at offset 4, after "PAR1").
  ColumnMetaData metadata;
  ChunkPageIndex index;
  const std::string chunk = FlushChunk(column, options.chunk, values, &metadata, &index);
  ASSERT_TRUE(index.column_index.has_value());
  std::string column_index, offset_index;
  parquet::SerializeColumnIndex(*index.column_index, &column_index);
  parquet::SerializeOffsetIndex(index.offset_index, &offset_index);

  std::unique_ptr<parquet::ParquetWriter> writer;
  ASSERT_TRUE(parquet::ParquetWriter::Open(path, {column}, options, &writer).ok());
  for (const Value& v : values) ASSERT_TRUE(writer->AddRow({v}).ok());
  ASSERT_TRUE(writer->Close().ok());
  const std::string file = ReadWholeFile(path);
  ASSERT_EQ(file.substr(4, chunk.size()), chunk);
  const size_t column_index_offset = 4 + chunk.size();
  const size_t offset_index_offset = column_index_offset + column_index.size();
  EXPECT_EQ(file.substr(column_index_offset, column_index.size()), column_index);
  EXPECT_EQ(file.substr(offset_index_offset, offset_index.size()), offset_index);

  // ColumnChunk, after its meta_data struct: 4 offset_index_offset, 5 offset_index_length,
  // 6 column_index_offset, 7 column_index_length, stop.
  std::string pointers = test::BytesOf({0x00, 0x16});
  AppendZigZagVarint(static_cast<int64_t>(offset_index_offset), &pointers);
  pointers.push_back(0x15);
  AppendZigZagVarint(static_cast<int64_t>(offset_index.size()), &pointers);
  pointers.push_back(0x16);
  AppendZigZagVarint(static_cast<int64_t>(column_index_offset), &pointers);
  pointers.push_back(0x15);
  AppendZigZagVarint(static_cast<int64_t>(column_index.size()), &pointers);
  pointers.push_back(0x00);
  const size_t footer_start = offset_index_offset + offset_index.size();
  EXPECT_NE(file.find(pointers, footer_start), std::string::npos);
}

}  // namespace
}  // namespace columnar
