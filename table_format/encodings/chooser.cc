// The auto chooser. It runs in every flush and compaction, so it must be cheap:
//
//   1. One analysis pass over the values gathers what each candidate's size depends on, and
//      turns it into a size estimate per candidate. Most estimates are exact because the
//      shared PackedInts layout can be sized without being written (PackedIntsSize): plain,
//      rle, for, delta, delta_of_delta, float_delta, front_coding, hex, constant (proposed
//      only for a single run), gorilla (its bit count is simulated). Dictionary sizes are
//      estimated from a capped distinct count; alp and alp_rd from ALP's own chunk-level
//      sample; rice_delta from the sums of its zigzagged differences per block (the Rice
//      parameter follows analytically, rice_delta.h). mixed_radix is exact from the range.
//      huffman is exact from the value counts, computed only for integer columns whose
//      distinct values stay under the dictionary estimate's cap; rice is exact (its
//      parameter search runs on the values).
//      template is sized by encoding it, and
//      only for strings that are not all hex and often hold digits.
//   2. Only the best estimate is encoded, and the second best too when it could still come
//      out smaller than that body: its estimate, less the estimate's margin of error (0 for
//      exact ones, 3% for rice_delta's, whose model errs high by about that, 25% for the
//      others), is below the body's size. The smaller body wins.
//   3. Gorilla decodes an order of magnitude slower than the rest, so it is encoded only when
//      its (exact) estimate is at least 10% below the best body so far, and kept only if its
//      body is.
#include "table_format/encodings/chooser.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include "table_format/bit_packing.h"
#include "table_format/encodings/alp.h"
#include "table_format/encodings/byte_strings.h"
#include "table_format/encodings/codec.h"
#include "table_format/encodings/float_order.h"
#include "table_format/encodings/hex_digits.h"
#include "table_format/encodings/huffman.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/encodings/key_index.h"
#include "table_format/encodings/mixed_radix.h"
#include "table_format/encodings/rice.h"
#include "table_format/encodings/rice_delta.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr double kUnknown = std::numeric_limits<double>::infinity();
constexpr double kGorillaMaxRatio = 0.9;
constexpr size_t kFullyEncoded = 2;

// An encoding's bit in a set of encodings (every id but kAuto's is below 32).
constexpr uint32_t EncodingBit(Encoding e) {
  return static_cast<uint8_t>(e) < 32 ? uint32_t{1} << static_cast<uint8_t>(e) : 0;
}

// Counts distinct 64-bit keys (bit patterns, or string hashes) up to a cap. A cap of at most
// kSmallCap (chunks of up to 4 x kSmallCap values) counts in a table of its own on the stack;
// a larger one in a KeyIndex, which starts small (most columns stop well below the cap) and
// grows as needed.
class DistinctCounter {
 public:
  static constexpr size_t kSmallCap = 64;

  explicit DistinctCounter(size_t cap) : cap_(cap), small_(cap <= kSmallCap) {
    if (small_) {
      std::memset(used_, 0, sizeof(used_));
    } else {
      index_.emplace(std::min<size_t>(cap, 64));
    }
  }
  void Add(uint64_t key) {
    if (overflow_) return;
    bool added;
    if (small_) {
      added = AddSmall(key);
    } else {
      index_->FindOrAdd(
          key, [](uint32_t) { return true; }, &added);
    }
    if (added && ++count_ > cap_) overflow_ = true;
  }
  void GiveUp() { overflow_ = true; }
  bool overflow() const { return overflow_; }
  size_t count() const { return count_; }

 private:
  // Linear probing in kSlots slots: at most kSmallCap + 1 keys, so a quarter full at most.
  static constexpr size_t kSlots = 4 * kSmallCap;
  bool AddSmall(uint64_t key) {
    size_t slot = KeyIndex::Mix(key) & (kSlots - 1);
    while (used_[slot]) {
      if (keys_[slot] == key) return false;
      slot = (slot + 1) & (kSlots - 1);
    }
    used_[slot] = true;
    keys_[slot] = key;
    return true;
  }

