// front_coding's lengths (the byte layout is in front_coding.cc), shared by its decoder and by
// StringColumnView (string_column_view.h), which searches the strings where they lie.
#pragma once

#include <cstddef>
#include <cstdint>

#include "table_format/types.h"

namespace columnar {

// Unpacks the `count` shared-prefix lengths and suffix lengths from the front of *body into
// prefixes[] and suffix_ends[] (suffix_ends[i]: where suffix i ends in the concatenated
// suffixes, the sum of suffix lengths 0..i) and checks them: each prefix at most the previous
// string's length (the first 0), the suffixes exactly filling the rest of *body, and all
// strings together at most kMaxDecodedBytes. On success *body holds the concatenated suffixes
// and *total_bytes the strings' total length.
Status UnpackFrontCodingLengths(Slice* body, size_t count, uint32_t* prefixes,
                                uint32_t* suffix_ends, uint64_t* total_bytes);

}  // namespace columnar
