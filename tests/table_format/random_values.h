// Deterministic random typed values and schemas for the key-codec and row-codec property
// tests. Values lean on the edges: extremes, -0.0, NaN payloads of both signs, infinities,
// subnormals, empty strings and strings made of 0x00 / 0x01 / 0xFF bytes.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "table_format/schema.h"
#include "table_format/value.h"

namespace columnar {
namespace test {

inline constexpr LogicalType kAllLogicalTypes[] = {
    LogicalType::kBoolean, LogicalType::kInt,       LogicalType::kBigInt, LogicalType::kFloat,
    LogicalType::kDouble,  LogicalType::kTimestamp, LogicalType::kDate,   LogicalType::kText,
    LogicalType::kAscii,   LogicalType::kBlob,      LogicalType::kUuid,
};

class RandomValues {
 public:
  explicit RandomValues(uint64_t seed) : rng_(seed) {}

  std::mt19937_64& rng() { return rng_; }
  uint64_t Uniform(uint64_t n) { return rng_() % n; }
  bool OneIn(uint64_t n) { return Uniform(n) == 0; }

  LogicalType Type() { return kAllLogicalTypes[Uniform(std::size(kAllLogicalTypes))]; }

  Value Of(LogicalType type) {
    switch (type) {
      case LogicalType::kBoolean:
        return Value::Boolean(OneIn(2));
      case LogicalType::kInt:
        return Value::Int(static_cast<int32_t>(Integer(32)));
      case LogicalType::kDate:
        return Value::Date(static_cast<int32_t>(Integer(32)));
      case LogicalType::kBigInt:
        return Value::BigInt(static_cast<int64_t>(Integer(64)));
      case LogicalType::kTimestamp:
        return Value::Timestamp(static_cast<int64_t>(Integer(64)));
      case LogicalType::kFloat:
        return Value::FromFixedBits(type, FloatBits());
      case LogicalType::kDouble:
        return Value::FromFixedBits(type, DoubleBits());
      case LogicalType::kText:
      case LogicalType::kBlob:
        return Value::FromBytes(type, Bytes("\x00\x01\xff\xfe"
                                            "ab",
                                            6));
      case LogicalType::kAscii:
        return Value::FromBytes(type, Bytes("\x00\x01\x7f"
                                            "ab",
                                            5));
      case LogicalType::kUuid: {
        std::string bytes;
        for (int i = 0; i < 16; i++) bytes.push_back("\x00\x01\x80\xff"[Uniform(4)]);
        return Value::Uuid(bytes);
      }
    }
    return Value();
  }

  // A value or, one time in `null_one_in`, null.
  Value OrNull(LogicalType type, uint64_t null_one_in) {
    return OneIn(null_one_in) ? Value() : Of(type);
  }

 private:
  // A `bits`-wide pattern: an extreme, a small number, or anything.
  uint64_t Integer(int bits) {
    const uint64_t mask = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
    const uint64_t sign = uint64_t{1} << (bits - 1);
    const uint64_t edges[] = {0, 1, mask, sign, sign - 1, sign + 1, mask - 1};
    switch (Uniform(3)) {
      case 0:
        return edges[Uniform(std::size(edges))];
      case 1:
        return static_cast<uint64_t>(static_cast<int64_t>(Uniform(21)) - 10) & mask;
      default:
        return rng_() & mask;
    }
  }

  uint64_t FloatBits() {
    const uint32_t edges[] = {0x00000000, 0x80000000,              // +-0
                              0x7f800000, 0xff800000,              // +-inf
                              0x7fc00000, 0xffc00000,              // quiet NaNs
                              0x7f800001, 0xff800001, 0x7fffffff,  // signalling / max-payload NaNs
                              0xffffffff, 0x00000001, 0x80000001,  // smallest subnormals
                              0x007fffff, 0x00800000, 0x7f7fffff,
                              0xff7fffff, 0x3f800000, 0xbf800000};
    switch (Uniform(3)) {
      case 0:
        return edges[Uniform(std::size(edges))];
      case 1: {
        const float v = static_cast<float>(static_cast<int>(Uniform(2001)) - 1000) / 8.0f;
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        return bits;
      }
      default:
        return static_cast<uint32_t>(rng_());
    }
  }

  uint64_t DoubleBits() {
    const uint64_t edges[] = {0,
                              uint64_t{1} << 63,
                              0x7ff0000000000000,
                              0xfff0000000000000,
                              0x7ff8000000000000,
                              0xfff8000000000000,
                              0x7ff0000000000001,
                              0xfff0000000000001,
                              0x7fffffffffffffff,
                              UINT64_MAX,
                              1,
                              0x8000000000000001,
                              0x000fffffffffffff,
                              0x0010000000000000,
                              0x7fefffffffffffff,
                              0xffefffffffffffff,
                              0x3ff0000000000000};
    switch (Uniform(3)) {
      case 0:
        return edges[Uniform(std::size(edges))];
      case 1: {
        const double v = static_cast<double>(static_cast<int>(Uniform(2001)) - 1000) / 8.0;
        uint64_t bits;
        std::memcpy(&bits, &v, 8);
        return bits;
      }
      default:
        return rng_();
    }
  }

  std::string Bytes(const char* alphabet, size_t alphabet_size) {
    std::string out;
    const size_t length = Uniform(4) == 0 ? 0 : Uniform(9);
    for (size_t i = 0; i < length; i++) out.push_back(alphabet[Uniform(alphabet_size)]);
    return out;
  }

  std::mt19937_64 rng_;
};

// A random valid table: 1..3 partition columns, 0..3 clustering columns (random ASC/DESC),
// 0..`max_regular` regular columns, random types.
inline TableSchema RandomSchema(RandomValues* random, size_t max_regular) {
  TableSchemaBuilder builder("ks", "t");
  const size_t partition = 1 + random->Uniform(3);
  const size_t clustering = random->Uniform(4);
  const size_t regular = random->Uniform(max_regular + 1);
  std::vector<std::string> partition_names;
  for (size_t i = 0; i < partition + clustering + regular; i++) {
    const std::string name = "c" + std::to_string(i);
    builder.AddColumn(name, random->Type());
    if (i < partition) {
      partition_names.push_back(name);
    } else if (i < partition + clustering) {
      builder.AddClusteringColumn(
          name, random->OneIn(2) ? ClusteringOrder::kDesc : ClusteringOrder::kAsc);
    }
  }
  builder.SetPartitionKey(partition_names);
  TableSchema schema;
  Status s = builder.Build(&schema);
  (void)s;  // always valid by construction; callers check schema.partition_key()
  return schema;
}

}  // namespace test
}  // namespace columnar
