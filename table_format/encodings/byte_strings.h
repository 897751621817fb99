// ByteStrings: the layout of a run of byte strings, used by plain (and through plain by the
// run values of rle and the entries of dictionary), plus string helpers shared with
// front_coding and the auto chooser.
//
// Byte layout, for n strings (n known to the reader):
//
//   lengths   PackedInts<uint32> (int_packing.h) of the n string lengths
//   data      the n strings concatenated, sum(lengths) bytes
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "table_format/column_vector.h"
#include "table_format/types.h"

namespace columnar {

// Appends the ByteStrings layout of every value of a bytes column (no nulls).
void PutByteStrings(const ColumnVector& values, std::string* out);

// Unpacks the n string lengths at the front of *in into lengths[], advancing *in to the
// strings, and their sum into *total; Corruption naming `encoding` when the layout is
// malformed or *in holds fewer than *total bytes after the lengths.
Status GetByteStringLengths(Slice* in, size_t n, uint32_t* lengths, uint64_t* total,
                            const char* encoding);

// Reads n strings from the front of *in, appends them to *out (a bytes column) and advances
// *in. Corruption naming `encoding` if the layout is malformed or truncated.
Status GetByteStrings(Slice* in, size_t n, ColumnVector* out, const char* encoding);

// Appends strings [begin, end) of the n strings at the front of *in to *out (a bytes column):
// the lengths are unpacked, only the range's bytes copied. The layout is
// checked as GetByteStrings checks it, and *in must hold nothing after the strings.
Status GetByteStringRange(Slice* in, size_t n, size_t begin, size_t end, ColumnVector* out,
                          const char* encoding);

// Strings of up to ByteStringCursor::kBlock bytes laid out in slots of that many bytes, for
// decoders that append them many times over (dictionary entries): each append is then one
// block copy, with no branch on the string's length.
class StringSlots {
 public:
  static constexpr size_t kMaxStrings = 4096;
  static constexpr size_t kSlot = ByteStringCursor::kBlock;
  // Lays out `strings` (a bytes column); false when there are more than kMaxStrings of them
  // or one is longer than a slot.
  bool Build(const ColumnVector& strings);
  // Appends string indices[i] for each of the n indices (each below the strings' count).
  void Append(const uint32_t* indices, size_t n, ByteStringCursor* strings) const {
    ByteStringCursor cursor = *strings;
    const char* slots = storage_.data() + count_;
    const auto* lengths = reinterpret_cast<const uint8_t*>(storage_.data());
    for (size_t i = 0; i < n; i++) {
      cursor.Append(slots + indices[i] * kSlot, lengths[indices[i]], kSlot);
    }
    *strings = cursor;
  }

 private:
  size_t count_ = 0;
  std::vector<char> storage_;  // the lengths (a byte each), then the slots
};

// The lengths of a bytes column.
std::vector<uint32_t> StringLengths(const ColumnVector& values);

// a == b, without a memcmp call for strings of up to 16 bytes: their first and last
// words (overlapping) compared at once.
inline bool SameBytes(const Slice& a, const Slice& b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char* p = a.data();
  const char* q = b.data();
  auto same_ends = [&](auto word) {
    constexpr size_t kWord = sizeof(word);
    decltype(word) x[2];
    decltype(word) y[2];
    std::memcpy(&x[0], p, kWord);
    std::memcpy(&x[1], p + n - kWord, kWord);
    std::memcpy(&y[0], q, kWord);
    std::memcpy(&y[1], q + n - kWord, kWord);
    return ((x[0] ^ y[0]) | (x[1] ^ y[1])) == 0;
  };
  if (n > 16) return std::memcmp(p, q, n) == 0;
  if (n >= 8) return same_ends(uint64_t{0});
  if (n >= 4) return same_ends(uint32_t{0});
  return n == 0 || (p[0] == q[0] && p[n / 2] == q[n / 2] && p[n - 1] == q[n - 1]);
}

// Length of the longest common prefix of a and b, compared 8 (or, for short strings, 4)
// bytes at a time; the last comparison overlaps the one before, so no byte loop runs for
// strings of 4 bytes or more.
inline size_t SharedPrefixLength(const Slice& a, const Slice& b) {
  const size_t limit = a.size() < b.size() ? a.size() : b.size();
  const char* p = a.data();
  const char* q = b.data();
  // Where the words at `at` first differ, or kSame; every byte before `at` is equal.
  constexpr size_t kSame = ~size_t{0};
  auto differ_at = [&](size_t at, auto word) {
    decltype(word) x;
    decltype(word) y;
    std::memcpy(&x, p + at, sizeof(x));
    std::memcpy(&y, q + at, sizeof(y));
    // Little-endian: the lowest set bit of x ^ y is in the first differing byte.
    return x == y ? kSame : at + static_cast<size_t>(__builtin_ctzll(x ^ y) / 8);
  };
  if (limit >= 8) {
    for (size_t i = 0; i + 8 <= limit; i += 8) {
      const size_t at = differ_at(i, uint64_t{0});
      if (at != kSame) return at;
    }
    const size_t at = differ_at(limit - 8, uint64_t{0});
    return at == kSame ? limit : at;
  }
  if (limit >= 4) {
    size_t at = differ_at(0, uint32_t{0});
    if (at == kSame) at = differ_at(limit - 4, uint32_t{0});
    return at == kSame ? limit : at;
  }
  size_t i = 0;
  while (i < limit && p[i] == q[i]) i++;
  return i;
}

}  // namespace columnar
