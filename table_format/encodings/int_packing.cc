// PackedInts (layout in int_packing.h).
#include "table_format/encodings/int_packing.h"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "table_format/bit_packing.h"
#include "table_format/encodings/bit_stream.h"
#include "table_format/encodings/codec.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr size_t kMinisPerBlock = kPackBlockValues / kPackMiniblockValues;

template <typename U>
constexpr int kBits = static_cast<int>(sizeof(U) * 8);

// How one block is written: its reference, and either one width or one per miniblock.
template <typename U>
struct BlockPlan {
  using S = std::make_signed_t<U>;
  S reference = 0;
  bool uniform = true;
  int uniform_width = 0;
  uint8_t widths[kMinisPerBlock] = {};
  size_t bytes = 0;
};

// A uniform block may take as its reference anything at most its minimum from which every
// value is less than 2^width above. The candidate nearest zero has the shortest varint; it
// replaces the minimum only when its varint is shorter (an exact-width block of values far
// from zero often admits 0).
template <typename U>
std::make_signed_t<U> ShortestReference(std::make_signed_t<U> min, std::make_signed_t<U> max,
                                        int width) {
  using S = std::make_signed_t<U>;
  if (min <= 0) return min;
  S nearest_zero = 0;
  if (width < kBits<U>) {
    const S lowest = max - static_cast<S>((U{1} << width) - 1);  // no overflow: max > 0
    nearest_zero = std::max<S>(lowest, 0);
  }
  return VarintLength(ZigZagEncode(nearest_zero)) < VarintLength(ZigZagEncode(min)) ? nearest_zero
                                                                                    : min;
}

template <typename U>
BlockPlan<U> PlanBlock(const std::make_signed_t<U>* mins, const std::make_signed_t<U>* maxs,
                       const uint8_t* lens, size_t minis) {
  BlockPlan<U> plan;
  plan.reference = *std::min_element(mins, mins + minis);
  size_t total = 0;
  size_t per_mini_bytes = minis;
  int max_width = 0;
  for (size_t k = 0; k < minis; k++) {
    const U range = static_cast<U>(maxs[k]) - static_cast<U>(plan.reference);
    const int width = BitWidth(range);
    plan.widths[k] = static_cast<uint8_t>(width);
    max_width = std::max(max_width, width);
    per_mini_bytes += PackedSize(lens[k], width);
    total += lens[k];
  }
  const size_t uniform_bytes = PackedSize(total, max_width);
  plan.uniform = uniform_bytes <= per_mini_bytes;
  plan.uniform_width = max_width;
  if (plan.uniform) {
    plan.reference =
        ShortestReference<U>(plan.reference, *std::max_element(maxs, maxs + minis), max_width);
  }
  plan.bytes = VarintLength(ZigZagEncode(plan.reference)) + 1 +
               (plan.uniform ? uniform_bytes : per_mini_bytes);
  return plan;
}

}  // namespace

