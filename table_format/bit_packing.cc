// Scalar bit packing and the run-time dispatch to the SIMD unpack kernels.
//
// Unpacking is done in three tiers:
//   1. a SIMD kernel (bit_packing_avx2.cc / bit_packing_avx512.cc, picked by xsimd::dispatch)
//      handles the bulk of the values for the widths it supports;
//   2. width-specialised, fully unrolled scalar code handles whole groups of 32 values
//      (a group of 32 values at width w is exactly 4*w bytes, so it never reads past them);
//   3. the last values (fewer than 32) are copied into a zero-padded group and unpacked by the
//      same unrolled code, never reading past PackedSize().
#include "table_format/bit_packing.h"

#include <array>
#include <cstring>
#include <utility>

#include "table_format/bit_packing_kernels.h"

namespace columnar {

namespace {

inline uint32_t Load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

inline uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline uint64_t LowMask(int width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

// 32 values of width W (W <= 32) from exactly 4*W bytes, fully unrolled.
template <int W, int I>
inline void Unpack32Step(const uint8_t* in, uint32_t* out) {
  if constexpr (I < 32) {
    constexpr int kBit = I * W;
    constexpr int kWord = kBit / 32;
    constexpr int kShift = kBit % 32;
    uint32_t v = Load32(in + 4 * kWord) >> kShift;
    if constexpr (kShift + W > 32) v |= Load32(in + 4 * (kWord + 1)) << (32 - kShift);
    if constexpr (W < 32) v &= (uint32_t{1} << W) - 1;
    out[I] = v;
    Unpack32Step<W, I + 1>(in, out);
  }
}

template <int W>
void Unpack32Group(const uint8_t* in, uint32_t* out) {
  Unpack32Step<W, 0>(in, out);
}

using Unpack32GroupFn = void (*)(const uint8_t*, uint32_t*);

template <int... Ws>
constexpr auto MakeUnpack32Table(std::integer_sequence<int, Ws...>) {
  return std::array<Unpack32GroupFn, sizeof...(Ws)>{&Unpack32Group<Ws + 1>...};
}

// kUnpack32Groups[w - 1] unpacks a group of 32 values of width w (1..32).
constexpr auto kUnpack32Groups = MakeUnpack32Table(std::make_integer_sequence<int, 32>{});

// 32 values of width W (33..64) from exactly 4*W bytes into uint64.
template <int W, int I>
inline void Unpack64Step(const uint8_t* in, uint64_t* out) {
  if constexpr (I < 32) {
    constexpr int kBit = I * W;
    constexpr int kWord = kBit / 64;
    constexpr int kShift = kBit % 64;
    // The last word of the group may be only half present (4*W bytes is not a multiple of 8
    // for odd W): load it as 32 bits.
    constexpr int kGroupBytes = 4 * W;
    auto load = [in](int word) -> uint64_t {
      return 8 * word + 8 <= kGroupBytes ? Load64(in + 8 * word) : Load32(in + 8 * word);
    };
    uint64_t v = load(kWord) >> kShift;
    if constexpr (kShift + W > 64) v |= load(kWord + 1) << (64 - kShift);
    if constexpr (W < 64) v &= (uint64_t{1} << W) - 1;
    out[I] = v;
    Unpack64Step<W, I + 1>(in, out);
  }
}

template <int W>
void Unpack64Group(const uint8_t* in, uint64_t* out) {
  Unpack64Step<W, 0>(in, out);
}

using Unpack64GroupFn = void (*)(const uint8_t*, uint64_t*);

template <int... Ws>
constexpr auto MakeUnpack64Table(std::integer_sequence<int, Ws...>) {
  return std::array<Unpack64GroupFn, sizeof...(Ws)>{&Unpack64Group<Ws + 33>...};
}

// kUnpack64Groups[w - 33] unpacks a group of 32 values of width w (33..64).
constexpr auto kUnpack64Groups = MakeUnpack64Table(std::make_integer_sequence<int, 32>{});

inline void Store32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }
inline void Store64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }

// Packs 32 values of width W (W <= 32) into exactly 4*W bytes, fully unrolled: each value is
// or-ed into a 64-bit accumulator and every completed 32-bit word is stored.
template <int W, int I>
inline void Pack32Step(const uint32_t* in, uint8_t* out, uint64_t acc) {
  if constexpr (I < 32) {
    constexpr int kBit = I * W;
    constexpr int kShift = kBit % 32;
    uint32_t v = in[I];
    if constexpr (W < 32) v &= (uint32_t{1} << W) - 1;
    acc |= uint64_t{v} << kShift;
    if constexpr (kShift + W >= 32) {
      Store32(out + 4 * (kBit / 32), static_cast<uint32_t>(acc));
      Pack32Step<W, I + 1>(in, out, acc >> 32);
    } else {
      Pack32Step<W, I + 1>(in, out, acc);
    }
  }
}

template <int W>
void Pack32Group(const uint32_t* in, uint8_t* out) {
  Pack32Step<W, 0>(in, out, 0);
}

// The same for 32 values of width W in 33..64 (4*W bytes; the last word may be half full).
template <int W, int I>
inline void Pack64Step(const uint64_t* in, uint8_t* out, unsigned __int128 acc) {
  if constexpr (I < 32) {
    constexpr int kBit = I * W;
    constexpr int kShift = kBit % 64;
    uint64_t v = in[I];
    if constexpr (W < 64) v &= (uint64_t{1} << W) - 1;
    acc |= static_cast<unsigned __int128>(v) << kShift;
    if constexpr (kShift + W >= 64) {
      Store64(out + 8 * (kBit / 64), static_cast<uint64_t>(acc));
      Pack64Step<W, I + 1>(in, out, acc >> 64);
    } else {
      Pack64Step<W, I + 1>(in, out, acc);
    }
  } else if constexpr ((32 * W) % 64 != 0) {
    Store32(out + 8 * (32 * W / 64), static_cast<uint32_t>(acc));
  }
}

template <int W>
void Pack64Group(const uint64_t* in, uint8_t* out) {
  Pack64Step<W, 0>(in, out, 0);
}

using Pack32GroupFn = void (*)(const uint32_t*, uint8_t*);
using Pack64GroupFn = void (*)(const uint64_t*, uint8_t*);

template <int... Ws>
constexpr auto MakePack32Table(std::integer_sequence<int, Ws...>) {
  return std::array<Pack32GroupFn, sizeof...(Ws)>{&Pack32Group<Ws + 1>...};
}
template <int... Ws>
constexpr auto MakePack64Table(std::integer_sequence<int, Ws...>) {
  return std::array<Pack64GroupFn, sizeof...(Ws)>{&Pack64Group<Ws + 33>...};
}

// kPack32Groups[w - 1] for widths 1..32, kPack64Groups[w - 33] for 33..64.
constexpr auto kPack32Groups = MakePack32Table(std::make_integer_sequence<int, 32>{});
constexpr auto kPack64Groups = MakePack64Table(std::make_integer_sequence<int, 32>{});

// Packs the last (fewer than 32) values one at a time.
template <typename Word>
void PackTail(const Word* values, size_t n, int width, char* out) {
  const size_t bytes = PackedSize(n, width);
  const uint64_t mask = LowMask(width);
  unsigned __int128 acc = 0;
  int bits = 0;
  char* p = out;
  for (size_t i = 0; i < n; i++) {
    acc |= static_cast<unsigned __int128>(static_cast<uint64_t>(values[i]) & mask) << bits;
    bits += width;
    if (bits >= 64) {
      const uint64_t word = static_cast<uint64_t>(acc);
      std::memcpy(p, &word, 8);
      p += 8;
      acc >>= 64;
      bits -= 64;
    }
  }
  const size_t rest = bytes - static_cast<size_t>(p - out);  // the bits still pending
  if (rest > 0) {
    const uint64_t word = static_cast<uint64_t>(acc);
    std::memcpy(p, &word, rest);
  }
}

// The SIMD kernel for this CPU, chosen once.
size_t SimdUnpack32(const uint8_t* in, size_t in_size, size_t n, int width, uint32_t* out) {
  static auto dispatched =
      xsimd::dispatch<xsimd::arch_list<xsimd::avx512bw, xsimd::avx2, xsimd::sse2>>(
          Unpack32Kernel{});
  return dispatched(in, in_size, n, width, out);
}

}  // namespace

