// ParquetWriter: writes rows of typed values to a Parquet file (parquet_metadata.h has the
// layout): rows are buffered per column for a row group of `row_group_rows` rows, each column
// then encoded as a column chunk (column_chunk_writer.h) and appended to the file; Close
// writes the page indexes of every chunk, then the footer with the schema, row-group
// statistics and key-value metadata.
//
//   std::unique_ptr<ParquetWriter> writer;
//   Status s = ParquetWriter::Open("/tmp/t.parquet", columns, ParquetWriterOptions(), &writer);
//   s = writer->AddRow(row);  // one Value per column, in `columns` order
//   s = writer->Close();
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "table_api/parquet/column_chunk_writer.h"

namespace columnar {
namespace parquet {

struct ParquetWriterOptions {
  uint64_t row_group_rows = 122880;
  ChunkOptions chunk;
  // Stored in the footer (FileMetaData.key_value_metadata).
  std::vector<std::pair<std::string, std::string>> key_value_metadata;
};

class ParquetWriter {
 public:
  // Creates (or truncates) `path`. InvalidArgument for no columns, duplicate names or a zero
  // row-group size; IOError when the file cannot be created.
  static Status Open(const std::string& path, std::vector<ColumnSpec> columns,
                     const ParquetWriterOptions& options, std::unique_ptr<ParquetWriter>* writer);
  ~ParquetWriter();
  ParquetWriter(const ParquetWriter&) = delete;
  ParquetWriter& operator=(const ParquetWriter&) = delete;

  // InvalidArgument when the row has the wrong number of values, a null in a required column
  // or a value of another type (nothing of the row is kept).
  Status AddRow(const std::vector<Value>& row);
  // Writes the last row group and the footer, and closes the file.
  Status Close();

  uint64_t rows_written() const { return rows_; }
  uint64_t bytes_written() const { return offset_; }
  uint64_t row_groups_written() const { return metadata_.row_groups.size(); }

 private:
  ParquetWriter(std::string path, std::FILE* file, std::vector<ColumnSpec> columns,
                const ParquetWriterOptions& options);
  Status FlushRowGroup();
  Status WritePageIndexes();
  Status Write(const std::string& bytes);

  const std::string path_;
  std::FILE* file_;
  const std::vector<ColumnSpec> columns_;
  const ParquetWriterOptions options_;
  std::vector<ColumnChunkWriter> chunks_;
  FileMetaData metadata_;
  std::vector<ChunkPageIndex> page_indexes_;  // per chunk, row group then column order
  uint64_t rows_ = 0;
  uint64_t buffered_rows_ = 0;
  uint64_t offset_ = 0;
  std::string buffer_;
};

}  // namespace parquet
}  // namespace columnar
