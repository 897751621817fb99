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
// them into the bits of the block's fields and codes at k, with the escapes' varints: their
// lengths grow at thresholds (2^(7m) + 16) << k, of more significant bits, which the histogram
// answers unless a value shares such a threshold's top 5 bits; only then a pass over the values
// counts them. Values and counts are exact integers; nothing is estimated.
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
    Add(z, len);
    Finish();
  }

  // Empties the histogram, to Add values again.
  void Reset() {
    std::memset(cells_, 0, sizeof(cells_));
    std::memset(wider_, 0, sizeof(wider_));
    len_ = 0;
    any_ = 0;
    least_ = static_cast<U>(~U{0});
    width_sum_ = 0;
  }

  // Counts z[0..len) more (at most kMaxValues values in all).
  void Add(const U* z, size_t len) {
    AddEach(len, [z](size_t i) { return z[i]; });
  }
  // Counts value_of(i) for i in 0..len (at most kMaxValues values in all), in the caller's pass.
  template <typename F>
  void AddEach(size_t len, F&& value_of) {
    // Locals: the counts' byte stores could alias the members.
    U any = any_;
    U least = least_;
    for (size_t i = 0; i < len; i++) {
      const U z = value_of(i);
      cells_[Cell(z)]++;
      any |= z;
      least = z < least ? z : least;
    }
    any_ = any;
    least_ = least;
    len_ += static_cast<uint32_t>(len);
  }
  void Add(U z) { Add(&z, 1); }

  // After the last Add, before the questions below.
  void Finish() {
    low_ = len_ == 0 ? 1 : BitWidth(least_);
    high_ = BitWidth(any_);
    // Suffix sums over the widths present: the cell of width w and bits t becomes the count of
    // width w whose 4 bits are >= t, and wider_[w] the count of widths above w. Below the narrowest
    // width wider_ is len_ (above the widest it stays 0), so that the questions need no range
    // checks.
    uint32_t wider = 0;
    for (int w = high_; w >= low_; w--) {
      wider_[w] = static_cast<uint8_t>(wider);
      const uint32_t count = SuffixSums(&cells_[w * 16]);
      width_sum_ += static_cast<uint64_t>(w) * count;
      wider += count;
    }
    std::memset(wider_, static_cast<int>(len_), static_cast<size_t>(low_));
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
    return Count(width, static_cast<int>((j << (5 - j_width)) & 15));
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
  // The same as summing AtLeast(j, k) over j, grouped by the thresholds' widths k + b: the j of
  // width b take the 4 bits t = (j << (5 - b)) & 15, e.g. j = 4..7 take t = 0, 4, 8, 12.
  Sums SumsFor(int k) const {
    const uint32_t j1 = Count(k + 1, 0);
    const uint32_t j2 = Count(k + 2, 0);
    const uint32_t j3 = Count(k + 2, 8);
    uint32_t j4_7 = 0;
    for (int t = 0; t < 16; t += 4) j4_7 += Count(k + 3, t);
    uint32_t j8_15 = 0;
    for (int t = 0; t < 16; t += 2) j8_15 += Count(k + 4, t);
    const uint32_t j16 = Count(k + 5, 0);
    const uint32_t j17_19 = Count(k + 5, 1) + Count(k + 5, 2) + Count(k + 5, 3);
    Sums sums;
    sums.unary = j1 + j2 + j3 + j4_7 + j8_15 + j16;
    sums.flat = j3 + j4_7 + j8_15 + j16 + j17_19;
    sums.escapes = j16;
    sums.flat_escapes = Count(k + 5, 3);
    return sums;
  }

  // The bits of rice_delta's fields and codes (rice_delta.cc) of the values z counted here, in
  // order, at parameter k: with unary quotients (bits[0]) and with two-bit flat fields
  // (bits[1]). An escaped code's varint holds q - 16 (unary) or q - 19 (flat): one byte while
  // q < 144, which holds for every value narrower than k + 8 bits; otherwise the varints'
  // lengths are counted from the histogram too (EscapeBytes), or, when it cannot tell, by a
  // pass over z.
  void CodeBits(const U* z, int k, uint64_t bits[2]) const {
    const Sums sums = SumsFor(k);
    bits[0] = len_ * static_cast<uint64_t>(k + 1) + sums.unary;
    bits[1] = len_ * static_cast<uint64_t>(k + 2) + sums.flat;
    if (sums.escapes == 0) return;
    uint64_t bytes[2] = {sums.escapes, sums.flat_escapes};
    if (high_ >= k + 8 && !EscapeBytes(k, bytes)) {
      bytes[0] = 0;
      bytes[1] = 0;
      for (uint32_t i = 0; i < len_; i++) {
        const U q = z[i] >> k;
        if (q >= 16) bytes[0] += static_cast<uint64_t>(VarintLength(q - 16));
        if (q >= 19) bytes[1] += static_cast<uint64_t>(VarintLength(q - 19));
      }
    }
    bits[0] += 8 * bytes[0];
    bits[1] += 8 * bytes[1];
  }

 private:
  // The leading zero bits of a nonzero v.
  static int LeadingZeros(U v) {
    if constexpr (sizeof(U) == 8) {
      return __builtin_clzll(v);
    } else {
      return __builtin_clz(v);
    }
  }

  // Widths of every threshold j << k asked about (j < 32, k <= kMaxParameter): 0..kWidth + 4.
  static constexpr int kRows = kWidth + 5;

  // The number of values of width above w, or of width w whose 4 bits are >= t (after Finish).
  uint32_t Count(int w, int t) const {
    return static_cast<uint32_t>(wider_[w]) + static_cast<uint32_t>(cells_[w * 16 + t]);
  }

  // Turns a row's counts into suffix sums (row[t] becomes the count at t or above) and returns
  // its total; 8 counts a word, shifted and added (no byte carries: a row totals at most
  // kMaxValues = 255).
  static uint32_t SuffixSums(uint8_t row[16]) {
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "row[t] is byte t of the words");
    uint64_t low;
    uint64_t high;
    std::memcpy(&low, row, 8);
    std::memcpy(&high, row + 8, 8);
    if ((low | high) == 0) return 0;
    for (int shift = 8; shift < 64; shift *= 2) {
      low += low >> shift;
      high += high >> shift;
    }
    low += (high & 0xff) * 0x0101010101010101u;  // every t < 8 also counts the row's t >= 8
    std::memcpy(row, &low, 8);
    std::memcpy(row + 8, &high, 8);
    return static_cast<uint32_t>(low & 0xff);
  }

  // The number of values z >= threshold (> 0), when the histogram tells it: false when some
  // value shares the threshold's width and 4 bits but not the bits below them.
  bool CountAtLeast(U threshold, uint32_t* count) const {
    const int width = BitWidth(threshold);
    const int below = width > 5 ? width - 5 : 0;  // the bits under the histogram's 5
    const int t =
        static_cast<int>((width >= 5 ? threshold >> below : threshold << (5 - width)) & 15);
    const uint32_t above = t < 15 ? Count(width, t + 1) : wider_[width];
    const uint32_t bucket = Count(width, t) - above;  // the values sharing those bits
    if ((threshold & ((U{1} << below) - 1)) == 0) {
      *count = above + bucket;
      return true;
    }
    *count = above;
    return bucket == 0;
  }

  // Adds to bytes[0] and bytes[1] the bytes beyond the first of the escaped codes' varints at
  // parameter k, unary (q - 16) and flat (q - 19): a varint of v has a byte more for each m >= 1
  // with v >= 2^(7m), so each m adds the count of z >= (2^(7m) + 16) << k (resp. + 19). False
  // (bytes left partly added) when the histogram cannot tell a count.
  bool EscapeBytes(int k, uint64_t bytes[2]) const {
    for (int m = 1; 7 * m + 1 + k <= high_; m++) {  // thresholds of k + 7m + 1 bits
      const U power = static_cast<U>(U{1} << (7 * m + k));
      for (int f = 0; f < 2; f++) {
        uint32_t count;
        if (!CountAtLeast(power + (static_cast<U>(f == 0 ? 16 : 19) << k), &count)) return false;
        bytes[f] += count;
      }
    }
    return true;
  }

  // z's cell: 16 a width, by the 4 bits below the leading one (zero-filled below z's width).
  // z shifted up to its leading one has 16 + those bits in its top 5 (0 for z = 0): added to
  // (width - 1) * 16, that is width * 16 + the bits.
  static size_t Cell(U z) {
    const int zeros = LeadingZeros(z | 1);
    return static_cast<size_t>(kWidth - 1 - zeros) * 16 +
           static_cast<size_t>(static_cast<U>(z << zeros) >> (kWidth - 5));
  }

  uint8_t cells_[kRows * 16];  // the counts by cell, then (Finish) their suffix sums by width
  uint8_t wider_[kRows];
  uint32_t len_;
  U any_;     // the values ORed
  U least_;   // the smallest value
  int low_;   // the narrowest width present (1 with no values, after Finish)
  int high_;  // the widest (0 with no values)
  uint64_t width_sum_;
};

}  // namespace columnar
