#include "table_api/parquet/parquet_writer.h"

#include <cerrno>
#include <cstring>
#include <set>

namespace columnar {
namespace parquet {
namespace {

constexpr char kMagic[] = "PAR1";

}  // namespace

Status ParquetWriter::Open(const std::string& path, std::vector<ColumnSpec> columns,
                           const ParquetWriterOptions& options,
                           std::unique_ptr<ParquetWriter>* writer) {
  writer->reset();
  if (columns.empty()) return Status::InvalidArgument("a Parquet file needs a column");
  if (options.row_group_rows == 0) return Status::InvalidArgument("row_group_rows is 0");
  std::set<std::string> names;
  for (const ColumnSpec& column : columns) {
    if (!names.insert(column.name).second) {
      return Status::InvalidArgument("duplicate column name ", column.name);
    }
  }
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return Status::IOError(path, std::strerror(errno));
  writer->reset(new ParquetWriter(path, file, std::move(columns), options));
  return (*writer)->Write(kMagic);
}

ParquetWriter::ParquetWriter(std::string path, std::FILE* file, std::vector<ColumnSpec> columns,
                             const ParquetWriterOptions& options)
    : path_(std::move(path)), file_(file), columns_(std::move(columns)), options_(options) {
  SchemaElement root;
  root.name = "schema";
  root.num_children = static_cast<int32_t>(columns_.size());
  metadata_.schema.push_back(root);
  for (const ColumnSpec& column : columns_) {
    chunks_.emplace_back(column, options_.chunk);
    metadata_.schema.push_back(SchemaElementFor(column));
  }
  metadata_.key_value_metadata = options_.key_value_metadata;
  metadata_.created_by = "columnar_rocksdb ParquetWriter";
}

ParquetWriter::~ParquetWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

Status ParquetWriter::Write(const std::string& bytes) {
  if (file_ == nullptr) return Status::IOError(path_, "already closed");
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    return Status::IOError(path_, std::strerror(errno));
  }
  offset_ += bytes.size();
  return Status::OK();
}

Status ParquetWriter::AddRow(const std::vector<Value>& row) {
  if (row.size() != columns_.size()) {
    return Status::InvalidArgument("row has " + std::to_string(row.size()) + " values, file has " +
                                   std::to_string(columns_.size()) + " columns");
  }
  for (size_t c = 0; c < row.size(); c++) {
    if (row[c].is_null() ? columns_[c].required : row[c].type() != columns_[c].type) {
      return Status::InvalidArgument("column " + columns_[c].name + ": ",
                                     row[c].is_null() ? "null in a key column" : "wrong type");
    }
  }
  for (size_t c = 0; c < row.size(); c++) chunks_[c].Append(row[c]);
  rows_++;
  if (++buffered_rows_ == options_.row_group_rows) return FlushRowGroup();
  return Status::OK();
}

Status ParquetWriter::FlushRowGroup() {
  if (buffered_rows_ == 0) return Status::OK();
  RowGroupMetaData group;
  group.num_rows = static_cast<int64_t>(buffered_rows_);
  group.file_offset = static_cast<int64_t>(offset_);
  for (ColumnChunkWriter& chunk : chunks_) {
    buffer_.clear();
    group.columns.emplace_back();
    page_indexes_.emplace_back();
    Status s = chunk.Flush(static_cast<int64_t>(offset_), &buffer_, &group.columns.back(),
                           &page_indexes_.back());
    if (s.ok()) s = Write(buffer_);
    if (!s.ok()) return s;
    group.total_byte_size += group.columns.back().total_uncompressed_size;
    group.total_compressed_size += group.columns.back().total_compressed_size;
  }
  metadata_.row_groups.push_back(std::move(group));
  buffered_rows_ = 0;
  return Status::OK();
}

// Every chunk's column index, then every chunk's offset index (the order Arrow and
// parquet-java write), each chunk's ColumnChunk pointing at its own.
Status ParquetWriter::WritePageIndexes() {
  std::string indexes;
  for (bool offset_indexes : {false, true}) {
    size_t chunk = 0;
    for (RowGroupMetaData& group : metadata_.row_groups) {
      for (ColumnMetaData& column : group.columns) {
        const ChunkPageIndex& page_index = page_indexes_[chunk++];
        const int64_t offset = static_cast<int64_t>(offset_ + indexes.size());
        if (offset_indexes) {
          SerializeOffsetIndex(page_index.offset_index, &indexes);
          column.offset_index_offset = offset;
          column.offset_index_length = static_cast<int32_t>(offset_ + indexes.size() - offset);
        } else if (page_index.column_index) {
          SerializeColumnIndex(*page_index.column_index, &indexes);
          column.column_index_offset = offset;
          column.column_index_length = static_cast<int32_t>(offset_ + indexes.size() - offset);
        }
      }
    }
  }
  page_indexes_.clear();
  return Write(indexes);
}

Status ParquetWriter::Close() {
  Status s = FlushRowGroup();
  if (s.ok()) s = WritePageIndexes();
  if (!s.ok()) return s;
  metadata_.num_rows = static_cast<int64_t>(rows_);
  std::string footer;
  SerializeFileMetaData(metadata_, &footer);
  const uint32_t length = static_cast<uint32_t>(footer.size());
  for (int b = 0; b < 4; b++) footer.push_back(static_cast<char>((length >> (8 * b)) & 0xFF));
  footer.append(kMagic);
  s = Write(footer);
  if (!s.ok()) return s;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  return closed ? Status::OK() : Status::IOError(path_, std::strerror(errno));
}

}  // namespace parquet
}  // namespace columnar
