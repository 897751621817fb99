// mixed_radix: see mixed_radix.h for the byte layout.
#include "table_format/encodings/mixed_radix.h"

#include <algorithm>
#include <limits>

#include "table_format/encodings/bit_stream.h"
#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/encodings/mixed_radix_digits.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "mixed_radix";
using U128 = unsigned __int128;

// R^m, saturated just above 2^64.
U128 Power(uint64_t radix, int m) {
  const U128 cap = (U128{1} << 64) + 1;
  U128 p = 1;
  for (int i = 0; i < m; i++) {
    p *= radix;
    if (p > cap) return cap;
  }
  return p;
}

int WidthOf(U128 v) {  // bits needed for v (v < 2^65)
  const auto high = static_cast<uint64_t>(v >> 64);
  const auto low = static_cast<uint64_t>(v);
  if (high != 0) return 128 - __builtin_clzll(high);
  return low == 0 ? 0 : 64 - __builtin_clzll(low);
}

template <typename T>
Status EncodeTyped(const ColumnVector& values, std::string* out) {
  using U = UnsignedOf<T>;
  const size_t n = values.size();
  const U* bits = BitsOf<T>(values);
  U reference;
  uint64_t span;
  WriteMixedRadixHeader<T>(values, &MixedRadixSize, out, &reference, &span);
  if (span == 0) return Status::OK();
  // A span of 2^64 - 1 has radix 2^64: one value per group at 64 bits.
  const uint64_t radix = span + 1;  // wraps to 0 for the full 64-bit span
  BitWriter writer(out);
  if (radix == 0) {
    for (size_t i = 0; i < n; i++) {
      writer.Write(static_cast<uint64_t>(bits[i] - reference), 64);
    }
    writer.Finish();
    return Status::OK();
  }
  const int k = MixedRadixGroup(radix);
  for (size_t start = 0; start < n; start += k) {
    const int m = static_cast<int>(std::min<size_t>(k, n - start));
    writer.Write(MixedRadixNumber<U>(bits + start, m, reference, radix),
                 MixedRadixGroupBits(radix, m));
  }
  writer.Finish();
  return Status::OK();
}

template <typename T>
Status DecodeTyped(const Slice& body, size_t count, ColumnVector* out) {
  using U = UnsignedOf<T>;
  Slice in = body;
  U reference;
  uint64_t span;
  Status s = ReadMixedRadixHeader<T>(kName, &in, &reference, &span);
  if (!s.ok()) return s;
  if (count == 0 && span != 0) return EncodingCorruption(kName, "a span for no values");
  if (span == 0) {
    if (!in.empty()) return EncodingCorruption(kName, "trailing bytes");
    U* dst = AppendFixedSlots<T>(out, count);
    for (size_t i = 0; i < count; i++) dst[i] = reference;
    return Status::OK();
  }
  // Every digit bit costs input: refuse counts the body cannot hold before looping over them.
  const uint64_t radix = span + 1;
  const int k = radix == 0 ? 1 : MixedRadixGroup(radix);
  const int full_bits = radix == 0 ? 64 : MixedRadixGroupBits(radix, k);
  if (static_cast<U128>(count / k) * full_bits > static_cast<U128>(in.size()) * 8) {
    return EncodingCorruption(kName, "body shorter than its values");
  }
  U* dst = AppendFixedSlots<T>(out, count);
  BitReader reader(in);
  for (size_t start = 0; start < count; start += k) {
    const int m = static_cast<int>(std::min<size_t>(k, count - start));
    uint64_t number;
    // Only the last group may be shorter (and need its own, slower to compute, width).
    const int bits = m == k ? full_bits : MixedRadixGroupBits(radix, m);
    if (!reader.Read(bits, &number)) {
      return EncodingCorruption(kName, "truncated digits");
    }
    if (radix == 0) {
      dst[start] = static_cast<U>(reference + static_cast<U>(number));
      continue;
    }
    for (int j = 0; j < m; j++) {
      const uint64_t digit = number % radix;
      number /= radix;
      dst[start + j] = static_cast<U>(reference + static_cast<U>(digit));
    }
    if (number != 0) return EncodingCorruption(kName, "group number beyond its digits");
  }
  if (!reader.AtCleanEnd()) return EncodingCorruption(kName, "trailing bytes");
  return Status::OK();
}

