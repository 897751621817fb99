// alp_rd: ALP for "real doubles" (full-precision values with no decimal form). Each bit
// pattern is cut into a left part (the top 1..16 bits: sign, exponent, leading mantissa bits,
// which repeat across a column) and a right part. Left parts go through a dictionary of at
// most 8 entries; those not in it are exceptions. Right parts are bit-packed as they are.
// Takes float32 and float64. Bit exact for every pattern.
//
// Byte layout (n values, n from the chunk header; nothing at all when n = 0):
//
//   right width   u8      r: bits in the right part; the left part has L = bits - r bits,
//                         1 <= L <= 16 (so r is 16..31 for float32, 48..63 for float64)
//   entries       u8      D, 1..8
//   dictionary    D x u16 LE left parts, each < 2^L, distinct
//   then ceil(n / 1024) vectors of 1024 values (the last may be shorter), each:
//     exceptions  u16 LE  E, 0..vector length
//     codes       PackedSize(len, c) bytes: dictionary codes, c = BitWidth(D - 1) bits each
//     rights      PackedSize(len, r) bytes: the right parts
//     exceptions  E x (u16 LE position, u16 LE left part): positions strictly increasing and
//                 < vector length, left parts < 2^L; they replace the dictionary's left part
//
// Value i = (dictionary[code[i]] << r) | right[i]. The cut and the dictionary come from the
// chunk-level ALP sample: every cut with 1..16 left bits and every dictionary of 1, 2, 4 or 8
// most frequent left parts is scored as r + c + exceptions * 32 / samples bits per value.
#include <algorithm>
#include <cstring>

#include "table_format/bit_packing.h"
#include "table_format/encodings/alp.h"
#include "table_format/encodings/codec.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "alp_rd";
constexpr int kMaxLeftBits = 16;
constexpr size_t kMaxEntries = 8;
constexpr int kExceptionBits = 32;  // u16 position + u16 left part

// Scores every cut on the chunk-level sample. Sorting the sample's top 16 bits once serves
// every cut: the left parts of a shorter cut are those values shifted right, which keeps them
// sorted, so equal left parts stay adjacent, and a cut's groups of equal left parts are those of
// the shorter cut split where two neighbours first differ in the cut's last bit. The groups
// (and their ranking) are worked out again only at the cuts where some neighbours split.
template <typename U>
AlpRdAnalysis ChoosePlan(const U* bits, size_t n) {
  constexpr int kWidth = sizeof(U) * 8;
  constexpr size_t kMaxSamples = kAlpSampledVectors * kAlpSamplesPerVector;
  uint16_t top_bits[kMaxSamples];
  size_t samples = 0;
  ForEachAlpSamplePosition(n, [&](uint32_t p) {
    top_bits[samples++] = static_cast<uint16_t>(bits[p] >> (kWidth - 16));
  });
  std::sort(top_bits, top_bits + samples);
  // shared[i]: the leading bits (of 16) sample i shares with sample i - 1; bit L of `splits`:
  // some neighbours are in one group at cut L - 1 and in two at cut L.
  uint8_t shared[kMaxSamples];
  uint32_t splits = 0;
  for (size_t i = 1; i < samples; i++) {
    shared[i] = static_cast<uint8_t>(kMaxLeftBits - BitWidth(top_bits[i] ^ top_bits[i - 1]));
    if (shared[i] < kMaxLeftBits) splits |= 1u << (shared[i] + 1);
  }
  AlpRdAnalysis best;
  best.bits_per_value = 1e9;
  // The most frequent groups first (equal counts: the smaller left part first, so the plan is
  // deterministic), as (count, index of the group's first sample); only kMaxEntries are used.
  std::pair<uint32_t, uint32_t> ranked[kMaxEntries];
  size_t distinct = 0;
  for (int left_bits = 1; left_bits <= kMaxLeftBits; left_bits++) {
    const int shift = kMaxLeftBits - left_bits;
    if (left_bits == 1 || (splits >> left_bits & 1) != 0) {
      distinct = 0;
      size_t kept = 0;
      for (size_t i = 0; i < samples;) {
        size_t j = i + 1;
        while (j < samples && shared[j] >= left_bits) j++;
        const auto count = static_cast<uint32_t>(j - i);
        distinct++;
        // Groups come in increasing left part: one ranks before the kept groups of fewer
        // samples only.
        size_t at = kept;
        while (at > 0 && ranked[at - 1].first < count) at--;
        if (at < kMaxEntries) {
          kept = std::min(kept + 1, kMaxEntries);
          for (size_t k = kept - 1; k > at; k--) ranked[k] = ranked[k - 1];
          ranked[at] = {count, static_cast<uint32_t>(i)};
        }
        i = j;
      }
    }
    const int right = kWidth - left_bits;
    uint32_t covered = 0;
    size_t entries = 0;
    for (int code_bits = 0; code_bits <= 3; code_bits++) {
      const size_t want = size_t{1} << code_bits;
      while (entries < want && entries < distinct) covered += ranked[entries++].first;
      const double exceptions = static_cast<double>(samples - covered);
      const double estimate = right + BitWidth(entries - 1) +
                              exceptions * kExceptionBits / static_cast<double>(samples);
      if (estimate < best.bits_per_value) {
        best.bits_per_value = estimate;
        best.right_width = right;
        best.dictionary.resize(entries);
        for (size_t k = 0; k < entries; k++) {
          best.dictionary[k] = static_cast<uint16_t>(top_bits[ranked[k].second] >> shift);
        }
      }
      if (entries == distinct) break;
    }
  }
  return best;
}

