// Vectorised comparison of a fixed-width column against one constant, producing a bitmap.
//
// Every physical fixed-width type compares in CQL order (datum.h): int32 / int64 as signed
// integers, float32 / float64 in IEEE total order through the order-preserving integer image
// of their bits, so results equal CompareValues exactly (NaN payloads, -0.0 < +0.0,
// subnormals). Nulls are not considered here: callers mask with the presence bitmap.
//
// Kernels exist for SSE2 (the x86-64 baseline), AVX2 and AVX-512 (each in its own translation
// unit compiled for that instruction set) and are picked at run time with xsimd::dispatch;
// the scalar loop is the reference and handles the rows after the last full 64-row word.
#pragma once

#include <cstddef>
#include <cstdint>

#include "filter/compare_op.h"
#include "table_format/types.h"

namespace columnar {

enum class SimdLevel : uint8_t { kScalar, kSse2, kAvx2, kAvx512, kBest };

inline constexpr SimdLevel kExplicitSimdLevels[] = {SimdLevel::kScalar, SimdLevel::kSse2,
                                                    SimdLevel::kAvx2, SimdLevel::kAvx512};

const char* SimdLevelName(SimdLevel level);
// Whether this CPU runs `level` (kScalar and kBest always).
bool SimdLevelAvailable(SimdLevel level);

// Sets out[0 .. WordsForRows(n)) so that bit i is `values[i] OP constant`, for a fixed-width
// `type` whose n values start at `values` (any alignment) and whose constant has the bit
// pattern `constant_bits` (zero-extended). Bits at or beyond n are zero. `level` must be
// available.
void CompareFixedValues(PhysicalType type, const void* values, size_t n, CompareOp op,
                        uint64_t constant_bits, uint64_t* out, SimdLevel level = SimdLevel::kBest);

}  // namespace columnar
