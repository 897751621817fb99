// rice_delta: delta coding with Rice-coded differences, for series whose differences are noise
// around a level: a full-precision float random walk (through float_delta's order-preserving
// integer image), jittered timestamps, counters. Rice codes spend within about a tenth of a bit
// of the entropy on a Gaussian difference, and the flat-quotient variant below within a few
// hundredths, where bit-packing a miniblock at the width of its largest difference loses more
// than half a bit. Takes int32, int64, float32 and float64; bit exact (NaN payloads and -0.0
// included).
//
// Byte layout (n values, n from the chunk header; nothing at all when n = 0):
//
//   first      int32 / int64: value 0 as a zigzag varint (signed, of the type's width)
//              float32 / float64: value 0's bit pattern, 4 / 8 bytes little-endian
//   blocks     the n - 1 differences d[i] = x[i] - x[i-1] (wrapping, at the type's width; x is
//              the value for integers, OrderedImage (float_order.h) of its bit pattern for
//              floats), in blocks of kRiceBlockValues = 128 (the last may be shorter), each:
//     header     u8   bits 0-5: the Rice parameter k, at most the type's width - 2; or 63: a
//                           constant block, whose differences all equal the center and
//                           after whose center nothing follows
//                     bit 6: a center follows (otherwise the center c is 0)
//                     bit 7: flat quotients, f = 2 (otherwise unary quotients, f = 0)
//     center     zigzag varint c, signed of the type's width (only with bit 6)
//     fields     for each z = zigzag(d - c) (wrapping), a field of k + f bits holding the low k
//                bits of z and, above them, min(z >> k, 2^f - 1); bit-packed LSB-first
//                (bit_packing.h), PackedSize(len, k + f) bytes
//     quotients  starting at the bit after the last field (in the fields' last byte), one unary
//                code per overflowing field, in order. A field overflows when its top f bits
//                are all ones (with f = 0, every field does); its code holds
//                e = (z >> k) - (2^f - 1) as e zero bits, then a one bit. An e of kEscape = 16
//                or more is written as 16 zero bits and a one bit, e - 16 going to the escapes.
//                Zero bits pad the last byte.
//     escapes    varint e - 16 for each escaped code, in order
//   Every z must fit the type's width.
//
// Anchored form (rice_delta_anchored, encoding 21; written and read by the chunk layer only):
// the same layout with `first` replaced by
//
//   position   varint32 p < n: the index of the value equal to the anchor
//
// where the anchor is a value the reader holds already: the chunk's row-group zone-map minimum
// (chunk.h, ChunkWriteOptions::anchor). The differences are those of the plain form; x[p] is
// the anchor's x, and every other x follows from it through the differences. A random walk's
// first float (4 bytes that block compression cannot shrink) becomes a byte.
//
// f = 0 is the plain Rice code (best for geometric-like differences); f = 2 gives the first
// three quotients two bits each, which suits the flatter quotients of Gaussian differences.
// The encoder picks, per block, the center (0 or the mean difference) the size model prefers,
// then the f and k giving the fewest bits (every k weighed from one histogram of the block,
// rice_code_counts.h). Decoding unpacks the fields with the shared bit unpacker, reads the unary
// codes a 64-bit word at a time (one count-trailing-zeros each) and merges them without
// branches.
#include "table_format/encodings/rice_delta.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "table_format/bit_packing.h"
#include "table_format/encodings/codec.h"
#include "table_format/encodings/float_order.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/encodings/rice_code_counts.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

// -ln(golden ratio - 1): the geometric model's optimal k is the smallest with
// 2^k >= kGolombFactor x mean (Kiely, "Selecting the Golomb parameter in Rice coding").
constexpr double kGolombFactor = 0.48121182505960347;

}  // namespace

int RiceParameterForMean(double mean, int max_k) {
  const double target = kGolombFactor * mean;
  if (!(target > 1)) return 0;  // NaN included
  return std::min(max_k, static_cast<int>(std::ceil(std::log2(target))));
}

double RiceBitsEstimate(double sum, size_t count, int max_k) {
  const double mean = sum / static_cast<double>(count);
  const int k = RiceParameterForMean(mean, max_k);
  // Under the geometric model, z >> k is geometric with ratio exp(-2^k / (mean + 1/2)).
  const double expected_quotient = 1 / std::expm1(std::ldexp(1.0, k) / (mean + 0.5));
  return static_cast<double>(count) * (k + 1 + expected_quotient);
}

