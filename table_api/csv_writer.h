// CsvWriter: rows of typed values as RFC 4180 CSV (Table::ExportCsv, the shell's COPY TO
// 'file.csv'): a header line of column names, then one line per row, fields separated by
// commas. Nulls are empty fields; text and ascii are always quoted ("" inside), so an empty
// string is "" and never a null; booleans true / false; integers in decimal; floats in the
// shortest form that reads back to the same value, with nan, inf, -inf; timestamps as
// 2024-05-01T12:00:00.000Z, dates as 2024-05-01 (outside years 1..9999: the integer); uuids
// in 8-4-4-4-12 form; blobs quoted as \x escapes of every byte ("\x00\xff", as DuckDB reads
// them); frozen collections and tuples quoted as their CQL literal ("{'a': 1}", as cqlsh's COPY
// TO writes them; COPY FROM reads them back).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "table_format/value.h"

namespace columnar {

class CsvWriter {
 public:
  // Creates or truncates `path` and writes the header (unless `header` is false). IOError when
  // it cannot.
  static Status Open(const std::string& path, const std::vector<std::string>& names,
                     std::unique_ptr<CsvWriter>* writer, bool header = true);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  Status AddRow(const std::vector<Value>& row);
  Status Close();
  uint64_t bytes_written() const { return bytes_; }

  // One field as written (exposed for tests).
  static void AppendField(const Value& value, std::string* out);

 private:
  CsvWriter(std::string path, std::FILE* file) : path_(std::move(path)), file_(file) {}
  Status Write(const std::string& text);

  const std::string path_;
  std::FILE* file_;
  uint64_t bytes_ = 0;
  std::string line_;
};

}  // namespace columnar
