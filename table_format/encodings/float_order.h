// An order-preserving, self-inverse mapping of float bit patterns to integers, shared by
// float_delta (deltas of a smooth series) and dictionary (sorting float dictionaries).
#pragma once

#include <cstdint>
#include <type_traits>

namespace columnar {

// Keeps the sign bit and flips the others when it is set. Read as a signed integer, the
// result orders like the float value: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN.
template <typename U>
inline U OrderedImage(U bits) {
  using S = std::make_signed_t<U>;
  const U sign_fill = static_cast<U>(static_cast<S>(bits) >> (sizeof(U) * 8 - 1));
  return bits ^ (sign_fill >> 1);
}

}  // namespace columnar
