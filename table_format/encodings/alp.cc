// alp: decimal ALP (Afroozeh, Kuffó, Boncz, SIGMOD 2024). A float that is a decimal number in
// disguise, v = d / 10^k, is stored as the integer round(v * 10^e * 10^-f), frame-of-reference
// bit-packed; values that do not come back bit-exactly are stored raw as exceptions. Takes
// float32 and float64. Bit exact for every input (NaN payloads, -0.0, infinities and
// subnormals become exceptions).
//
// Byte layout (n values, n from the chunk header): ceil(n / 1024) vectors of 1024 values (the
// last may be shorter), each:
//
//   exponent     u8      e, 0..18 (float64) or 0..10 (float32)
//   factor       u8      f, 0..e
//   exceptions   u16 LE  E, 0..vector length
//   base         i64 LE (float64) or i32 LE (float32): the smallest encoded integer
//   width        u8      bit width of (encoded - base)
//   packed       PackedSize(len, width) bytes: encoded - base, LSB-first (bit_packing.h)
//   positions    E x u16 LE, strictly increasing, < vector length
//   values       E x 8 (or 4) bytes: the exceptions' raw bit patterns
//
// Value i decodes as T(base + packed[i]) * 10^f * 10^-e (two multiplies with exact constant
// tables, in T's precision), then the exceptions overwrite their positions. Every encoded
// integer lies within +-2^51 (float64) or +-2^22 (float32), so the base does too and the
// width is at most 53 (24); the decoder checks this, and that base + 2^width - 1 stays below
// 2^53 (2^24), where integer-to-float conversion is exact.
//
// Choosing (e, f), as in the paper: a chunk-level sample (8 equidistant vectors x 32 values)
// tries every combination with f <= e, finds each sampled vector's best, and keeps the 5 that
// win most often; each vector then tries those on 32 of its own values, stopping after 2
// consecutive worse ones. An exception slot holds a neighbouring value's integer so it does
// not widen the frame.
#include "table_format/encodings/alp.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <utility>

#include "table_format/bit_packing.h"
#include "table_format/encodings/codec.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "alp";

using Combination = AlpCombination;

template <typename T>
using Bits = typename AlpTraits<T>::Bits;

template <typename T>
Bits<T> BitPattern(T v) {
  Bits<T> b;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

// Encodes one value; false when it does not round-trip bit-exactly (an exception).
template <typename T>
inline bool EncodeOne(T v, Combination c, typename AlpTraits<T>::Int* encoded) {
  using Tr = AlpTraits<T>;
  const T scaled = v * Tr::kExp10[c.e] * Tr::kFrac10[c.f];
  // Also rejects NaN and infinities.
  if (!(scaled >= -static_cast<T>(Tr::kMaxEncoded) && scaled <= static_cast<T>(Tr::kMaxEncoded))) {
    return false;
  }
  const T rounded = (scaled + Tr::kMagic) - Tr::kMagic;
  const auto integer = static_cast<typename Tr::Int>(rounded);
  const T back = static_cast<T>(integer) * Tr::kExp10[c.f] * Tr::kFrac10[c.e];
  *encoded = integer;
  return BitPattern(back) == BitPattern(v);
}

// Estimated bits for `count` sampled values under combination c: the frame width for every
// value plus each exception's raw bits and position. Gives up (returning UINT64_MAX) once
// the exceptions alone cost more than `give_up_above`: such a combination cannot win, and
// most combinations fail that way within a few values.
template <typename T>
uint64_t EstimateBits(const T* values, const uint32_t* positions, size_t count, Combination c,
                      uint64_t give_up_above = UINT64_MAX) {
  using Int = typename AlpTraits<T>::Int;
  constexpr uint64_t kExceptionBits = sizeof(T) * 8 + 16;
  Int lo = std::numeric_limits<Int>::max();
  Int hi = std::numeric_limits<Int>::min();
  uint64_t exceptions = 0;
  auto width = [&] {
    return lo > hi ? 0 : BitWidth(static_cast<uint64_t>(static_cast<int64_t>(hi) - lo));
  };
  for (size_t k = 0; k < count; k++) {
    Int encoded;
    if (EncodeOne(values[positions[k]], c, &encoded)) {
      lo = std::min(lo, encoded);
      hi = std::max(hi, encoded);
    } else if (++exceptions * kExceptionBits > give_up_above) {
      return UINT64_MAX;
    }
    // The frame only widens: once it alone costs too much, stop.
    if (k % 8 == 7 && uint64_t(width()) * count > give_up_above) return UINT64_MAX;
  }
  return uint64_t(width()) * count + exceptions * kExceptionBits;
}

// Level 1: the combinations that win most often over the sampled vectors, best first (ties
// to the larger exponent, then the larger factor, as in the paper).
template <typename T>
std::vector<Combination> TopCombinations(const T* values,
                                         const std::vector<std::vector<uint32_t>>& sample,
                                         uint64_t* best_total_bits) {
  using Tr = AlpTraits<T>;
  std::map<std::pair<int, int>, int> wins;
  *best_total_bits = 0;
  for (const auto& positions : sample) {
    Combination best;
    uint64_t best_bits = UINT64_MAX;
    for (int e = Tr::kMaxExponent; e >= 0; e--) {
      for (int f = e; f >= 0; f--) {
        const uint64_t bits =
            EstimateBits(values, positions.data(), positions.size(), {e, f}, best_bits);
        if (bits < best_bits) {
          best_bits = bits;
          best = {e, f};
        }
      }
    }
    wins[{best.e, best.f}]++;
    *best_total_bits += best_bits;
  }
  std::vector<std::pair<int, std::pair<int, int>>> ranked;
  for (const auto& [ef, count] : wins) ranked.push_back({count, ef});
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first > b.first;
    return a.second > b.second;
  });
  std::vector<Combination> top;
  for (size_t k = 0; k < ranked.size() && k < kAlpTopCombinations; k++) {
    top.push_back({ranked[k].second.first, ranked[k].second.second});
  }
  return top;
}