void PackCodes(const uint32_t* v, size_t n, int width, std::string* out) {
  const size_t at = out->size();
  out->resize(at + PackedSize(n, width));
  PackBits32(v, n, width, &(*out)[at]);
}
void PackRights(const uint32_t* v, size_t n, int width, std::string* out) {
  PackCodes(v, n, width, out);
}
void PackRights(const uint64_t* v, size_t n, int width, std::string* out) {
  const size_t at = out->size();
  out->resize(at + PackedSize(n, width));
  PackBits(v, n, width, &(*out)[at]);
}
void UnpackRights(const char* in, size_t n, int width, uint32_t* out) {
  UnpackBits32(in, n, width, out);
}
void UnpackRights(const char* in, size_t n, int width, uint64_t* out) {
  UnpackBits(in, n, width, out);
}

template <typename T>
void EncodeWithPlan(const T* values, size_t n, const AlpRdAnalysis& plan, std::string* out) {
  using U = UnsignedOf<T>;
  const auto* bits = reinterpret_cast<const U*>(values);
  if (n == 0) return;
  const int r = plan.right_width;
  const U right_mask = (U{1} << r) - 1;
  const int code_width = BitWidth(plan.dictionary.size() - 1);
  out->push_back(static_cast<char>(r));
  out->push_back(static_cast<char>(plan.dictionary.size()));
  for (uint16_t entry : plan.dictionary) PutFixed16(out, entry);
  uint32_t codes[kAlpVectorValues];
  U rights[kAlpVectorValues];
  uint16_t exception_positions[kAlpVectorValues];
  uint16_t exception_lefts[kAlpVectorValues];
  for (size_t start = 0; start < n; start += kAlpVectorValues) {
    const size_t len = std::min(kAlpVectorValues, n - start);
    size_t exceptions = 0;
    for (size_t i = 0; i < len; i++) {
      const U v = bits[start + i];
      const auto left = static_cast<uint16_t>(v >> r);
      rights[i] = v & right_mask;
      const auto it = std::find(plan.dictionary.begin(), plan.dictionary.end(), left);
      if (it != plan.dictionary.end()) {
        codes[i] = static_cast<uint32_t>(it - plan.dictionary.begin());
      } else {
        codes[i] = 0;
        exception_positions[exceptions] = static_cast<uint16_t>(i);
        exception_lefts[exceptions++] = left;
      }
    }
    PutFixed16(out, static_cast<uint16_t>(exceptions));
    PackCodes(codes, len, code_width, out);
    PackRights(rights, len, r, out);
    for (size_t k = 0; k < exceptions; k++) {
      PutFixed16(out, exception_positions[k]);
      PutFixed16(out, exception_lefts[k]);
    }
  }
}

