// ColumnStats: how many encoded bytes each column of a table file takes and which encodings
// were chosen, accumulated while writing. Stored in the file's properties
// ("columnar.column_stats") so tools and benchmarks can show per-column storage.
//
// Serialized form: entries separated by '\n'; each entry is
//   name '\t' bytes '\t' chunks '\t' values '\t' encoding=count[,encoding=count...]
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "table_format/encoding.h"

namespace columnar {

struct ColumnStat {
  uint64_t bytes = 0;  // encoded chunk bytes, before outer block compression
  uint64_t chunks = 0;
  uint64_t values = 0;
  std::map<std::string, uint64_t> encodings;  // encoding name -> chunks
};

class ColumnStats {
 public:
  void Record(const std::string& column, size_t bytes, Encoding encoding, size_t values);
  const std::map<std::string, ColumnStat>& columns() const { return columns_; }
  uint64_t total_bytes() const;

  std::string Serialize() const;
  static Status Parse(const std::string& text, ColumnStats* out);

 private:
  std::map<std::string, ColumnStat> columns_;
};

}  // namespace columnar
