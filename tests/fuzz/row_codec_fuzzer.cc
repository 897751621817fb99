// The row codec (table_format/row_codec.h) on arbitrary values of the fuzz schema (three
// versions, every type). The codec is canonical: a value it decodes must re-encode to the
// same bytes, through both the Row and the cell interfaces, and its metadata must agree; a row
// split into columns with its cell exceptions is a row DecodeVersions accepts and joins back to
// the same bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "table_format/row_codec.h"
#include "tests/fuzz/fuzz_schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace columnar;
  static const RowCodec codec(fuzz::FuzzSchema());
  const Slice value(reinterpret_cast<const char*>(data), size);

  RowMetadata header;
  const bool header_ok = codec.DecodeMetadata(value, &header).ok();

  RowMetadata meta;
  Row row;
  if (codec.DecodeRow(value, &meta, &row).ok()) {
    FUZZ_CHECK(header_ok);
    FUZZ_CHECK(meta == header);
    FUZZ_CHECK(row.size() == codec.schema().next_column_id());
    // A row of an older version reads dropped columns as null, so only rows of the current
    // version hold everything they were written with.
    if (meta.schema_version == codec.schema().version()) {
      std::string encoded;
      FUZZ_CHECK(codec.EncodeRow(meta, row, &encoded).ok());
      FUZZ_CHECK(Slice(encoded) == value);
    }
  }

  RowMetadata cell_meta;
  std::vector<RowCell> cells;
  if (codec.DecodeCells(value, &cell_meta, &cells).ok()) {
    FUZZ_CHECK(header_ok);
    FUZZ_CHECK(cell_meta == header);
    const std::vector<uint32_t>* columns = codec.ColumnsAt(cell_meta.schema_version);
    FUZZ_CHECK(columns != nullptr && columns->size() == cells.size());
    std::string encoded;
    FUZZ_CHECK(codec.EncodeCells(cell_meta, cells, &encoded).ok());
    FUZZ_CHECK(Slice(encoded) == value);
  }

  std::vector<ColumnVector> split(codec.schema().next_column_id());
  for (const ColumnDef& column : codec.schema().columns()) {
    if (!column.is_key()) split[column.id].Reset(PhysicalTypeOfLogical(column.type));
  }
  RowMetadata split_meta;
  std::string cell_exceptions;
  if (codec.DecodeIntoColumns(value, &split_meta, split.data(), &cell_exceptions).ok()) {
    RowVersions versions;
    FUZZ_CHECK(codec.DecodeVersions(value, &versions).ok());
    FUZZ_CHECK(cell_exceptions.empty() == !RowCodec::HasCellMetadata(value));
    const std::vector<uint32_t>& ids = *codec.ColumnsAt(split_meta.schema_version);
    std::vector<ColumnCellSource> sources(ids.size());
    for (size_t i = 0; i < ids.size(); i++) {
      sources[i].column = &split[ids[i]];
      sources[i].type = codec.schema().columns()[ids[i]].type;
      sources[i].check = true;
    }
    std::string joined(2 * value.size() + kMaxRowHeaderBytes, '\0');
    const char* end = codec.WriteColumnRow(split_meta, sources.data(), sources.size(), 0,
                                           &joined[0], cell_exceptions);
    FUZZ_CHECK(end != nullptr);
    FUZZ_CHECK(Slice(joined.data(), static_cast<size_t>(end - joined.data())) == value);
  }
  return 0;
}
