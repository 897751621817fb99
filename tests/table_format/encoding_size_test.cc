// Compression expectations on typical columns (sizes only, no timing): each encoding must do
// what it is for, and auto must find it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "table_format/bit_packing.h"
#include "table_format/encoding.h"
#include "table_format/encodings/chooser.h"
#include "table_format/encodings/rice_delta.h"
#include "tests/table_format/encoding_test_util.h"

namespace columnar {
namespace {

double BitsPerValue(Encoding encoding, const ColumnVector& values, Encoding* chosen = nullptr) {
  std::string body;
  Status s = encoding == Encoding::kAuto ? EncodeWithBestEncoding(encoding, values, &body, chosen)
                                         : EncodeValues(encoding, values, &body);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return 8.0 * body.size() / values.size();
}

TEST(EncodingSizeTest, RegularTimestampsCostAlmostNothing) {
  ColumnVector ts(PhysicalType::kInt64);
  for (int i = 0; i < 1024; i++) ts.Append<int64_t>(1700000000 + 5 * i);
  EXPECT_LT(BitsPerValue(Encoding::kDeltaOfDelta, ts), 0.1);
  EXPECT_LT(BitsPerValue(Encoding::kDelta, ts), 0.1);
  EXPECT_LT(BitsPerValue(Encoding::kAuto, ts), 0.1);
}

TEST(EncodingSizeTest, OneOutlierCostsOnlyItsMiniblock) {
  ColumnVector v(PhysicalType::kInt64);
  for (int i = 0; i < 1024; i++) v.Append<int64_t>(i == 500 ? (int64_t{1} << 40) : i % 4);
  // 2 bits per value, plus one miniblock of 32 values at 41 bits and the width bytes.
  EXPECT_LT(BitsPerValue(Encoding::kFor, v), 2 + 41.0 * 32 / 1024 + 0.5);
}

TEST(EncodingSizeTest, DecimalsGoToAlp) {
  std::mt19937_64 rng(1);
  ColumnVector v(PhysicalType::kFloat64);
  for (int i = 0; i < 1024; i++) v.Append<double>(static_cast<double>(rng() % 10000) / 100);
  EXPECT_LT(BitsPerValue(Encoding::kAlp, v), 16);
  Encoding chosen;
  EXPECT_LT(BitsPerValue(Encoding::kAuto, v, &chosen), 16);
  EXPECT_EQ(chosen, Encoding::kAlp);
}

TEST(EncodingSizeTest, AlpKeepsSpecialsAsExceptions) {
  ColumnVector v(PhysicalType::kFloat64);
  const auto specials = testing_util::SpecialFloats<double>();
  for (int i = 0; i < 1024; i++) {
    v.Append<double>(i % 64 == 0 ? specials[i / 64 % specials.size()] : (i % 100) / 10.0);
  }
  // 16 exceptions cost 80 bits each; the rest pack at 7 bits.
  EXPECT_LT(BitsPerValue(Encoding::kAlp, v), 7 + 16 * 80.0 / 1024 + 1);
}

TEST(EncodingSizeTest, FullPrecisionDoublesGoToAlpRd) {
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> lat(40.0, 41.0);
  ColumnVector v(PhysicalType::kFloat64);
  for (int i = 0; i < 1024; i++) v.Append<double>(lat(rng));
  EXPECT_LT(BitsPerValue(Encoding::kAlpRd, v), 56);
  Encoding chosen;
  EXPECT_LT(BitsPerValue(Encoding::kAlp, v), 64 + 16 + 1);  // nearly all exceptions
  std::string body;
  ASSERT_TRUE(EncodeWithBestEncoding(Encoding::kAlp, v, &body, &chosen).ok());
  EXPECT_EQ(chosen, Encoding::kAlpRd);
}

// Bits per value of `values` encoded in independent chunks of `chunk` values.
double ChunkedBitsPerValue(Encoding encoding, const ColumnVector& values, size_t chunk,
                           Encoding* last_chosen = nullptr) {
  size_t bytes = 0;
  for (size_t start = 0; start < values.size(); start += chunk) {
    ColumnVector part(values.type());
    for (size_t i = start; i < start + chunk && i < values.size(); i++) part.AppendFrom(values, i);
    std::string body;
    Status s = encoding == Encoding::kAuto
                   ? EncodeWithBestEncoding(encoding, part, &body, last_chosen)
                   : EncodeValues(encoding, part, &body);
    EXPECT_TRUE(s.ok()) << s.ToString();
    bytes += body.size();
  }
  return 8.0 * bytes / values.size();
}

ColumnVector Float32RandomWalk(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> step(0, 0.1);
  ColumnVector v(PhysicalType::kFloat32);
  float x = 55.5f;
  for (size_t i = 0; i < n; i++) {
    x += static_cast<float>(step(rng));
    v.Append<float>(x);
  }
  return v;
}

TEST(EncodingSizeTest, Float32RandomWalkGoesToRiceDelta) {
  // Steps of sigma 0.1 at 55.5 are about 26,000 float32 ulps: a Gaussian of entropy
  // log2(26214 * sqrt(2 pi e)) = 16.73 bits. Rice codes with flat quotients get within a few
  // hundredths of a bit of it; bit-packing miniblocks (float_delta) loses more than half a bit.
  // A chunk of 128 also pays 32 bits of first value, a header byte and padding (0.35 bits a
  // value).
  const ColumnVector v = Float32RandomWalk(4096, 3);
  Encoding chosen;
  const double rice = ChunkedBitsPerValue(Encoding::kRiceDelta, v, 128);
  EXPECT_LT(rice, 16.73 + 0.35 + 0.05);
  EXPECT_LT(rice, ChunkedBitsPerValue(Encoding::kFloatDelta, v, 128) - 0.7);
  EXPECT_LT(ChunkedBitsPerValue(Encoding::kAuto, v, 128, &chosen), 16.73 + 0.35 + 0.05);
  EXPECT_EQ(chosen, Encoding::kRiceDelta);
  EXPECT_LT(ChunkedBitsPerValue(Encoding::kAuto, v, 1024, &chosen), 16.73 + 0.13 + 0.05);
  EXPECT_EQ(chosen, Encoding::kRiceDelta);
}

TEST(EncodingSizeTest, RiceDeltaTakesJitteredTimestampsAndOutliers) {
  std::mt19937_64 rng(7);
  ColumnVector ts(PhysicalType::kInt64);
  for (int i = 0; i < 1024; i++) {
    ts.Append<int64_t>(1700000000000 + 5000 * i + static_cast<int64_t>(rng() % 101));
  }
  // Differences 5000 + a triangular jitter of +-100 (7.4 bits of entropy): centered on 5000.
  EXPECT_LT(ChunkedBitsPerValue(Encoding::kRiceDelta, ts, 128),
            ChunkedBitsPerValue(Encoding::kDelta, ts, 128) - 0.4);
  // An outlier among differences of +-1 (2 bits each) costs its two differences' escapes
  // (about 67 bits each), not a k of 41 for every value.
  ColumnVector outlier(PhysicalType::kInt64);
  for (int i = 0; i < 128; i++) outlier.Append<int64_t>(i == 64 ? (int64_t{1} << 40) : i % 2);
  EXPECT_LT(ChunkedBitsPerValue(Encoding::kRiceDelta, outlier, 128), 2 + 2 * 67.0 / 128 + 0.25);
}

// EstimateRiceDeltaBytes guides auto without encoding: it must stay close to the real size.
TEST(EncodingSizeTest, RiceDeltaEstimateIsClose) {
  std::mt19937_64 rng(8);
  std::vector<ColumnVector> columns;
  columns.push_back(Float32RandomWalk(1024, 9));
  ColumnVector jitter(PhysicalType::kInt64);
  ColumnVector counters(PhysicalType::kInt64);
  int64_t counter = 0;
  for (int i = 0; i < 1024; i++) {
    jitter.Append<int64_t>(5000 * i + static_cast<int64_t>(rng() % 101));
    counter += static_cast<int64_t>(rng() % 1000);
    counters.Append<int64_t>(counter);
  }
  columns.push_back(jitter);
  columns.push_back(counters);
  for (const ColumnVector& column : columns) {
    std::string body;
    ASSERT_TRUE(EncodeValues(Encoding::kRiceDelta, column, &body).ok());
    double estimate = 0;
    if (column.type() == PhysicalType::kFloat32) {
      std::vector<uint32_t> deltas;
      for (size_t i = 1; i < column.size(); i++) {
        uint32_t a;
        uint32_t b;
        const float fa = column.Get<float>(i - 1);
        const float fb = column.Get<float>(i);
        std::memcpy(&a, &fa, 4);
        std::memcpy(&b, &fb, 4);
        deltas.push_back(b - a);  // positive floats: the images are the bit patterns
      }
      estimate = 4 + EstimateRiceDeltaBytes(deltas.data(), deltas.size());
    } else {
      std::vector<uint64_t> deltas;
      for (size_t i = 1; i < column.size(); i++) {
        deltas.push_back(
            static_cast<uint64_t>(column.Get<int64_t>(i) - column.Get<int64_t>(i - 1)));
      }
      estimate = 3 + EstimateRiceDeltaBytes(deltas.data(), deltas.size());
    }
    EXPECT_NEAR(estimate, static_cast<double>(body.size()), 0.05 * body.size())
        << PhysicalTypeName(column.type());
  }
}

// Row groups of 128 rows make per-chunk overhead count: constant columns cost their value,
// a regular series its first value, its step and one byte.
TEST(EncodingSizeTest, SmallChunksOfConstantAndRegularColumns) {
  auto auto_bytes = [](const ColumnVector& values, Encoding* chosen) {
    std::string body;
    EXPECT_TRUE(EncodeWithBestEncoding(Encoding::kAuto, values, &body, chosen).ok());
    return body.size();
  };
  Encoding chosen;
  ColumnVector ttl64(PhysicalType::kInt64);
  ColumnVector ttl32(PhysicalType::kInt32);
  ColumnVector flags(PhysicalType::kInt32);
  ColumnVector tags(PhysicalType::kBytes);
  ColumnVector times(PhysicalType::kInt64);
  for (int i = 0; i < 128; i++) {
    ttl64.Append<int64_t>(2592000);
    ttl32.Append<int32_t>(2592000);
    flags.Append<int32_t>(1);
    tags.AppendBytes("org-0001");
    times.Append<int64_t>(1700000000000 - 5000 * i);  // a DESC clustering column
  }
  EXPECT_EQ(auto_bytes(ttl64, &chosen), 4u);  // the varint of 2592000
  EXPECT_EQ(chosen, Encoding::kConstant);
  EXPECT_EQ(auto_bytes(ttl32, &chosen), 4u);
  EXPECT_EQ(auto_bytes(flags, &chosen), 1u);
  EXPECT_EQ(auto_bytes(tags, &chosen), 9u);  // length and bytes
  // First value (6-byte varint), step zigzag(-5000) (2 bytes), and one byte.
  EXPECT_EQ(auto_bytes(times, &chosen), 9u);
}

// A block whose values all fit the width above 0 takes reference 0: its varint is one byte.
TEST(EncodingSizeTest, ForTakesTheShortestReference) {
  ColumnVector jitter(PhysicalType::kInt64);
  for (int i = 0; i < 128; i++) jitter.Append<int64_t>(1000 + (i * 7919) % 99000);
  std::string body;
  ASSERT_TRUE(EncodeValues(Encoding::kFor, jitter, &body).ok());
  EXPECT_EQ(body.size(), 1 + 1 + PackedSize(128, 17));  // reference 0, width 17
  EXPECT_EQ(body[0], 0);
}

TEST(EncodingSizeTest, FewDistinctStringsGoToDictionary) {
  std::mt19937_64 rng(4);
  const char* methods[] = {"GET", "POST", "PUT", "DELETE", "PATCH"};
  ColumnVector v(PhysicalType::kBytes);
  for (int i = 0; i < 1024; i++) v.AppendBytes(methods[rng() % 5]);
  Encoding chosen;
  EXPECT_LT(BitsPerValue(Encoding::kAuto, v, &chosen), 3.5);
  EXPECT_EQ(chosen, Encoding::kDictionary);
}

TEST(EncodingSizeTest, HexIdsPackTwoDigitsPerByte) {
  std::mt19937_64 rng(5);
  ColumnVector v(PhysicalType::kBytes);
  for (int i = 0; i < 1024; i++) v.AppendBytes(testing_util::RandomHex(rng, 32));
  Encoding chosen;
  EXPECT_LT(BitsPerValue(Encoding::kAuto, v, &chosen), 128.1);
  EXPECT_EQ(chosen, Encoding::kHex);
}

// Write times stored against their row's time: uniform jitter over 0..100,000 us, whose
// information is log2(100001) = 16.61 bits; bit-packing needs 17.
// mixed_radix_tight takes out most of mixed_radix's rounding (16.67 bits a value).
TEST(EncodingSizeTest, UniformJitterGoesToMixedRadix) {
  std::mt19937_64 rng(10);
  ColumnVector jitter(PhysicalType::kInt64);
  for (int i = 0; i < 1024; i++) jitter.Append<int64_t>(static_cast<int64_t>(rng() % 100001));
  Encoding chosen;
  EXPECT_LT(BitsPerValue(Encoding::kAuto, jitter, &chosen), 16.65);  // 16.61 and a header
  EXPECT_EQ(chosen, Encoding::kMixedRadixTight);
  EXPECT_LT(BitsPerValue(Encoding::kMixedRadix, jitter), 16.75);  // 16.67 and a header
  EXPECT_GE(BitsPerValue(Encoding::kFor, jitter), 17);
}

// HTTP statuses, 200 in 88% of the rows: 0.94 bits of information a row. Bit-packed dictionary
// codes take 4 bits; Huffman codes about 1.2 and the table.
TEST(EncodingSizeTest, SkewedStatusesGoToHuffman) {
  std::mt19937_64 rng(14);
  const int32_t kRare[] = {201, 204, 301, 302, 304, 400, 401, 403, 404, 429, 500, 502, 503};
  ColumnVector statuses(PhysicalType::kInt32);
  for (int i = 0; i < 128; i++) {
    statuses.Append<int32_t>(rng() % 100 < 88 ? 200 : kRare[rng() % 13]);
  }
  Encoding chosen;
  const double bits = BitsPerValue(Encoding::kAuto, statuses, &chosen);
  EXPECT_EQ(chosen, Encoding::kHuffman);
  EXPECT_LT(bits, BitsPerValue(Encoding::kDictionary, statuses) * 0.75);
}

// Request latencies, log-normal (median 40 ms, sigma 1.4): independent values, so coding their
// differences (rice_delta) costs about 1.5 bits more a value than Rice-coding the values.
TEST(EncodingSizeTest, LogNormalLatenciesGoToRice) {
  std::mt19937_64 rng(15);
  std::lognormal_distribution<double> latency(std::log(40.0), 1.4);
  ColumnVector values(PhysicalType::kInt32);
  for (int i = 0; i < 128; i++) {
    values.Append<int32_t>(static_cast<int32_t>(std::clamp(std::round(latency(rng)), 1.0, 6e4)));
  }
  Encoding chosen;
  const double bits = BitsPerValue(Encoding::kAuto, values, &chosen);
  EXPECT_EQ(chosen, Encoding::kRice);
  EXPECT_LT(bits, BitsPerValue(Encoding::kRiceDelta, values) * 0.92);
}

// Trace ids repeated over 1-5 consecutive rows: 16 hex-packed bytes a run, not a
// dictionary code on every row nor 32 plain bytes a run.
TEST(EncodingSizeTest, RepeatedHexIdsGoToRleNested) {
  std::mt19937_64 rng(13);
  ColumnVector ids(PhysicalType::kBytes);
  std::string id;
  int left = 0;
  for (int i = 0; i < 128; i++) {
    if (left == 0) {
      id = testing_util::RandomHex(rng, 32);
      left = 1 + static_cast<int>(rng() % 5);
    }
    left--;
    ids.AppendBytes(id);
  }
  Encoding chosen;
  const double bits = BitsPerValue(Encoding::kAuto, ids, &chosen);
  EXPECT_EQ(chosen, Encoding::kRleNested);
  EXPECT_LT(bits, BitsPerValue(Encoding::kDictionary, ids) * 0.95);
  EXPECT_LT(bits, BitsPerValue(Encoding::kRle, ids) * 0.6);
}

// URL paths with numeric ids: the templates repeat, the ids are integers of 20 bits.
TEST(EncodingSizeTest, ParameterisedPathsGoToTemplate) {
  std::mt19937_64 rng(11);
  ColumnVector paths(PhysicalType::kBytes);
  for (int i = 0; i < 1024; i++) {
    paths.AppendBytes("/api/v1/resource" + std::to_string(rng() % 20) + "/" +
                      std::to_string(1 + rng() % 999999) + "/items");
  }
  Encoding chosen;
  // 20 templates of ~25 bytes stored once, 5-bit codes, 20-bit ids.
  EXPECT_LT(BitsPerValue(Encoding::kAuto, paths, &chosen), 32);
  EXPECT_EQ(chosen, Encoding::kTemplate);
  EXPECT_GT(BitsPerValue(Encoding::kFrontCoding, paths), 80);
}

// Dotted IPv4 addresses: one template, four 8-bit parameters, so 32 bits an address.
TEST(EncodingSizeTest, Ipv4AddressesCostTheir32Bits) {
  std::mt19937_64 rng(12);
  ColumnVector addresses(PhysicalType::kBytes);
  for (int i = 0; i < 1024; i++) {
    addresses.AppendBytes(std::to_string(rng() % 256) + "." + std::to_string(rng() % 256) + "." +
                          std::to_string(rng() % 256) + "." + std::to_string(rng() % 256));
  }
  Encoding chosen;
  EXPECT_LT(BitsPerValue(Encoding::kAuto, addresses, &chosen), 32.5);
  EXPECT_EQ(chosen, Encoding::kTemplate);
}

// Prefixed, zero-padded ids ("u0312345": org 03, user 12345 of 100,000): the digits after the
// letter are one fixed-width parameter, so an id costs its ~17 bits, not its characters.
TEST(EncodingSizeTest, ZeroPaddedPrefixedIdsGoToTemplate) {
  std::mt19937_64 rng(13);
  ColumnVector ids(PhysicalType::kBytes);
  char buf[16];
  for (int i = 0; i < 1024; i++) {
    std::snprintf(buf, sizeof(buf), "u%02d%05d", 3, static_cast<int>(rng() % 100000));
    ids.AppendBytes(buf);
  }
  Encoding chosen;
  EXPECT_LT(BitsPerValue(Encoding::kAuto, ids, &chosen), 18);
  EXPECT_EQ(chosen, Encoding::kTemplate);
}

TEST(EncodingSizeTest, SortedStringsGoToFrontCoding) {
  // Sorted keys whose tail is letters, not a number a template could take.
  ColumnVector v(PhysicalType::kBytes);
  for (int i = 0; i < 1024; i++) {
    std::string key = "/api/v1/users/";
    for (int k = 3; k >= 0; k--) key.push_back(static_cast<char>('g' + (i >> (3 * k)) % 8));
    v.AppendBytes(key);
  }
  Encoding chosen;
  const double bits = BitsPerValue(Encoding::kAuto, v, &chosen);
  EXPECT_EQ(chosen, Encoding::kFrontCoding);
  EXPECT_LT(bits, 8 * 3 + 8);  // about the last 1-2 letters and two small lengths
}

// Sorted numbered keys: the template keeps the prefix once and delta-codes the numbers.
TEST(EncodingSizeTest, SortedNumberedStringsGoToTemplate) {
  ColumnVector v(PhysicalType::kBytes);
  for (int i = 0; i < 1024; i++) v.AppendBytes("/api/v1/users/" + std::to_string(100000 + 3 * i));
  Encoding chosen;
  const double bits = BitsPerValue(Encoding::kAuto, v, &chosen);
  EXPECT_EQ(chosen, Encoding::kTemplate);
  EXPECT_LT(bits, 1);
}

TEST(EncodingSizeTest, GorillaOnlyWhenClearlySmaller) {
  // Random bits in the middle of the mantissa: XOR windows stay narrow (Gorilla about 27 bits
  // a value) while every integer view of the values spans 44 bits.
  std::mt19937_64 rng(6);
  ColumnVector middle_bits(PhysicalType::kFloat64);
  for (int i = 0; i < 1024; i++) {
    middle_bits.Append<double>(
        testing_util::FromBits<double>(0x4059000000000000ull | ((rng() & 0xffffff) << 20)));
  }
  Encoding chosen;
  std::string body;
  ASSERT_TRUE(EncodeWithBestEncoding(Encoding::kAuto, middle_bits, &body, &chosen).ok());
  EXPECT_EQ(chosen, Encoding::kGorilla);
  // Wherever gorilla is chosen, every other encoding is at least 10% bigger.
  auto datasets = testing_util::FloatDatasets<double>(1024, 6);
  datasets.push_back({"middle_bits", middle_bits});
  for (auto& dataset : datasets) {
    Encoding chosen;
    std::string body;
    ASSERT_TRUE(EncodeWithBestEncoding(Encoding::kAuto, dataset.values, &body, &chosen).ok());
    if (chosen != Encoding::kGorilla) continue;
    for (Encoding other : CandidateEncodings(Encoding::kAuto, PhysicalType::kFloat64)) {
      if (other == Encoding::kGorilla) continue;
      std::string other_body;
      const Status s = EncodeValues(other, dataset.values, &other_body);
      if (testing_util::MayRefuse(other) && s.IsInvalidArgument()) continue;
      ASSERT_TRUE(s.ok()) << s.ToString();
      EXPECT_LT(static_cast<double>(body.size()), 0.9 * other_body.size() + 1)
          << dataset.name << " " << EncodingName(other);
    }
  }
}

// auto skips encoding a runner-up whose estimate, less its margin, is no smaller than the
// leader's body. Estimates with no margin must be exact.
TEST(EncodingSizeTest, EstimatesWithoutMarginAreExact) {
  for (PhysicalType type : testing_util::AllTypes()) {
    for (size_t n : {1, 2, 33, 128, 1030}) {
      for (auto& dataset : testing_util::DatasetsFor(type, n, 31 + n)) {
        for (const SizeEstimate& estimate : EstimateSizes(dataset.values)) {
          if (estimate.margin != 0) continue;
          SCOPED_TRACE(std::string(PhysicalTypeName(type)) + " " + dataset.name +
                       " n=" + std::to_string(n) + " " + EncodingName(estimate.encoding));
          std::string body;
          ASSERT_TRUE(EncodeValues(estimate.encoding, dataset.values, &body).ok());
          EXPECT_EQ(static_cast<double>(body.size()), estimate.bytes);
        }
      }
    }
  }
}

// The dictionary estimate stands while the distinct values stay within the chooser's cap (a
// quarter of the values for numbers, half for strings), counted exactly: the values recur out of
// order, and the counter's table (on the stack up to a cap of 64: numbers here, strings of 128)
// and KeyIndex (above: strings of 200 and 250) agree.
TEST(EncodingSizeTest, DictionaryEstimateUpToTheDistinctCap) {
  const auto has_dictionary = [](const ColumnVector& values) {
    const std::vector<SizeEstimate> estimates = EstimateSizes(values);
    return std::any_of(estimates.begin(), estimates.end(),
                       [](const SizeEstimate& e) { return e.encoding == Encoding::kDictionary; });
  };
  std::mt19937_64 rng(64);
  // Below kSampledValues (256) values, so no sample stops the count early.
  for (size_t n : {128, 200, 250}) {
    for (size_t distinct = 1; distinct <= n / 2 + 2; distinct++) {
      std::vector<size_t> order(n);
      for (size_t i = 0; i < n; i++) order[i] = i % distinct;  // every value, out of order
      for (size_t i = n - 1; i > 0; i--) std::swap(order[i], order[rng() % (i + 1)]);
      ColumnVector numbers(PhysicalType::kFloat64);
      ColumnVector strings(PhysicalType::kBytes);
      for (size_t k : order) {
        numbers.Append<double>(0.5 + static_cast<double>(k) * 1e-3);
        strings.AppendBytes("tag-" + std::to_string(k * 7919));
      }
      SCOPED_TRACE("n=" + std::to_string(n) + " distinct=" + std::to_string(distinct));
      EXPECT_EQ(has_dictionary(numbers), distinct <= n / 4);
      EXPECT_EQ(has_dictionary(strings), distinct <= n / 2);
    }
  }
}

// rice_delta's model errs high by at most its margin on the noisy series it is for, in chunks
// of a block or more (in shorter ones padding weighs more; on mixtures, such as runs with
// jumps, it errs higher: auto then leans to other encodings).
TEST(EncodingSizeTest, RiceDeltaEstimateWithinItsMarginOnNoisySeries) {
  const char* kNoisy[] = {"monotone", "regular_timestamps", "small_random",
                          "jitter",   "random_walk",        "uniform",
                          "random"};
  for (PhysicalType type : testing_util::AllTypes()) {
    if (!EncodingSupports(Encoding::kRiceDelta, type)) continue;
    for (size_t n : {128, 1030, 5000}) {
      for (auto& dataset : testing_util::DatasetsFor(type, n, 37 + n)) {
        if (std::find(std::begin(kNoisy), std::end(kNoisy), dataset.name) == std::end(kNoisy)) {
          continue;
        }
        for (const SizeEstimate& estimate : EstimateSizes(dataset.values)) {
          if (estimate.encoding != Encoding::kRiceDelta) continue;
          SCOPED_TRACE(std::string(PhysicalTypeName(type)) + " " + dataset.name +
                       " n=" + std::to_string(n));
          std::string body;
          ASSERT_TRUE(EncodeValues(Encoding::kRiceDelta, dataset.values, &body).ok());
          EXPECT_GE(static_cast<double>(body.size()), estimate.bytes * (1 - estimate.margin));
        }
      }
    }
  }
}

}  // namespace
}  // namespace columnar
