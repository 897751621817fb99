// Runs of equal values, shared by the two run-length encodings (rle.cc, rle_nested.cc): they
// differ only in how the run values are stored. Values are compared by bit pattern, so -0.0
// and +0.0, or NaNs with different payloads, start different runs.
//
// Byte layout of the run lengths both encodings write first (n values, n from the chunk
// header):
//
//   runs         varint    R, the number of runs (0 only when n = 0)
//   run lengths  PackedInts<uint32> (int_packing.h) of R values: each run's length minus 1
//
// The run lengths must add up to n.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/types.h"

namespace columnar {

struct Runs {
  explicit Runs(PhysicalType type) : values(type) {}
  ColumnVector values;                      // one value a run
  std::vector<uint32_t> lengths_minus_one;  // parallel to `values`
};

// Splits dense values into maximal runs of equal values.
Runs SplitIntoRuns(const ColumnVector& values);

// Appends the run count and the packed run lengths (the layout above).
void PutRunLengths(const std::vector<uint32_t>& lengths_minus_one, std::string* out);

// Reads what PutRunLengths wrote, checking that the lengths add up to `count`, and advances
// *in past it. *lengths receives each run's length (not minus one). `encoding` names the
// caller in errors.
Status GetRunLengths(Slice* in, size_t count, const char* encoding, std::vector<uint32_t>* lengths);

// Appends run r's value lengths[r] times to *out for every run, `count` values in all.
Status ExpandRuns(const ColumnVector& run_values, const std::vector<uint32_t>& lengths,
                  size_t count, const char* encoding, ColumnVector* out);

}  // namespace columnar
