// ZoneMap: statistics of one column over a run of rows (a row group's chunk, or a whole file
// once merged), used to decide without decoding whether a predicate can match there
// (prune.h).
//
//   row_count, null_count
//   min, max     CQL order (datum.h) over the non-null values; present when some value is.
//                Byte strings longer than ZoneMapOptions::max_bound_bytes are cut: the min to
//                its prefix (still a lower bound, marked inexact); the max to its prefix
//                rounded up (last non-0xFF byte incremented, the 0xFF bytes after it dropped:
//                an upper bound, marked inexact), or to no upper bound at all when the prefix
//                is all 0xFF.
//   value set    when the column has few distinct non-null values: exactly those values,
//                ascending (empty when every row is null).
//   sum          int32 / int64 columns, when asked for (ZoneMapOptions::integer_sum): the sum
//                of the non-null values as int64 (int32 sign-extended), wrapping modulo 2^64
//                as SUM does on the row path, so a row group's SUM / AVG can be answered
//                without decoding it. Floating-point sums are not kept: SUM over floats adds
//                values one at a time in scan order (aggregation.h), which a per-group sum
//                cannot reproduce bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "filter/datum.h"
#include "table_format/column_vector.h"
#include "table_format/types.h"

namespace columnar {

struct ZoneMapOptions {
  // Byte-string bounds longer than this are truncated.
  size_t max_bound_bytes = 16;
  // At most this many distinct values are kept as a value set...
  size_t max_value_set = 8;
  // ...and only when none of them is a byte string longer than this.
  size_t max_value_set_bytes = 32;
  // Keep the wrapping sum of an int32 / int64 column (ignored for other types).
  bool integer_sum = false;
};

struct ZoneMap {
  PhysicalType type = PhysicalType::kInt64;
  uint64_t row_count = 0;
  uint64_t null_count = 0;

  // Meaningful when non_null_count() > 0: min <= every value, and every value <= max when
  // has_max. An exact bound is itself one of the values.
  Datum min;
  Datum max;
  bool min_exact = true;
  bool has_max = true;
  bool max_exact = true;

  // When set, value_set holds exactly the distinct non-null values, ascending; min and max
  // are then its first and last entries, exact.
  bool has_value_set = false;
  std::vector<Datum> value_set;

  // The wrapping int64 sum of the non-null values (0 when all are null), when has_sum.
  bool has_sum = false;
  uint64_t sum = 0;

  uint64_t non_null_count() const { return row_count - null_count; }
};

ZoneMap BuildZoneMap(const ColumnVector& column, const ZoneMapOptions& options = ZoneMapOptions());

// Folds `other` (same type) into *into, as if both had been built over the rows of both. The
// merged value set is kept while it has at most `max_value_set` values; the sum while both
// have one.
void MergeZoneMap(const ZoneMap& other, size_t max_value_set, ZoneMap* into);

// The bound-cutting rules above, exposed for tests: *cut is `max`'s prefix of at most
// `max_bytes` bytes rounded up; false when no such upper bound exists (all 0xFF).
bool RoundUpTruncatedMax(const std::string& max, size_t max_bytes, std::string* cut);

}  // namespace columnar

namespace columnar {

// Same statistics (bounds compared only when some row is non-null).
bool operator==(const ZoneMap& a, const ZoneMap& b);
inline bool operator!=(const ZoneMap& a, const ZoneMap& b) { return !(a == b); }

}  // namespace columnar
