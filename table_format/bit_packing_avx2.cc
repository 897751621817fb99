// The AVX2 unpack kernel (compiled with -mavx2; chosen at run time by bit_packing.cc).
#include "table_format/bit_packing_avx2_impl.h"
#include "table_format/bit_packing_kernels.h"

namespace columnar {

template <>
size_t Unpack32Kernel::operator()<xsimd::avx2>(xsimd::avx2, const uint8_t* in, size_t in_size,
                                               size_t n, int width, uint32_t* out) const {
  return avx2_unpack::Unpack(in, in_size, n, width, out);
}

}  // namespace columnar