// The baseline instruction set has no byte shuffle or variable shift: the scalar code does it.
template <>
size_t Unpack32Kernel::operator()<xsimd::sse2>(xsimd::sse2, const uint8_t*, size_t, size_t, int,
                                               uint32_t*) const {
  return 0;
}

void PackBits32(const uint32_t* values, size_t n, int width, char* out) {
  if (width == 0 || n == 0) return;
  auto* bytes = reinterpret_cast<uint8_t*>(out);
  const size_t groups = n / 32;
  const Pack32GroupFn group_fn = kPack32Groups[width - 1];
  for (size_t g = 0; g < groups; g++) group_fn(values + g * 32, bytes + g * 4 * width);
  PackTail(values + groups * 32, n - groups * 32, width, out + groups * 4 * width);
}

void PackBits(const uint64_t* values, size_t n, int width, char* out) {
  if (width == 0 || n == 0) return;
  const size_t groups = n / 32;
  auto* bytes = reinterpret_cast<uint8_t*>(out);
  if (width <= 32) {
    // The 32-bit packer on truncated copies: the bits above `width` are dropped anyway.
    const Pack32GroupFn group_fn = kPack32Groups[width - 1];
    uint32_t narrow[32];
    for (size_t g = 0; g < groups; g++) {
      for (int i = 0; i < 32; i++) narrow[i] = static_cast<uint32_t>(values[g * 32 + i]);
      group_fn(narrow, bytes + g * 4 * width);
    }
  } else {
    const Pack64GroupFn group_fn = kPack64Groups[width - 33];
    for (size_t g = 0; g < groups; g++) group_fn(values + g * 32, bytes + g * 4 * width);
  }
  PackTail(values + groups * 32, n - groups * 32, width, out + groups * 4 * width);
}

