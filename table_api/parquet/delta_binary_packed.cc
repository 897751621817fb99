#include "table_api/parquet/delta_binary_packed.h"

#include <algorithm>

#include "table_format/varint.h"

namespace columnar {
namespace parquet {
namespace {

constexpr size_t kBlockValues = 128;
constexpr size_t kMiniblocks = 4;
constexpr size_t kMiniblockValues = kBlockValues / kMiniblocks;

uint64_t ZigZag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

// Values of `width_bits` as signed integers (int32 sign-extended).
int64_t Signed(uint64_t value, int width_bits) {
  return width_bits == 32 ? static_cast<int64_t>(static_cast<int32_t>(value))
                          : static_cast<int64_t>(value);
}

int BitWidth(uint64_t value) {
  int width = 0;
  while (value != 0) {
    width++;
    value >>= 1;
  }
  return width;
}

// `count` values of `width` bits (<= 64), LSB first, padded to whole bytes.
void AppendPacked(const uint64_t* values, size_t count, int width, std::string* out) {
  uint8_t byte = 0;
  int used = 0;
  for (size_t i = 0; i < count; i++) {
    for (int bit = 0; bit < width;) {
      const int take = std::min(width - bit, 8 - used);
      const uint64_t chunk = (values[i] >> bit) & ((uint64_t{1} << take) - 1);
      byte |= static_cast<uint8_t>(chunk << used);
      used += take;
      bit += take;
      if (used == 8) {
        out->push_back(static_cast<char>(byte));
        byte = 0;
        used = 0;
      }
    }
  }
  if (used > 0) out->push_back(static_cast<char>(byte));
}

}  // namespace

void AppendDeltaBinaryPacked(const uint64_t* values, size_t count, int width_bits,
                             std::string* out) {
  const uint64_t mask = width_bits == 32 ? 0xFFFFFFFFull : ~uint64_t{0};
  PutVarint64(out, kBlockValues);
  PutVarint64(out, kMiniblocks);
  PutVarint64(out, count);
  PutVarint64(out, ZigZag(count > 0 ? Signed(values[0] & mask, width_bits) : 0));
  uint64_t deltas[kBlockValues];
  for (size_t begin = 1; begin < count; begin += kBlockValues) {
    const size_t n = std::min(kBlockValues, count - begin);
    int64_t min_delta = 0;
    for (size_t i = 0; i < n; i++) {
      const int64_t delta = Signed((values[begin + i] - values[begin + i - 1]) & mask, width_bits);
      deltas[i] = static_cast<uint64_t>(delta);
      min_delta = i == 0 ? delta : std::min(min_delta, delta);
    }
    for (size_t i = 0; i < n; i++)
      deltas[i] = (deltas[i] - static_cast<uint64_t>(min_delta)) & mask;
    for (size_t i = n; i < kBlockValues; i++) deltas[i] = 0;
    PutVarint64(out, ZigZag(min_delta));
    const size_t used = (n + kMiniblockValues - 1) / kMiniblockValues;
    int widths[kMiniblocks] = {0, 0, 0, 0};
    for (size_t m = 0; m < used; m++) {
      uint64_t max = 0;
      for (size_t i = m * kMiniblockValues; i < (m + 1) * kMiniblockValues; i++) max |= deltas[i];
      widths[m] = BitWidth(max);
    }
    for (size_t m = 0; m < kMiniblocks; m++) out->push_back(static_cast<char>(widths[m]));
    for (size_t m = 0; m < used; m++) {
      AppendPacked(deltas + m * kMiniblockValues, kMiniblockValues, widths[m], out);
    }
  }
}

}  // namespace parquet
}  // namespace columnar