// Values [begin, end) only: each lies in group i / k at a fixed bit offset (every group but
// the last is full_bits wide), digit i % k of that group's number.
template <typename T>
Status DecodeRangeTyped(const Slice& body, size_t count, size_t begin, size_t end,
                        ColumnVector* out) {
  using U = UnsignedOf<T>;
  Slice in = body;
  U reference;
  uint64_t span;
  Status s = ReadMixedRadixHeader<T>(kName, &in, &reference, &span);
  if (!s.ok()) return s;
  U* dst = AppendFixedSlots<T>(out, end - begin);
  if (span == 0) {
    for (size_t i = begin; i < end; i++) dst[i - begin] = reference;
    return Status::OK();
  }
  const uint64_t radix = span + 1;
  const size_t k = radix == 0 ? 1 : static_cast<size_t>(MixedRadixGroup(radix));
  const int full_bits = radix == 0 ? 64 : MixedRadixGroupBits(radix, static_cast<int>(k));
  size_t current_group = SIZE_MAX;
  uint64_t number = 0;
  for (size_t i = begin; i < end; i++) {
    const size_t group = i / k;
    if (group != current_group) {
      const size_t m = std::min(k, count - group * k);
      const int bits = m == k ? full_bits : MixedRadixGroupBits(radix, static_cast<int>(m));
      if (!ReadBitsAt(in, static_cast<uint64_t>(group) * full_bits, bits, &number)) {
        return EncodingCorruption(kName, "truncated digits");
      }
      if (radix != 0 && Power(radix, static_cast<int>(m)) <= U128{number}) {
        return EncodingCorruption(kName, "group number beyond its digits");
      }
      current_group = group;
    }
    uint64_t digits = number;
    if (radix != 0) {
      for (size_t j = group * k; j < i; j++) digits /= radix;
      digits %= radix;
    }
    dst[i - begin] = static_cast<U>(reference + static_cast<U>(digits));
  }
  return Status::OK();
}

Status DecodeRange(PhysicalType type, const Slice& body, size_t count, size_t begin, size_t end,
                   ColumnVector* out) {
  return VisitIntegerType(type, [&](auto tag) {
    return DecodeRangeTyped<decltype(tag)>(body, count, begin, end, out);
  });
}

Status Encode(const ColumnVector& values, std::string* out) {
  return VisitIntegerType(values.type(),
                          [&](auto tag) { return EncodeTyped<decltype(tag)>(values, out); });
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  return VisitIntegerType(type,
                          [&](auto tag) { return DecodeTyped<decltype(tag)>(body, count, out); });
}

}  // namespace

int MixedRadixGroup(uint64_t radix) {
  // radix^k, grown while radix^(k+1) <= 2^64 (no overflow: both factors are below 2^65).
  int k = 1;
  U128 power = radix;
  while (power * radix <= (U128{1} << 64)) {
    power *= radix;
    k++;
  }
  return k;
}

int MixedRadixGroupBits(uint64_t radix, int m) { return WidthOf(Power(radix, m) - 1); }

// Units grow while the size holds: powers of ten first, powers of two when no power of ten
// moves the bound.
void MixedRadixBounds(int64_t type_min, int64_t type_max, size_t n, int64_t* lo, int64_t* hi,
                      size_t (*size_of)(int64_t, uint64_t, size_t)) {
  if (*hi <= *lo || (*lo == type_min && *hi == type_max)) return;
  const size_t size = size_of(*lo, static_cast<uint64_t>(*hi) - static_cast<uint64_t>(*lo), n);
  const auto fits = [&](__int128 l, __int128 h) {
    return l >= type_min && h <= type_max &&
           static_cast<unsigned __int128>(h - l) < std::numeric_limits<uint64_t>::max() &&
           size_of(static_cast<int64_t>(l), static_cast<uint64_t>(h - l), n) <= size;
  };
  for (int side = 0; side < 2; side++) {
    for (int base : {10, 2}) {
      __int128 best = side == 0 ? *lo : *hi;
      for (__int128 u = base; u <= (__int128{1} << 63); u *= base) {
        __int128 l = *lo;
        __int128 h = *hi;
        if (side == 0) {
          l = l >= 0 ? l / u * u : -((-l + u - 1) / u) * u;  // floor to a multiple of u
        } else {
          const __int128 end = h + 1;  // ceil to a multiple of u, minus one
          h = (end >= 0 ? (end + u - 1) / u * u : -(-end / u) * u) - 1;
        }
        if (!fits(l, h)) break;
        best = side == 0 ? l : h;
        // A minimum floored to 0 (a maximum raised to -1) stays there for every larger unit.
        if (best == (side == 0 ? 0 : -1)) break;
      }
      if (best != (side == 0 ? *lo : *hi)) {
        (side == 0 ? *lo : *hi) = static_cast<int64_t>(best);
        break;
      }
    }
  }
}

size_t MixedRadixSize(int64_t reference, uint64_t span, size_t n) {
  size_t header = VarintLength(ZigZagEncode(reference)) + VarintLength(span);
  if (span == 0 || n == 0) return header;
  const uint64_t radix = span + 1;
  if (radix == 0) return header + n * 8;
  const int k = MixedRadixGroup(radix);
  const uint64_t bits = (n / k) * static_cast<uint64_t>(MixedRadixGroupBits(radix, k)) +
                        (n % k == 0 ? 0 : MixedRadixGroupBits(radix, static_cast<int>(n % k)));
  return header + (bits + 7) / 8;
}

const Codec& MixedRadixCodec() {
  static const Codec codec{Encoding::kMixedRadix, kName, &IsIntegerType, &Encode, &Decode,
                           &DecodeRange};
  return codec;
}

}  // namespace columnar
