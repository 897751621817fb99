// Internal to the SIMD translation units (compiled with -mavx2 or wider): the AVX2 unpack
// kernel for widths 1..25, shared by bit_packing_avx2.cc and bit_packing_avx512.cc.
//
// A group of 8 values of width W is exactly W bytes. Each 128-bit lane receives a 16-byte
// window: lane 0 starts at the group's first byte, lane 1 at byte floor(4W/8), where value 4
// starts. A byte shuffle then moves the 4 bytes holding each value into its 32-bit slot, a
// per-slot variable shift drops the bits of earlier values, and a mask the bits of later ones.
// This needs shift + W <= 32 for every value, which holds for W <= 25.
#pragma once

#include <immintrin.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

namespace columnar {
namespace avx2_unpack {

inline constexpr int kMaxWidth = 25;

struct alignas(32) GroupTables {
  uint8_t shuffle[32];
  uint32_t shift[8];
};

template <int W>
constexpr GroupTables MakeGroupTables() {
  GroupTables t{};
  constexpr int kHighLaneByte = 4 * W / 8;
  for (int k = 0; k < 8; k++) {
    const int lane_byte = k < 4 ? 0 : kHighLaneByte;
    const int bit = k * W - 8 * lane_byte;
    const int first = bit / 8;
    const int slot = k % 4;
    for (int b = 0; b < 4; b++) {
      const int src = first + b;
      // Bytes past the value's last bit are not needed; zero them (0x80).
      const bool needed = 8 * b < (bit % 8) + W;
      t.shuffle[(k / 4) * 16 + slot * 4 + b] = needed ? static_cast<uint8_t>(src) : 0x80;
    }
    t.shift[k] = static_cast<uint32_t>(bit % 8);
  }
  return t;
}

template <int W>
struct Tables {
  static constexpr GroupTables kValue = MakeGroupTables<W>();
};

template <int W>
inline __m256i UnpackGroup(const uint8_t* group, __m256i shuffle, __m256i shift, __m256i mask) {
  constexpr int kHighLaneByte = 4 * W / 8;
  const __m256i bytes = _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(group + kHighLaneByte),
                                            reinterpret_cast<const __m128i*>(group));
  const __m256i placed = _mm256_shuffle_epi8(bytes, shuffle);
  return _mm256_and_si256(_mm256_srlv_epi32(placed, shift), mask);
}

template <int W>
size_t UnpackWidth(const uint8_t* in, size_t in_size, size_t n, uint32_t* out) {
  constexpr int kHighLaneByte = 4 * W / 8;
  const GroupTables& t = Tables<W>::kValue;
  const __m256i shuffle = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.shuffle));
  const __m256i shift = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.shift));
  const __m256i mask = _mm256_set1_epi32(static_cast<int>((uint32_t{1} << W) - 1));
  // Group g reads bytes [g*W, g*W + kHighLaneByte + 16).
  if (in_size < kHighLaneByte + 16) return 0;
  const size_t last_readable_group = (in_size - kHighLaneByte - 16) / W;
  size_t groups = n / 8;
  if (groups > last_readable_group + 1) groups = last_readable_group + 1;
  size_t g = 0;
  for (; g + 4 <= groups; g += 4) {
    const uint8_t* p = in + g * W;
    __m256i* o = reinterpret_cast<__m256i*>(out + g * 8);
    _mm256_storeu_si256(o + 0, UnpackGroup<W>(p, shuffle, shift, mask));
    _mm256_storeu_si256(o + 1, UnpackGroup<W>(p + W, shuffle, shift, mask));
    _mm256_storeu_si256(o + 2, UnpackGroup<W>(p + 2 * W, shuffle, shift, mask));
    _mm256_storeu_si256(o + 3, UnpackGroup<W>(p + 3 * W, shuffle, shift, mask));
  }
  for (; g < groups; g++) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + g * 8),
                        UnpackGroup<W>(in + g * W, shuffle, shift, mask));
  }
  return g * 8;
}

using UnpackFn = size_t (*)(const uint8_t*, size_t, size_t, uint32_t*);

template <int... Ws>
constexpr std::array<UnpackFn, sizeof...(Ws)> MakeTable(std::integer_sequence<int, Ws...>) {
  return {&UnpackWidth<Ws + 1>...};
}

// kUnpack[w - 1] handles width w in 1..kMaxWidth.
inline constexpr auto kUnpack = MakeTable(std::make_integer_sequence<int, kMaxWidth>{});

inline size_t Unpack(const uint8_t* in, size_t in_size, size_t n, int width, uint32_t* out) {
  if (width == 32) {
    std::memcpy(out, in, n / 8 * 8 * 4);
    return n / 8 * 8;
  }
  if (width < 1 || width > kMaxWidth) return 0;
  return kUnpack[width - 1](in, in_size, n, out);
}

}  // namespace avx2_unpack
}  // namespace columnar
