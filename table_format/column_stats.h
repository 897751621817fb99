// ColumnStats: how many encoded bytes each column of a table file takes and which encodings
// were chosen, accumulated while writing. Stored in the file's properties
// ("columnar.column_stats") so tools and benchmarks can show per-column storage.
//
// Serialized form: entries separated by '\n'; each entry is
//   name '\t' bytes '\t' chunks '\t' values '\t' encoding=count[,encoding=count...]
//   ['\t' entropy_bits]
// entropy_bits (optional; absent in files written before it existed): the column's
// EntropyEstimator estimate (entropy_estimate.h), rounded to whole bits.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "table_format/column_vector.h"
#include "table_format/encoding.h"
#include "table_format/entropy_estimate.h"

namespace columnar {

struct ColumnStat {
  uint64_t bytes = 0;  // encoded chunk bytes, before outer block compression
  uint64_t chunks = 0;
  uint64_t values = 0;
  std::map<std::string, uint64_t> encodings;  // encoding name -> chunks
  double entropy_bits = -1;                   // < 0: not estimated
};

class ColumnStats {
 public:
  void Record(const std::string& column, size_t bytes, Encoding encoding, size_t values);
  // Feeds a chunk's values (nulls included) to the column's entropy estimate, when enabled.
  void Observe(const std::string& column, const ColumnVector& values);
  // Whether Observe estimates entropy (default false: table files are written without it;
  // plugin/column_entropy.h estimates a written file by reading it back). Without, entries
  // carry no entropy_bits.
  void set_estimate_entropy(bool estimate) { estimate_entropy_ = estimate; }
  // The estimate in bits of every column observed so far.
  std::map<std::string, double> EntropyEstimates() const;
  const std::map<std::string, ColumnStat>& columns() const { return columns_; }
  uint64_t total_bytes() const;

  std::string Serialize() const;
  static Status Parse(const std::string& text, ColumnStats* out);

 private:
  std::map<std::string, ColumnStat> columns_;
  std::map<std::string, std::shared_ptr<EntropyEstimator>> estimators_;
  bool estimate_entropy_ = false;
};

}  // namespace columnar