// Level 2: this vector's combination among the top ones.
template <typename T>
Combination VectorCombination(const T* vector, size_t len, const std::vector<Combination>& top) {
  if (top.size() == 1) return top[0];
  std::vector<uint32_t> positions;
  const size_t step = std::max<size_t>(1, len / kAlpSamplesPerVector);
  for (size_t i = 0; i < len && positions.size() < kAlpSamplesPerVector; i += step) {
    positions.push_back(static_cast<uint32_t>(i));
  }
  Combination best = top[0];
  uint64_t best_bits = EstimateBits(vector, positions.data(), positions.size(), top[0]);
  int worse_in_a_row = 0;
  for (size_t k = 1; k < top.size(); k++) {
    const uint64_t bits =
        EstimateBits(vector, positions.data(), positions.size(), top[k], best_bits);
    if (bits < best_bits) {
      best_bits = bits;
      best = top[k];
      worse_in_a_row = 0;
    } else if (++worse_in_a_row == kAlpEarlyExitThreshold) {
      break;
    }
  }
  return best;
}

template <typename T>
void EncodeVector(const T* vector, size_t len, Combination c, std::string* out) {
  using Tr = AlpTraits<T>;
  using Int = typename Tr::Int;
  Int encoded[kAlpVectorValues];
  uint16_t positions[kAlpVectorValues];
  size_t exceptions = 0;
  bool have_fill = false;
  Int fill = 0;
  for (size_t i = 0; i < len; i++) {
    if (EncodeOne(vector[i], c, &encoded[i])) {
      if (!have_fill) {
        // Exceptions before the first encodable value take its integer.
        for (size_t k = 0; k < exceptions; k++) encoded[positions[k]] = encoded[i];
        have_fill = true;
      }
      fill = encoded[i];
    } else {
      positions[exceptions++] = static_cast<uint16_t>(i);
      encoded[i] = fill;
    }
  }
  Int lo = len > 0 ? encoded[0] : 0;
  Int hi = lo;
  for (size_t i = 1; i < len; i++) {
    lo = std::min(lo, encoded[i]);
    hi = std::max(hi, encoded[i]);
  }
  int width = BitWidth(static_cast<uint64_t>(static_cast<int64_t>(hi) - lo));
  // A handful of values that happen to encode can stretch the frame so far that storing every
  // value as an exception is cheaper (full-precision data); then do that.
  constexpr uint64_t kExceptionBits = sizeof(T) * 8 + 16;
  if (uint64_t(width) * len + exceptions * kExceptionBits > len * kExceptionBits) {
    for (size_t i = 0; i < len; i++) {
      positions[i] = static_cast<uint16_t>(i);
      encoded[i] = 0;
    }
    exceptions = len;
    lo = 0;
    width = 0;
  }
  out->push_back(static_cast<char>(c.e));
  out->push_back(static_cast<char>(c.f));
  PutFixed16(out, static_cast<uint16_t>(exceptions));
  if constexpr (sizeof(T) == 8) {
    PutFixed64(out, static_cast<uint64_t>(lo));
  } else {
    PutFixed32(out, static_cast<uint32_t>(lo));
  }
  out->push_back(static_cast<char>(width));
  const size_t at = out->size();
  out->resize(at + PackedSize(len, width));
  if constexpr (sizeof(T) == 8) {
    uint64_t shifted[kAlpVectorValues];
    for (size_t i = 0; i < len; i++) shifted[i] = static_cast<uint64_t>(encoded[i] - lo);
    PackBits(shifted, len, width, &(*out)[at]);
  } else {
    uint32_t shifted[kAlpVectorValues];
    for (size_t i = 0; i < len; i++) shifted[i] = static_cast<uint32_t>(encoded[i] - lo);
    PackBits32(shifted, len, width, &(*out)[at]);
  }
  for (size_t k = 0; k < exceptions; k++) PutFixed16(out, positions[k]);
  for (size_t k = 0; k < exceptions; k++) {
    const Bits<T> raw = BitPattern(vector[positions[k]]);
    out->append(reinterpret_cast<const char*>(&raw), sizeof(raw));
  }
}

