#include "filter/zone_map_usefulness.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace columnar {

namespace {

// Groups with fewer rows than this say little about a column's spread (a group of one row
// always has min == max); a sample made only of them keeps the column's maps.
constexpr uint64_t kMinRowsJudged = 16;

// Maps datums onto [0, 1] within [lo, hi] (lo < hi), preserving their order.
class UnitProjection {
 public:
  UnitProjection(const Datum& lo, const Datum& hi) : type_(lo.type) {
    if (type_ == PhysicalType::kBytes) {
      while (prefix_ < lo.bytes.size() && prefix_ < hi.bytes.size() &&
             lo.bytes[prefix_] == hi.bytes[prefix_]) {
        prefix_++;
      }
    }
    lo_ = Key(lo);
    hi_ = Key(hi);
  }
  double operator()(const Datum& d) const {
    if (hi_ <= lo_) return 0;
    const uint64_t key = std::clamp(Key(d), lo_, hi_);
    // Differences first: order keys near 2^63 (signed integers) would lose their low bits as
    // doubles.
    return static_cast<double>(key - lo_) / static_cast<double>(hi_ - lo_);
  }

 private:
  // The fixed-width order key, or the 8 bytes of a string after the shared prefix (as a
  // big-endian number; missing bytes are zero).
  uint64_t Key(const Datum& d) const {
    if (type_ != PhysicalType::kBytes) return FixedOrderKey(d.type, d.bits);
    uint64_t key = 0;
    for (size_t k = 0; k < 8; k++) {
      const size_t at = prefix_ + k;
      const uint8_t byte = at < d.bytes.size() ? static_cast<uint8_t>(d.bytes[at]) : 0;
      key = key << 8 | byte;
    }
    return key;
  }

  PhysicalType type_;
  size_t prefix_ = 0;
  uint64_t lo_ = 0;
  uint64_t hi_ = 0;
};

}  // namespace

bool ZoneMapsCanPrune(const std::vector<const ZoneMap*>& groups,
                      const ZoneMapUsefulnessOptions& options) {
  const ZoneMap* lo = nullptr;
  const ZoneMap* hi = nullptr;
  bool some_nulls = false;
  bool some_null_free = false;
  size_t judged = 0;
  for (const ZoneMap* group : groups) {
    if (group->has_value_set) return true;
    if (group->non_null_count() == 0) return true;  // prunes IS NOT NULL and every comparison
    some_nulls |= group->null_count > 0;
    some_null_free |= group->null_count == 0;
    if (group->row_count < kMinRowsJudged) continue;
    if (!group->has_max) return true;  // unusual bounds: keep rather than judge
    judged++;
    if (lo == nullptr || CompareDatums(group->min, lo->min) < 0) lo = group;
    if (hi == nullptr || CompareDatums(group->max, hi->max) > 0) hi = group;
  }
  if (some_nulls && some_null_free) return true;  // IS NULL can exclude the null-free groups
  if (judged == 0 || CompareDatums(lo->min, hi->max) == 0) return true;
  const UnitProjection project(lo->min, hi->max);
  double covered = 0;
  for (const ZoneMap* group : groups) {
    if (group->row_count < kMinRowsJudged) continue;
    covered += project(group->max) - project(group->min);
  }
  return covered / judged < options.max_mean_coverage;
}

}  // namespace columnar
