// The second half of dictionary-aware evaluation: a predicate has been evaluated once per
// dictionary entry (entry_selection, bit k = entry k matches); every row then takes the bit of
// its code, and null rows take `null_result` (what the predicate gives for a null cell: false
// for comparisons, true for IS NULL, either for a combination).
//
// The dictionary is sorted, so a comparison or a range selects a contiguous run of codes (and
// != the complement of one): those become one or two SIMD comparisons of the codes
// (compare_kernels.h) instead of a lookup per row.
#pragma once

#include <cstddef>
#include <cstdint>

#include "filter/compare_kernels.h"
#include "filter/selection_bitmap.h"
#include "table_format/types.h"

namespace columnar {

// `codes` holds one code per present row (code_count of them); `presence` is the chunk's
// presence bitmap (ceil(rows / 8) bytes, LSB-first) or empty when no row is null. Corruption
// when a code is out of range or the code count disagrees with the bitmap.
Status GatherDictionarySelection(const SelectionBitmap& entry_selection, bool null_result,
                                 const uint32_t* codes, size_t code_count, const Slice& presence,
                                 size_t rows, SimdLevel level, SelectionBitmap* out);

}  // namespace columnar
