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
  column->Reset(PhysicalType::kInt64);
  column->Reserve(values.size());
  for (size_t i = 0; i < values.size(); i++) {
    if (present[i]) {
      column->Append<int64_t>(values[i]);
    } else {
      column->AppendNull();
    }
  }
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
  // The rows with a value, densely; any of them without a reference leaves transform 0 only.
  const size_t n = values.size();
  std::vector<int64_t> v;
  std::vector<int64_t> c;
  v.reserve(n);
  c.reserve(n);
  for (size_t i = 0; i < n; i++) {
    if (!values.present[i]) continue;
    if (!references.present[i]) return 0;
    v.push_back(values.values[i]);
    c.push_back(references.values[i]);
  }
  if (v.empty()) return 0;
  const auto [vmin_it, vmax_it] = std::minmax_element(v.begin(), v.end());
  const auto [cmin_it, cmax_it] = std::minmax_element(c.begin(), c.end());
  const int64_t vmin = *vmin_it, vmax = *vmax_it, cmin = *cmin_it, cmax = *cmax_it;
  const size_t m = v.size();

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
    } else {
      int64_t lo = INT64_MAX;
      int64_t hi = INT64_MIN;
      if (t == 4) {
        for (size_t i = 0; i < m; i++) {
          const int64_t r = v[i] - FloorThousandth(c[i]);
          lo = std::min(lo, r);
          hi = std::max(hi, r);
        }
      } else {
        const int64_t a = kMultiplier[t];
        for (size_t i = 0; i < m; i++) {
          const int64_t r = v[i] - a * c[i];
          lo = std::min(lo, r);
          hi = std::max(hi, r);
        }
      }
      range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
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
  column->Reset(PhysicalType::kInt64);
  column->Reserve(values.size());
  for (size_t i = 0; i < values.size(); i++) {
    if (!values.present[i]) {
      column->AppendNull();
      continue;
    }
    // The residual fits int64, so wrapping 64-bit arithmetic gives it exactly.
    const int64_t reference = references.present[i] ? references.values[i] : 0;
    uint64_t f;
    if (transform == 0) {
      f = 0;
    } else if (transform == 4) {
      f = static_cast<uint64_t>(FloorThousandth(reference));
    } else {
      f = static_cast<uint64_t>(reference) * static_cast<uint64_t>(kMultiplier[transform]);
    }
    column->Append<int64_t>(static_cast<int64_t>(static_cast<uint64_t>(values.values[i]) - f));
  }
}

}  // namespace columnar