  size_t cap_;
  bool small_;
  size_t count_ = 0;
  bool overflow_ = false;
  std::optional<KeyIndex> index_;
  bool used_[kSlots];
  uint64_t keys_[kSlots];
};

// Dictionaries pay off only with few distinct values; past this share the estimate gives up.
// Numbers have cheaper alternatives (frame of reference, ALP) than strings do.
size_t DistinctCap(size_t n, PhysicalType type) {
  const size_t share = type == PhysicalType::kBytes ? n / 2 : n / 4;
  return std::max<size_t>(1, std::min<size_t>(share, 4096));
}

// Columns at least this long are sampled before their distinct values are counted; in
// shorter ones, a sample would cost about as much as counting up to the cap.
constexpr size_t kSampledValues = 256;

// True when an equidistant sample of 64 values is more than half distinct: then the column has
// far more distinct values than a numeric dictionary can profit from (DistinctCap), and
// counting them exactly would be wasted work.
template <typename U>
bool MostlyDistinctSample(const U* bits, size_t n) {
  constexpr size_t kSample = 64;
  if (n < kSampledValues) return false;
  U sample[kSample];
  for (size_t k = 0; k < kSample; k++) sample[k] = bits[k * n / kSample];
  std::sort(sample, sample + kSample);
  const size_t distinct = std::unique(sample, sample + kSample) - sample;
  return distinct > kSample / 2;
}

// Bytes of the bit-packed dictionary codes.
double CodeBytes(size_t n, size_t distinct) {
  return static_cast<double>(PackedSize(n, distinct > 1 ? BitWidth(distinct - 1) : 0));
}

using Estimates = std::vector<std::pair<Encoding, double>>;

// ALP's and ALP-RD's chunk-level analyses, made for their estimates and reused to encode.
struct FloatAnalyses {
  bool present = false;
  AlpAnalysis alp;
  AlpRdAnalysis alp_rd;
};

// The exact PackedInts size of the run lengths of the `runs` runs when rle has a chance. A
// single run is a constant chunk: `constant_bytes` is then constant's exact size.
template <typename U>
void EstimateRuns(const U* bits, size_t n, size_t runs, size_t width, double constant_bytes,
                  Estimates* estimates) {
  if (runs == 1) estimates->push_back({Encoding::kConstant, constant_bytes});
  if (2 * runs > n) return;  // no better than plain
  std::vector<uint32_t> lengths_minus_one;
  lengths_minus_one.reserve(runs);
  uint32_t length = 1;
  for (size_t i = 1; i < n; i++) {
    if (bits[i] == bits[i - 1]) {
      length++;
    } else {
      lengths_minus_one.push_back(length - 1);
      length = 1;
    }
  }
  if (n > 0) lengths_minus_one.push_back(length - 1);
  estimates->push_back(
      {Encoding::kRle,
       static_cast<double>(VarintLength(runs) + PackedIntsSize(lengths_minus_one.data(), runs) +
                           runs * width)});
}

// Gorilla's exact size: the bit count of its stream, simulated without writing it.
template <typename U>
double GorillaBytes(const U* bits, size_t n) {
  constexpr int kWidth = sizeof(U) * 8;
  constexpr int kNewWindowBits = sizeof(U) == 4 ? 2 + 5 + 6 : 2 + 6 + 7;
  if (n == 0) return 0;
  uint64_t total = 0;
  int lead = -1;
  int trail = 0;
  for (size_t i = 1; i < n; i++) {
    const U x = bits[i] ^ bits[i - 1];
    if (x == 0) {
      total += 1;
      continue;
    }
    const int new_lead = sizeof(U) == 4 ? __builtin_clz(static_cast<uint32_t>(x))
                                        : __builtin_clzll(static_cast<uint64_t>(x));
    const int new_trail = sizeof(U) == 4 ? __builtin_ctz(static_cast<uint32_t>(x))
                                         : __builtin_ctzll(static_cast<uint64_t>(x));
    if (lead >= 0 && new_lead >= lead && new_trail >= trail) {
      total += 2 + (kWidth - lead - trail);
    } else {
      lead = new_lead;
      trail = new_trail;
      total += kNewWindowBits + (kWidth - lead - trail);
    }
  }
  return sizeof(U) + static_cast<double>((total + 7) / 8);
}

