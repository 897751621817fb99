#include "filter/zone_map.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>

#include "table_format/encodings/byte_strings.h"

namespace columnar {

namespace {

// The distinct values of a column while there are at most `limit` (ZoneMapOptions::
// max_value_set, a handful), in the order first seen until SortedValues() sorts them by `Less`.
// A value is looked up by equality alone (`Same`): among so few, a scan of equality checks
// (most values differ in length or in their first word) costs less than an ordered search's
// three-way comparisons, and the set is sorted once, at the end.
template <typename T, typename Same, typename Less>
class DistinctValues {
 public:
  DistinctValues(size_t limit, Same same, Less less)
      : limit_(limit), tracking_(limit > 0), same_(same), less_(less) {}

  // True when v is among the values already (while tracking).
  bool Add(const T& v) {
    if (!tracking_) return false;
    for (const T& seen : values_) {
      if (same_(seen, v)) return true;
    }
    if (values_.size() == limit_) {
      Abandon();
      return false;
    }
    if (values_.empty()) values_.reserve(std::min<size_t>(limit_, 64));
    values_.push_back(v);
    return false;
  }
  void Abandon() {
    tracking_ = false;
    values_.clear();
  }
  bool tracking() const { return tracking_; }
  // The values, ascending by `Less` (once tracking is over).
  const std::vector<T>& SortedValues() {
    std::sort(values_.begin(), values_.end(), less_);
    return values_;
  }

