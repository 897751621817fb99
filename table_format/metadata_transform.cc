#include "table_format/metadata_transform.h"

#include <algorithm>

namespace columnar {

namespace {

// f_t for the linear transforms (all but 0 and 4).
constexpr int64_t kMultiplier[kMetadataTransformCount] = {
    0, 1, 1000, 1000000, 0, 86400, int64_t{86400} * 1000000};

int64_t FloorThousandth(int64_t c) {
  const int64_t q = c / 1000;
  return c % 1000 < 0 ? q - 1 : q;
}

// Range of the residuals of transform t over all rows with a value, exactly: false when t is
// not usable (a row without reference for t != 0, or a residual outside int64).
bool ExactRange(int t, const OptionalInt64s& values, const OptionalInt64s& references,
                unsigned __int128* range) {
  __int128 lo = 0;
  __int128 hi = 0;
  bool any = false;
  for (size_t i = 0; i < values.size(); i++) {
    if (!values.present[i]) continue;
    if (t != 0 && !references.present[i]) return false;
    const __int128 residual =
        static_cast<__int128>(values.values[i]) -
        MetadataTransformOf(t, references.present[i] ? references.values[i] : 0);
    if (!FitsInt64(residual)) return false;
    lo = any ? std::min(lo, residual) : residual;
    hi = any ? std::max(hi, residual) : residual;
    any = true;
  }
  *range = static_cast<unsigned __int128>(hi - lo);
  return true;
}

// Range of the residuals v - f(c) over the rows with a value (each has a reference), when
// every residual is known to fit int64.
template <typename F>
uint64_t ResidualRange(const OptionalInt64s& values, const OptionalInt64s& references, F f) {
  int64_t lo = INT64_MAX;
  int64_t hi = INT64_MIN;
  for (size_t i = 0; i < values.size(); i++) {
    if (!values.present[i]) {
      continue;
    }
    const int64_t r = values.values[i] - f(references.values[i]);
    lo = std::min(lo, r);
    hi = std::max(hi, r);
  }
  return static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
}

// value_of(i) for the rows of `rows` with a value, null for the others, into *column (reset to
// int64). Rows all present (the usual case) are written in place: appending them one by one
// cost more than computing them.
template <typename F>
void ToInt64Column(const OptionalInt64s& rows, F value_of, ColumnVector* column) {
  column->Reset(PhysicalType::kInt64);
  const size_t n = rows.size();
  if (std::find(rows.present.begin(), rows.present.end(), 0) == rows.present.end()) {
    column->ResizeFixed(n);
    int64_t* out = column->mutable_data<int64_t>();
    for (size_t i = 0; i < n; i++) {
      out[i] = value_of(i);
    }
    return;
  }
  column->Reserve(n);
  for (size_t i = 0; i < n; i++) {
    if (rows.present[i]) {
      column->Append<int64_t>(value_of(i));
    } else {
      column->AppendNull();
    }
  }
}

}  // namespace

__int128 MetadataTransformOf(int t, int64_t c) {
  const __int128 wide = c;
  switch (t) {
    case 1:
      return wide;
    case 2:
      return wide * 1000;
    case 3:
      return wide * 1000000;
    case 4:
      return c >= 0 ? wide / 1000 : -((-wide + 999) / 1000);  // floor division
    case 5:
      return wide * 86400;
    case 6:
      return wide * 86400 * 1000000;
    default:
      return 0;
  }
}

void OptionalInt64s::ToColumn(ColumnVector* column) const {
  ToInt64Column(
      *this, [this](size_t i) { return values[i]; }, column);
}

int ChooseMetadataTransformExact(const OptionalInt64s& values, const OptionalInt64s& references) {
  int best = 0;
  unsigned __int128 best_range = ~static_cast<unsigned __int128>(0);
  for (int t = 0; t < kMetadataTransformCount; t++) {
    unsigned __int128 range;
    if (ExactRange(t, values, references, &range) && range < best_range) {
      best_range = range;
      best = t;
    }
  }
  return best;
}

int ChooseMetadataTransform(const OptionalInt64s& values, const OptionalInt64s& references) {
  // Bounds of the rows with a value and of their references, read in place (a group's rows are
  // few, so copying them densely first cost more than it saved); any row with a value but no
  // reference leaves transform 0 only.
  int64_t vmin = INT64_MAX, vmax = INT64_MIN, cmin = INT64_MAX, cmax = INT64_MIN;
  bool any = false;
  for (size_t i = 0; i < values.size(); i++) {
    if (!values.present[i]) continue;
    if (!references.present[i]) return 0;
    vmin = std::min(vmin, values.values[i]);
    vmax = std::max(vmax, values.values[i]);
    cmin = std::min(cmin, references.values[i]);
    cmax = std::max(cmax, references.values[i]);
    any = true;
  }
  if (!any) return 0;

  int best = 0;
  // Transform 0's residuals are the values: always usable.
  unsigned __int128 best_range = static_cast<uint64_t>(vmax) - static_cast<uint64_t>(vmin);
  for (int t = 1; t < kMetadataTransformCount; t++) {
    // f_t is non-decreasing: the residuals lie in [vmin - f(cmax), vmax - f(cmin)]. When those
    // bounds fit int64, so does every residual, and 64-bit arithmetic is exact.
    int64_t fmin, fmax, low, high;
    bool bounded;
    if (t == 4) {
      fmin = FloorThousandth(cmin);
      fmax = FloorThousandth(cmax);
      bounded = true;
    } else {
      bounded = !__builtin_mul_overflow(cmin, kMultiplier[t], &fmin) &&
                !__builtin_mul_overflow(cmax, kMultiplier[t], &fmax);
    }
    bounded = bounded && !__builtin_sub_overflow(vmin, fmax, &low) &&
              !__builtin_sub_overflow(vmax, fmin, &high);
    if (bounded) {
      // value = residual + f, so range(values) <= range(residuals) + range(f), and likewise
      // range(f) <= range(values) + range(residuals): the residuals span at least the
      // difference of the two ranges. A transform that cannot beat the best is not computed.
      const uint64_t f_range = static_cast<uint64_t>(fmax) - static_cast<uint64_t>(fmin);
      const uint64_t v_range = static_cast<uint64_t>(vmax) - static_cast<uint64_t>(vmin);
      const uint64_t at_least = f_range > v_range ? f_range - v_range : v_range - f_range;
      if (at_least >= best_range) continue;
    }
    unsigned __int128 range;
    if (!bounded) {
      if (!ExactRange(t, values, references, &range)) continue;
    } else if (t == 4) {
      range = ResidualRange(values, references, [](int64_t c) { return FloorThousandth(c); });
    } else {
      const int64_t a = kMultiplier[t];
      range = ResidualRange(values, references, [a](int64_t c) { return a * c; });
    }
    if (range < best_range) {
      best_range = range;
      best = t;
    }
  }
  return best;
}

void MetadataResiduals(const OptionalInt64s& values, const OptionalInt64s& references,
                       int transform, ColumnVector* column) {
  // The residual fits int64, so wrapping 64-bit arithmetic gives it exactly.
  const auto residual = [&](size_t i) {
    const int64_t reference = references.present[i] ? references.values[i] : 0;
    uint64_t f;
    if (transform == 0) {
      f = 0;
    } else if (transform == 4) {
      f = static_cast<uint64_t>(FloorThousandth(reference));
    } else {
      f = static_cast<uint64_t>(reference) * static_cast<uint64_t>(kMultiplier[transform]);
    }
    return static_cast<int64_t>(static_cast<uint64_t>(values.values[i]) - f);
  };
  ToInt64Column(values, residual, column);
}

}  // namespace columnar