template <typename U>
double EstimateRiceDeltaBytes(const U* deltas, size_t n) {
  using S = std::make_signed_t<U>;
  constexpr int kMaxK = static_cast<int>(sizeof(U) * 8) - 2;  // the layout's largest k
  constexpr double kMaxCenter = 9.2e18;                       // within int64
  double bytes = 0;
  for (size_t start = 0; start < n; start += kRiceBlockValues) {
    const size_t len = std::min(kRiceBlockValues, n - start);
    const U* d = deltas + start;
    double signed_sum = 0;
    double sum = 0;
    for (size_t i = 0; i < len; i++) {
      signed_sum += static_cast<double>(static_cast<S>(d[i]));
      sum += static_cast<double>(ZigZag<U>(d[i]));
    }
    const double mean = std::clamp(signed_sum / static_cast<double>(len), -kMaxCenter, kMaxCenter);
    const auto center = static_cast<U>(static_cast<S>(std::llround(mean)));
    double centered_sum = 0;
    for (size_t i = 0; i < len; i++) centered_sum += static_cast<double>(ZigZag<U>(d[i] - center));
    const double center_bytes =
        center == 0 ? 0 : VarintLength(ZigZagEncode(static_cast<int64_t>(static_cast<S>(center))));
    if (centered_sum == 0) {  // a constant block: its header and center
      bytes += 1 + center_bytes;
      continue;
    }
    const double centered = RiceBitsEstimate(centered_sum, len, kMaxK) / 8 + center_bytes;
    const double uncentered = RiceBitsEstimate(sum, len, kMaxK) / 8;
    bytes += 1.5 + std::min(centered, uncentered);  // header, and the last byte's padding
  }
  return bytes;
}

template double EstimateRiceDeltaBytes<uint32_t>(const uint32_t*, size_t);
template double EstimateRiceDeltaBytes<uint64_t>(const uint64_t*, size_t);