namespace {

// Values first..n-1 (fewer than 32, `first` a multiple of 32) of a packed array: their bytes
// are copied into a zero-padded whole group, so the unrolled group code runs on them without
// reading past PackedSize(n, width).
template <typename Word, typename GroupFn>
void UnpackLastGroup(const uint8_t* bytes, size_t n, int width, size_t first, GroupFn group_fn,
                     Word* out) {
  if (first == n) return;
  const size_t begin = first * static_cast<size_t>(width) / 8;
  uint8_t padded[4 * 64] = {};
  std::memcpy(padded, bytes + begin, PackedSize(n, width) - begin);
  Word group[32];
  group_fn(padded, group);
  std::memcpy(out + first, group, (n - first) * sizeof(Word));
}

}  // namespace

void UnpackBits32Scalar(const char* in, size_t n, int width, uint32_t* out) {
  if (n == 0) return;  // `out` may be null then
  if (width == 0) {
    std::memset(out, 0, n * sizeof(uint32_t));
    return;
  }
  const auto* bytes = reinterpret_cast<const uint8_t*>(in);
  const size_t groups = n / 32;
  const Unpack32GroupFn group_fn = kUnpack32Groups[width - 1];
  for (size_t g = 0; g < groups; g++) group_fn(bytes + g * 4 * width, out + g * 32);
  UnpackLastGroup(bytes, n, width, groups * 32, group_fn, out);
}

void UnpackBits32(const char* in, size_t n, int width, uint32_t* out) {
  size_t done = 0;
  if (width > 0 && n >= kSimdUnpackMinValues) {
    done = SimdUnpack32(reinterpret_cast<const uint8_t*>(in), PackedSize(n, width), n, width, out);
  }
  // `done` is a multiple of 8, so the rest starts on a byte boundary.
  UnpackBits32Scalar(in + done * width / 8, n - done, width, out + done);
}

void UnpackBits(const char* in, size_t n, int width, uint64_t* out) {
  if (width <= 32) {
    // Narrow output is several times faster to unpack; widen afterwards in cache-sized steps.
    constexpr size_t kStep = 1024;
    uint32_t narrow[kStep];
    for (size_t start = 0; start < n; start += kStep) {
      const size_t len = n - start < kStep ? n - start : kStep;
      UnpackBits32(in + start * width / 8, len, width, narrow);
      for (size_t i = 0; i < len; i++) out[start + i] = narrow[i];
    }
    return;
  }
  const auto* bytes = reinterpret_cast<const uint8_t*>(in);
  const size_t groups = n / 32;
  const Unpack64GroupFn group_fn = kUnpack64Groups[width - 33];
  for (size_t g = 0; g < groups; g++) group_fn(bytes + g * 4 * width, out + g * 32);
  UnpackLastGroup(bytes, n, width, groups * 32, group_fn, out);
}

}  // namespace columnar
