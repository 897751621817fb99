// RiceCodeCounts: the code lengths rice_delta's parameter search weighs (rice_delta.cc), for any
// Rice parameter k, from one pass over a block's zigzagged differences z.
//
// The search compares, for a few k, the bits of the unary quotients q = z >> k (capped, with
// escapes) and of their flat variant: sums of min(q, 16), of max(min(q, 19) - 2, 0) and the
// count of q >= 16. Each is a sum of counts of values at or above a threshold j << k with j < 32
// (min(q, c) = the number of j in 1..c with z >= j << k). Such a threshold has at most 5
// significant bits, so whether z reaches it depends only on z's bit width and the 4 bits below
// its leading one: a histogram of the block by (width, those 4 bits) answers every threshold of
// every k exactly, where evaluating a k directly costs a pass over the block. CodeBits turns
// them into the bits of the block's fields and codes at k (with the escapes' varints, which need
// a pass over the values only when some are 8 or more bits wider than k). Values and counts are
// exact integers; nothing is estimated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "table_format/bit_packing.h"
#include "table_format/varint.h"

namespace columnar {

template <typename U>
class RiceCodeCounts {
  static_assert(std::is_same_v<U, uint32_t> || std::is_same_v<U, uint64_t>);

 public:
  static constexpr int kWidth = static_cast<int>(sizeof(U) * 8);
  // The most values a histogram holds (its counts are bytes).
  static constexpr size_t kMaxValues = 255;
  // The largest k AtLeast and SumsFor take.
  static constexpr int kMaxParameter = kWidth - 1;

  RiceCodeCounts() { Reset(); }
  // The histogram of z[0..len), len <= kMaxValues.
  RiceCodeCounts(const U* z, size_t len) {
    Reset();
    for (size_t i = 0; i < len; i++) Add(z[i]);
    Finish();
  }

  // Empties the histogram, to Add values again.
  void Reset() {
    std::memset(rows_, 0, sizeof(rows_));
    len_ = 0;
    low_ = kWidth;
    high_ = 0;
    width_sum_ = 0;
  }

  // Counts one more value (at most kMaxValues in all).
  void Add(U z) {
    const int width = BitWidth(z);
    // The 4 bits below the leading one (zero-filled below the value's width).
    const U top = width >= 5 ? z >> (width - 5) : static_cast<U>(z << (5 - width));
    rows_[width][top & 15]++;
    width_sum_ += static_cast<uint64_t>(width);
    low_ = width < low_ ? width : low_;
    high_ = width > high_ ? width : high_;
    len_++;
  }

  // After the last Add, before the questions below.
  void Finish() {
    if (len_ == 0) {
      low_ = 1;
      high_ = 0;
    }
    // Suffix sums over the widths present: rows_[w][t] becomes the count of width w whose 4 bits
    // are >= t, and wider_[w] the count of widths above w.
    uint32_t wider = 0;
    for (int w = high_; w >= low_; w--) {
      for (int t = 14; t >= 0; t--) {
        rows_[w][t] = static_cast<uint8_t>(rows_[w][t] + rows_[w][t + 1]);
      }
      wider_[w] = static_cast<uint8_t>(wider);
      wider += rows_[w][0];
    }
  }

  // The widest value's bit width (0 with no values or only zeros).
  int widest() const { return high_; }

  // The sum of the values' bit widths.
  uint64_t width_sum() const { return width_sum_; }

  // The number of values z >= j << k (j in 1..31, k in 0..kMaxParameter; 0 when j << k does
  // not fit U).
  uint32_t AtLeast(uint32_t j, int k) const {
    const int j_width = BitWidth(j);
    const int width = j_width + k;  // the threshold's width
    if (width > high_) return 0;
    if (width < low_) return len_;
    return static_cast<uint32_t>(wider_[width]) + rows_[width][(j << (5 - j_width)) & 15];
  }

  // The sums rice_delta's search weighs for parameter k: sum of min(z >> k, 16) (unary), of
  // max(min(z >> k, 19) - 2, 0) (flat, two-bit fields), and the counts of z >> k >= 16 and
  // of z >> k >= 19 (the codes that escape, unary and flat).
  struct Sums {
    uint64_t unary = 0;
    uint64_t flat = 0;
    uint64_t escapes = 0;
    uint64_t flat_escapes = 0;
  };
  Sums SumsFor(int k) const {
    Sums sums;
    uint32_t at_least[20];
    for (uint32_t j = 1; j <= 19; j++) at_least[j] = AtLeast(j, k);
    for (uint32_t j = 1; j <= 16; j++) sums.unary += at_least[j];
    for (uint32_t j = 3; j <= 19; j++) sums.flat += at_least[j];
    sums.escapes = at_least[16];
    sums.flat_escapes = at_least[19];
    return sums;
  }

  // The bits of rice_delta's fields and codes (rice_delta.cc) of the values z counted here, in
  // order, at parameter k: with unary quotients (bits[0]) and with two-bit flat fields
  // (bits[1]). An escaped code's varint holds q - 16 (unary) or q - 19 (flat): one byte while
  // q < 144, which holds for every value narrower than k + 8 bits; otherwise a pass over z adds
  // the varints' lengths.
  void CodeBits(const U* z, int k, uint64_t bits[2]) const {
    const Sums sums = SumsFor(k);
    bits[0] = len_ * static_cast<uint64_t>(k + 1) + sums.unary;
    bits[1] = len_ * static_cast<uint64_t>(k + 2) + sums.flat;
    if (sums.escapes == 0) return;
    if (high_ < k + 8) {
      bits[0] += 8 * sums.escapes;
      bits[1] += 8 * sums.flat_escapes;
      return;
    }
    for (uint32_t i = 0; i < len_; i++) {
      const U q = z[i] >> k;
      if (q >= 16) bits[0] += 8 * static_cast<uint64_t>(VarintLength(q - 16));
      if (q >= 19) bits[1] += 8 * static_cast<uint64_t>(VarintLength(q - 19));
    }
  }

 private:
  uint8_t rows_[kWidth + 1][16];  // by width 0..kWidth, then the 4 bits below the leading one
  uint8_t wider_[kWidth + 1];     // valid for widths low_..high_
  uint32_t len_;
  int low_;   // the narrowest width present (1 with no values, after Finish)
  int high_;  // the widest (0 with no values)
  uint64_t width_sum_;
};

}  // namespace columnar
