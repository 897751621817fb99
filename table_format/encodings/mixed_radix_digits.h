// What mixed_radix and mixed_radix_tight (mixed_radix.h, mixed_radix_tight.cc) share: their
// header (reference, span) and the arithmetic of a group of digits (values minus the
// reference, radix R = span + 1, least significant first).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/encodings/mixed_radix.h"
#include "table_format/varint.h"

namespace columnar {

// The number of the m values values[0..m) in radix R: (v_0 - ref) + (v_1 - ref) R + ...
// (m <= MixedRadixGroup(R), so it fits 64 bits; R = 0 stands for 2^64 with m = 1).
template <typename U>
uint64_t MixedRadixNumber(const U* values, int m, U reference, uint64_t radix) {
  unsigned __int128 number = 0;
  for (int j = m - 1; j >= 0; j--) {
    number = number * radix + static_cast<U>(values[j] - reference);
  }
  return static_cast<uint64_t>(number);
}

// Splits `number` into `m` digits of `radix` (R >= 2); false when it holds more.
inline bool MixedRadixDigits(uint64_t number, uint64_t radix, int m, uint64_t* digits) {
  for (int j = 0; j < m; j++) {
    digits[j] = number % radix;
    number /= radix;
  }
  return number == 0;
}

// Writes the header of n values: the bounds `bounds_size` (the encoding's exact body size)
// lets MixedRadixBounds round to; *reference and *span are what it wrote.
template <typename T>
void WriteMixedRadixHeader(const ColumnVector& values,
                           size_t (*bounds_size)(int64_t, uint64_t, size_t), std::string* out,
                           UnsignedOf<T>* reference, uint64_t* span) {
  using U = UnsignedOf<T>;
  using S = std::make_signed_t<U>;
  const size_t n = values.size();
  const U* bits = BitsOf<T>(values);
  S lo = 0;
  S hi = 0;
  if (n > 0) lo = hi = static_cast<S>(bits[0]);
  for (size_t i = 0; i < n; i++) {
    lo = std::min(lo, static_cast<S>(bits[i]));
    hi = std::max(hi, static_cast<S>(bits[i]));
  }
  int64_t wide_lo = lo;
  int64_t wide_hi = hi;
  MixedRadixBounds(std::numeric_limits<S>::min(), std::numeric_limits<S>::max(), n, &wide_lo,
                   &wide_hi, bounds_size);
  *reference = static_cast<U>(wide_lo);
  *span = static_cast<U>(static_cast<U>(wide_hi) - *reference);
  PutVarint64(out, ZigZagEncode(static_cast<int64_t>(wide_lo)));
  PutVarint64(out, *span);
}

// Reads the header; the encoder's maximum, reference + span, must be a value of the type.
template <typename T>
Status ReadMixedRadixHeader(const char* encoding, Slice* in, UnsignedOf<T>* reference,
                            uint64_t* span) {
  using U = UnsignedOf<T>;
  using S = std::make_signed_t<U>;
  if (!GetSignedVarint(in, reference) || !GetVarint64(in, span)) {
    return EncodingCorruption(encoding, "truncated header");
  }
  if (*span > static_cast<uint64_t>(static_cast<U>(std::numeric_limits<S>::max()) - *reference)) {
    return EncodingCorruption(encoding, "span beyond the type's range");
  }
  return Status::OK();
}

}  // namespace columnar
