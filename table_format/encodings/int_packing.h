// PackedInts: the frame-of-reference miniblock bit-packing shared by for, delta,
// delta_of_delta, float_delta, run lengths, string lengths and dictionary layouts
// (Parquet DELTA_BINARY_PACKED style, without the delta: callers apply their own transform).
//
// Values are unsigned integers U (uint32_t or uint64_t) whose bit patterns are read as signed
// (int32_t / int64_t) to find the reference, so wrapped differences such as
// INT64_MAX - INT64_MIN still pack (in 64 bits). The value count is not stored: the reader
// knows it.
//
// Byte layout, for n values:
//
//   for each block of kPackBlockValues = 1024 values (the last block may be shorter):
//     reference  zigzag varint   a signed value at most the block's minimum: the minimum, or
//                                with the uniform layout the value nearest zero that keeps
//                                the width, when its varint is shorter
//     layout     u8              0..bits(U): every miniblock of the block has this width
//                                0xFF: one width byte per miniblock follows
//     widths     u8 x miniblocks (only when layout = 0xFF), each 0..bits(U)
//     packed     the miniblocks of kPackMiniblockValues = 32 values (the last may be
//                shorter), value - reference (wrapping) bit-packed LSB-first at the
//                miniblock's width (bit_packing.h): PackedSize(values, width) bytes each.
//
// The encoder picks the cheaper of the two layouts per block, so a lone outlier costs only its
// own miniblock, and a regular block costs two or three header bytes (a width-0 block of
// equal values costs exactly its two header bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "table_format/types.h"
#include "table_format/varint.h"

namespace columnar {

inline constexpr size_t kPackBlockValues = 1024;
inline constexpr size_t kPackMiniblockValues = 32;
inline constexpr uint8_t kPerMiniblockLayout = 0xFF;

// A single value of U's width as a zigzag varint of its signed reading (first values of
// delta-style layouts). GetSignedVarint rejects values that do not fit in U's signed range.
template <typename U>
void PutSignedVarint(std::string* out, U bits) {
  PutVarint64(out, ZigZagEncode(static_cast<std::make_signed_t<U>>(bits)));
}
template <typename U>
bool GetSignedVarint(Slice* in, U* bits) {
  using S = std::make_signed_t<U>;
  uint64_t zigzag;
  if (!GetVarint64(in, &zigzag)) return false;
  const int64_t v = ZigZagDecode(zigzag);
  if (v < std::numeric_limits<S>::min() || v > std::numeric_limits<S>::max()) return false;
  *bits = static_cast<U>(static_cast<S>(v));
  return true;
}

// Bit-packs n values at `width` bits (bit_packing.h) into `out`, which must have
// PackedSize(n, width) bytes.
void PackWords(const uint32_t* values, size_t n, int width, char* out);
void PackWords(const uint64_t* values, size_t n, int width, char* out);

// Unpacks n (<= kPackBlockValues) values of `width` bits and adds `reference` to each
// (wrapping), in as few passes as the width allows.
void UnpackWithReference(const char* in, size_t n, int width, uint32_t reference, uint32_t* out);
void UnpackWithReference(const char* in, size_t n, int width, uint64_t reference, uint64_t* out);

// Appends the PackedInts layout of `values`.
template <typename U>
void PackInts(const U* values, size_t n, std::string* out);

// Reads n values written by PackInts from the front of *in and advances it. Returns
// Corruption naming `encoding` when the layout is malformed or truncated.
template <typename U>
Status UnpackInts(Slice* in, size_t n, U* out, const char* encoding);

// Values [begin, end) (begin <= end <= n) of the n values written by PackInts at the front of
// *in into out[0, end - begin), advancing *in past all n: each block's header is read and its
// length checked, but only the range's values are extracted (a point read's row or two).
template <typename U>
Status UnpackIntsRange(Slice* in, size_t n, size_t begin, size_t end, U* out, const char* encoding);

// The exact size PackInts would produce, computed without writing anything (the auto
// chooser sizes several transforms of a column this way).
template <typename U>
size_t PackedIntsSize(const U* values, size_t n);

}  // namespace columnar
