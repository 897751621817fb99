// rice: see rice.h for the byte layout.
#include "table_format/encodings/rice.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "table_format/encodings/bit_stream.h"
#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/encodings/rice_delta.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "rice";
// The largest k the decoder's 64-bit window path takes (16 unary bits + k <= 57).
constexpr int kFastMaxParameter = 40;

// Reads `count` (0..64) bits at *pos of a stream of `total_bits`, LSB-first; false when the
// stream ends first.
bool ReadBits(const uint8_t* stream, size_t total_bits, int count, size_t* pos, uint64_t* out) {
  if (static_cast<size_t>(count) > total_bits - std::min(*pos, total_bits)) return false;
  uint64_t value = 0;
  for (int b = 0; b < count; b++, ++*pos) {
    value |= static_cast<uint64_t>((stream[*pos >> 3] >> (*pos & 7)) & 1u) << b;
  }
  *out = value;
  return true;
}

template <typename U>
constexpr int kWidth = static_cast<int>(sizeof(U) * 8);

// Bits of one block's codes with parameter k; the block's offsets are bits[i] - reference.
template <typename U>
uint64_t BlockBits(const U* bits, U reference, size_t len, int k) {
  uint64_t total = 0;
  for (size_t i = 0; i < len; i++) {
    const U q = static_cast<U>(bits[i] - reference) >> k;
    total += k + (q < kRiceEscapeQuotient ? q + 1 : kRiceEscapeQuotient + (kWidth<U> - k));
  }
  return total;
}

// The parameter giving the block the fewest bits: from the one the geometric model picks,
// its neighbours are tried and the search walks on while a neighbour is strictly better (the
// bits are unimodal in k but for escapes). Deterministic, so the chooser's size is exact.
template <typename U>
int BestParameter(const U* bits, U reference, size_t len, uint64_t* block_bits) {
  double sum = 0;
  for (size_t i = 0; i < len; i++) sum += static_cast<double>(static_cast<U>(bits[i] - reference));
  const int model = RiceParameterForMean(sum / static_cast<double>(len), kWidth<U> - 1);
  int best = model;
  *block_bits = BlockBits(bits, reference, len, model);
  for (int step : {-1, 1}) {
    for (int k = best + step; k >= 0 && k < kWidth<U>; k += step) {
      const uint64_t b = BlockBits(bits, reference, len, k);
      if (b >= *block_bits) break;
      best = k;
      *block_bits = b;
    }
    if (best != model) break;  // improved going down: going up cannot improve further
  }
  return best;
}

// The minimum of the values (signed reading), as the offsets' reference.
template <typename U>
U Minimum(const U* bits, size_t n) {
  using S = std::make_signed_t<U>;
  S lo = n > 0 ? static_cast<S>(bits[0]) : 0;
  for (size_t i = 1; i < n; i++) lo = std::min(lo, static_cast<S>(bits[i]));
  return static_cast<U>(lo);
}

template <typename T>
Status EncodeTyped(const ColumnVector& values, std::string* out) {
  using U = UnsignedOf<T>;
  const size_t n = values.size();
  if (n == 0) return Status::OK();
  const U* bits = BitsOf<T>(values);
  const U reference = Minimum(bits, n);
  PutSignedVarint(out, reference);
  std::vector<int> ks;
  for (size_t start = 0; start < n; start += kRiceBlockValues) {
    uint64_t block_bits;
    ks.push_back(
        BestParameter(bits + start, reference, std::min(kRiceBlockValues, n - start), &block_bits));
    out->push_back(static_cast<char>(ks.back()));
  }
  BitWriter writer(out);
  for (size_t i = 0; i < n; i++) {
    const int k = ks[i / kRiceBlockValues];
    const U z = static_cast<U>(bits[i] - reference);
    const U q = z >> k;
    if (q < kRiceEscapeQuotient) {
      writer.Write(0, static_cast<int>(q));
      writer.Write(1, 1);
    } else {
      writer.Write(0, kRiceEscapeQuotient);
      writer.Write(static_cast<uint64_t>(q), kWidth<U> - k);
    }
    writer.Write(static_cast<uint64_t>(z), k);
  }
  writer.Finish();
  return Status::OK();
}