template <typename T>
Status DecodeTyped(const Slice& body, size_t count, ColumnVector* out) {
  using U = UnsignedOf<T>;
  constexpr int kWidth = sizeof(U) * 8;
  Slice in = body;
  if (count == 0) {
    return in.empty() ? Status::OK() : EncodingCorruption(kName, "trailing bytes");
  }
  uint8_t r;
  uint8_t entries;
  if (!GetFixed8(&in, &r) || !GetFixed8(&in, &entries)) {
    return EncodingCorruption(kName, "truncated header");
  }
  if (r < kWidth - kMaxLeftBits || r >= kWidth) return EncodingCorruption(kName, "bad cut");
  if (entries < 1 || entries > kMaxEntries) return EncodingCorruption(kName, "bad entry count");
  if (in.size() < 2u * entries) return EncodingCorruption(kName, "truncated dictionary");
  const uint32_t left_limit = uint32_t{1} << (kWidth - r);
  U dictionary[kMaxEntries];
  for (size_t k = 0; k < entries; k++) {
    const uint16_t entry = DecodeFixed16(in.data() + 2 * k);
    if (entry >= left_limit) return EncodingCorruption(kName, "dictionary entry too wide");
    dictionary[k] = static_cast<U>(U{entry} << r);
    for (size_t j = 0; j < k; j++) {
      if (dictionary[j] == dictionary[k]) return EncodingCorruption(kName, "repeated entry");
    }
  }
  in.remove_prefix(2u * entries);
  const int code_width = BitWidth(entries - 1);
  U* dst = AppendFixedSlots<T>(out, count);
  uint32_t codes[kAlpVectorValues];
  for (size_t start = 0; start < count; start += kAlpVectorValues) {
    const size_t len = std::min(kAlpVectorValues, count - start);
    uint16_t exceptions;
    if (!GetFixed16(&in, &exceptions)) return EncodingCorruption(kName, "truncated vector");
    if (exceptions > len) return EncodingCorruption(kName, "more exceptions than values");
    const size_t code_bytes = PackedSize(len, code_width);
    const size_t right_bytes = PackedSize(len, r);
    if (in.size() < code_bytes + right_bytes + 4u * exceptions) {
      return EncodingCorruption(kName, "truncated vector");
    }
    UnpackBits32(in.data(), len, code_width, codes);
    U* v = dst + start;
    UnpackRights(in.data() + code_bytes, len, r, v);
    uint32_t max_code = 0;
    for (size_t i = 0; i < len; i++) max_code = std::max(max_code, codes[i]);
    if (max_code >= entries) return EncodingCorruption(kName, "code out of range");
    for (size_t i = 0; i < len; i++) v[i] |= dictionary[codes[i]];
    in.remove_prefix(code_bytes + right_bytes);
    const U right_mask = (U{1} << r) - 1;
    int previous = -1;
    for (size_t k = 0; k < exceptions; k++) {
      const int position = DecodeFixed16(in.data() + 4 * k);
      const uint16_t left = DecodeFixed16(in.data() + 4 * k + 2);
      if (position <= previous || static_cast<size_t>(position) >= len) {
        return EncodingCorruption(kName, "bad exception position");
      }
      if (left >= left_limit) return EncodingCorruption(kName, "exception too wide");
      previous = position;
      v[position] = static_cast<U>((v[position] & right_mask) | (U{left} << r));
    }
    in.remove_prefix(4u * exceptions);
  }
  if (!in.empty()) return EncodingCorruption(kName, "trailing bytes after the values");
  return Status::OK();
}

Status Encode(const ColumnVector& values, std::string* out) {
  VisitFloatType(values.type(), [&](auto tag) {
    using T = decltype(tag);
    const T* v = values.data<T>();
    EncodeWithPlan(v, values.size(), AnalyzeAlpRd(v, values.size()), out);
  });
  return Status::OK();
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  return VisitFloatType(type,
                        [&](auto tag) { return DecodeTyped<decltype(tag)>(body, count, out); });
}

}  // namespace

template <typename T>
AlpRdAnalysis AnalyzeAlpRd(const T* values, size_t n) {
  if (n == 0) return AlpRdAnalysis();
  AlpRdAnalysis plan = ChoosePlan(reinterpret_cast<const UnsignedOf<T>*>(values), n);
  // Header (cut, count, dictionary) and the per-vector exception counts.
  const double vectors = static_cast<double>((n + kAlpVectorValues - 1) / kAlpVectorValues);
  const double overhead_bits = 8.0 * (2 + 2 * plan.dictionary.size()) + 16.0 * vectors;
  plan.bits_per_value += overhead_bits / n;
  return plan;
}

template <typename T>
void EncodeAlpRd(const T* values, size_t n, const AlpRdAnalysis& analysis, std::string* out) {
  EncodeWithPlan(values, n, analysis, out);
}

template AlpRdAnalysis AnalyzeAlpRd<float>(const float*, size_t);
template AlpRdAnalysis AnalyzeAlpRd<double>(const double*, size_t);
template void EncodeAlpRd<float>(const float*, size_t, const AlpRdAnalysis&, std::string*);
template void EncodeAlpRd<double>(const double*, size_t, const AlpRdAnalysis&, std::string*);

const Codec& AlpRdCodec() {
  static const Codec codec{Encoding::kAlpRd, kName, &IsFloatType, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