// `wanted`: a bit per encoding (EncodingBit) whose estimate is to be made. Integers make every
// estimate but ALP's and ALP_RD's, floats only the wanted ones: a float column's memo often
// weighs only its last two winners (encoding_memo.h), and the others' estimates (distinct
// values, gorilla's bit count, float_delta's packing) were most of the cost.
template <typename T>
void EstimateFixed(const ColumnVector& values, uint32_t wanted, Estimates* estimates,
                   FloatAnalyses* analyses) {
  using U = UnsignedOf<T>;
  using S = std::make_signed_t<U>;
  constexpr bool kIsFloat = std::is_floating_point_v<T>;
  const auto want = [wanted](Encoding e) { return !kIsFloat || (wanted & EncodingBit(e)) != 0; };
  const bool with_alp = (wanted & EncodingBit(Encoding::kAlp)) != 0;
  const bool with_alp_rd = (wanted & EncodingBit(Encoding::kAlpRd)) != 0;
  constexpr size_t kWidth = sizeof(T);
  const U* bits = BitsOf<T>(values);
  const size_t n = values.size();
  estimates->push_back({Encoding::kPlain, static_cast<double>(n * kWidth)});
  if (n == 0) return;

  // Integers as they are, floats through their order-preserving image (a bijection: equal
  // neighbours are those whose difference is 0, so the runs are counted here too).
  const auto ordered = [&](size_t i) {
    if constexpr (kIsFloat) {
      return OrderedImage(bits[i]);
    } else {
      return bits[i];
    }
  };
  std::vector<U> deltas(n - 1);
  size_t runs = 1;
  U previous = ordered(0);
  for (size_t i = 1; i < n; i++) {
    const U x = ordered(i);
    deltas[i - 1] = x - previous;
    runs += x != previous;
    previous = x;
  }
  const double first_varint =
      VarintLength(ZigZagEncode(static_cast<int64_t>(static_cast<S>(ordered(0)))));
  // rice_delta and constant store a first float raw, a first integer as a varint.
  const double first_value = kIsFloat ? kWidth : first_varint;

  if (want(Encoding::kRle) || want(Encoding::kConstant)) {
    EstimateRuns(bits, n, runs, kWidth, first_value, estimates);
  }

  double huffman_bytes = kUnknown;
  // Not even constructed unless wanted (its table is cleared on construction).
  if (want(Encoding::kDictionary)) {
    DistinctCounter distinct(DistinctCap(n, values.type()));
    if (MostlyDistinctSample(bits, n)) {
      distinct.GiveUp();  // not worth counting: no dictionary estimate
    }
    for (size_t i = 0; i < n && !distinct.overflow(); i++) distinct.Add(bits[i]);
    if (!distinct.overflow()) {
      const size_t d = distinct.count();
      S lo = static_cast<S>(ordered(0));
      S hi = lo;
      for (size_t i = 0; i < n; i++) {
        lo = std::min(lo, static_cast<S>(ordered(i)));
        hi = std::max(hi, static_cast<S>(ordered(i)));
      }
      // Sorted entries delta-code to about their average gap's width.
      const double gap = static_cast<double>(static_cast<U>(hi) - static_cast<U>(lo)) / d;
      const double entry_bytes = 8.0 + d * (BitWidth(static_cast<uint64_t>(gap)) + 1) / 8.0;
      estimates->push_back({Encoding::kDictionary, 4 + entry_bytes + CodeBytes(n, d)});
      if constexpr (!kIsFloat) {
        // Exact; worth its sort only when the distinct values are few (the counter's cap).
        huffman_bytes = static_cast<double>(HuffmanSize(bits, n));
      }
    }
  }

  if constexpr (kIsFloat) {
    if (want(Encoding::kGorilla)) estimates->push_back({Encoding::kGorilla, GorillaBytes(bits, n)});
    if (want(Encoding::kFloatDelta)) {
      estimates->push_back(
          {Encoding::kFloatDelta, first_varint + PackedIntsSize(deltas.data(), n - 1)});
    }
    const T* typed = values.data<T>();
    analyses->present = true;
    if (with_alp) {
      analyses->alp = AnalyzeAlp(typed, n);
      estimates->push_back({Encoding::kAlp, analyses->alp.bits_per_value * n / 8});
    }
    if (with_alp_rd) {
      analyses->alp_rd = AnalyzeAlpRd(typed, n);
      estimates->push_back({Encoding::kAlpRd, analyses->alp_rd.bits_per_value * n / 8});
    }
  } else {
    estimates->push_back({Encoding::kFor, static_cast<double>(PackedIntsSize(bits, n))});
    estimates->push_back({Encoding::kDelta, first_varint + PackedIntsSize(deltas.data(), n - 1)});
    if (n >= 2) {
      std::vector<U> dods(n - 2);
      for (size_t i = 1; i + 1 < n; i++) dods[i - 1] = deltas[i] - deltas[i - 1];
      const double first_delta =
          VarintLength(ZigZagEncode(static_cast<int64_t>(static_cast<S>(deltas[0]))));
      estimates->push_back({Encoding::kDeltaOfDelta,
                            first_varint + first_delta + PackedIntsSize(dods.data(), n - 2)});
    } else {
      estimates->push_back({Encoding::kDeltaOfDelta, first_varint});
    }
  }
  // Last, so that ties go to the encodings that decode faster.
  if (want(Encoding::kRiceDelta)) {
    estimates->push_back(
        {Encoding::kRiceDelta, first_value + EstimateRiceDeltaBytes(deltas.data(), n - 1)});
  }
  if constexpr (!kIsFloat) {
    S lo = static_cast<S>(bits[0]);
    S hi = lo;
    for (size_t i = 1; i < n; i++) {
      lo = std::min(lo, static_cast<S>(bits[i]));
      hi = std::max(hi, static_cast<S>(bits[i]));
    }
    int64_t wide_lo = lo;
    int64_t wide_hi = hi;
    MixedRadixBounds(std::numeric_limits<S>::min(), std::numeric_limits<S>::max(), n, &wide_lo,
                     &wide_hi);
    const uint64_t span = static_cast<uint64_t>(wide_hi) - static_cast<uint64_t>(wide_lo);
    estimates->push_back(
        {Encoding::kMixedRadix, static_cast<double>(MixedRadixSize(wide_lo, span, n))});
    // Exact too; after mixed_radix, whose decoding is a division a group cheaper.
    int64_t tight_lo = lo;
    int64_t tight_hi = hi;
    MixedRadixBounds(std::numeric_limits<S>::min(), std::numeric_limits<S>::max(), n, &tight_lo,
                     &tight_hi, &MixedRadixTightSize);
    const size_t tight_size = MixedRadixTightSize(
        tight_lo, static_cast<uint64_t>(tight_hi) - static_cast<uint64_t>(tight_lo), n);
    // Not for the whole 64-bit range, which it cannot hold.
    if (tight_size != std::numeric_limits<size_t>::max()) {
      estimates->push_back({Encoding::kMixedRadixTight, static_cast<double>(tight_size)});
    }
    // After the others: their bit-serial decoding is slower, so ties go elsewhere.
    if (huffman_bytes != kUnknown) estimates->push_back({Encoding::kHuffman, huffman_bytes});
    // Every rice code takes at least a bit: sized only when that floor beats the best so far.
    double best = kUnknown;
    for (const auto& estimate : *estimates) best = std::min(best, estimate.second);
    if (best > 1 + (n + 7) / 8.0) {
      estimates->push_back({Encoding::kRice, static_cast<double>(RiceSize(bits, n))});
    }
  }
}

