// mixed_radix_tight: mixed_radix (mixed_radix.h) without most of the bits its groups round
// away. A mixed_radix group of k values in radix R takes BitWidth(R^k - 1) bits where it
// holds k log2(R): three write-time jitters (R = 100,000) take 50 bits for 49.83, a chunk of
// 128 values 2,134 bits for 2,126. Here each full group's number N is split into its low L
// bits, written as they are, and its top part N >> L, below a radix H of about 2^10; the top
// parts are mixed_radix digits of radix H, six to 59 bits for H = 910, so a chunk of 128
// jitters takes 2,127 bits: a byte less. Decoding costs one more division per group.
// Takes int32 and int64; any value decodes alone (DecodeValueRange: a group of tops and a low).
//
// Byte layout (n values, n from the chunk header):
//
//   reference  zigzag varint   as mixed_radix (the bounds from MixedRadixBounds, sized by
//   span       varint64        MixedRadixTightSize); R = span + 1. A span of 2^64 - 1 is
//                              refused (R does not fit 64 bits).
//   digits     bit stream (LSB-first, bit_stream.h), empty when R = 1, else with
//              k = MixedRadixGroup(R), B = MixedRadixGroupBits(R, k), G = n / k full groups
//              of numbers N_g = d_0 + d_1 R + ... + d_{k-1} R^{k-1} (the values minus the
//              reference, as in mixed_radix), L = max(0, B - 10) and
//              H = ((R^k - 1) >> L) + 1:
//     tops       the G numbers N_g >> L as a mixed_radix digit stream of radix H: groups of
//                k_H = MixedRadixGroup(H) of them (the last may hold fewer) in
//                MixedRadixGroupBits(H, m) bits each
//     lows       the G numbers' low L bits, L bits each
//     rest       the last n % k values (when some) as one mixed_radix group of radix R
//   The stream ends with the zero padding of its last byte.
#include <algorithm>
#include <limits>
#include <vector>

#include "table_format/encodings/bit_stream.h"
#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/encodings/mixed_radix.h"
#include "table_format/encodings/mixed_radix_digits.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "mixed_radix_tight";
constexpr int kTopBits = 10;
using U128 = unsigned __int128;

// The split of a radix's full groups (R >= 2).
struct Split {
  uint64_t radix = 0;  // R
  int k = 0;           // values per full group
  int low_bits = 0;    // L
  uint64_t top_radix;  // H
  int top_k = 0;       // tops per group of tops
  int top_bits = 0;    // bits of a full group of tops

  explicit Split(uint64_t r) : radix(r) {
    k = MixedRadixGroup(r);
    low_bits = std::max(0, MixedRadixGroupBits(r, k) - kTopBits);
    U128 power = 1;
    for (int i = 0; i < k; i++) power *= r;  // R^k <= 2^64
    top_radix = static_cast<uint64_t>(((power - 1) >> low_bits) + 1);
    top_k = top_radix >= 2 ? MixedRadixGroup(top_radix) : 1;
    top_bits = top_radix >= 2 ? MixedRadixGroupBits(top_radix, top_k) : 0;
  }
  // Bits of the tops of g groups.
  uint64_t TopsBits(size_t g) const {
    if (top_radix < 2) return 0;
    const size_t rest = g % static_cast<size_t>(top_k);
    return (g / top_k) * static_cast<uint64_t>(top_bits) +
           (rest == 0 ? 0 : MixedRadixGroupBits(top_radix, static_cast<int>(rest)));
  }
  uint64_t StreamBits(size_t n) const {
    const size_t groups = n / k;
    const size_t rest = n % k;
    return TopsBits(groups) + groups * static_cast<uint64_t>(low_bits) +
           (rest == 0 ? 0 : MixedRadixGroupBits(radix, static_cast<int>(rest)));
  }
};

