// The auto chooser behind EncodeWithBestEncoding (encoding.cc).
#pragma once

#include <string>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/encoding.h"

namespace columnar {

// Encodes `values` (no nulls) with the candidate expected to give the smallest body and
// appends it to *out; *chosen receives the encoding used.
Status ChooseAndEncode(const std::vector<Encoding>& candidates, const ColumnVector& values,
                       std::string* out, Encoding* chosen);

// How much smaller than estimated a body of `encoding` may come out, as a fraction of the
// estimate: 0 for the estimates that are exact.
double EstimateMargin(Encoding encoding, PhysicalType type);

struct SizeEstimate {
  Encoding encoding;
  double bytes;
  double margin;  // EstimateMargin
};

// The chooser's size estimates for `values` (no nulls), one per encoding it considers.
std::vector<SizeEstimate> EstimateSizes(const ColumnVector& values);

}  // namespace columnar