uint64_t StringHash(const Slice& v) { return HashBytes(v.data(), v.size()); }

// Whether at least a quarter of an equidistant sample of the strings holds a decimal digit:
// only then can the template encoding split parameters off (template.h).
bool MostlyHoldDigits(const ColumnVector& values) {
  constexpr size_t kSample = 16;
  const size_t n = values.size();
  const size_t sample = std::min(n, kSample);
  size_t with_digits = 0;
  for (size_t k = 0; k < sample; k++) {
    const Slice v = values.GetBytes(k * n / sample);
    with_digits +=
        std::any_of(v.data(), v.data() + v.size(), [](char c) { return c >= '0' && c <= '9'; });
  }
  return sample > 0 && 4 * with_digits >= sample;
}

void EstimateBytes(const ColumnVector& values, bool with_template, Estimates* estimates) {
  const size_t n = values.size();
  std::vector<uint32_t> lengths(n);
  std::vector<uint32_t> prefixes(n);
  std::vector<uint32_t> suffixes(n);
  uint64_t total = 0;
  uint64_t suffix_bytes = 0;
  size_t runs = 0;
  uint64_t run_value_bytes = 0;
  bool all_hex = true;
  Slice previous;
  for (size_t i = 0; i < n; i++) {
    const Slice v = values.GetBytes(i);
    const auto size = static_cast<uint32_t>(v.size());
    all_hex = all_hex && IsLowerHexString(v);
    const size_t shared = SharedPrefixLength(previous, v);
    lengths[i] = size;
    prefixes[i] = static_cast<uint32_t>(shared);
    suffixes[i] = static_cast<uint32_t>(size - shared);
    total += size;
    suffix_bytes += size - shared;
    if (i == 0 || shared != size || size != previous.size()) {
      runs++;
      run_value_bytes += size;
    }
    previous = v;
  }
  estimates->push_back(
      {Encoding::kPlain, static_cast<double>(PackedIntsSize(lengths.data(), n) + total)});
  estimates->push_back({Encoding::kFrontCoding,
                        static_cast<double>(PackedIntsSize(prefixes.data(), n) +
                                            PackedIntsSize(suffixes.data(), n) + suffix_bytes)});
  if (all_hex) {
    std::vector<uint32_t> halves(n);
    for (size_t i = 0; i < n; i++) halves[i] = lengths[i] / 2;
    estimates->push_back(
        {Encoding::kHex, static_cast<double>(PackedIntsSize(halves.data(), n) + total / 2)});
  }
  if (runs == 1) {
    estimates->push_back(
        {Encoding::kConstant, static_cast<double>(VarintLength(total / n) + total / n)});
  }
  if (with_template && !all_hex && runs > 1 && MostlyHoldDigits(values)) {
    // Exact: the body is built (hex strings are better served by hex).
    std::string body;
    if (EncodeValues(Encoding::kTemplate, values, &body).ok()) {
      estimates->push_back({Encoding::kTemplate, static_cast<double>(body.size())});
    }
  }
  if (2 * runs <= n) {
    std::vector<uint32_t> run_lengths_minus_one;
    for (size_t i = 0; i < n; i++) {
      const bool repeat = i > 0 && prefixes[i] == lengths[i] && lengths[i] == lengths[i - 1];
      if (repeat) {
        run_lengths_minus_one.back()++;
      } else {
        run_lengths_minus_one.push_back(0);
      }
    }
    const double lengths_bytes =
        VarintLength(runs) + PackedIntsSize(run_lengths_minus_one.data(), runs);
    estimates->push_back(
        {Encoding::kRle, lengths_bytes + static_cast<double>(runs + run_value_bytes)});
    // The run values as plain or, when hex, two digits a byte (estimated like rle's).
    const double run_value_body =
        all_hex ? runs / 2.0 + run_value_bytes / 2.0 : static_cast<double>(runs + run_value_bytes);
    estimates->push_back({Encoding::kRleNested, lengths_bytes + 1 + run_value_body});
  }

  // Distinct strings, unless a sample shows they are mostly distinct (ids, free text).
  constexpr size_t kSample = 64;
  if (n >= kSampledValues) {
    uint64_t sample[kSample];
    for (size_t k = 0; k < kSample; k++) sample[k] = StringHash(values.GetBytes(k * n / kSample));
    std::sort(sample, sample + kSample);
    if (std::unique(sample, sample + kSample) - sample > static_cast<long>(3 * kSample / 4)) {
      return;
    }
  }
  DistinctCounter distinct(DistinctCap(n, PhysicalType::kBytes));
  std::vector<uint32_t> distinct_lengths;
  for (size_t i = 0; i < n && !distinct.overflow(); i++) {
    const size_t before = distinct.count();
    distinct.Add(StringHash(values.GetBytes(i)));
    if (distinct.count() != before) distinct_lengths.push_back(lengths[i]);
  }
  if (!distinct.overflow()) {
    uint64_t distinct_bytes = 0;
    for (uint32_t len : distinct_lengths) distinct_bytes += len;
    estimates->push_back({Encoding::kDictionary,
                          4.0 + PackedIntsSize(distinct_lengths.data(), distinct_lengths.size()) +
                              distinct_bytes + CodeBytes(n, distinct.count())});
  }
}

