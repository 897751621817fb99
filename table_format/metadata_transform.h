// Row metadata against the clustering time (the typed layout's write time and expiry slots,
// typed_layout.h): transform t of the first clustering column c, and the writer's choice of t.
//
//   t  f_t(c)                         t  f_t(c)
//   0  0 (the metadata as it is)      4  floor(c / 10^3)
//   1  c                              5  c x 86400
//   2  c x 10^3                       6  c x 86400 x 10^6
//   3  c x 10^6
//
// A group stores value - f_t(reference) per row. The writer picks the transform whose residuals
// span the smallest range (ties to the lower t); a transform is usable only if every row with
// a value has a reference and every residual fits int64. Nothing here is on disk but the
// residuals the slot number names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "table_format/column_vector.h"

namespace columnar {

inline constexpr int kMetadataTransformCount = 7;

// f_t(c) as a 128-bit integer (never overflows for 64-bit c); 0 for t outside 1..6.
__int128 MetadataTransformOf(int t, int64_t c);

inline bool FitsInt64(__int128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

// One optional int64 per row: a row's write time, expiry or reference time.
struct OptionalInt64s {
  std::vector<int64_t> values;  // 0 where absent
  std::vector<uint8_t> present;

  size_t size() const { return values.size(); }
  void Clear() {
    values.clear();
    present.clear();
  }
  void Reserve(size_t n) {
    values.reserve(n);
    present.reserve(n);
  }
  void Append(int64_t v) {
    values.push_back(v);
    present.push_back(1);
  }
  void AppendAbsent() {
    values.push_back(0);
    present.push_back(0);
  }
  // Sets the last row's value (it becomes present).
  void SetLast(int64_t v) {
    values.back() = v;
    present.back() = 1;
  }
  // As an int64 column, absent rows null.
  void ToColumn(ColumnVector* column) const;
};

// The transform whose residuals `values` - f_t(`references`) span the smallest range, as the
// typed layout's writer picks it. Mostly 64-bit arithmetic: a transform is checked per row in
// 128 bits only when the bounds of the values and references could overflow.
int ChooseMetadataTransform(const OptionalInt64s& values, const OptionalInt64s& references);
// The same answer from 128-bit arithmetic on every row and transform (the definition, kept for
// tests).
int ChooseMetadataTransformExact(const OptionalInt64s& values, const OptionalInt64s& references);

// values - f_t(references) per row (null where a value is absent) into *column, which is reset
// to int64. `transform` must be usable for these rows (every residual fits int64).
void MetadataResiduals(const OptionalInt64s& values, const OptionalInt64s& references,
                       int transform, ColumnVector* column);

}  // namespace columnar
