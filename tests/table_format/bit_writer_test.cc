// BitWriter (table_format/encodings/bit_stream.h) hands its bits over eight bytes at a time, and
// ShortCodeWriter stores four at a time into room made up front: the stream must be the one
// written a bit at a time, LSB-first within each byte, the last byte padded with zero bits, also
// when it continues a byte already in the output (BitWriter) or follows other bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "table_format/encodings/bit_stream.h"

namespace columnar {
namespace {

// The reference: every bit on its own.
std::string BitByBit(const std::string& prefix, int used_bits,
                     const std::vector<std::pair<uint64_t, int>>& writes) {
  std::string out = prefix;
  size_t bit = out.size() * 8;
  if (used_bits > 0) {
    out.back() = static_cast<char>(static_cast<uint8_t>(out.back()) & ((1u << used_bits) - 1));
    bit = (out.size() - 1) * 8 + used_bits;
  }
  for (const auto& [bits, count] : writes) {
    for (int b = 0; b < count; b++, bit++) {
      if (bit / 8 == out.size()) out.push_back(0);
      if ((bits >> b) & 1) out[bit / 8] = static_cast<char>(out[bit / 8] | (1 << (bit % 8)));
    }
  }
  return out;
}

TEST(BitWriterTest, SameStreamAsBitByBit) {
  std::mt19937_64 rng(8);
  for (int round = 0; round < 2000; round++) {
    const std::string prefix = round % 3 == 0 ? std::string() : std::string("\xab\xcd", 2);
    const int used_bits = prefix.empty() ? 0 : static_cast<int>(rng() % 8);
    std::vector<std::pair<uint64_t, int>> writes(rng() % 40);
    for (auto& [bits, count] : writes) {
      bits = rng();  // bits above `count` must be ignored
      count = static_cast<int>(rng() % 65);
    }
    std::string out = prefix;
    BitWriter writer(&out, used_bits);
    for (const auto& [bits, count] : writes) writer.Write(bits, count);
    writer.Finish();
    ASSERT_EQ(out, BitByBit(prefix, used_bits, writes)) << "round " << round;
  }
}

TEST(ShortCodeWriterTest, SameStreamAsBitByBit) {
  std::mt19937_64 rng(9);
  for (int round = 0; round < 2000; round++) {
    const std::string prefix = round % 3 == 0 ? std::string() : std::string("\xab\xcd", 2);
    std::vector<std::pair<uint64_t, int>> writes(rng() % 200);
    size_t exact_bits = 0;
    for (auto& [bits, count] : writes) {
      count = static_cast<int>(rng() % 33);
      bits = count == 0 ? 0 : rng() >> (64 - count);
      exact_bits += static_cast<size_t>(count);
    }
    // The room announced: the exact bit count, or as the Huffman encoders do, count x the
    // longest code.
    const size_t max_bits = round % 2 == 0 ? exact_bits : 32 * writes.size();
    std::string out = prefix;
    ShortCodeWriter writer(&out, max_bits);
    for (const auto& [bits, count] : writes) writer.Write(static_cast<uint32_t>(bits), count);
    writer.Finish();
    ASSERT_EQ(out, BitByBit(prefix, 0, writes)) << "round " << round;
  }
}

}  // namespace
}  // namespace columnar