 private:
  size_t limit_;
  bool tracking_;
  Same same_;
  Less less_;
  std::vector<T> values_;
};

// (order key, bits) of a fixed-width value.
using KeyedBits = std::pair<uint64_t, uint64_t>;

// A fixed-width column of type kType (known at compile time, so that its order key is a
// single operation per value), its values read as unsigned integers of their width (their
// bits, zero-extended).
template <PhysicalType kType>
void ScanFixedOf(const ColumnVector& column, const ZoneMapOptions& options, ZoneMap* zm) {
  using U = std::conditional_t<FixedWidth(kType) == 8, uint64_t, uint32_t>;
  const U* values = reinterpret_cast<const U*>(column.fixed_bytes());
  const auto same_key = [](const KeyedBits& a, const KeyedBits& b) { return a.first == b.first; };
  const auto by_key = [](const KeyedBits& a, const KeyedBits& b) { return a.first < b.first; };
  DistinctValues<KeyedBits, decltype(same_key), decltype(by_key)> distinct(options.max_value_set,
                                                                           same_key, by_key);
  KeyedBits min{UINT64_MAX, 0};
  KeyedBits max{0, 0};
  bool any = false;
  uint64_t previous_bits = 0;
  const size_t n = column.size();
  size_t row = 0;
  // While the value set is kept: every value that differs from the previous one.
  for (; row < n && distinct.tracking(); row++) {
    if (column.IsNull(row)) continue;
    const uint64_t bits = values[row];
    // A value equal to the previous one changes nothing (runs are common: tags, constants).
    if (any && bits == previous_bits) continue;
    previous_bits = bits;
    const KeyedBits v{FixedOrderKey(kType, bits), bits};
    if (!any || v.first < min.first) min = v;
    if (!any || v.first > max.first) max = v;
    any = true;
    distinct.Add(v);
  }
  if (row < n) {
    // Without a value set (many distinct values: measurements, times), only the smallest and
    // largest order keys, without branches; the bits are the keys' (BitsOfFixedOrderKey).
    uint64_t low = any ? min.first : UINT64_MAX;
    uint64_t high = any ? max.first : 0;
    if (!column.has_nulls()) {
      for (; row < n; row++) {
        const uint64_t key = FixedOrderKey(kType, values[row]);
        low = std::min(low, key);
        high = std::max(high, key);
      }
    } else {
      for (; row < n; row++) {
        if (column.IsNull(row)) continue;
        const uint64_t key = FixedOrderKey(kType, values[row]);
        low = std::min(low, key);
        high = std::max(high, key);
      }
    }
    min = {low, BitsOfFixedOrderKey(kType, low)};
    max = {high, BitsOfFixedOrderKey(kType, high)};
  }
  zm->min = Datum::Fixed(kType, min.second);
  zm->max = Datum::Fixed(kType, max.second);
  zm->has_value_set = distinct.tracking();
  for (const KeyedBits& v : distinct.SortedValues())
    zm->value_set.push_back(Datum::Fixed(kType, v.second));
}

void ScanFixed(const ColumnVector& column, const ZoneMapOptions& options, ZoneMap* zm) {
  switch (column.type()) {
    case PhysicalType::kInt32:
      return ScanFixedOf<PhysicalType::kInt32>(column, options, zm);
    case PhysicalType::kInt64:
      return ScanFixedOf<PhysicalType::kInt64>(column, options, zm);
    case PhysicalType::kFloat32:
      return ScanFixedOf<PhysicalType::kFloat32>(column, options, zm);
    case PhysicalType::kFloat64:
      return ScanFixedOf<PhysicalType::kFloat64>(column, options, zm);
    case PhysicalType::kBytes:
      break;
  }
}

void SetTruncatedBounds(const Slice& min, const Slice& max, size_t max_bytes, ZoneMap* zm) {
  zm->min_exact = min.size() <= max_bytes;
  zm->min = Datum::Bytes(std::string(min.data(), zm->min_exact ? min.size() : max_bytes));
  zm->max_exact = max.size() <= max_bytes;
  std::string cut;
  zm->has_max = RoundUpTruncatedMax(max.ToString(), max_bytes, &cut);
  zm->max = Datum::Bytes(zm->has_max ? cut : std::string());
}

// Whether every row of a byte-string column holds the first row's value, without nulls (a tag
// constant over a row group): every length the first one's (the offsets step by it) and the
// bytes periodic with that period, checked at once rather than value by value.
bool AllSameBytes(const ColumnVector& column) {
  const size_t n = column.size();
  if (n == 0 || column.has_nulls()) return false;
  const uint32_t* offsets = column.offsets();
  const uint64_t length = offsets[1] - offsets[0];
  if (offsets[0] != 0) return false;
  uint64_t expected = 0;
  for (size_t row = 1; row <= n; row++) {
    expected += length;
    if (offsets[row] != expected) return false;
  }
  const char* data = column.bytes_data().data();
  return length == 0 || n == 1 || std::memcmp(data + length, data, (n - 1) * length) == 0;
}

void ScanBytes(const ColumnVector& column, const ZoneMapOptions& options, ZoneMap* zm) {
  const auto same = [](const Slice& a, const Slice& b) { return SameBytes(a, b); };
  const auto less = [](const Slice& a, const Slice& b) { return CompareBytes(a, b) < 0; };
  DistinctValues<Slice, decltype(same), decltype(less)> distinct(options.max_value_set, same, less);
  Slice min;
  Slice max;
  bool any = false;
  Slice previous;
  // One value in every row: the loops below would take it from row 0 and skip every other row.
  const size_t rows = AllSameBytes(column) ? 1 : column.size();
  size_t row = 0;
  // While the value set is kept: every value that differs from the previous one.
  for (; row < rows && distinct.tracking(); row++) {
    if (column.IsNull(row)) continue;
    const Slice v = column.GetBytes(row);
    // A value equal to the previous one changes nothing (runs are common: tags, constants).
    if (any && SameBytes(v, previous)) continue;
    previous = v;
    if (v.size() > options.max_value_set_bytes) distinct.Abandon();
    // A value already in the set is within the bounds: they were updated when it was first seen
    // (a few user agents or paths repeating in a chunk were compared in full with both bounds).
    if (distinct.Add(v)) continue;
    if (!any || CompareBytes(v, min) < 0) min = v;
    if (!any || CompareBytes(v, max) > 0) max = v;
    any = true;
  }
  // Without a value set (many distinct values: ids, paths), only the bounds; a value below the
  // min is not above the max.
  for (; row < rows; row++) {
    if (column.IsNull(row)) continue;
    const Slice v = column.GetBytes(row);
    if (!any) {
      min = max = previous = v;
      any = true;
      continue;
    }
    if (SameBytes(v, previous)) continue;
    previous = v;
    if (CompareBytes(v, min) < 0) {
      min = v;
    } else if (CompareBytes(v, max) > 0) {
      max = v;
    }
  }
  zm->has_value_set = distinct.tracking();
  for (const Slice& v : distinct.SortedValues())
    zm->value_set.push_back(Datum::Bytes(v.ToString()));
  if (zm->has_value_set) {
    // A value set holds whole values: bounds taken from it stay exact.
    SetTruncatedBounds(min, max, SIZE_MAX, zm);
  } else {
    SetTruncatedBounds(min, max, options.max_bound_bytes, zm);
  }
}

// The smaller lower bound; equal bounds are exact when either is.
void MergeMin(const ZoneMap& other, ZoneMap* into) {
  const int order = CompareDatums(other.min, into->min);
  if (order < 0) {
    into->min = other.min;
    into->min_exact = other.min_exact;
  } else if (order == 0) {
    into->min_exact = into->min_exact || other.min_exact;
  }
}

void MergeMax(const ZoneMap& other, ZoneMap* into) {
  if (!into->has_max || !other.has_max) {
    into->has_max = false;
    into->max_exact = false;
    into->max = Datum::Bytes(std::string());
    return;
  }
  const int order = CompareDatums(other.max, into->max);
  if (order > 0) {
    into->max = other.max;
    into->max_exact = other.max_exact;
  } else if (order == 0) {
    into->max_exact = into->max_exact || other.max_exact;
  }
}

void MergeValueSets(const ZoneMap& other, size_t max_value_set, ZoneMap* into) {
  if (!into->has_value_set || !other.has_value_set) {
    into->has_value_set = false;
    into->value_set.clear();
    return;
  }
  // A file's statistics fold in every group's zone maps: a column's later groups mostly bring
  // values its set holds already (tags, codes), which then costs no copy of the set.
  if (std::includes(into->value_set.begin(), into->value_set.end(), other.value_set.begin(),
                    other.value_set.end())) {
    return;
  }
  std::vector<Datum> merged;
  std::set_union(into->value_set.begin(), into->value_set.end(), other.value_set.begin(),
                 other.value_set.end(), std::back_inserter(merged));
  into->has_value_set = merged.size() <= max_value_set;
  into->value_set = into->has_value_set ? std::move(merged) : std::vector<Datum>();
}

// The wrapping int64 sum of an int32 / int64 column's non-null values (other types: none).
void AddIntegerSum(const ColumnVector& column, ZoneMap* zm) {
  uint64_t sum = 0;
  switch (column.type()) {
    case PhysicalType::kInt32:
      for (size_t row = 0; row < column.size(); row++) {
        if (!column.IsNull(row)) {
          sum += static_cast<uint64_t>(static_cast<int64_t>(column.Get<int32_t>(row)));
        }
      }
      break;
    case PhysicalType::kInt64:
      for (size_t row = 0; row < column.size(); row++) {
        if (!column.IsNull(row)) sum += static_cast<uint64_t>(column.Get<int64_t>(row));
      }
      break;
    default:
      return;
  }
  zm->has_sum = true;
  zm->sum = sum;
}

}  // namespace

bool RoundUpTruncatedMax(const std::string& max, size_t max_bytes, std::string* cut) {
  if (max.size() <= max_bytes) {
    *cut = max;
    return true;
  }
  // Every string starting with the prefix is below the prefix with its last non-0xFF byte
  // incremented (and the 0xFF bytes after it dropped).
  std::string prefix = max.substr(0, max_bytes);
  while (!prefix.empty() && static_cast<uint8_t>(prefix.back()) == 0xff) prefix.pop_back();
  if (prefix.empty()) return false;
  prefix.back() = static_cast<char>(static_cast<uint8_t>(prefix.back()) + 1);
  *cut = std::move(prefix);
  return true;
}

ZoneMap BuildZoneMap(const ColumnVector& column, const ZoneMapOptions& options) {
  ZoneMap zm;
  zm.type = column.type();
  zm.row_count = column.size();
  zm.null_count = column.null_count();
  if (options.integer_sum) AddIntegerSum(column, &zm);
  if (zm.non_null_count() == 0) {
    zm.has_value_set = true;
    return zm;
  }
  if (column.type() == PhysicalType::kBytes) {
    ScanBytes(column, options, &zm);
  } else {
    ScanFixed(column, options, &zm);
  }
  return zm;
}

void MergeZoneMap(const ZoneMap& other, size_t max_value_set, ZoneMap* into) {
  if (other.non_null_count() > 0 && into->non_null_count() == 0) {
    into->min = other.min;
    into->max = other.max;
    into->min_exact = other.min_exact;
    into->has_max = other.has_max;
    into->max_exact = other.max_exact;
  } else if (other.non_null_count() > 0) {
    MergeMin(other, into);
    MergeMax(other, into);
  }
  MergeValueSets(other, max_value_set, into);
  into->has_sum = into->has_sum && other.has_sum;
  into->sum = into->has_sum ? into->sum + other.sum : 0;
  into->row_count += other.row_count;
  into->null_count += other.null_count;
}

}  // namespace columnar

namespace columnar {

bool operator==(const ZoneMap& a, const ZoneMap& b) {
  if (a.type != b.type || a.row_count != b.row_count || a.null_count != b.null_count ||
      a.has_value_set != b.has_value_set || a.value_set != b.value_set || a.has_sum != b.has_sum ||
      a.sum != b.sum) {
    return false;
  }
  if (a.non_null_count() == 0) return true;
  if (a.min != b.min || a.min_exact != b.min_exact || a.has_max != b.has_max) return false;
  return !a.has_max || (a.max == b.max && a.max_exact == b.max_exact);
}

}  // namespace columnar
