// EntropyEstimator: an estimate of the information in one column of a table file, fed chunk
// by chunk while the file is written, so that storage reports can show how far each column's
// encoded bytes are from what its values carry.
//
// The model is a two-part order-0 code over the whole file, on the stream that suits the
// type:
//   - integers and floats (by their order-preserving bits): the values, and the differences
//     between consecutive values of a chunk; the smaller estimate counts;
//   - byte strings: split as the template encoding splits them (encodings/template.h), the
//     template strings as symbols plus, per parameter position, the parameters as integers.
// A stream's estimate is sum over recurring symbols v of c_v log2(N / c_v), plus, for the s
// symbols seen once, s log2(N / s) for "new symbol" and their content: log2 of the stream's
// range for integers, 8 bits a byte for strings; an integer stream costs at most N log2 of its
// range (evenly spread values). Presence costs N h(null share).
// It ignores order beyond one step and correlation between columns, so a column can be stored
// below it (runs, sorted data) or above it; it is a yardstick, not a bound. At most
// kMaxTrackedSymbols distinct symbols are counted per stream; later new symbols count as seen
// once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "table_format/column_vector.h"

namespace columnar {

class EntropyEstimator {
 public:
  static constexpr size_t kMaxTrackedSymbols = size_t{1} << 14;

  EntropyEstimator();
  ~EntropyEstimator();
  EntropyEstimator(const EntropyEstimator&) = delete;
  EntropyEstimator& operator=(const EntropyEstimator&) = delete;

  // One chunk's values (nulls allowed).
  void Add(const ColumnVector& values);
  // The estimate in bits for everything added so far.
  double bits() const;

 private:
  class SymbolStream;
  struct IntegerStreams;
  IntegerStreams& Parameters(size_t position);

  uint64_t rows_ = 0;
  uint64_t nulls_ = 0;
  std::unique_ptr<IntegerStreams> fixed_;
  std::unique_ptr<SymbolStream> templates_;
  std::vector<std::unique_ptr<IntegerStreams>> parameters_;
  // Per-chunk buffers, kept to avoid allocating them for every chunk.
  std::vector<uint64_t> ordered_scratch_;
  std::string template_scratch_;
};

}  // namespace columnar
