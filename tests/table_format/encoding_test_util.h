// Deterministic value generators shared by the encoding tests: random and adversarial columns
// of every physical type.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/encoding.h"

namespace columnar {
namespace testing_util {

inline const std::vector<size_t>& TestLengths() {
  static const std::vector<size_t> lengths = {0,   1,   2,   3,    31,   32,   33,
                                              127, 128, 129, 1023, 1024, 1025, 5000};
  return lengths;
}

inline const std::vector<Encoding>& AllStoredEncodings() {
  static const std::vector<Encoding> all = {
      Encoding::kPlain,        Encoding::kRle,         Encoding::kDictionary, Encoding::kDelta,
      Encoding::kDeltaOfDelta, Encoding::kGorilla,     Encoding::kAlp,        Encoding::kAlpRd,
      Encoding::kFloatDelta,   Encoding::kFrontCoding, Encoding::kFor,        Encoding::kHex,
      Encoding::kRiceDelta,    Encoding::kConstant,    Encoding::kTemplate,   Encoding::kMixedRadix,
      Encoding::kRleNested,    Encoding::kHuffman,     Encoding::kRice};
  return all;
}

// Encodings that refuse (InvalidArgument) values they cannot represent: hex non-hex strings,
// constant unequal values, template strings without parameters, rle_nested values with
// fewer than two values a run, huffman more than kMaxHuffmanSymbols distinct values.
inline bool MayRefuse(Encoding e) {
  return e == Encoding::kHex || e == Encoding::kConstant || e == Encoding::kTemplate ||
         e == Encoding::kRleNested || e == Encoding::kHuffman;
}

inline const std::vector<PhysicalType>& AllTypes() {
  static const std::vector<PhysicalType> all = {PhysicalType::kInt32, PhysicalType::kInt64,
                                                PhysicalType::kFloat32, PhysicalType::kFloat64,
                                                PhysicalType::kBytes};
  return all;
}

template <typename T>
T FromBits(uint64_t bits) {
  T v;
  if constexpr (sizeof(T) == 4) {
    const uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&v, &b, 4);
  } else {
    std::memcpy(&v, &bits, 8);
  }
  return v;
}

// Special float bit patterns: zeros, NaNs with payloads (quiet and signalling, both signs),
// infinities, subnormals, extremes.
template <typename T>
std::vector<T> SpecialFloats() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0.0),       -T(0.0),  L::infinity(), -L::infinity(),  L::max(),
                      L::lowest(),  L::min(), -L::min(),     L::denorm_min(), -L::denorm_min(),
                      L::epsilon(), T(1.0),   T(-1.0),       T(0.1),          T(123.45)};
  if constexpr (sizeof(T) == 4) {
    for (uint32_t bits : {0x7fc00000u, 0xffc00000u, 0x7fc12345u, 0xffc54321u, 0x7f800001u,
                          0xff800001u, 0x7fa5a5a5u, 0x00000001u, 0x807fffffu, 0x00400000u}) {
      v.push_back(FromBits<T>(bits));
    }
  } else {
    for (uint64_t bits : {0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff8deadbeef0001ull,
                          0xfff80000cafe0000ull, 0x7ff0000000000001ull, 0xfff0000000000001ull,
                          0x7ff4a5a5a5a5a5a5ull, 0x0000000000000001ull, 0x800fffffffffffffull,
                          0x0008000000000000ull}) {
      v.push_back(FromBits<T>(bits));
    }
  }
  return v;
}

// One named generator of a column of n values.
struct Dataset {
  std::string name;
  ColumnVector values;
};

inline std::string RandomHex(std::mt19937_64& rng, size_t len) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s(len, '0');
  for (auto& c : s) c = kDigits[rng() % 16];
  return s;
}

template <typename T>
std::vector<Dataset> IntDatasets(size_t n, uint64_t seed) {
  using L = std::numeric_limits<T>;
  using U = std::make_unsigned_t<T>;
  std::mt19937_64 rng(seed);
  std::vector<Dataset> out;
  auto add = [&](const std::string& name, auto gen) {
    ColumnVector c(PhysicalTypeOf<T>::value);
    for (size_t i = 0; i < n; i++) c.Append<T>(gen(i));
    out.push_back({name, std::move(c)});
  };
  add("constant", [](size_t) { return T(42); });
  add("zeros", [](size_t) { return T(0); });
  add("monotone", [](size_t i) { return static_cast<T>(1000 + 7 * i); });
  add("regular_timestamps", [](size_t i) { return static_cast<T>(1600000000 + 5 * i); });
  add("alternating_extremes", [](size_t i) { return i % 2 ? L::max() : L::min(); });
  add("min", [](size_t) { return L::min(); });
  add("max", [](size_t) { return L::max(); });
  add("random", [&](size_t) { return static_cast<T>(rng()); });
  add("small_random", [&](size_t) { return static_cast<T>(rng() % 100) - 50; });
  add("runs", [&](size_t i) { return static_cast<T>((i / 37) % 5); });
  add("jitter", [&](size_t i) { return static_cast<T>(5000 * i + rng() % 101); });
  add("outlier", [&](size_t i) { return i == n / 2 ? L::max() : static_cast<T>(i % 10); });
  add("wrap_deltas", [&](size_t i) {
    return static_cast<T>(static_cast<U>(i) * static_cast<U>(L::max() / 3 + 17));
  });
  add("few_distinct", [&](size_t) {
    const T choices[] = {L::min(), -1, 0, 7, L::max()};
    return choices[rng() % 5];
  });
  return out;
}

