// The auto chooser behind EncodeWithBestEncoding (encoding.cc).
#pragma once

#include <string>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/encoding.h"

namespace columnar {

// Encodes `values` (no nulls) with the candidate expected to give the smallest body and
// appends it to *out; *chosen receives the encoding used and, when given, *runner_up the
// best-ranked other candidate (by estimate; the winner itself when there is none). Float
// values get only their candidates' estimates, so a short candidate list is cheap.
Status ChooseAndEncode(const std::vector<Encoding>& candidates, const ColumnVector& values,
                       std::string* out, Encoding* chosen, Encoding* runner_up = nullptr);

// For a float column's reused chunks (encoding_memo.h): encodes `values` with `remembered`
// (the last winner) without estimating it, then estimates `rival` (the runner-up) alone and
// keeps its body instead only when it comes out smaller (a tenth smaller for gorilla), as
// ChooseAndEncode({remembered, rival}) would. Gorilla, alp and alp_rd as `remembered`, values
// `remembered` refuses, and non-float values go through that ChooseAndEncode.
Status EncodeUnlessRivalWins(Encoding remembered, Encoding rival, const ColumnVector& values,
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
