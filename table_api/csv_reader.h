// CsvReader: RFC 4180 records from a file (Table::ImportCsv, the shell's COPY ... FROM), the
// inverse of csv_writer.h: fields separated by commas, records by LF or CRLF; a field in double
// quotes may hold commas, line breaks and "" for a quote. Read in 1 MiB pieces, so files of any
// size stream through.
//
// ParseField turns one field into a value of a column type, reading what CsvWriter writes and
// what cqlsh's COPY TO writes: an empty unquoted field is null; text and ascii are the field as
// it stands (quoted or not); booleans true / false (any case); integers in decimal; floats in
// any form std::from_chars reads plus nan, inf, -inf, NaN, Infinity, -Infinity; timestamps as
// integer milliseconds or 2024-05-01T12:00:00.000Z (the forms Value::FromCqlLiteral takes:
// space or T, optional seconds and fraction, Z or an offset); dates as integer days or
// 2024-05-01; uuids in 8-4-4-4-12 form; blobs as \x escapes of every byte or 0x hex.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "table_format/value.h"

namespace columnar {

struct CsvField {
  std::string text;
  bool quoted = false;
};

class CsvReader {
 public:
  // IOError when `path` cannot be opened.
  static Status Open(const std::string& path, std::unique_ptr<CsvReader>* reader);
  ~CsvReader();
  CsvReader(const CsvReader&) = delete;
  CsvReader& operator=(const CsvReader&) = delete;

  // The next record into *fields; *done when the file has no more. InvalidArgument naming the
  // line for a quote left open or text after a closing quote; IOError for a failed read.
  Status Next(std::vector<CsvField>* fields, bool* done);
  // The line the last record returned by Next starts on (1-based).
  uint64_t record_line() const { return record_line_; }

  static Status ParseField(LogicalType type, const CsvField& field, Value* value);

 private:
  CsvReader(std::string path, std::FILE* file) : path_(std::move(path)), file_(file) {}
  // The next character into *c; false at the end of the file (or on a read error: status_).
  bool Get(char* c);
  bool Peek(char* c);

  const std::string path_;
  std::FILE* file_;
  std::vector<char> buffer_;
  size_t position_ = 0;
  Status status_;
  uint64_t line_ = 1;
  uint64_t record_line_ = 0;
};

}  // namespace columnar
