// The rice_delta layout's size model (the layout itself is described in rice_delta.cc), shared
// by its encoder, which starts its search for the Rice parameter from it, and by the auto
// chooser, which estimates rice_delta's size from it without encoding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "table_format/column_vector.h"
#include "table_format/types.h"

namespace columnar {

// Differences per block; each block has its own Rice parameter and center.
inline constexpr size_t kRiceBlockValues = 128;

// The Rice parameter k minimising the expected code length of values averaging `mean` under a
// geometric model (2^k close to ln 2 x mean), clamped to [0, max_k].
int RiceParameterForMean(double mean, int max_k);

// Estimated bits of the Rice codes (quotients and low bits) of `count` values that sum to
// `sum`, with the parameter RiceParameterForMean picks.
double RiceBitsEstimate(double sum, size_t count, int max_k);

// Estimated rice_delta bytes for the n wrapping differences `deltas` (the first value, stored
// before them, not included): per block, the cheaper of centering on 0 and on the block's
// mean, from the sums of the zigzagged differences under the geometric model (plain Rice
// codes; flat quotients save a few hundredths of a bit more on Gaussian differences).
template <typename U>
double EstimateRiceDeltaBytes(const U* deltas, size_t n);

// The anchored form (rice_delta.cc) of `values` (no nulls, fixed-width), appended to *out:
// false (nothing appended) when no value has the bit pattern `anchor` (zero-extended).
bool EncodeRiceDeltaAnchored(const ColumnVector& values, uint64_t anchor, std::string* out);
// The same from the rice_delta `body` of `values`, already made: its differences are kept.
bool RiceDeltaToAnchored(const ColumnVector& values, const Slice& body, uint64_t anchor,
                         std::string* out);

// Decodes an anchored body of `count` values of `type`, appending them to *out; `anchor` is the
// bit pattern (zero-extended) of the value at the stored position.
Status DecodeRiceDeltaAnchored(PhysicalType type, const Slice& body, size_t count, uint64_t anchor,
                               ColumnVector* out);

}  // namespace columnar
