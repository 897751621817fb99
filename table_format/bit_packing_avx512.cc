// The AVX-512 unpack kernel (compiled with -mavx512f -mavx512bw; chosen at run time by
// bit_packing.cc).
//
// A group of 16 values of width W is exactly 2W bytes. One 64-byte load covers it; a
// cross-lane 16-bit permute (vpermw, AVX-512BW) gives each 32-bit slot the two 16-bit words
// that hold its value, a variable shift drops the bits of earlier values, a mask the bits of
// later ones. That needs (bit offset % 16) + W <= 32, i.e. W <= 17; wider values use the AVX2
// kernel.
#include <immintrin.h>

#include <array>
#include <utility>

#include "table_format/bit_packing_avx2_impl.h"
#include "table_format/bit_packing_kernels.h"

namespace columnar {

namespace {

constexpr int kMaxPermuteWidth = 17;

struct alignas(64) GroupTables {
  uint16_t words[32];
  uint32_t shift[16];
};

template <int W>
constexpr GroupTables MakeGroupTables() {
  GroupTables t{};
  for (int k = 0; k < 16; k++) {
    const int bit = k * W;
    t.words[2 * k] = static_cast<uint16_t>(bit / 16);
    t.words[2 * k + 1] = static_cast<uint16_t>(bit / 16 + 1);
    t.shift[k] = static_cast<uint32_t>(bit % 16);
  }
  return t;
}

template <int W>
struct Tables {
  static constexpr GroupTables kValue = MakeGroupTables<W>();
};

template <int W>
inline __m512i UnpackGroup(const uint8_t* group, __m512i words, __m512i shift, __m512i mask) {
  const __m512i bytes = _mm512_loadu_si512(group);
  const __m512i placed = _mm512_permutexvar_epi16(words, bytes);
  // The zero-masked form: the unmasked intrinsic trips a GCC 12 -Wmaybe-uninitialized.
  return _mm512_and_si512(_mm512_maskz_srlv_epi32(0xFFFF, placed, shift), mask);
}

template <int W>
size_t UnpackWidth(const uint8_t* in, size_t in_size, size_t n, uint32_t* out) {
  constexpr size_t kGroupBytes = 2 * W;
  const GroupTables& t = Tables<W>::kValue;
  const __m512i words = _mm512_load_si512(t.words);
  const __m512i shift = _mm512_load_si512(t.shift);
  const __m512i mask = _mm512_set1_epi32(static_cast<int>((uint32_t{1} << W) - 1));
  // Group g reads bytes [g*2W, g*2W + 64).
  if (in_size < 64) return 0;
  const size_t last_readable_group = (in_size - 64) / kGroupBytes;
  size_t groups = n / 16;
  if (groups > last_readable_group + 1) groups = last_readable_group + 1;
  size_t g = 0;
  for (; g + 4 <= groups; g += 4) {
    const uint8_t* p = in + g * kGroupBytes;
    __m512i* o = reinterpret_cast<__m512i*>(out + g * 16);
    _mm512_storeu_si512(o + 0, UnpackGroup<W>(p, words, shift, mask));
    _mm512_storeu_si512(o + 1, UnpackGroup<W>(p + kGroupBytes, words, shift, mask));
    _mm512_storeu_si512(o + 2, UnpackGroup<W>(p + 2 * kGroupBytes, words, shift, mask));
    _mm512_storeu_si512(o + 3, UnpackGroup<W>(p + 3 * kGroupBytes, words, shift, mask));
  }
  for (; g < groups; g++) {
    _mm512_storeu_si512(out + g * 16, UnpackGroup<W>(in + g * kGroupBytes, words, shift, mask));
  }
  return g * 16;
}

using UnpackFn = size_t (*)(const uint8_t*, size_t, size_t, uint32_t*);

template <int... Ws>
constexpr std::array<UnpackFn, sizeof...(Ws)> MakeTable(std::integer_sequence<int, Ws...>) {
  return {&UnpackWidth<Ws + 1>...};
}

constexpr auto kUnpack = MakeTable(std::make_integer_sequence<int, kMaxPermuteWidth>{});

}  // namespace

template <>
size_t Unpack32Kernel::operator()<xsimd::avx512bw>(xsimd::avx512bw, const uint8_t* in,
                                                   size_t in_size, size_t n, int width,
                                                   uint32_t* out) const {
  if (width >= 1 && width <= kMaxPermuteWidth) {
    const size_t done = kUnpack[width - 1](in, in_size, n, out);
    // The AVX2 kernel picks up values the 64-byte loads could not reach near the end.
    const size_t byte = done * width / 8;
    return done + avx2_unpack::Unpack(in + byte, in_size - byte, n - done, width, out + done);
  }
  return avx2_unpack::Unpack(in, in_size, n, width, out);
}

}  // namespace columnar