// Every estimate for `values` (alp's and alp_rd's, and a float's others, only when `wanted`
// (EstimateFixed); template's only `with_template`: each costs an analysis or a trial
// encoding), with the analyses ALP's estimates came from.
Estimates EstimateAll(const ColumnVector& values, uint32_t wanted, bool with_template,
                      FloatAnalyses* analyses) {
  Estimates all;
  all.reserve(16);  // more than any type's candidates: no regrowth
  if (values.type() == PhysicalType::kBytes) {
    EstimateBytes(values, with_template, &all);
  } else {
    VisitFixedType(values.type(),
                   [&](auto tag) { EstimateFixed<decltype(tag)>(values, wanted, &all, analyses); });
  }
  return all;
}

}  // namespace

double EstimateMargin(Encoding encoding, PhysicalType type) {
  switch (encoding) {
    case Encoding::kDictionary:
    case Encoding::kAlp:
    case Encoding::kAlpRd:
      return 0.25;
    case Encoding::kRiceDelta:
      return 0.03;
    case Encoding::kRle:  // the run values' lengths of strings are estimated
    case Encoding::kRleNested:
      return type == PhysicalType::kBytes ? 0.25 : 0;
    default:
      return 0;
  }
}

std::vector<SizeEstimate> EstimateSizes(const ColumnVector& values) {
  FloatAnalyses analyses;
  std::vector<SizeEstimate> estimates;
  for (const auto& [encoding, bytes] :
       EstimateAll(values, ~uint32_t{0}, /*with_template=*/true, &analyses)) {
    estimates.push_back({encoding, bytes, EstimateMargin(encoding, values.type())});
  }
  return estimates;
}