template <typename T>
void EncodeTyped(const ColumnVector& values, std::string* out) {
  const T* v = values.data<T>();
  EncodeAlp(v, values.size(), AnalyzeAlp(v, values.size()), out);
}

template <typename T>
void DispatchDecode(const uint32_t* ints, size_t n, int64_t base, T factor, T fraction, T* out) {
  static auto kernel = xsimd::dispatch<xsimd::arch_list<xsimd::avx512bw, xsimd::avx2, xsimd::sse2>>(
      AlpDecodeKernel{});
  kernel(ints, n, base, factor, fraction, out);
}

template <typename T>
Status DecodeTyped(const Slice& body, size_t count, ColumnVector* out) {
  using Tr = AlpTraits<T>;
  using Int = typename Tr::Int;
  constexpr size_t kBaseBytes = sizeof(Int);
  Slice in = body;
  T* dst = reinterpret_cast<T*>(AppendFixedSlots<T>(out, count));
  uint32_t narrow[kAlpVectorValues];
  uint64_t wide[kAlpVectorValues];
  for (size_t start = 0; start < count; start += kAlpVectorValues) {
    const size_t len = std::min(kAlpVectorValues, count - start);
    if (in.size() < 4 + kBaseBytes + 1) return EncodingCorruption(kName, "truncated vector header");
    const auto* header = reinterpret_cast<const uint8_t*>(in.data());
    const int e = header[0];
    const int f = header[1];
    const size_t exceptions = DecodeFixed16(in.data() + 2);
    int64_t base;
    if constexpr (sizeof(T) == 8) {
      base = static_cast<int64_t>(DecodeFixed64(in.data() + 4));
    } else {
      base = static_cast<int32_t>(DecodeFixed32(in.data() + 4));
    }
    const int width = header[4 + kBaseBytes];
    in.remove_prefix(4 + kBaseBytes + 1);
    if (e > Tr::kMaxExponent || f > e) return EncodingCorruption(kName, "bad exponent or factor");
    if (exceptions > len) return EncodingCorruption(kName, "more exceptions than values");
    // The encoder's integers lie within +-kMaxEncoded, so the frame does too; and then every
    // base + packed value is below kExactLimit, which keeps all conversions exact.
    if (width > Tr::kMaxWidth || base < -Tr::kMaxEncoded || base > Tr::kMaxEncoded ||
        base + static_cast<int64_t>((uint64_t{1} << width) - 1) >= Tr::kExactLimit) {
      return EncodingCorruption(kName, "frame out of range");
    }
    const size_t packed = PackedSize(len, width);
    const size_t tail = exceptions * (2 + sizeof(T));
    if (in.size() < packed + tail) return EncodingCorruption(kName, "truncated vector");
    T* v = dst + start;
    const T factor = Tr::kExp10[f];
    const T fraction = Tr::kFrac10[e];
    if (width <= 32) {
      UnpackBits32(in.data(), len, width, narrow);
      DispatchDecode(narrow, len, base, factor, fraction, v);
    } else {
      UnpackBits(in.data(), len, width, wide);
      for (size_t i = 0; i < len; i++) {
        v[i] = static_cast<T>(static_cast<Int>(base + static_cast<int64_t>(wide[i]))) * factor *
               fraction;
      }
    }
    in.remove_prefix(packed);
    const char* positions = in.data();
    const char* raw = in.data() + 2 * exceptions;
    int previous = -1;
    for (size_t k = 0; k < exceptions; k++) {
      const int position = DecodeFixed16(positions + 2 * k);
      if (position <= previous || static_cast<size_t>(position) >= len) {
        return EncodingCorruption(kName, "bad exception position");
      }
      previous = position;
      std::memcpy(&v[position], raw + k * sizeof(T), sizeof(T));
    }
    in.remove_prefix(tail);
  }
  if (!in.empty()) return EncodingCorruption(kName, "trailing bytes after the values");
  return Status::OK();
}

