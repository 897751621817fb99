// The row codec (table_format/row_codec.h) on arbitrary values of the fuzz schema (three
// versions, every type). The codec is canonical: a value it decodes must re-encode to the
// same bytes, through both the Row and the cell interfaces, and its metadata must agree.
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
  return 0;
}
