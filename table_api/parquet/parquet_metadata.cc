#include "table_api/parquet/parquet_metadata.h"

#include "table_api/parquet/thrift_compact.h"

namespace columnar {
namespace parquet {
namespace {

using Writer = ThriftCompactWriter;

// Statistics: 3 null_count, 5 max_value, 6 min_value.
void WriteStatistics(int16_t field, const Statistics& stats, Writer* w) {
  w->BeginStructField(field);
  w->I64Field(3, stats.null_count);
  if (stats.has_min_max) {
    w->BinaryField(5, stats.max_value);
    w->BinaryField(6, stats.min_value);
  }
  w->EndStruct();
}

// LogicalType union: 1 STRING, 6 DATE, 8 TIMESTAMP {1 isAdjustedToUTC, 2 unit {1 MILLIS,
// 2 MICROS}}, 10 INTEGER {1 bitWidth, 2 isSigned}, 14 UUID.
void WriteLogicalType(const LogicalAnnotation& logical, Writer* w) {
  using Kind = LogicalAnnotation::Kind;
  if (logical.kind == Kind::kNone) return;
  w->BeginStructField(10);
  switch (logical.kind) {
    case Kind::kString:
      w->BeginStructField(1);
      w->EndStruct();
      break;
    case Kind::kDate:
      w->BeginStructField(6);
      w->EndStruct();
      break;
    case Kind::kTimestamp:
      w->BeginStructField(8);
      w->BoolField(1, logical.timestamp_utc);
      w->BeginStructField(2);
      w->BeginStructField(logical.timestamp_micros ? 2 : 1);
      w->EndStruct();
      w->EndStruct();
      w->EndStruct();
      break;
    case Kind::kInteger:
      w->BeginStructField(10);
      w->ByteField(1, logical.integer_bits);
      w->BoolField(2, true);
      w->EndStruct();
      break;
    case Kind::kUuid:
      w->BeginStructField(14);
      w->EndStruct();
      break;
    case Kind::kNone:
      break;
  }
  w->EndStruct();
}

// SchemaElement: 1 type, 2 type_length, 3 repetition_type, 4 name, 5 num_children,
// 6 converted_type, 10 logicalType.
void WriteSchemaElement(const SchemaElement& element, Writer* w) {
  w->BeginStructElement();
  if (element.type) w->I32Field(1, static_cast<int32_t>(*element.type));
  if (element.type == PhysicalType::kFixedLenByteArray) w->I32Field(2, element.type_length);
  if (element.repetition) w->I32Field(3, static_cast<int32_t>(*element.repetition));
  w->BinaryField(4, element.name);
  if (element.num_children >= 0) w->I32Field(5, element.num_children);
  if (element.converted_type) w->I32Field(6, static_cast<int32_t>(*element.converted_type));
  WriteLogicalType(element.logical, w);
  w->EndStruct();
}

// ColumnChunk: 2 file_offset, 3 meta_data, 4 offset_index_offset, 5 offset_index_length,
// 6 column_index_offset, 7 column_index_length. ColumnMetaData: 1 type, 2 encodings,
// 3 path_in_schema, 4 codec, 5 num_values, 6 total_uncompressed_size, 7 total_compressed_size,
// 9 data_page_offset, 11 dictionary_page_offset, 12 statistics.
void WriteColumnChunk(const ColumnMetaData& column, Writer* w) {
  w->BeginStructElement();
  w->I64Field(2, column.dictionary_page_offset.value_or(column.data_page_offset));
  w->BeginStructField(3);
  w->I32Field(1, static_cast<int32_t>(column.type));
  w->BeginListField(2, Writer::kI32, column.encodings.size());
  for (Encoding encoding : column.encodings) w->I32Element(static_cast<int32_t>(encoding));
  w->BeginListField(3, Writer::kBinary, 1);
  w->BinaryElement(column.path);
  w->I32Field(4, static_cast<int32_t>(column.codec));
  w->I64Field(5, column.num_values);
  w->I64Field(6, column.total_uncompressed_size);
  w->I64Field(7, column.total_compressed_size);
  w->I64Field(9, column.data_page_offset);
  if (column.dictionary_page_offset) w->I64Field(11, *column.dictionary_page_offset);
  WriteStatistics(12, column.statistics, w);
  w->EndStruct();
  if (column.offset_index_offset) {
    w->I64Field(4, *column.offset_index_offset);
    w->I32Field(5, column.offset_index_length);
  }
  if (column.column_index_offset) {
    w->I64Field(6, *column.column_index_offset);
    w->I32Field(7, column.column_index_length);
  }
  w->EndStruct();
}

// RowGroup: 1 columns, 2 total_byte_size, 3 num_rows, 5 file_offset, 6 total_compressed_size,
// 7 ordinal.
void WriteRowGroup(const RowGroupMetaData& group, int16_t ordinal, Writer* w) {
  w->BeginStructElement();
  w->BeginListField(1, Writer::kStruct, group.columns.size());
  for (const ColumnMetaData& column : group.columns) WriteColumnChunk(column, w);
  w->I64Field(2, group.total_byte_size);
  w->I64Field(3, group.num_rows);
  w->I64Field(5, group.file_offset);
  w->I64Field(6, group.total_compressed_size);
  w->I32Field(7, ordinal);  // i16 in the IDL: same zigzag varint
  w->EndStruct();
}

}  // namespace

// FileMetaData: 1 version, 2 schema, 3 num_rows, 4 row_groups, 5 key_value_metadata,
// 6 created_by, 7 column_orders (TypeDefinedOrder for every column: min_value / max_value
// follow the logical type's order).
void SerializeFileMetaData(const FileMetaData& metadata, std::string* out) {
  Writer w(out);
  w.I32Field(1, 1);
  w.BeginListField(2, Writer::kStruct, metadata.schema.size());
  for (const SchemaElement& element : metadata.schema) WriteSchemaElement(element, &w);
  w.I64Field(3, metadata.num_rows);
  w.BeginListField(4, Writer::kStruct, metadata.row_groups.size());
  for (size_t i = 0; i < metadata.row_groups.size(); i++) {
    WriteRowGroup(metadata.row_groups[i], static_cast<int16_t>(i), &w);
  }
  if (!metadata.key_value_metadata.empty()) {
    w.BeginListField(5, Writer::kStruct, metadata.key_value_metadata.size());
    for (const auto& [key, value] : metadata.key_value_metadata) {
      w.BeginStructElement();
      w.BinaryField(1, key);
      w.BinaryField(2, value);
      w.EndStruct();
    }
  }
  w.BinaryField(6, metadata.created_by);
  const size_t leaf_columns = metadata.schema.empty() ? 0 : metadata.schema.size() - 1;
  w.BeginListField(7, Writer::kStruct, leaf_columns);
  for (size_t i = 0; i < leaf_columns; i++) {
    w.BeginStructElement();
    w.BeginStructField(1);
    w.EndStruct();
    w.EndStruct();
  }
  w.Finish();
}

// PageHeader: 1 type, 2 uncompressed_page_size, 3 compressed_page_size, 5 data_page_header
// {1 num_values, 2 encoding, 3 definition_level_encoding, 4 repetition_level_encoding,
// 5 statistics}, 7 dictionary_page_header {1 num_values, 2 encoding}.
void SerializePageHeader(const PageHeader& header, std::string* out) {
  Writer w(out);
  w.I32Field(1, static_cast<int32_t>(header.type));
  w.I32Field(2, header.uncompressed_page_size);
  w.I32Field(3, header.compressed_page_size);
  if (header.type == PageType::kDataPage) {
    w.BeginStructField(5);
    w.I32Field(1, header.num_values);
    w.I32Field(2, static_cast<int32_t>(header.encoding));
    w.I32Field(3, static_cast<int32_t>(Encoding::kRle));
    w.I32Field(4, static_cast<int32_t>(Encoding::kRle));
    WriteStatistics(5, header.statistics, &w);
    w.EndStruct();
  } else {
    w.BeginStructField(7);
    w.I32Field(1, header.num_values);
    w.I32Field(2, static_cast<int32_t>(Encoding::kPlain));
    w.EndStruct();
  }
  w.Finish();
}

void SerializeColumnIndex(const ColumnIndex& index, std::string* out) {
  Writer w(out);
  w.BeginListField(1, Writer::kBoolTrue, index.null_pages.size());
  for (bool null_page : index.null_pages) w.BoolElement(null_page);
  w.BeginListField(2, Writer::kBinary, index.min_values.size());
  for (const std::string& min : index.min_values) w.BinaryElement(min);
  w.BeginListField(3, Writer::kBinary, index.max_values.size());
  for (const std::string& max : index.max_values) w.BinaryElement(max);
  w.I32Field(4, static_cast<int32_t>(index.boundary_order));
  w.BeginListField(5, Writer::kI64, index.null_counts.size());
  for (int64_t count : index.null_counts) w.I64Element(count);
  w.Finish();
}

void SerializeOffsetIndex(const OffsetIndex& index, std::string* out) {
  Writer w(out);
  w.BeginListField(1, Writer::kStruct, index.page_locations.size());
  for (const PageLocation& page : index.page_locations) {
    w.BeginStructElement();
    w.I64Field(1, page.offset);
    w.I32Field(2, page.compressed_page_size);
    w.I64Field(3, page.first_row_index);
    w.EndStruct();
  }
  w.Finish();
}

}  // namespace parquet
}  // namespace columnar