namespace {

template <typename U>
size_t MiniblockRanges(const U* block, size_t len, std::make_signed_t<U>* mins,
                       std::make_signed_t<U>* maxs, uint8_t* lens) {
  using S = std::make_signed_t<U>;
  const size_t minis = (len + kPackMiniblockValues - 1) / kPackMiniblockValues;
  for (size_t k = 0; k < minis; k++) {
    const size_t begin = k * kPackMiniblockValues;
    const size_t end = std::min(len, begin + kPackMiniblockValues);
    S lo = static_cast<S>(block[begin]);
    S hi = lo;
    for (size_t i = begin + 1; i < end; i++) {
      const S v = static_cast<S>(block[i]);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    mins[k] = lo;
    maxs[k] = hi;
    lens[k] = static_cast<uint8_t>(end - begin);
  }
  return minis;
}

}  // namespace

template <typename U>
size_t PackedIntsSize(const U* values, size_t n) {
  using S = std::make_signed_t<U>;
  S mins[kMinisPerBlock];
  S maxs[kMinisPerBlock];
  uint8_t lens[kMinisPerBlock];
  size_t bytes = 0;
  for (size_t start = 0; start < n; start += kPackBlockValues) {
    const size_t len = std::min(kPackBlockValues, n - start);
    const size_t minis = MiniblockRanges(values + start, len, mins, maxs, lens);
    bytes += PlanBlock<U>(mins, maxs, lens, minis).bytes;
  }
  return bytes;
}

template <typename U>
void PackInts(const U* values, size_t n, std::string* out) {
  using S = std::make_signed_t<U>;
  S mins[kMinisPerBlock];
  S maxs[kMinisPerBlock];
  uint8_t lens[kMinisPerBlock];
  U shifted[kPackBlockValues];
  for (size_t start = 0; start < n; start += kPackBlockValues) {
    const size_t len = std::min(kPackBlockValues, n - start);
    const U* block = values + start;
    const size_t minis = MiniblockRanges(block, len, mins, maxs, lens);
    const BlockPlan<U> plan = PlanBlock<U>(mins, maxs, lens, minis);
    const U reference = static_cast<U>(plan.reference);
    for (size_t i = 0; i < len; i++) shifted[i] = block[i] - reference;

    PutVarint64(out, ZigZagEncode(plan.reference));
    if (plan.uniform) {
      out->push_back(static_cast<char>(plan.uniform_width));
      const size_t at = out->size();
      out->resize(at + PackedSize(len, plan.uniform_width));
      PackWords(shifted, len, plan.uniform_width, &(*out)[at]);
    } else {
      out->push_back(static_cast<char>(kPerMiniblockLayout));
      out->append(reinterpret_cast<const char*>(plan.widths), minis);
      for (size_t k = 0; k < minis; k++) {
        const int width = plan.widths[k];
        const size_t at = out->size();
        out->resize(at + PackedSize(lens[k], width));
        PackWords(shifted + k * kPackMiniblockValues, lens[k], width, &(*out)[at]);
      }
    }
  }
}

namespace {

// One block of PackedInts, its header read and checked against the bytes that follow.
template <typename U>
struct PackedBlock {
  U reference = 0;
  int uniform_width = -1;           // the width of every miniblock, or -1: widths[]
  const uint8_t* widths = nullptr;  // per miniblock, when uniform_width is -1
  const char* packed = nullptr;     // the packed values
  size_t minis = 0;
};

// Reads the header of the block of `len` values at the front of *in, checks that its packed
// values are there, and advances *in past the block.
template <typename U>
Status ReadPackedBlock(Slice* in, size_t len, PackedBlock<U>* block, const char* encoding) {
  using S = std::make_signed_t<U>;
  uint64_t zigzag;
  uint8_t layout;
  if (!GetVarint64(in, &zigzag) || !GetFixed8(in, &layout)) {
    return EncodingCorruption(encoding, "truncated packed-integer block header");
  }
  const int64_t wide_reference = ZigZagDecode(zigzag);
  if (wide_reference < std::numeric_limits<S>::min() ||
      wide_reference > std::numeric_limits<S>::max()) {
    return EncodingCorruption(encoding, "packed-integer reference out of range");
  }
  block->reference = static_cast<U>(static_cast<S>(wide_reference));
  block->minis = (len + kPackMiniblockValues - 1) / kPackMiniblockValues;
  size_t bytes;
  if (layout != kPerMiniblockLayout) {
    if (layout > kBits<U>) return EncodingCorruption(encoding, "bit width too large");
    block->uniform_width = layout;
    block->widths = nullptr;
    bytes = PackedSize(len, layout);
    if (in->size() < bytes) return EncodingCorruption(encoding, "truncated packed values");
    block->packed = in->data();
  } else {
    if (in->size() < block->minis) return EncodingCorruption(encoding, "truncated bit widths");
    block->uniform_width = -1;
    block->widths = reinterpret_cast<const uint8_t*>(in->data());
    bytes = block->minis;
    for (size_t k = 0; k < block->minis; k++) {
      if (block->widths[k] > kBits<U>) return EncodingCorruption(encoding, "bit width too large");
      const size_t mini_len = std::min(kPackMiniblockValues, len - k * kPackMiniblockValues);
      bytes += PackedSize(mini_len, block->widths[k]);
    }
    if (in->size() < bytes) return EncodingCorruption(encoding, "truncated packed values");
    block->packed = in->data() + block->minis;
  }
  in->remove_prefix(bytes);
  return Status::OK();
}

// Value `i` of a block: its `width` bits at bit `i * width` of `packed` (LSB-first), plus
// the reference. Reads only the bytes that hold it (ReadPackedBlock checked they are there).
template <typename U>
U PackedValue(const char* packed, size_t i, int width, U reference) {
  const size_t bit = i * static_cast<size_t>(width);
  const int shift = static_cast<int>(bit % 8);
  BitReader reader(Slice(packed + bit / 8, static_cast<size_t>(shift + width + 7) / 8));
  uint64_t skipped = 0;
  uint64_t value = 0;
  reader.Read(shift, &skipped);
  reader.Read(width, &value);
  return static_cast<U>(reference + static_cast<U>(value));
}

}  // namespace

template <typename U>
Status UnpackInts(Slice* in, size_t n, U* out, const char* encoding) {
  for (size_t start = 0; start < n; start += kPackBlockValues) {
    const size_t len = std::min(kPackBlockValues, n - start);
    PackedBlock<U> block;
    Status s = ReadPackedBlock(in, len, &block, encoding);
    if (!s.ok()) return s;
    if (block.uniform_width >= 0) {
      UnpackWithReference(block.packed, len, block.uniform_width, block.reference, out + start);
      continue;
    }
    const char* p = block.packed;
    for (size_t k = 0; k < block.minis; k++) {
      const size_t mini_len = std::min(kPackMiniblockValues, len - k * kPackMiniblockValues);
      UnpackWithReference(p, mini_len, block.widths[k], block.reference,
                          out + start + k * kPackMiniblockValues);
      p += PackedSize(mini_len, block.widths[k]);
    }
  }
  return Status::OK();
}

template <typename U>
Status UnpackIntsRange(Slice* in, size_t n, size_t begin, size_t end, U* out,
                       const char* encoding) {
  for (size_t start = 0; start < n; start += kPackBlockValues) {
    const size_t len = std::min(kPackBlockValues, n - start);
    PackedBlock<U> block;
    Status s = ReadPackedBlock(in, len, &block, encoding);
    if (!s.ok()) return s;
    const size_t first = std::max(begin, start);
    const size_t last = std::min(end, start + len);
    if (first >= last) continue;
    if (block.uniform_width >= 0) {
      for (size_t i = first; i < last; i++) {
        out[i - begin] = PackedValue(block.packed, i - start, block.uniform_width, block.reference);
      }
      continue;
    }
    // Per-miniblock widths: miniblock k starts after the packed bytes of those before it.
    const char* mini = block.packed;
    size_t k = 0;
    for (; (k + 1) * kPackMiniblockValues <= first - start; k++) {
      mini += PackedSize(kPackMiniblockValues, block.widths[k]);
    }
    for (size_t i = first; i < last; i++) {
      const size_t in_block = i - start;
      while (in_block >= (k + 1) * kPackMiniblockValues) {
        mini += PackedSize(kPackMiniblockValues, block.widths[k]);
        k++;
      }
      out[i - begin] =
          PackedValue(mini, in_block - k * kPackMiniblockValues, block.widths[k], block.reference);
    }
  }
  return Status::OK();
}

void PackWords(const uint32_t* v, size_t n, int width, char* out) { PackBits32(v, n, width, out); }
void PackWords(const uint64_t* v, size_t n, int width, char* out) { PackBits(v, n, width, out); }
// 64-bit values of at most 32 bits are unpacked narrow and widened while adding.
void UnpackWithReference(const char* in, size_t n, int width, uint32_t reference, uint32_t* out) {
  UnpackBits32(in, n, width, out);
  if (reference != 0) {
    for (size_t i = 0; i < n; i++) out[i] += reference;
  }
}
void UnpackWithReference(const char* in, size_t n, int width, uint64_t reference, uint64_t* out) {
  if (width <= 32) {
    uint32_t narrow[kPackBlockValues];
    UnpackBits32(in, n, width, narrow);
    for (size_t i = 0; i < n; i++) out[i] = reference + narrow[i];
    return;
  }
  UnpackBits(in, n, width, out);
  for (size_t i = 0; i < n; i++) out[i] += reference;
}

template void PackInts<uint32_t>(const uint32_t*, size_t, std::string*);
template void PackInts<uint64_t>(const uint64_t*, size_t, std::string*);
template Status UnpackInts<uint32_t>(Slice*, size_t, uint32_t*, const char*);
template Status UnpackInts<uint64_t>(Slice*, size_t, uint64_t*, const char*);
template Status UnpackIntsRange<uint32_t>(Slice*, size_t, size_t, size_t, uint32_t*, const char*);
template Status UnpackIntsRange<uint64_t>(Slice*, size_t, size_t, size_t, uint64_t*, const char*);
template size_t PackedIntsSize<uint32_t>(const uint32_t*, size_t);
template size_t PackedIntsSize<uint64_t>(const uint64_t*, size_t);

}  // namespace columnar