Status EncodeUnlessRivalWins(Encoding remembered, Encoding rival, const ColumnVector& values,
                             std::string* out, Encoding* chosen) {
  const bool simple = [](Encoding e) {
    return e != Encoding::kGorilla && e != Encoding::kAlp && e != Encoding::kAlpRd;
  }(remembered);
  std::string best;
  if (!IsFloatType(values.type()) || !simple || !EncodeValues(remembered, values, &best).ok()) {
    // Gorilla's 10% rule and ALP's analyses (shared by estimate and body) are ChooseAndEncode's
    // to apply; a remembered encoding that refuses the values leaves the choice to it too.
    std::vector<Encoding> pair{remembered};
    if (rival != remembered) pair.push_back(rival);
    return ChooseAndEncode(pair, values, out, chosen);
  }
  *chosen = remembered;
  if (rival != remembered) {
    // The rival is estimated alone, and encoded only when it could still beat the body (by a
    // tenth for gorilla), as ChooseAndEncode would.
    FloatAnalyses analyses;
    const uint32_t wanted = EncodingBit(rival);
    const double limit = rival == Encoding::kGorilla ? kGorillaMaxRatio * best.size()
                                                     : static_cast<double>(best.size());
    for (const auto& [encoding, bytes] :
         EstimateAll(values, wanted, /*with_template=*/false, &analyses)) {
      if (encoding != rival || bytes * (1 - EstimateMargin(rival, values.type())) >= limit) {
        continue;
      }
      std::string body;
      if (rival == Encoding::kAlpRd) {
        VisitFloatType(values.type(), [&](auto tag) {
          EncodeAlpRd(values.data<decltype(tag)>(), values.size(), analyses.alp_rd, &body);
        });
      } else if (!EncodeValues(rival, values, &body).ok()) {
        break;
      }
      if (static_cast<double>(body.size()) < limit) {
        best.swap(body);
        *chosen = rival;
      }
      break;
    }
  }
  out->append(best);
  return Status::OK();
}

