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

}  // namespace columnar