template <typename T>
Status EncodeTyped(const ColumnVector& values, std::string* out) {
  using U = UnsignedOf<T>;
  const size_t n = values.size();
  const U* bits = BitsOf<T>(values);
  U reference;
  uint64_t span;
  std::string header;
  WriteMixedRadixHeader<T>(values, &MixedRadixTightSize, &header, &reference, &span);
  if (span == std::numeric_limits<uint64_t>::max()) {
    return Status::InvalidArgument("mixed_radix_tight: span of the whole 64-bit range");
  }
  out->append(header);
  if (span == 0) return Status::OK();
  const Split split(span + 1);
  const size_t groups = n / split.k;
  std::vector<uint64_t> numbers(groups);
  for (size_t g = 0; g < groups; g++) {
    numbers[g] = MixedRadixNumber<U>(bits + g * split.k, split.k, reference, split.radix);
  }
  BitWriter writer(out);
  if (split.top_radix >= 2) {
    for (size_t start = 0; start < groups; start += split.top_k) {
      const int m = static_cast<int>(std::min<size_t>(split.top_k, groups - start));
      U128 tops = 0;
      for (int j = m - 1; j >= 0; j--) {
        tops = tops * split.top_radix + (numbers[start + j] >> split.low_bits);
      }
      writer.Write(static_cast<uint64_t>(tops),
                   m == split.top_k ? split.top_bits : MixedRadixGroupBits(split.top_radix, m));
    }
  }
  const uint64_t low_mask = (uint64_t{1} << split.low_bits) - 1;  // low_bits <= 54
  for (size_t g = 0; g < groups; g++) writer.Write(numbers[g] & low_mask, split.low_bits);
  const int rest = static_cast<int>(n % split.k);
  if (rest > 0) {
    writer.Write(MixedRadixNumber<U>(bits + groups * split.k, rest, reference, split.radix),
                 MixedRadixGroupBits(split.radix, rest));
  }
  writer.Finish();
  return Status::OK();
}

// mixed_radix's header, whose span may not be 2^64 - 1 here (R would not fit 64 bits).
template <typename T>
Status ReadHeader(Slice* in, UnsignedOf<T>* reference, uint64_t* span) {
  Status s = ReadMixedRadixHeader<T>(kName, in, reference, span);
  if (s.ok() && *span == std::numeric_limits<uint64_t>::max()) {
    return EncodingCorruption(kName, "span beyond the type's range");
  }
  return s;
}

// The numbers of the full groups and the rest's digits, read from the stream.
template <typename T>
Status DecodeTyped(const Slice& body, size_t count, ColumnVector* out) {
  using U = UnsignedOf<T>;
  Slice in = body;
  U reference = 0;
  uint64_t span = 0;
  Status s = ReadHeader<T>(&in, &reference, &span);
  if (!s.ok()) return s;
  if (count == 0 && span != 0) return EncodingCorruption(kName, "a span for no values");
  if (span == 0) {
    if (!in.empty()) return EncodingCorruption(kName, "trailing bytes");
    U* dst = AppendFixedSlots<T>(out, count);
    for (size_t i = 0; i < count; i++) dst[i] = reference;
    return Status::OK();
  }
  const Split split(span + 1);
  // Every value costs input: refuse counts the body cannot hold before allocating.
  if (static_cast<U128>(split.StreamBits(count)) > static_cast<U128>(in.size()) * 8) {
    return EncodingCorruption(kName, "body shorter than its values");
  }
  const size_t groups = count / split.k;
  U* dst = AppendFixedSlots<T>(out, count);
  BitReader reader(in);
  // The tops first, then the lows that complete each group's number.
  std::vector<uint64_t> tops(groups, 0);
  uint64_t digits[64];
  for (size_t start = 0; start < groups && split.top_radix >= 2; start += split.top_k) {
    const int m = static_cast<int>(std::min<size_t>(split.top_k, groups - start));
    uint64_t number;
    if (!reader.Read(m == split.top_k ? split.top_bits : MixedRadixGroupBits(split.top_radix, m),
                     &number) ||
        !MixedRadixDigits(number, split.top_radix, m, digits)) {
      return EncodingCorruption(kName, "bad tops");
    }
    std::copy(digits, digits + m, tops.begin() + static_cast<ptrdiff_t>(start));
  }
  for (size_t g = 0; g < groups; g++) {
    uint64_t low;
    if (!reader.Read(split.low_bits, &low)) return EncodingCorruption(kName, "truncated lows");
    const U128 number = (U128{tops[g]} << split.low_bits) | low;
    if ((number >> 64) != 0 ||
        !MixedRadixDigits(static_cast<uint64_t>(number), split.radix, split.k, digits)) {
      return EncodingCorruption(kName, "group number beyond its digits");
    }
    for (int j = 0; j < split.k; j++) {
      dst[g * split.k + j] = static_cast<U>(reference + static_cast<U>(digits[j]));
    }
  }
  const int rest = static_cast<int>(count % split.k);
  if (rest > 0) {
    uint64_t number;
    if (!reader.Read(MixedRadixGroupBits(split.radix, rest), &number) ||
        !MixedRadixDigits(number, split.radix, rest, digits)) {
      return EncodingCorruption(kName, "bad last group");
    }
    for (int j = 0; j < rest; j++) {
      dst[groups * split.k + j] = static_cast<U>(reference + static_cast<U>(digits[j]));
    }
  }
  if (!reader.AtCleanEnd()) return EncodingCorruption(kName, "trailing bytes");
  return Status::OK();
}