Status ChooseAndEncode(const std::vector<Encoding>& candidates, const ColumnVector& values,
                       std::string* out, Encoding* chosen, Encoding* runner_up) {
  FloatAnalyses analyses;
  uint32_t wanted = 0;
  for (Encoding e : candidates) wanted |= EncodingBit(e);
  const bool with_template =
      std::find(candidates.begin(), candidates.end(), Encoding::kTemplate) != candidates.end();
  const Estimates all = EstimateAll(values, wanted, with_template, &analyses);
  Estimates ranked;
  ranked.reserve(all.size());
  double gorilla_estimate = kUnknown;
  for (const auto& [encoding, bytes] : all) {
    if (std::find(candidates.begin(), candidates.end(), encoding) == candidates.end()) continue;
    if (encoding == Encoding::kGorilla) {
      gorilla_estimate = bytes;
    } else {
      ranked.push_back({encoding, bytes});
    }
  }
  // Ties go to the lower id (plain before everything), keeping the choice deterministic.
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second < b.second; });

  std::string best;
  Encoding best_encoding = Encoding::kPlain;
  bool found = false;
  auto try_encoding = [&](Encoding encoding) {
    std::string body;
    if (analyses.present && encoding == Encoding::kAlp) {
      VisitFloatType(values.type(), [&](auto tag) {
        EncodeAlp(values.data<decltype(tag)>(), values.size(), analyses.alp, &body);
      });
    } else if (analyses.present && encoding == Encoding::kAlpRd) {
      VisitFloatType(values.type(), [&](auto tag) {
        EncodeAlpRd(values.data<decltype(tag)>(), values.size(), analyses.alp_rd, &body);
      });
    } else if (!EncodeValues(encoding, values, &body).ok()) {
      return;
    }
    if (!found || body.size() < best.size()) {
      best.swap(body);
      best_encoding = encoding;
      found = true;
    }
  };
  // The runner-up is encoded too when it could still beat the leader's body.
  if (!ranked.empty()) try_encoding(ranked[0].first);
  for (size_t k = 1; k < ranked.size() && k < kFullyEncoded; k++) {
    const double smallest_possible =
        ranked[k].second * (1 - EstimateMargin(ranked[k].first, values.type()));
    if (!found || smallest_possible < static_cast<double>(best.size())) {
      try_encoding(ranked[k].first);
    }
  }
  if (!found && ranked.empty()) {
    // Only gorilla was requested.
    try_encoding(Encoding::kGorilla);
  } else if (gorilla_estimate < kGorillaMaxRatio * best.size()) {
    std::string body;
    if (EncodeValues(Encoding::kGorilla, values, &body).ok() &&
        body.size() < kGorillaMaxRatio * best.size()) {
      best.swap(body);
      best_encoding = Encoding::kGorilla;
    }
  }
  if (!found) {
    Status s = EncodeValues(Encoding::kPlain, values, out);
    if (s.ok()) *chosen = Encoding::kPlain;
    if (runner_up != nullptr) *runner_up = Encoding::kPlain;
    return s;
  }
  if (runner_up != nullptr) {
    // The best-ranked estimate but the winner's.
    *runner_up = best_encoding;
    for (const auto& [encoding, bytes] : ranked) {
      if (encoding != best_encoding) {
        *runner_up = encoding;
        break;
      }
    }
  }
  out->append(best);
  *chosen = best_encoding;
  return Status::OK();
}

}  // namespace columnar