namespace {

constexpr const char* kName = "rice_delta";
constexpr uint32_t kEscape = 16;
constexpr uint8_t kParameterMask = 0x3f;
constexpr uint8_t kConstantBlock = 0x3f;
constexpr uint8_t kCenterFlag = 0x40;
constexpr uint8_t kFlatFlag = 0x80;
constexpr int kFlatBits = 2;

template <typename U>
constexpr int kBits = static_cast<int>(sizeof(U) * 8);
static_assert(kRiceBlockValues <= RiceCodeCounts<uint64_t>::kMaxValues,
              "a block's histogram counts in bytes");
template <typename U>
constexpr int kMaxParameter = kBits<U> - kFlatBits;

bool Supports(PhysicalType type) { return IsIntegerType(type) || IsFloatType(type); }

// x of the layout: integers as they are, floats through their order-preserving image (which
// is its own inverse, so this also maps x back).
template <typename T>
UnsignedOf<T> Ordered(UnsignedOf<T> bits) {
  if constexpr (std::is_floating_point_v<T>) {
    return OrderedImage(bits);
  } else {
    return bits;
  }
}

template <typename T>
void PutFirst(UnsignedOf<T> bits, std::string* out) {
  if constexpr (std::is_floating_point_v<T>) {
    char raw[sizeof(T)];
    std::memcpy(raw, &bits, sizeof(T));
    out->append(raw, sizeof(T));
  } else {
    PutSignedVarint(out, bits);
  }
}

template <typename T>
bool GetFirst(Slice* in, UnsignedOf<T>* bits) {
  if constexpr (std::is_floating_point_v<T>) {
    if (in->size() < sizeof(T)) return false;
    std::memcpy(bits, in->data(), sizeof(T));
    in->remove_prefix(sizeof(T));
    return true;
  } else {
    return GetSignedVarint(in, bits);
  }
}

// Bits of a unary code holding e, escape included.
inline uint64_t UnaryBits(uint64_t e) {
  return e < kEscape ? e + 1 : kEscape + 1 + 8 * static_cast<uint64_t>(VarintLength(e - kEscape));
}

// ---- encoding ----

template <typename U>
struct BlockPlan {
  U center = 0;
  int k = 0;
  int f = 0;
  bool constant = false;
  uint64_t bits = 0;       // of the fields, codes and center
  uint64_t code_bits = 0;  // of the unary codes alone
  bool escapes = false;    // whether a code escapes
};

// The (k, f) giving the fewest bits near k: moving to a neighbour while that gives fewer. The
// bits of a k are computed once.
template <typename U>
void ClimbFrom(const RiceCodeCounts<U>& counts, const U* z, int k, BlockPlan<U>* plan) {
  constexpr int kCount = kMaxParameter<U> + 1;
  uint64_t known[kCount][2];
  bool have[kCount] = {};
  const auto bits_of = [&](int kk) -> const uint64_t* {
    if (!have[kk]) {
      counts.CodeBits(z, kk, known[kk]);
      have[kk] = true;
    }
    return known[kk];
  };
  int step = 0;  // the direction of the last move
  while (true) {
    const int ks[3] = {std::max(k - 1, 0), k, std::min(k + 1, kMaxParameter<U>)};
    const uint64_t* bits[3] = {bits_of(ks[0]), bits_of(ks[1]), bits_of(ks[2])};
    int best = 1;
    for (int t : {0, 2}) {
      if (std::min(bits[t][0], bits[t][1]) < std::min(bits[best][0], bits[best][1])) best = t;
    }
    const int move = best - 1;
    if (move == 0 || ks[best] == k || move == -step) {
      plan->k = ks[best];
      plan->f = bits[best][1] < bits[best][0] ? kFlatBits : 0;
      plan->bits = std::min(bits[best][0], bits[best][1]);
      return;
    }
    k = ks[best];
    step = move;
  }
}

// The (k, f) giving the fewest bits for z, whose sum is `sum` and histogram `counts`. The cost is
// close to convex in k, but escapes leave local minima: a block of small values and one outlier has
// a mean that suggests a large k. So the search climbs from the geometric model's k for the mean,
// and also from the k the values' typical width suggests when the two are far apart.
template <typename U>
void ChooseParameters(const RiceCodeCounts<U>& counts, const U* z, size_t len,
                      unsigned __int128 sum, BlockPlan<U>* plan) {
  const size_t widths = counts.width_sum();
  const int from_mean =
      RiceParameterForMean(static_cast<double>(sum) / static_cast<double>(len), kMaxParameter<U>);
  const int from_widths =
      std::clamp(static_cast<int>((widths + len / 2) / len) - 1, 0, kMaxParameter<U>);
  ClimbFrom(counts, z, from_mean, plan);
  if (std::abs(from_widths - from_mean) > 1) {
    BlockPlan<U> other;
    ClimbFrom(counts, z, from_widths, &other);
    if (other.bits < plan->bits) {
      plan->k = other.k;
      plan->f = other.f;
      plan->bits = other.bits;
    }
  }
}

// Sums of a block's differences d (len <= kRiceBlockValues), exact: 64-bit words hold them
// while every z is below 2^57, as then |d| <= 2^56 and 128 of them sum to less than 2^63 (and
// the z to less than 2^64); a block with a wider z is summed again in 128 bits.
constexpr int kNarrowBits = 57;
static_assert(kRiceBlockValues <= (size_t{1} << (64 - kNarrowBits)),
              "a block of narrow values sums within 64 bits");

template <typename U>
bool Narrow(U widest) {
  return (static_cast<uint64_t>(widest) >> kNarrowBits) == 0;
}

// Fills z = ZigZag(d), counts the z in *counts (the same pass) and returns the exact sum of the d
// (as signed) and that of the z.
template <typename U>
void SumDifferences(const U* d, size_t len, U* z, __int128* signed_sum,
                    unsigned __int128* zigzag_sum, RiceCodeCounts<U>* counts) {
  using S = std::make_signed_t<U>;
  uint64_t d_sum = 0;  // wrapping; exact when narrow
  uint64_t z_sum = 0;
  U widest = 0;
  counts->AddEach(len, [&](size_t i) {
    z[i] = ZigZag<U>(d[i]);
    d_sum += static_cast<uint64_t>(static_cast<int64_t>(static_cast<S>(d[i])));
    z_sum += z[i];
    widest |= z[i];
    return z[i];
  });
  if (Narrow(widest)) {
    *signed_sum = static_cast<int64_t>(d_sum);
    *zigzag_sum = z_sum;
    return;
  }
  *signed_sum = 0;
  *zigzag_sum = 0;
  for (size_t i = 0; i < len; i++) {
    *signed_sum += static_cast<S>(d[i]);
    *zigzag_sum += z[i];
  }
}

// Fills z = ZigZag(d - center) and returns the exact sum of the z.
template <typename U>
unsigned __int128 SumCentered(const U* d, size_t len, U center, U* z) {
  uint64_t sum = 0;  // wrapping; exact when narrow
  U widest = 0;
  for (size_t i = 0; i < len; i++) {
    z[i] = ZigZag<U>(d[i] - center);
    sum += z[i];
    widest |= z[i];
  }
  if (Narrow(widest)) return sum;
  unsigned __int128 exact = 0;
  for (size_t i = 0; i < len; i++) exact += z[i];
  return exact;
}

// The block's plan; z is left holding zigzag(d - center) for it. A constant block's center is
// its difference. Otherwise the center is whichever of 0 and the mean difference (rounded
// towards zero) the size model (rice_delta.h) codes in fewer bits, then the parameters are
// searched for it, from the histogram of its z (counted again only for a center, which the
// model seldom takes).
template <typename U>
BlockPlan<U> PlanBlock(const U* d, size_t len, U* z) {
  using S = std::make_signed_t<U>;
  BlockPlan<U> plan;
  if (std::all_of(d + 1, d + len, [&](U v) { return v == d[0]; })) {
    plan.center = d[0];
    plan.constant = true;
    return plan;
  }
  __int128 signed_sum;
  unsigned __int128 sum;
  RiceCodeCounts<U> counts;
  SumDifferences(d, len, z, &signed_sum, &sum, &counts);
  const U mean = static_cast<U>(static_cast<S>(signed_sum / static_cast<__int128>(len)));
  if (mean != 0) {
    U centered[kRiceBlockValues];
    const unsigned __int128 centered_sum = SumCentered(d, len, mean, centered);
    const double center_bits = 8.0 * VarintLength(ZigZag<U>(mean));
    if (RiceBitsEstimate(static_cast<double>(centered_sum), len, kMaxParameter<U>) + center_bits <
        RiceBitsEstimate(static_cast<double>(sum), len, kMaxParameter<U>)) {
      plan.center = mean;
      std::memcpy(z, centered, len * sizeof(U));
      sum = centered_sum;
      counts.Reset();
      counts.Add(z, len);
    }
  }
  counts.Finish();
  ChooseParameters(counts, z, len, sum, &plan);
  // The codes at the chosen k, from the histogram: an overflowing field's code holds
  // q - (2^f - 1), capped at kEscape, in that many bits plus one.
  const auto sums = counts.SumsFor(plan.k);
  plan.code_bits = plan.f == 0 ? len + sums.unary : sums.flat;
  plan.escapes = (plan.f == 0 ? sums.escapes : sums.flat_escapes) > 0;
  if (plan.center != 0)
    plan.bits += 8 * static_cast<uint64_t>(VarintLength(ZigZag<U>(plan.center)));
  return plan;
}

// Sets the bit that ends each unary code, holding e[i] (capped at kEscape: kCapped tells whether
// any needs it), from bit `bit` of `bytes` on.
template <bool kCapped, typename U>
void PutUnaryCodes(const U* e, size_t count, uint64_t bit, uint8_t* bytes) {
  for (size_t i = 0; i < count; i++) {
    bit += kCapped && e[i] >= kEscape ? kEscape : e[i];
    bytes[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
    bit++;
  }
}

// Splits each z into its field, left in z, and, when the field overflows, its code's value
// (z >> k) - (2^f - 1), appended to e; returns the number of codes.
template <typename U>
size_t SplitFields(U* z, size_t len, int k, int f, U* e) {
  const U low_mask = (U{1} << k) - 1;
  if (f == 0) {  // every field overflows, its code holding the whole quotient
    for (size_t i = 0; i < len; i++) {
      e[i] = z[i] >> k;
      z[i] &= low_mask;
    }
    return len;
  }
  const U top = (U{1} << f) - 1;
  size_t overflows = 0;
  for (size_t i = 0; i < len; i++) {
    const U q = z[i] >> k;
    e[overflows] = q - top;  // kept only when the field overflows: no branch to mispredict
    overflows += q >= top;
    z[i] = static_cast<U>(std::min(q, top) << k) | (z[i] & low_mask);
  }
  return overflows;
}

// The fields, then the unary codes from the bit after the last field, then the escapes. A
// unary code is zero bits ended by a one bit: the codes' bytes start zeroed and each code sets
// the bit that ends it. The plan tells the codes' bits and whether any escapes.
template <typename U>
void PutCodes(U* z, size_t len, const BlockPlan<U>& plan, std::string* out) {
  const int width = plan.k + plan.f;
  const uint64_t field_bits = len * static_cast<uint64_t>(width);
  const size_t at = out->size();
  out->resize(at + (field_bits + plan.code_bits + 7) / 8);
  auto* bytes = reinterpret_cast<uint8_t*>(&(*out)[at]);
  U e[kRiceBlockValues];
  size_t overflows = 0;
  if (plan.f == 0 && !plan.escapes) {
    // Every code is a whole quotient below kEscape: set as its field is split off, one pass.
    const U low_mask = (U{1} << plan.k) - 1;
    uint64_t bit = field_bits;
    for (size_t i = 0; i < len; i++) {
      bit += z[i] >> plan.k;
      bytes[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
      bit++;
      z[i] &= low_mask;
    }
  } else {
    overflows = SplitFields(z, len, plan.k, plan.f, e);
  }
  // The codes start at the bit after the last field: the rest of its byte is theirs, which the
  // packer overwrites.
  const size_t shared = field_bits / 8;
  const int field_rest = static_cast<int>(field_bits % 8);
  const uint8_t codes_there = field_rest != 0 ? bytes[shared] : 0;
  PackWords(z, len, width, reinterpret_cast<char*>(bytes));
  if (field_rest != 0) {
    bytes[shared] = static_cast<uint8_t>((bytes[shared] & ((1u << field_rest) - 1)) | codes_there);
  }
  if (!plan.escapes) {
    PutUnaryCodes<false>(e, overflows, field_bits, bytes);
    return;
  }
  PutUnaryCodes<true>(e, overflows, field_bits, bytes);
  for (size_t i = 0; i < overflows; i++) {
    if (e[i] >= kEscape) PutVarint64(out, e[i] - kEscape);
  }
}

template <typename U>
void PutBlock(const U* d, size_t len, std::string* out) {
  U z[kRiceBlockValues];
  const BlockPlan<U> plan = PlanBlock(d, len, z);
  uint8_t header = plan.constant ? kConstantBlock : static_cast<uint8_t>(plan.k);
  if (plan.center != 0) header |= kCenterFlag;
  if (plan.f != 0) header |= kFlatFlag;
  out->push_back(static_cast<char>(header));
  if (plan.center != 0) PutSignedVarint(out, plan.center);
  if (!plan.constant) PutCodes(z, len, plan, out);
}

// The blocks of the n - 1 differences of `bits` (n >= 1).
template <typename T>
void PutDifferences(const UnsignedOf<T>* bits, size_t n, std::string* out) {
  using U = UnsignedOf<T>;
  std::vector<U> deltas(n - 1);
  U previous = Ordered<T>(bits[0]);
  for (size_t i = 1; i < n; i++) {
    const U x = Ordered<T>(bits[i]);
    deltas[i - 1] = x - previous;
    previous = x;
  }
  for (size_t start = 0; start < deltas.size(); start += kRiceBlockValues) {
    PutBlock(deltas.data() + start, std::min(kRiceBlockValues, deltas.size() - start), out);
  }
}

template <typename T>
void EncodeTyped(const ColumnVector& values, std::string* out) {
  const size_t n = values.size();
  if (n == 0) return;
  const UnsignedOf<T>* bits = BitsOf<T>(values);
  PutFirst<T>(bits[0], out);
  PutDifferences<T>(bits, n, out);
}

// ---- decoding ----

// Up to 8 bytes at p as a little-endian word, zero-filled past `available`.
inline uint64_t LoadWord(const uint8_t* p, size_t available) {
  uint64_t word = 0;
  if (available >= 8) {
    std::memcpy(&word, p, 8);
  } else {
    for (size_t b = 0; b < available; b++) word |= uint64_t{p[b]} << (8 * b);
  }
  return word;
}

// Reads `count` unary codes from the `size` bytes at p, starting at bit `first_bit`, a 64-bit
// word at a time; each code's value (at most kEscape) goes to e, and *used receives the bytes
// up to the last code's. False when the stream is truncated, a code is too long or the
// padding bits after the last code are not zero.
bool GetUnaryCodes(const uint8_t* p, size_t size, uint64_t first_bit, size_t count, uint64_t* e,
                   size_t* escapes, size_t* used) {
  uint64_t start = first_bit;  // the bit where the current code begins
  uint64_t longest = 0;
  size_t escaped = 0;
  size_t i = 0;
  for (size_t byte = first_bit / 8 / 8 * 8; byte < size && i < count; byte += 8) {
    uint64_t word = LoadWord(p + byte, size - byte);
    if (8 * byte < first_bit) word &= ~uint64_t{0} << (first_bit - 8 * byte);
    while (word != 0 && i < count) {
      const uint64_t end = 8 * byte + static_cast<uint64_t>(__builtin_ctzll(word));
      const uint64_t value = end - start;
      longest = std::max(longest, value);
      escaped += value == kEscape;
      e[i++] = value;
      start = end + 1;
      word &= word - 1;
    }
  }
  if (i < count || longest > kEscape) return false;
  *used = (start + 7) / 8;
  if ((start & 7) != 0 && (p[*used - 1] >> (start & 7)) != 0) return false;
  *escapes = escaped;
  return true;
}

// Replaces each escaped code value by kEscape + its varint from the front of *in.
bool GetEscapes(Slice* in, size_t count, uint64_t* e) {
  for (size_t i = 0; i < count; i++) {
    if (e[i] != kEscape) continue;
    uint64_t extra;
    if (!GetVarint64(in, &extra) || extra > UINT64_MAX - kEscape) return false;
    e[i] += extra;
  }
  return true;
}

// z >> k = q fits the rest of U.
template <typename U>
bool QuotientFits(uint64_t q, int k) {
  const int room = kBits<U> - k;
  return room >= 64 || (q >> room) == 0;
}

// Fields whose top f bits are all ones, counted in four independent lanes.
template <typename W>
size_t CountOverflows(const W* fields, size_t len, int k, int f) {
  if (f == 0) return len;
  const W threshold = static_cast<W>(((W{1} << f) - 1) << k);  // the smallest such field
  size_t lanes[4] = {0, 0, 0, 0};
  size_t i = 0;
  for (; i + 4 <= len; i += 4) {
    for (int t = 0; t < 4; t++) lanes[t] += fields[i + t] >= threshold;
  }
  for (; i < len; i++) lanes[0] += fields[i] >= threshold;
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

// The block's values: each difference is its field's low k bits, with the quotient above
// them (the field's top bits, plus its code when it overflows), unzigzagged, plus the center;
// *x runs through the block's values. `checked` verifies that every quotient fits (escaped
// codes, or a k close to the type's width). kImage: out receives the values' bit patterns;
// otherwise their x (the anchored form shifts them all before mapping them once).
template <typename T, typename W, bool kImage>
bool AccumulateBlock(const W* fields, size_t len, int k, int f, UnsignedOf<T> center,
                     const uint64_t* e, bool checked, UnsignedOf<T>* x, UnsignedOf<T>* out) {
  using U = UnsignedOf<T>;
  const W top = static_cast<W>((W{1} << f) - 1);
  const W low_mask = static_cast<W>((W{1} << k) - 1);
  U acc = *x;
  size_t j = 0;
  uint64_t fits = 1;
  for (size_t i = 0; i < len; i++) {
    const W field_top = fields[i] >> k;
    const uint64_t overflow = field_top == top;
    const uint64_t q = field_top + (e[j] & (0 - overflow));  // a mask: no branch to mispredict
    j += overflow;
    if (checked) fits &= QuotientFits<U>(q, k);
    const U z = static_cast<U>(static_cast<U>(q) << k) | static_cast<U>(fields[i] & low_mask);
    acc += UnZigZag<U>(z) + center;
    out[i] = kImage ? Ordered<T>(acc) : acc;
  }
  *x = acc;
  return fits != 0;
}

// The fields, unary codes and escapes of a block with parameters k and f, as words W wide
// enough for the fields.
template <typename T, typename W, bool kImage>
Status GetCodes(Slice* in, size_t len, int k, int f, UnsignedOf<T> center, UnsignedOf<T>* x,
                UnsignedOf<T>* out) {
  const int width = k + f;
  const size_t field_bytes = PackedSize(len, width);
  if (in->size() < field_bytes) return EncodingCorruption(kName, "truncated fields");
  W fields[kRiceBlockValues];
  UnpackWithReference(in->data(), len, width, W{0}, fields);
  const size_t overflows = CountOverflows(fields, len, k, f);
  uint64_t e[kRiceBlockValues + 1];
  size_t escapes = 0;
  size_t used = 0;
  if (!GetUnaryCodes(reinterpret_cast<const uint8_t*>(in->data()), in->size(),
                     len * static_cast<size_t>(width), overflows, e, &escapes, &used)) {
    return EncodingCorruption(kName, "bad unary codes");
  }
  in->remove_prefix(used);
  if (escapes > 0 && !GetEscapes(in, overflows, e)) {
    return EncodingCorruption(kName, "bad escaped code");
  }
  e[overflows] = 0;  // read, never used, after the last overflow
  // Unescaped quotients (below 2^5) cannot overflow unless k is that close to the width.
  const bool checked = escapes > 0 || width + 5 > kBits<UnsignedOf<T>>;
  if (!AccumulateBlock<T, W, kImage>(fields, len, k, f, center, e, checked, x, out)) {
    return EncodingCorruption(kName, "difference wider than the type");
  }
  return Status::OK();
}

// Decodes one block of len values into out (bit patterns if kImage, else x); *x is the x before
// them and becomes the last.
template <typename T, bool kImage>
Status GetBlock(Slice* in, size_t len, UnsignedOf<T>* x, UnsignedOf<T>* out) {
  using U = UnsignedOf<T>;
  uint8_t header;
  if (!GetFixed8(in, &header)) return EncodingCorruption(kName, "truncated block header");
  const int k = header & kParameterMask;
  const int f = (header & kFlatFlag) != 0 ? kFlatBits : 0;
  U center = 0;
  if ((header & kCenterFlag) != 0 && !GetSignedVarint(in, &center)) {
    return EncodingCorruption(kName, "bad center");
  }
  if (k == kConstantBlock) {
    if (f != 0) return EncodingCorruption(kName, "flat quotients in a constant block");
    U acc = *x;
    for (size_t i = 0; i < len; i++) {
      acc += center;
      out[i] = kImage ? Ordered<T>(acc) : acc;
    }
    *x = acc;
    return Status::OK();
  }
  if (k > kMaxParameter<U>) return EncodingCorruption(kName, "Rice parameter too large");
  // Fields of up to 31 bits are unpacked and merged as 32-bit words.
  return k + f < 32 ? GetCodes<T, uint32_t, kImage>(in, len, k, f, center, x, out)
                    : GetCodes<T, uint64_t, kImage>(in, len, k, f, center, x, out);
}

// The value stored first: the first value's bit pattern, or the anchor's position.
struct FirstValue {
  bool anchored = false;
  uint64_t anchor = 0;  // the anchor's bit pattern, zero-extended
};

template <typename T>
Status DecodeTyped(const Slice& body, size_t count, const FirstValue& first, ColumnVector* out) {
  using U = UnsignedOf<T>;
  if (count == 0) {
    return body.empty() ? Status::OK() : EncodingCorruption(kName, "trailing bytes");
  }
  // Every block takes at least its header byte: reject a forged count before allocating.
  const size_t blocks = (count - 1 + kRiceBlockValues - 1) / kRiceBlockValues;
  if (body.size() <= blocks) return EncodingCorruption(kName, "body too short for the count");
  Slice in = body;
  uint32_t position = 0;
  if (first.anchored) {
    if (!GetVarint32(&in, &position) || position >= count) {
      return EncodingCorruption(kName, "bad anchor position");
    }
  }
  U* dst = AppendFixedSlots<T>(out, count);
  if (!first.anchored && !GetFirst<T>(&in, &dst[0])) {
    return EncodingCorruption(kName, "bad first value");
  }
  // Anchored: the x are decoded from x[0] = 0, then moved so that x[position] is the anchor's x
  // and mapped to bit patterns, one pass.
  U x = first.anchored ? U{0} : Ordered<T>(dst[0]);
  if (first.anchored) dst[0] = x;
  for (size_t start = 0; start + 1 < count; start += kRiceBlockValues) {
    const size_t len = std::min(kRiceBlockValues, count - 1 - start);
    Status s = first.anchored ? GetBlock<T, false>(&in, len, &x, dst + 1 + start)
                              : GetBlock<T, true>(&in, len, &x, dst + 1 + start);
    if (!s.ok()) return s;
  }
  if (!in.empty()) return EncodingCorruption(kName, "trailing bytes after the values");
  if (first.anchored) {
    const U shift = Ordered<T>(static_cast<U>(first.anchor)) - dst[position];
    const auto move = [shift](U* v) { *v = Ordered<T>(static_cast<U>(*v + shift)); };
    // Runs of 8: a fixed trip count that -O2's cheap vectorizer takes.
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
      for (size_t j = 0; j < 8; j++) move(&dst[i + j]);
    }
    for (; i < count; i++) move(&dst[i]);
  }
  return Status::OK();
}

Status Encode(const ColumnVector& values, std::string* out) {
  VisitFixedType(values.type(), [&](auto tag) { EncodeTyped<decltype(tag)>(values, out); });
  return Status::OK();
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  return VisitFixedType(
      type, [&](auto tag) { return DecodeTyped<decltype(tag)>(body, count, FirstValue(), out); });
}

Status RefuseEncode(const ColumnVector& /*values*/, std::string* /*out*/) {
  return Status::InvalidArgument("rice_delta_anchored: needs the anchor");
}

Status RefuseDecode(PhysicalType /*type*/, const Slice& /*body*/, size_t /*count*/,
                    ColumnVector* /*out*/) {
  return Status::Corruption("rice_delta_anchored: chunk read without its anchor");
}

}  // namespace

bool RiceDeltaToAnchored(const ColumnVector& values, const Slice& body, uint64_t anchor,
                         std::string* out) {
  if (values.has_nulls() || values.empty() || !Supports(values.type())) return false;
  return VisitFixedType(values.type(), [&](auto tag) {
    using T = decltype(tag);
    using U = UnsignedOf<T>;
    const U* bits = BitsOf<T>(values);
    const U* found = std::find(bits, bits + values.size(), static_cast<U>(anchor));
    if (found == bits + values.size() || static_cast<uint64_t>(*found) != anchor) return false;
    // The differences are the same: only the first value gives way to the position.
    Slice differences = body;
    U first;
    if (!GetFirst<T>(&differences, &first) || first != bits[0]) return false;
    PutVarint32(out, static_cast<uint32_t>(found - bits));
    out->append(differences.data(), differences.size());
    return true;
  });
}

bool EncodeRiceDeltaAnchored(const ColumnVector& values, uint64_t anchor, std::string* out) {
  if (values.has_nulls() || values.empty() || !Supports(values.type())) return false;
  std::string body;
  Encode(values, &body);
  return RiceDeltaToAnchored(values, body, anchor, out);
}

Status DecodeRiceDeltaAnchored(PhysicalType type, const Slice& body, size_t count, uint64_t anchor,
                               ColumnVector* out) {
  if (!Supports(type)) return EncodingCorruption(kName, "anchored chunk of a variable-width type");
  if (count > kMaxEncodedValues) return EncodingCorruption(kName, "implausible value count");
  FirstValue first;
  first.anchored = true;
  first.anchor = anchor;
  return VisitFixedType(
      type, [&](auto tag) { return DecodeTyped<decltype(tag)>(body, count, first, out); });
}

const Codec& RiceDeltaCodec() {
  static const Codec codec{Encoding::kRiceDelta, kName, &Supports, &Encode, &Decode};
  return codec;
}

const Codec& RiceDeltaAnchoredCodec() {
  static const Codec codec{Encoding::kRiceDeltaAnchored, "rice_delta_anchored", &Supports,
                           &RefuseEncode, &RefuseDecode};
  return codec;
}

}  // namespace columnar