// Values [begin, end) only (point reads): a value of a full group needs its group's top (one
// group of tops) and low; one of the rest, the rest's number.
template <typename T>
Status DecodeRangeTyped(const Slice& body, size_t count, size_t begin, size_t end,
                        ColumnVector* out) {
  using U = UnsignedOf<T>;
  Slice in = body;
  U reference = 0;
  uint64_t span = 0;
  Status s = ReadHeader<T>(&in, &reference, &span);
  if (!s.ok()) return s;
  U* dst = AppendFixedSlots<T>(out, end - begin);
  if (span == 0) {
    for (size_t i = begin; i < end; i++) dst[i - begin] = reference;
    return Status::OK();
  }
  const Split split(span + 1);
  const size_t groups = count / split.k;
  const uint64_t lows_at = split.TopsBits(groups);
  uint64_t digits[64];
  size_t current = SIZE_MAX;  // the group whose digits are in `digits`
  for (size_t i = begin; i < end; i++) {
    const size_t group = i / split.k;
    if (group != current) {
      uint64_t number = 0;
      int m = split.k;
      if (group < groups) {
        uint64_t top = 0;
        if (split.top_radix >= 2) {
          const size_t top_group = group / split.top_k;
          const int top_m =
              static_cast<int>(std::min<size_t>(split.top_k, groups - top_group * split.top_k));
          uint64_t tops;
          if (!ReadBitsAt(in, top_group * static_cast<uint64_t>(split.top_bits),
                          top_m == split.top_k ? split.top_bits
                                               : MixedRadixGroupBits(split.top_radix, top_m),
                          &tops) ||
              !MixedRadixDigits(tops, split.top_radix, top_m, digits)) {
            return EncodingCorruption(kName, "bad tops");
          }
          top = digits[group % split.top_k];
        }
        uint64_t low;
        if (!ReadBitsAt(in, lows_at + group * static_cast<uint64_t>(split.low_bits), split.low_bits,
                        &low)) {
          return EncodingCorruption(kName, "truncated lows");
        }
        const U128 wide = (U128{top} << split.low_bits) | low;
        if ((wide >> 64) != 0) return EncodingCorruption(kName, "group number beyond its digits");
        number = static_cast<uint64_t>(wide);
      } else {
        m = static_cast<int>(count % split.k);
        if (!ReadBitsAt(in, lows_at + groups * static_cast<uint64_t>(split.low_bits),
                        MixedRadixGroupBits(split.radix, m), &number)) {
          return EncodingCorruption(kName, "bad last group");
        }
      }
      if (!MixedRadixDigits(number, split.radix, m, digits)) {
        return EncodingCorruption(kName, "group number beyond its digits");
      }
      current = group;
    }
    dst[i - begin] = static_cast<U>(reference + static_cast<U>(digits[i % split.k]));
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

size_t MixedRadixTightSize(int64_t reference, uint64_t span, size_t n) {
  const size_t header = VarintLength(ZigZagEncode(reference)) + VarintLength(span);
  if (span == 0 || n == 0) return header;
  if (span == std::numeric_limits<uint64_t>::max()) return std::numeric_limits<size_t>::max();
  return header + (Split(span + 1).StreamBits(n) + 7) / 8;
}

const Codec& MixedRadixTightCodec() {
  static const Codec codec{
      Encoding::kMixedRadixTight, kName, &IsIntegerType, &Encode, &Decode, &DecodeRange};
  return codec;
}

}  // namespace columnar
