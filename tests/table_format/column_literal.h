// A column vector of the given values, for tests that spell out a chunk's input.
#pragma once

#include <initializer_list>

#include "table_format/column_vector.h"

namespace columnar {
namespace testing_util {

template <typename T>
ColumnVector Column(std::initializer_list<T> values) {
  ColumnVector c(PhysicalTypeOf<T>::value);
  for (T v : values) c.Append<T>(v);
  return c;
}

}  // namespace testing_util
}  // namespace columnar