template <typename T>
Status DecodeTyped(const Slice& body, size_t count, ColumnVector* out) {
  using U = UnsignedOf<T>;
  using S = std::make_signed_t<U>;
  if (count == 0) {
    return body.empty() ? Status::OK() : EncodingCorruption(kName, "bytes for no values");
  }
  Slice in = body;
  U reference;
  if (!GetSignedVarint(&in, &reference)) return EncodingCorruption(kName, "truncated reference");
  const size_t blocks = (count + kRiceBlockValues - 1) / kRiceBlockValues;
  if (in.size() < blocks) return EncodingCorruption(kName, "truncated parameters");
  std::vector<int> ks(blocks);
  for (size_t b = 0; b < blocks; b++) {
    ks[b] = static_cast<uint8_t>(in[b]);
    if (ks[b] >= kWidth<U>) return EncodingCorruption(kName, "parameter beyond the width");
  }
  in.remove_prefix(blocks);
  // Every value costs at least one bit: refuse counts the body cannot hold before looping.
  if (count > in.size() * 8) return EncodingCorruption(kName, "body shorter than its values");
  // The largest z whose value stays within the type.
  const auto max_offset = static_cast<U>(static_cast<U>(std::numeric_limits<S>::max()) - reference);
  U* dst = AppendFixedSlots<T>(out, count);
  const auto* stream = reinterpret_cast<const uint8_t*>(in.data());
  const size_t total_bits = in.size() * 8;
  size_t pos = 0;
  for (size_t i = 0; i < count; i++) {
    const int k = ks[i / kRiceBlockValues];
    U z;
    // Fast path: a 64-bit window holds at least 57 bits from pos, enough for a unary code
    // (at most 16 bits with its one) and k <= kFastMaxParameter low bits.
    if (k <= kFastMaxParameter && (pos >> 3) + 8 <= in.size()) {
      const uint64_t window = DecodeFixed64(in.data() + (pos >> 3)) >> (pos & 7);
      if ((window & 0xffff) != 0) {
        const int q = __builtin_ctzll(window);
        const uint64_t low = k == 0 ? 0 : (window >> (q + 1)) & ((uint64_t{1} << k) - 1);
        z = static_cast<U>(static_cast<U>(q) << k | static_cast<U>(low));
        pos += static_cast<size_t>(q + 1 + k);
        if (z > max_offset) return EncodingCorruption(kName, "value beyond the type's range");
        dst[i] = static_cast<U>(reference + z);
        continue;
      }
    }
    uint64_t q = 0;
    uint64_t bit = 0;
    while (q < kRiceEscapeQuotient) {
      if (!ReadBits(stream, total_bits, 1, &pos, &bit)) {
        return EncodingCorruption(kName, "truncated codes");
      }
      if (bit != 0) break;
      q++;
    }
    if (q == kRiceEscapeQuotient) {
      if (!ReadBits(stream, total_bits, kWidth<U> - k, &pos, &q)) {
        return EncodingCorruption(kName, "truncated codes");
      }
      if (q < kRiceEscapeQuotient) return EncodingCorruption(kName, "escaped small quotient");
    }
    uint64_t low = 0;
    if (!ReadBits(stream, total_bits, k, &pos, &low)) {
      return EncodingCorruption(kName, "truncated codes");
    }
    // q < 2^(W - k): the shift keeps every bit.
    z = static_cast<U>(static_cast<U>(q) << k | static_cast<U>(low));
    if (z > max_offset) return EncodingCorruption(kName, "value beyond the type's range");
    dst[i] = static_cast<U>(reference + z);
  }
  // The fast path may run past the end: the codes must end in the body's last byte, whose
  // remaining bits are zero padding.
  if (pos > total_bits || (pos + 7) / 8 != in.size() ||
      (pos % 8 != 0 && (stream[pos >> 3] >> (pos & 7)) != 0)) {
    return pos > total_bits ? EncodingCorruption(kName, "truncated codes")
                            : EncodingCorruption(kName, "trailing bytes");
  }
  return Status::OK();
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

template <typename U>
size_t RiceSize(const U* bits, size_t n) {
  if (n == 0) return 0;
  const U reference = Minimum(bits, n);
  uint64_t total = 0;
  for (size_t start = 0; start < n; start += kRiceBlockValues) {
    uint64_t block_bits;
    BestParameter(bits + start, reference, std::min(kRiceBlockValues, n - start), &block_bits);
    total += block_bits;
  }
  const size_t blocks = (n + kRiceBlockValues - 1) / kRiceBlockValues;
  return VarintLength(
             ZigZagEncode(static_cast<int64_t>(static_cast<std::make_signed_t<U>>(reference)))) +
         blocks + (total + 7) / 8;
}

template size_t RiceSize<uint32_t>(const uint32_t* bits, size_t n);
template size_t RiceSize<uint64_t>(const uint64_t* bits, size_t n);

const Codec& RiceCodec() {
  static const Codec codec{Encoding::kRice, kName, &IsIntegerType, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