template <typename T>
std::vector<Dataset> FloatDatasets(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 0.1);
  std::uniform_real_distribution<double> uniform(-1e6, 1e6);
  std::vector<Dataset> out;
  auto add = [&](const std::string& name, auto gen) {
    ColumnVector c(PhysicalTypeOf<T>::value);
    for (size_t i = 0; i < n; i++) c.Append<T>(gen(i));
    out.push_back({name, std::move(c)});
  };
  const std::vector<T> specials = SpecialFloats<T>();
  add("specials_cycle", [&](size_t i) { return specials[i % specials.size()]; });
  add("specials_random", [&](size_t) { return specials[rng() % specials.size()]; });
  add("decimals",
      [&](size_t) { return static_cast<T>(static_cast<double>(rng() % 100000) / 100); });
  add("decimals_with_specials", [&](size_t i) {
    return i % 17 == 3 ? specials[i % specials.size()]
                       : static_cast<T>(static_cast<double>(rng() % 100000) / 100);
  });
  double walk = 50;
  add("random_walk", [&](size_t) {
    walk += normal(rng);
    return static_cast<T>(walk);
  });
  add("random_bits", [&](size_t) { return FromBits<T>(rng()); });
  add("uniform", [&](size_t) { return static_cast<T>(uniform(rng)); });
  add("constant", [](size_t) { return T(3.25); });
  add("negative_zero", [](size_t) { return -T(0.0); });
  add("subnormals", [&](size_t) { return FromBits<T>(rng() % 1000); });
  add("large_magnitude",
      [&](size_t i) { return static_cast<T>((i % 2 ? 1 : -1) * 1e30 * (i + 1)); });
  add("int_like", [&](size_t i) { return static_cast<T>(i * 3); });
  return out;
}

inline std::vector<Dataset> BytesDatasets(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Dataset> out;
  auto add = [&](const std::string& name, auto gen) {
    ColumnVector c(PhysicalType::kBytes);
    for (size_t i = 0; i < n; i++) c.AppendBytes(gen(i));
    out.push_back({name, std::move(c)});
  };
  add("empty", [](size_t) { return std::string(); });
  add("hex32", [&](size_t) { return RandomHex(rng, 32); });
  add("hex_mixed_lengths", [&](size_t) { return RandomHex(rng, 2 * (rng() % 20)); });
  add("hex_odd_length", [&](size_t i) { return RandomHex(rng, i % 2 ? 3 : 4); });
  add("hex_upper", [&](size_t) { return std::string("ABCDEF01"); });
  add("binary_nul", [&](size_t i) {
    std::string s(rng() % 40, '\0');
    for (auto& c : s) c = static_cast<char>(rng() % 4 == 0 ? 0 : rng());
    return s;
  });
  add("sorted_paths", [&](size_t i) { return "/api/v1/users/" + std::to_string(100000 + i * 3); });
  // Structured strings with every kind of token the template encoding splits or must keep
  // literal: ids, zero-padded and over-long numbers, hex runs of every length, IPv4
  // addresses, upper-case hex, NUL bytes next to parameters, more parameters than slots.
  add("structured", [&](size_t i) {
    switch (rng() % 10) {
      case 0:
        return "/api/v1/users/" + std::to_string(rng() % 1000000) + "/orders";
      case 1:
        return "/static/js/app." + RandomHex(rng, 8) + ".js";
      case 2:
        return std::to_string(rng() % 224) + "." + std::to_string(rng() % 256) + "." +
               std::to_string(rng() % 256) + "." + std::to_string(rng() % 256);
      case 3:
        return "id=" + std::string(1, '0') + std::to_string(rng() % 100) +
               "&n=" + std::to_string(rng()) +
               std::to_string(rng() % 10);  // 0-padded; up to 21 digits
      case 4:
        return "trace " + RandomHex(rng, 1 + rng() % 40) + " 0" + RandomHex(rng, 15);
      case 5:
        return std::string("nul\0x", 5) + std::string(1, '\0') + std::to_string(i) +
               std::string(2, '\0');
      case 6: {
        std::string many;
        for (int k = 0; k < 20; k++) many += std::to_string(k) + ",";
        return many;
      }
      case 7:
        return std::string("ABCDEF0123456789 deadbeef cafe1234 9999999999999999999");
      case 8:
        return std::string("0 00 18446744073709551615 1234567890123456789");
      default:
        return std::string("no parameters here");
    }
  });
  add("few_distinct", [&](size_t) {
    const char* methods[] = {"GET", "POST", "PUT", "DELETE", "PATCH", ""};
    return std::string(methods[rng() % 6]);
  });
  add("runs", [&](size_t i) { return std::string("value-") + std::to_string(i / 50); });
  add("one_long", [&](size_t i) {
    return i == n / 2 ? std::string(100 * 1024, static_cast<char>('a' + i % 26)) : std::string("x");
  });
  return out;
}

inline std::vector<Dataset> DatasetsFor(PhysicalType type, size_t n, uint64_t seed) {
  switch (type) {
    case PhysicalType::kInt32:
      return IntDatasets<int32_t>(n, seed);
    case PhysicalType::kInt64:
      return IntDatasets<int64_t>(n, seed);
    case PhysicalType::kFloat32:
      return FloatDatasets<float>(n, seed);
    case PhysicalType::kFloat64:
      return FloatDatasets<double>(n, seed);
    case PhysicalType::kBytes:
      break;
  }
  return BytesDatasets(n, seed);
}

}  // namespace testing_util
}  // namespace columnar