Status Encode(const ColumnVector& values, std::string* out) {
  VisitFloatType(values.type(), [&](auto tag) { EncodeTyped<decltype(tag)>(values, out); });
  return Status::OK();
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  return VisitFloatType(type,
                        [&](auto tag) { return DecodeTyped<decltype(tag)>(body, count, out); });
}

}  // namespace

std::vector<std::vector<uint32_t>> AlpSamplePositions(size_t n) {
  std::vector<std::vector<uint32_t>> sample;
  size_t last_vector = SIZE_MAX;
  ForEachAlpSamplePosition(n, [&](uint32_t position) {
    if (position / kAlpVectorValues != last_vector) {
      last_vector = position / kAlpVectorValues;
      sample.emplace_back();
    }
    sample.back().push_back(position);
  });
  return sample;
}

template <typename T>
AlpAnalysis AnalyzeAlp(const T* values, size_t n) {
  AlpAnalysis analysis;
  if (n == 0) return analysis;
  const auto sample = AlpSamplePositions(n);
  uint64_t bits;
  analysis.combinations = TopCombinations(values, sample, &bits);
  size_t sampled = 0;
  for (const auto& positions : sample) sampled += positions.size();
  // Per-vector header: e, f, exception count, base, width.
  const double header_bits = 8.0 * (5 + sizeof(typename AlpTraits<T>::Int));
  const double vectors = std::ceil(static_cast<double>(n) / kAlpVectorValues);
  analysis.bits_per_value = static_cast<double>(bits) / sampled + header_bits * vectors / n;
  return analysis;
}

template <typename T>
void EncodeAlp(const T* values, size_t n, const AlpAnalysis& analysis, std::string* out) {
  for (size_t start = 0; start < n; start += kAlpVectorValues) {
    const size_t len = std::min(kAlpVectorValues, n - start);
    EncodeVector(values + start, len, VectorCombination(values + start, len, analysis.combinations),
                 out);
  }
}

template AlpAnalysis AnalyzeAlp<float>(const float*, size_t);
template AlpAnalysis AnalyzeAlp<double>(const double*, size_t);
template void EncodeAlp<float>(const float*, size_t, const AlpAnalysis&, std::string*);
template void EncodeAlp<double>(const double*, size_t, const AlpAnalysis&, std::string*);

// The baseline instruction set: the scalar loop.
template <>
void AlpDecodeKernel::operator()<xsimd::sse2>(xsimd::sse2, const uint32_t* ints, size_t n,
                                              int64_t base, double factor, double fraction,
                                              double* out) const {
  AlpDecodeScalar(ints, n, base, factor, fraction, out);
}
template <>
void AlpDecodeKernel::operator()<xsimd::sse2>(xsimd::sse2, const uint32_t* ints, size_t n,
                                              int64_t base, float factor, float fraction,
                                              float* out) const {
  AlpDecodeScalar(ints, n, base, factor, fraction, out);
}

const Codec& AlpCodec() {
  static const Codec codec{Encoding::kAlp, kName, &IsFloatType, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
