// Shared by the file dictionary's tests: chunks written through a column's dictionary read back.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "table_format/chunk.h"
#include "table_format/column_vector.h"
#include "table_format/file_dictionary.h"

namespace columnar {
namespace testing_util {

// Every chunk written through `writer` (a bytes column) reads back as the values it was
// written from, with the writer's entries as the file's dictionary.
inline void ExpectChunksReadBack(const std::vector<std::string>& chunks,
                                 const std::vector<ColumnVector>& written,
                                 const FileDictionaryWriter& writer) {
  const ColumnVector entries = writer.Entries();
  ChunkReadOptions read_options;
  read_options.file_dictionary = &entries;
  ASSERT_EQ(chunks.size(), written.size());
  for (size_t c = 0; c < chunks.size(); c++) {
    Slice in(chunks[c]);
    ColumnVector back(PhysicalType::kBytes);
    ASSERT_TRUE(ReadChunk(&in, PhysicalType::kBytes, &back, read_options).ok()) << c;
    ASSERT_EQ(back.size(), written[c].size()) << c;
    for (size_t i = 0; i < back.size(); i++) {
      ASSERT_EQ(back.GetBytes(i).ToString(), written[c].GetBytes(i).ToString()) << c << " " << i;
    }
  }
}

// Writes chunks of one bytes column through its file dictionary, keeping them to read back.
class ColumnWriter {
 public:
  ColumnWriter() : writer_(writers_.For("column")) {}

  // The chunk's encoding.
  Encoding Write(const ColumnVector& values) {
    ChunkWriteOptions options;
    options.file_dictionary = writer_;
    std::string chunk;
    EXPECT_TRUE(WriteChunk(values, options, &chunk).ok());
    chunks_.push_back(chunk);
    written_.push_back(values);
    ChunkHeader header;
    EXPECT_TRUE(ParseChunkHeader(chunk, &header).ok());
    return header.encoding;
  }
  FileDictionaryWriter* dictionary() { return writer_; }
  void ExpectReadBack() const { ExpectChunksReadBack(chunks_, written_, *writer_); }

 private:
  FileDictionaryWriters writers_;
  FileDictionaryWriter* writer_;
  std::vector<std::string> chunks_;
  std::vector<ColumnVector> written_;
};

}  // namespace testing_util
}  // namespace columnar
