// front_coding: each string as the length of the prefix it shares with the previous string
// plus the rest (its suffix). Good for sorted or similar strings (paths, keys, URLs). Takes
// bytes.
//
// Byte layout (n values, n from the chunk header):
//
//   prefix lengths   PackedInts<uint32> (int_packing.h) of n values; the first is 0, and each
//                    is at most the length of the previous string
//   suffix lengths   PackedInts<uint32> of n values
//   suffixes         the n suffixes concatenated
#include "table_format/encodings/front_coding.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "table_format/encodings/byte_strings.h"
#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"

namespace columnar {

namespace {

constexpr const char* kName = "front_coding";

bool Supports(PhysicalType type) { return type == PhysicalType::kBytes; }

Status Encode(const ColumnVector& values, std::string* out) {
  const size_t n = values.size();
  std::vector<uint32_t> prefixes(n);
  std::vector<uint32_t> suffixes(n);
  Slice previous;
  size_t suffix_bytes = 0;
  for (size_t i = 0; i < n; i++) {
    const Slice v = values.GetBytes(i);
    prefixes[i] = static_cast<uint32_t>(SharedPrefixLength(previous, v));
    suffixes[i] = static_cast<uint32_t>(v.size() - prefixes[i]);
    suffix_bytes += suffixes[i];
    previous = v;
  }
  PackInts(prefixes.data(), n, out);
  PackInts(suffixes.data(), n, out);
  // The suffixes copied into room made once: an append per value was most of the encoding's
  // cost on short suffixes.
  const size_t start = out->size();
  out->resize(start + suffix_bytes);
  char* p = out->data() + start;
  for (size_t i = 0; i < n; i++) {
    if (suffixes[i] == 0) continue;
    std::memcpy(p, values.GetBytes(i).data() + prefixes[i], suffixes[i]);
    p += suffixes[i];
  }
  return Status::OK();
}

Status Decode(PhysicalType, const Slice& body, size_t count, ColumnVector* out) {
  Slice in = body;
  std::vector<uint32_t> prefixes(count);
  std::vector<uint32_t> suffix_ends(count);
  uint64_t total_bytes = 0;
  Status s =
      UnpackFrontCodingLengths(&in, count, prefixes.data(), suffix_ends.data(), &total_bytes);
  if (!s.ok()) return s;
  // Each string is its prefix, copied from the string before it, then its suffix.
  ByteStringWriter writer = out->AppendBytesWriter(count, total_bytes);
  ByteStringCursor cursor = writer.cursor();
  const char* readable_end = writer.readable_end();
  const char* previous = nullptr;
  const char* p = in.data();
  const char* end = in.data() + in.size();
  uint32_t suffix_start = 0;
  for (size_t i = 0; i < count; i++) {
    const uint32_t suffix = suffix_ends[i] - suffix_start;
    suffix_start = suffix_ends[i];
    char* current = cursor.Next(size_t{prefixes[i]} + suffix);
    if (prefixes[i] > 0) {
      ByteStringCursor::CopyBlock(current, previous, prefixes[i],
                                  static_cast<size_t>(readable_end - previous));
    }
    ByteStringCursor::CopyBlock(current + prefixes[i], p, suffix, static_cast<size_t>(end - p));
    p += suffix;
    previous = current;
  }
  return Status::OK();
}

}  // namespace

Status UnpackFrontCodingLengths(Slice* body, size_t count, uint32_t* prefixes,
                                uint32_t* suffix_ends, uint64_t* total_bytes) {
  Slice in = *body;
  Status s = UnpackInts(&in, count, prefixes, kName);
  if (s.ok()) s = UnpackInts(&in, count, suffix_ends, kName);
  if (!s.ok()) return s;
  // Every length is checked before anything sized or addressed by them is touched. The
  // suffix lengths become their running sum, exact while the 64-bit sum ends at the body's
  // size (each partial sum is then at most that size).
  uint64_t suffix_bytes = 0;
  uint64_t total = 0;
  uint64_t previous_length = 0;
  bool long_prefix = false;
  for (size_t i = 0; i < count; i++) {
    const uint64_t prefix = prefixes[i];
    const uint64_t suffix = suffix_ends[i];
    long_prefix |= prefix > previous_length;
    previous_length = prefix + suffix;
    suffix_bytes += suffix;
    suffix_ends[i] = static_cast<uint32_t>(suffix_bytes);
    total += previous_length;
  }
  if (long_prefix) {
    return EncodingCorruption(kName, "shared prefix longer than the previous string");
  }
  if (suffix_bytes != in.size()) {
    return EncodingCorruption(kName, "suffix lengths do not match the body");
  }
  if (total > kMaxDecodedBytes) return EncodingCorruption(kName, "strings too large");
  *body = in;
  *total_bytes = total;
  return Status::OK();
}

const Codec& FrontCodingCodec() {
  static const Codec codec{Encoding::kFrontCoding, kName, &Supports, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
